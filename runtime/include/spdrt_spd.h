/* spdrt_spd.h: running spdgen --spd shaders (the single-pass downsampler) with libspdrt,
 * and their CPU reference. */
#ifndef SPDRT_SPD_H
#define SPDRT_SPD_H

#include "spdrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The binding contract every spdgen --spd shader follows (all targets, set 0):
 *   binding 0  source level 0, sampled image read with texelFetch (no sampler);
 *              2D, or 2D array with --array
 *   binding 1  array of `mips_bound` storage images, element i = mip level i+1 (one level,
 *              all layers), write-only, format = --format
 *   binding 2  storage buffer uint counters[layers], zeroed once at creation; the shader
 *              resets its slice's counter, so back-to-back dispatches need no host reset
 *   binding 3  storage buffer, the level-6 hand-off: channels x float per 64x64 tile,
 *              [layer][tile_y][tile_x], read by the last workgroup of each layer
 *   (--tile T < 64: a counter per block of each stage and the results of each stage,
 *   sized by spdrt_spd_buffer_bytes)
 *   binding 4  --sampler linear only: an immutable sampler, linear, clamp to edge, with
 *              unnormalized coordinates, or normalized ones (--sampler-coords normalized,
 *              implied by --array)
 *   push constants (32 bytes): uint src_width, src_height, mip_count, tile_count,
 *              tile_offset_x, tile_offset_y, tiles_per_workgroup, unused
 *   local size 256x1x1 (--tile 64; else --wg); grid (ceil(w/T), ceil(h/T), layers),
 *   tile_count = 0 and tile_offset = 0; with --tile 64 an update of a changed rectangle
 *   dispatches only the tiles over it (spdrt_spd_update_tiles) with tile_offset its first
 *   tile and tile_count their number (smaller tiles: no updates, every dispatch is whole)
 *   mip_count = min(mips_bound, floor(log2(max(w, h)))); 0 means there is nothing to do. */

/* A rectangle of texels (or of tiles): first column x, first row y, width x height. */
typedef struct {
    uint32_t x, y, width, height;
} spdrt_rect;

/* Tiles one SPD workgroup reduces (spdrt_spd_params.tiles_per_workgroup): at most, and
 * what 0 means for --tile 64 --tail loop shaders, fewer hand-offs for little lost parallelism
 * (the measurements: docs/runtime-defaults.md). */
#define SPDRT_MAX_TILES_PER_WORKGROUP 64u
#define SPDRT_DEFAULT_TILES_PER_WORKGROUP 2u
/* ... and 4 where level 0 of one layer holds at least SPDRT_LARGE_SOURCE_BYTES: longer
 * workgroups pay off once there are enough of them (docs/runtime-defaults.md). */
#define SPDRT_LARGE_SOURCE_TILES_PER_WORKGROUP 4u
#define SPDRT_LARGE_SOURCE_BYTES (32u << 20)
/* What 0 means for --tile 64 --tail hierarchy shaders: the fastest measured, and more than
 * one so that --fetch-ahead has a next tile to fetch (docs/runtime-defaults.md). */
#define SPDRT_DEFAULT_HIERARCHY_TILES_PER_WORKGROUP 4u

/* --edge: what happens to the last row/column of a level with an odd size. */
typedef enum {
    SPDRT_EDGE_DROP = 0,      /* left out (FidelityFX SPD's rule; the default) */
    SPDRT_EDGE_CONSERVATIVE,  /* min/max: the last texel also reduces it (up to 3x3) */
    SPDRT_EDGE_WEIGHTED       /* mean: nvpro_pyramid's 3-tap weights; may split dispatches
                                 (spd_passes.h) */
} spdrt_edge;

