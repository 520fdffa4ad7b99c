/* spdrt_fft.h: running spdgen --fft shaders with libspdrt, and their double-precision
 * reference.
 *
 * The binding contract every spdgen --fft shader follows (all targets, set 0):
 *   binding 0  src, read-only storage buffer: the input
 *   binding 1  dst, write-only storage buffer: the output (a different buffer)
 *   binding 2  twiddle_lut (only with --twiddles lut): N/2 float2, exp(-2 pi i k / N)
 *   push constants (16 bytes): uint count, in_stride, out_stride, unused
 *   local size W x 1 x 1 (C x W with C columns in lanes: FFT_COLUMNS_IN_LANES); grid (count, 1, 1),
 *   or ceil(count / columns) with --stride, a plan's passes or --rows-per-wg
 * Elements: complex = float2 (x, y), or with --storage f16 one uint holding two IEEE halves
 * (x low); real samples (--real) = float, or with f16 halves two per uint. Layouts:
 *   rows (default)  FFT b is row b: element j at b * in_stride + j (strides in elements)
 *   --stride        FFT c is column c: element j at c + j * in_stride
 *   --real forward  FFT b reads real rows 2b, 2b+1 (x, y; row r at r * in_stride samples)
 *                   and writes half spectra rows 2b, 2b+1 (X, Y: N/2 complex each, element 0
 *                   packing the real X[0], X[N/2]); --real inverse does the reverse.
 *   --order native  forward output / inverse input element j holds X[bitreverse(j)].
 * On the host every buffer is handled as floats (a complex is two); the runtime converts
 * to halves for f16 storage. */
#ifndef SPDRT_FFT_H
#define SPDRT_FFT_H

#include "spdrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SPDRT_FFT_NORM_INVERSE, SPDRT_FFT_NORM_NONE, SPDRT_FFT_NORM_UNITARY } spdrt_fft_norm;

/* What a shader was generated with (its contract). */
typedef struct {
    uint32_t n;             /* --fft N */
    uint32_t wg;            /* the local size (FFT_WORKGROUP_SIZE_X): --wg W, or C x W with
                               the columns in lanes */
    uint32_t subgroup;      /* --subgroup S: 0, or the subgroup size the shuffles assume */
    uint32_t columns;       /* FFTs per workgroup, the contract's COLUMNS_PER_WORKGROUP:
                               neighbouring columns (--stride), consecutive rows
                               (--rows-per-wg); 0 = 1 */
    uint32_t shared_bytes;  /* the contract's shared memory */
    int inverse;            /* --direction inverse */
    int native;             /* --order native */
    int real;               /* --real */
    int strided;            /* --stride */
    int f16;                /* --storage f16 */
    int lut;                /* --twiddles lut: the runtime fills binding 2 */
    spdrt_fft_norm norm;    /* --norm */
    uint32_t bluestein_m;   /* a Bluestein shader's FFT_BLUESTEIN_M (N with a prime factor
                               above 31): the runtime fills bindings 2 and 3
                               (spdrt_fft_bluestein_tables); 0 otherwise */
    uint32_t rader_root;    /* a Rader shader's FFT_RADER_ROOT (a prime N above 31 whose N - 1
                               is smooth): the runtime fills binding 2 with the kernel spectrum
                               (spdrt_fft_rader_tables); 0 otherwise */
} spdrt_fft_config;

typedef struct {
    uint32_t count;         /* FFTs: rows, pairs of real rows, or columns */
    uint32_t in_stride;     /* 0 = packed: N (rows), N/2 (half spectra), count (columns);
                               else at least that (runs refuse a smaller one) */
    uint32_t out_stride;    /* the same for the output */
    uint32_t dispatches;    /* back-to-back dispatches (>= 1); 0 counts as 1 */
} spdrt_fft_params;

typedef struct spdrt_fft_pipeline spdrt_fft_pipeline;

/* Builds the pipeline of one shader (descriptor layout, required subgroup size and full
 * subgroups where the shader needs them, the twiddle table for --twiddles lut). Reuse it
 * for many runs; destroy it before the context. */
