/* spd_ref.h: the CPU reference of the single-pass downsampler.
 *
 * One reference for --selftest, the benchmarks' spot checks and the tests. Definition:
 * level k has size max(1, w >> k) x max(1, h >> k) (Vulkan). Texel (x, y) of level k is
 *     reduce(P(2x, 2y), P(2x+1, 2y), P(2x, 2y+1), P(2x+1, 2y+1))
 * where P(i, j) reads level k-1 at (min(i, w_{k-1} - 1), min(j, h_{k-1} - 1)): the last
 * odd row/column of a level does not contribute (SPD's rule), and a level that is one
 * texel wide or high repeats its edge instead of reading outside (so a constant image stays
 * constant). The chain is computed in float without quantization; only the stored levels
 * are quantized to the storage format, exactly as the shader keeps its intermediate values
 * in registers and hands level 6 on through a float buffer. */
#ifndef SPD_REF_H
#define SPD_REF_H

#include <stddef.h>
#include <stdint.h>
#include "spdrt.h"

typedef enum {
    SPD_OP_MIN,
    SPD_OP_MAX,
    SPD_OP_MEAN,       /* ((a + b) + c) + d, times 0.25 */
    SPD_OP_TEST_ORDER, /* test only: ((0.5a + 0.25b) + 0.125c) + 0.125d, proves the 2x2 order */
    SPD_OP_MINMAX,     /* channel 0 of the source -> (min, max) in channels 0 and 1 */
    SPD_OP_SRGB_MEAN   /* mean of linear light: colour channels decoded from sRGB at level 0,
                          encoded again when stored; alpha is linear */
} spd_op;

/* The op spdgen's --op NAME names; returns 0, or -1 for an unknown name. */
int spd_ref_op_by_name(const char *name, spd_op *out);

/* The sRGB transfer functions (IEC 61966-2-1), as the shaders spell them. */
float spd_ref_srgb_decode(float c);
float spd_ref_srgb_encode(float l);

/* reduce(a, b, c, d) on one float, in the exact order the shaders evaluate it. a = top
 * left, b = top right, c = bottom left, d = bottom right. */
float spd_ref_reduce(spd_op op, float a, float b, float c, float d);

/* Quantizes a value to what `format` stores and reads back (r32f/rgba32f: identity;
 * rgba16f: round to nearest even half; rgba8: clamp to [0, 1], round to nearest of 255). */
float spd_ref_quantize(spdrt_format format, float value);

/* Computes levels 1..mip_count of a width x height x layers RGBA float source (layer-major,
 * row-major) into out->level[k], with out->width/height filled as spdrt_spd_levels does.
 * Stored values are quantized to `format`. The source is level 0 as stored in `format`
 * too (quantized first, as spdrt_spd_run uploads it); r32f levels read (r, 0, 0, 1), as
 * spdrt_spd_run reads them back. Returns 0, or -1 if memory ran out or the arguments are
 * unusable (empty source, mip_count > 15). Free with spdrt_spd_levels_free. */
int spd_ref_run(spd_op op, spdrt_format format, uint32_t width, uint32_t height,
                uint32_t layers, uint32_t mip_count, const float *source,
                spdrt_spd_levels *out);

/* spd_ref_run for an --edge mode (spdrt_edge), and for a chain split into dispatches:
 * mips_per_pass (0: one dispatch) is the shader's levels per dispatch, planned by
 * spd_pass_end (spd_passes.h), and every dispatch after the first starts from its source
 * level as stored in `format`, as the shader reads it.
 *   conservative (min, max, minmax): where level k-1 has an odd width w >= 3, the last
 *     texel of level k also reduces column 2x+2 = w-1 (rows likewise; up to 3x3 at the
 *     corner), so texel x covers level-0 columns [x 2^k, (x+1) 2^k - 1], the last one
 *     [x 2^k, w0 - 1]: every texel bounds its whole footprint.
 *   weighted (mean, srgb-mean): where level k-1 has an odd side of 3 or more, each texel is
 *     the separable 3-tap sum of nvpro_pyramid (see axis_taps in spd_ref.c; even axes 1/2,
 *     1/2, one-texel axes a copy); levels with no such side keep the 2x2 rule. Every level
 *     keeps the mean of level 0. */