typedef struct {
    uint32_t width, height, layers; /* source size; layers = 1 without --array */
    int is_array;                   /* the shader was generated with --array */
    uint32_t mips_bound;            /* the shader's --mips: storage images it binds */
    uint32_t mips_total;            /* levels to make; more than mips_bound runs the chain in
                                       passes of mips_bound levels, pass p reading level
                                       p x mips_bound as its source (--max-mips-per-pass);
                                       0 = mips_bound, one pass */
    uint32_t subgroup;              /* the shader's --subgroup (0, 4, 8, ...): minimum size */
    uint32_t tile;                  /* the shader's --tile (2..64; 0 = 64): the grid is
                                       ceil(w/tile) x ceil(h/tile) x layers */
    int hierarchy;                  /* the shader was generated with --tail hierarchy: its
                                       chain continues through a hierarchy of counters (the
                                       buffers of spdrt_spd_buffer_bytes; no updates). Implied
                                       below --tile 64; 0 at 64 = --tail loop */
    spdrt_format format;            /* the shader's --format */
    uint32_t tiles_per_workgroup;   /* tiles each workgroup of a whole-image dispatch
                                       reduces, consecutive along its row (push constant
                                       tiles_per_workgroup; the grid's x is ceil(tiles x /
                                       it)), so the hand-off runs once per workgroup. 0 =
                                       SPDRT_DEFAULT_TILES_PER_WORKGROUP for --tile 64 --tail
                                       loop (SPDRT_LARGE_SOURCE_TILES_PER_WORKGROUP from
                                       SPDRT_LARGE_SOURCE_BYTES of level 0),
                                       SPDRT_DEFAULT_HIERARCHY_TILES_PER_WORKGROUP for
                                       --tile 64 --tail hierarchy, one for smaller tiles
                                       (all: one when a dispatch makes at most 6 levels);
                                       1 = one tile each (the
                                       grid of the contract). --tail hierarchy: a power of two
                                       up to --tile. Update dispatches always run one tile per
                                       workgroup */
    uint32_t dispatches;            /* back-to-back dispatches to record (>= 1) */
    float sentinel;                 /* every level is filled with this before dispatching */
    int sampler_linear;             /* the shader was generated with --sampler linear */
    int sampler_normalized;         /* ... with --sampler-coords normalized (implied by
                                       --array): the source must be a power of two in both
                                       sides; else texel coordinates, any size */
    spdrt_edge edge;                /* the shader's --edge (weighted plans its dispatches by
                                       spd_pass_end in spd_passes.h) */
    int refill_between_dispatches;  /* fill the levels with the sentinel (and the hand-off
                                       buffer with a large value) again before every dispatch
                                       after the first: each must rewrite every texel, its
                                       tail must run with no host counter reset, and must not
                                       start before every value it reads is published */
    /* Sub-rectangle update (optional). When update_source is not NULL, after the
     * `dispatches` full runs the texels of level 0 inside `update` (every layer) are
     * replaced by update_source's (laid out as source; only the rectangle is read), and one
     * more dispatch per pass covers only the tiles over it (spdrt_spd_update_tiles); the
     * levels read back are then those of the changed source. The other tiles' texels and
     * level-6 hand-off values are the full runs'. --tile 64 --tail loop shaders only:
     * spdrt_spd_run refuses an update otherwise (the hierarchy counts every tile of a block). */
    const float *update_source;
    spdrt_rect update;
    int refill_before_update;       /* fill the levels with the sentinel before the update:
                                       only the tiles it covers are rewritten (a test of the
                                       footprint; the result is then not the full chain) */
} spdrt_spd_params;

/* Levels read back after an SPD run, all converted to RGBA float. */
typedef struct {
    uint32_t mip_count;           /* levels 1..mip_count were produced */
    uint32_t width[16], height[16]; /* per level, [0] = source */
    float *level[16];             /* [k] = width[k] * height[k] * layers * 4 floats,
                                     layer-major then row-major; [0] = NULL */
    uint32_t layers;
    double gpu_ms;                /* GPU time of the last dispatch (timestamps), or < 0 */
    uint32_t counters_left;       /* counters not zero after the run: each tail resets the
                                     counter that elected it, so any other value means a
                                     tail ran early, twice or not at all */
} spdrt_spd_levels;

/* Runs an SPD shader: uploads `source` (width*height*layers RGBA floats, layer-major,
 * converted to `format`), fills levels 1..mip_count with the sentinel, records
 * `dispatches` dispatches with the barriers between them, waits, and reads every level
 * back into *out (free with spdrt_spd_levels_free). */
spdrt_result spdrt_spd_run(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                           const spdrt_spd_params *params, const float *source,
                           spdrt_spd_levels *out);
void spdrt_spd_levels_free(spdrt_spd_levels *levels);

/* mip_count for a source size and a shader's --mips (the contract above); with passes, the
 * levels of the whole chain for mips_total. */
uint32_t spdrt_spd_mip_count(uint32_t width, uint32_t height, uint32_t mips_bound);

/* The one mapping from a changed rectangle of level 0 to the workgroups an update dispatches,
 * for the pass that reads level `base` (p x mips_bound for pass p; 0 for one pass). Level
 * `base` texel (i, j) reduces exactly the 2^base x 2^base block of level 0 at (i, j) x
 * 2^base (the last odd row/column of a level is dropped, a one-texel edge repeats itself),
 * so the texels over the rectangle are its corners shifted right by `base`, clamped to the
 * level; the update dispatches the 64x64 tiles over those (--tile 64 only: the
 * hierarchy of smaller tiles counts every unit of a block). Writes the first tile and the
 * tile counts to *tiles (grid = tiles->width x tiles->height x layers, tile_offset =
 * (tiles->x, tiles->y), tile_count = width x height). The edge modes widen it: with
 * --edge conservative a workgroup near the right/bottom edge also reads the next tile's
 * source, so one more tile to the left and above; with --edge weighted a level-`base` texel
 * of an odd chain reaches one texel further left/up than the block, and a pass's first level
 * reads the first column/row of the next tile, so one more texel. Returns 0, or -1 for an
 * empty rectangle or one not inside the width x height source. */