spdrt_result spdrt_fft_pipeline_create(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                                       const spdrt_fft_config *config, spdrt_fft_pipeline **out);
void spdrt_fft_pipeline_destroy(spdrt_context *ctx, spdrt_fft_pipeline *pipeline);

/* The strides a run uses: params' own, or where 0 the packed ones (N, or N/2 for half
 * spectra, for rows; count for columns), in elements of each buffer. */
void spdrt_fft_strides(const spdrt_fft_config *config, const spdrt_fft_params *params,
                       uint32_t *in_stride, uint32_t *out_stride);
/* Floats in the host arrays for one run: the input and the output buffer contents. */
size_t spdrt_fft_input_floats(const spdrt_fft_config *config, const spdrt_fft_params *params);
size_t spdrt_fft_output_floats(const spdrt_fft_config *config, const spdrt_fft_params *params);

/* Uploads `input` (spdrt_fft_input_floats), fills the output buffer with NaN, records the
 * dispatches, waits and reads the output back into `output` (spdrt_fft_output_floats).
 * Elements the shader never writes read back as NaN. *gpu_ms (if given) is the GPU time of
 * the last dispatch from timestamps, or < 0 without timestamps. */
spdrt_result spdrt_fft_run(spdrt_context *ctx, spdrt_fft_pipeline *pipeline,
                           const spdrt_fft_params *params, const float *input, float *output,
                           double *gpu_ms);

/* ---- four-step plans (runtime/fft_plan.c) ---------------------------------------------
 * spdgen --fft N with N longer than one dispatch holds emits two shaders and a plan file
 * (NAME.fftplan): pass 1 runs N2 column FFTs of N1 points per transform (the transform read
 * as an N1 x N2 matrix) and multiplies by the four-step twiddles into a scratch buffer of
 * N fp32 complex values per transform; pass 2 runs N1 column FFTs of N2 points of the
 * scratch into the output, in natural order. The input and output follow the row contract
 * above (count transforms, in_stride / out_stride between them). Bluestein's plans (N with a
 * prime factor above 31 whose M is beyond one dispatch: whole.bluestein_m = M) have three
 * passes over M = M1 x M2 (ffts_per_transform = M / n): the chirp product and the M1-point
 * FFTs; the M2-point FFTs, the product with the kernel's spectrum and the inverse M2-point
 * FFTs; the inverse M1-point FFTs and the chirp product. The plan fills the tables. */

typedef struct {
    const uint32_t *spirv;      /* the pass's SPIR-V */
    size_t spirv_words;
    uint32_t n, wg, subgroup;   /* its FFT length, local size, the subgroup its shuffles need */
    uint32_t columns;           /* columns per workgroup (its contract) */
    uint32_t shared_bytes;      /* its contract's shared memory */
    uint32_t ffts_per_transform; /* its FFTs per N-point transform: N / n (Bluestein: M / n) */
} spdrt_fft_pass;

typedef struct spdrt_fft_plan spdrt_fft_plan;

/* A plan from its passes (SPIR-V copied); `whole` describes the transform (n = N, inverse,
 * norm, f16, bluestein_m; no real, native, strided or lut); count 2, or 3 for Bluestein's. */
spdrt_result spdrt_fft_plan_create(spdrt_context *ctx, const spdrt_fft_config *whole,
                                   const spdrt_fft_pass *passes, uint32_t count,
                                   spdrt_fft_plan **out);
/* A plan from the plan file spdgen wrote with --target spirv (the pass files it names are
 * read from the plan file's directory). */
spdrt_result spdrt_fft_plan_load(spdrt_context *ctx, const char *path, spdrt_fft_plan **out);
/* The transform the plan computes, for spdrt_fft_input_floats, _output_floats, _reference. */
const spdrt_fft_config *spdrt_fft_plan_config(const spdrt_fft_plan *plan);
/* As spdrt_fft_run, for `count` transforms (rows); *gpu_ms covers every pass. */
spdrt_result spdrt_fft_plan_run(spdrt_context *ctx, spdrt_fft_plan *plan, const spdrt_fft_params *params,
                                const float *input, float *output, double *gpu_ms);
void spdrt_fft_plan_destroy(spdrt_context *ctx, spdrt_fft_plan *plan);

/* ---- the reference (runtime/fft_ref.c) ------------------------------------------------ */