int spd_ref_run_edge(spd_op op, spdrt_edge edge, spdrt_format format, uint32_t width,
                     uint32_t height, uint32_t layers, uint32_t mip_count,
                     uint32_t mips_per_pass, const float *source, spdrt_spd_levels *out);

/* The stated bound for comparing a shader's output with this reference: 0 (bit-exact) for
 * min, max and test-order on 32-bit formats; 2^-20 for mean (both sides add the same four
 * floats in the same order; this leaves room for the device's rounding); one unit of the
 * format for the 16-bit float formats (2^-11 below 1.0) and rgba8 (1/255), whose stores
 * Vulkan lets round either way. Inputs are assumed in [0, 1). */
double spd_ref_bound(spd_op op, spdrt_format format);

/* The bound for level `level` of a shader generated with --half (fp16 math) when `half`
 * and --sampler linear when `sampler_linear`.
 * Arithmetic: with --half the per-level fp16 bound, else spd_ref_bound(op, format). Inputs in
 * [0, 1); u = 2^-11 (half an fp16 ulp in [1, 2)). min/max/minmax: 0, min and max of halves
 * are exact. mean: each level's fp16 sums (a + b) <= 2, (+ c) <= 3, (+ d) <= 4 round by at
 * most u, 2u, 2u, and x 0.25 is exact, so a level adds at most 5u/4 to the error of the level
 * before (an average does not grow it); the reference's own rounding of its stored value adds
 * u/2: (5k + 2)/4 x u at level k. test-order: partial sums <= 0.75, 0.875, 1 round by u/2,
 * u/2, u (products by powers of two are exact): (4k + 1)/2 x u.
 * --sampler linear adds one unit (1/255) for rgba8: filtering precision is the
 * implementation's, and an UNORM8 bilinear fetch may come back in 8-bit fixed point (off
 * the exact 2x2 mean by less than 2 units before the store's rounding, if it rounds each of
 * its lerps), and each later level averages such errors rather than adding them. Measured,
 * not derived from a specification: 2 units at level 2 and 1 elsewhere on lavapipe (60 seeds
 * and sizes), within 1 on an H200.
 * The float formats filter exactly at a block's centre (weights 1/4): nothing added. */
double spd_ref_bound_level(spd_op op, spdrt_format format, int half, int sampler_linear,
                           uint32_t level);

/* The --edge NAME spdgen names; returns 0, or -1 for an unknown name. */
int spd_ref_edge_by_name(const char *name, spdrt_edge *out);

/* `bound` (a level's bound within one dispatch) for a level made by dispatch `dispatch`
 * (0-based) of a chain split into dispatches (spd_pass_end): each later dispatch starts from
 * a level the device rounded to the format, either way (one unit), while the reference
 * rounds to nearest; a mean of values each off by e is off by at most e, so the error can
 * grow by one unit per dispatch: bound x (1 + dispatch) for the 8/16-bit formats, bound for
 * 32-bit ones (their levels are re-read exactly). */
double spd_ref_level_bound(spdrt_format format, double bound, uint32_t dispatch);

/* The dispatch (0-based) that makes `level` of a width x height chain of mip_count levels,
 * mips_per_pass levels per dispatch at most, as spd_pass_end plans it (edge: the shader's). */
uint32_t spd_ref_dispatch_of_level(uint32_t width, uint32_t height, uint32_t level,
                                   uint32_t mip_count, uint32_t mips_per_pass, spdrt_edge edge);

typedef struct {
    double max_error;  /* largest |gpu - expected| */
    size_t mismatches; /* values outside the bound */
    size_t sentinels;  /* values equal to the sentinel: texels the shader never wrote */
    char first[200];   /* where the first mismatch is, with both values */
} spd_ref_comparison;

/* Compares the first `channels` channels of every texel of level k (all layers) of `gpu`
 * with `ref`, or with *constant when constant is not NULL, and adds to *c (zero it first).
 * bound 0 compares bits. */
void spd_ref_compare_level(const spdrt_spd_levels *gpu, const spdrt_spd_levels *ref,
                           uint32_t level, uint32_t channels, double bound,
                           const float *constant, float sentinel, spd_ref_comparison *c);

#endif