int spdrt_spd_update_tiles(uint32_t width, uint32_t height, spdrt_rect rect, uint32_t base,
                           spdrt_edge edge, spdrt_rect *tiles);

/* Bytes of the counter buffer (binding 2) and the hand-off buffer (binding 3) an SPD shader
 * of --tile `tile` (0 = 64), --tail (`hierarchy` nonzero: --tail hierarchy, implied below 64)
 * and --mips `mips_bound` needs for a source: --tail loop, a counter per slice and one value
 * per 64x64 tile; the hierarchy, per slice the results of every stage but the last and a
 * counter per unit of every stage but the first (see the emitted contract). `channels` =
 * spdrt_format_channels of the format. */
void spdrt_spd_buffer_bytes(uint32_t tile, int hierarchy, uint32_t mips_bound, uint32_t width,
                            uint32_t height,
                            uint32_t layers, uint32_t channels, uint64_t *counter_bytes,
                            uint64_t *handoff_bytes);

/* ---- the CPU reference (runtime/spd/spd_ref.c, spd_compare.c) ---------------------------
 * One reference for --selftest, the benchmarks' spot checks and the tests. Definition:
 * level k has size max(1, w >> k) x max(1, h >> k) (Vulkan). Texel (x, y) of level k is
 *     reduce(P(2x, 2y), P(2x+1, 2y), P(2x, 2y+1), P(2x+1, 2y+1))
 * where P(i, j) reads level k-1 at (min(i, w_{k-1} - 1), min(j, h_{k-1} - 1)): the last
 * odd row/column of a level does not contribute (SPD's rule), and a level that is one
 * texel wide or high repeats its edge instead of reading outside (so a constant image stays
 * constant). The chain is computed in float without quantization; only the stored levels
 * are quantized to the storage format, exactly as the shader keeps its intermediate values
 * in registers and hands level 6 on through a float buffer. */

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

/* The stated bound for comparing a shader's output with this reference, an absolute error
 * |gpu - ref| for inputs in [0, 1] (scale it with the data's range otherwise):
 *   0 (bit-exact) for min, max, minmax and test-order on 32-bit formats;
 *   2^-20 for mean on 32-bit float formats (both sides add the same four floats in the same
 *     order; this leaves room for the device's rounding); relative to the data's range;
 *   one unit of the format for the 16-bit float formats, 2^-11 (an fp16 ulp in [0.5, 1);
 *     for smaller values it is several ulps of the value itself), and for rgba8, 1/255:
 *     Vulkan lets a store round either way (round to nearest or toward zero).
 * r32ui values pass through floats in this API: exact below 2^24. */
double spd_ref_bound(spd_op op, spdrt_format format);

/* What --sampler linear adds to a level's bound: one unit of the format for rgba8 (1/255)
 * and the 16-bit float formats (2^-11). A bilinear fetch at a block's centre is the 2x2
 * mean computed at the implementation's filtering precision; hardware filters of 8- and
 * 16-bit formats return it rounded to the format, either way (one unit; measured: up to
 * 1.25 units of rgba16f before this term, with stores that round toward zero), and each
 * later level averages such errors rather than adding them, so it is one unit at every
 * level. The 32-bit float formats filter at fp32 precision: 0, well inside 2^-20. */
double spd_ref_filter_bound(spdrt_format format);

/* The bound for level `level` of a shader generated with --half (fp16 math) when `half`
 * and --sampler linear when `sampler_linear`: the arithmetic's part plus
 * spd_ref_filter_bound with the sampler.
 * Arithmetic: with --half the per-level fp16 bound, else spd_ref_bound(op, format). Inputs in
 * [0, 1); u = 2^-11 (half an fp16 ulp in [1, 2)). min/max/minmax: 0, min and max of halves
 * are exact. mean: each level's fp16 sums (a + b) <= 2, (+ c) <= 3, (+ d) <= 4 round by at
 * most u, 2u, 2u, and x 0.25 is exact, so a level adds at most 5u/4 to the error of the level
 * before (an average does not grow it); the reference's own rounding of its stored value adds
 * u/2: (5k + 2)/4 x u at level k. test-order: partial sums <= 0.75, 0.875, 1 round by u/2,
 * u/2, u (products by powers of two are exact): (4k + 1)/2 x u. */
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

#ifdef __cplusplus
}
#endif
#endif