/* The output buffer the shader must produce for `input`, in double: the transforms computed
 * by an iterative radix-2 FFT in double with twiddles from the integer angle (other lengths:
 * spdrt_fft_ref_any), f16 inputs rounded to half first, scaled by the norm, placed as the
 * contract says. Elements of the
 * output array the shader does not write (stride gaps) are 0. Returns 0, or -1 when out of
 * memory or when a stride is neither 0 nor at least a row (--stride: count). */
int spdrt_fft_reference(const spdrt_fft_config *config, const spdrt_fft_params *params,
                        const float *input, double *expected);

/* In-place FFT of n complex doubles (interleaved), n a power of two; sign -1 forward. */
void spdrt_fft_ref_transform(double *data, size_t n, int sign);
/* The same for any n >= 1: powers of two as above, n <= 2048 the direct O(n^2) sum, larger n
 * Bluestein's chirp-z in double over the radix-2 FFT (runtime/fft/fft_ref_any.c). 0, or -1
 * when out of memory. spdrt_fft_ref_direct is the direct sum for any n, for checks. */
int spdrt_fft_ref_any(double *data, size_t n, int sign);
int spdrt_fft_ref_direct(double *data, size_t n, int sign);

/* A Bluestein shader's tables (bindings 2 and 3), computed in double and rounded to float:
 * chirp[j] = exp(s pi i (j^2 mod 2n) / n), j < n (2n floats), s = -1 forward, +1 inverse;
 * spectrum = the m-point forward FFT of b (b[j] = conj chirp[j] for |j| < n, mod m, zero
 * elsewhere) divided by m (2m floats). m is FFT_BLUESTEIN_M >= 2n - 1: the power of two or,
 * for one shader, a smooth length 2^a 3^b 5^c 7^d (spdgen --bluestein-m). 0, or -1 for m <
 * 2n - 1 or when out of memory. */
int spdrt_fft_bluestein_tables(uint32_t n, uint32_t m, int inverse, float *chirp, float *spectrum);

/* A Rader shader's table (binding 2), computed in double and rounded to float: with g = root (a
 * primitive root mod the prime n) and L = n - 1, the L-point forward FFT of b[p] = exp(s 2 pi i
 * (g^-p mod n) / n), p < L, divided by L (2L floats), s = -1 forward, +1 inverse. 0, or -1 when
 * n is not prime, root is not a primitive root mod n, or out of memory. */
int spdrt_fft_rader_tables(uint32_t n, uint32_t root, int inverse, float *spectrum);

/* bitreverse(k) over log2(n) bits: where --order native puts frequency k (and, the map being
 * an involution, which frequency element k holds). */
uint32_t spdrt_fft_native_index(uint32_t k, uint32_t n);

/* The accuracy bars (README), against the reference on data in [-1, 1]: fp32 storage, and
 * fp16 storage, where rounding the output to half (1 ulp = 2^-10 relative; some devices
 * round toward zero) dominates. */
#define SPDRT_FFT_BOUND_REL_L2 4e-7
#define SPDRT_FFT_BOUND_MAX_REL 2e-6
#define SPDRT_FFT_BOUND_F16_REL_L2 1e-3
#define SPDRT_FFT_BOUND_F16_MAX_REL 2e-3
/* Bluestein shaders (N with a prime factor above 31): relative L2, against the same
 * reference (issue 27; VkFFT's measured envelope for that path is about 1.4e-6). */
#define SPDRT_FFT_BOUND_BLUESTEIN_REL_L2 1.5e-6

typedef struct {
    double rel_l2;          /* sqrt(sum |got - ref|^2 / sum |ref|^2) */
    double max_rel;         /* max |got - ref| / max |ref| */
    double max_abs;         /* max |got - ref| */
    size_t non_finite;      /* values that are NaN or infinite (never written, or overflow) */
} spdrt_fft_error;

/* Error of `count` floats against the reference; with complex_values, pairs of floats are
 * complex values and |.| is their modulus. Non-finite values are counted, not summed. */
void spdrt_fft_compare(const float *got, const double *ref, size_t count, int complex_values,
                       spdrt_fft_error *err);

#ifdef __cplusplus
}
#endif
#endif
