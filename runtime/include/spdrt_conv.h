/* spdrt_conv.h: running an spdgen --conv job (an image convolved with a PSF through FFTs)
 * with libspdrt, and its references.
 *
 * spdgen --conv ... --target spirv -o NAME.spv writes six modules (five with --spectrum
 * exact) and NAME.convplan; the plan says what they were generated for. spdrt_conv_load builds the pipelines and the
 * buffers between the passes (sized for the largest image and PSF), spdrt_conv_set_kernel
 * computes a PSF's spectrum on the device and keeps it, spdrt_conv_run convolves images with
 * it: the runtime allocates the input and output images (or buffers) for each run.
 *
 * Host arrays are floats, rows packed, pixel (x, y) at (y * width + x) * F: F = 4 (RGBA) for
 * an image input or output, F = channels for a buffer, and for the PSF. */
#ifndef SPDRT_CONV_H
#define SPDRT_CONV_H

#include "spdrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spdrt_conv spdrt_conv;

/* What the job was generated for (its plan file). */
typedef struct {
    uint32_t image_width, image_height;     /* the largest image */
    uint32_t psf_width, psf_height;         /* the largest PSF */
    uint32_t channels;                      /* convolved channels, 1..4 */
    uint32_t padded_width, padded_height;   /* the padded image the FFTs run on */
    uint32_t spectrum_width, spectrum_height; /* the kernel spectrum (resampled: the PSF's
                                               padded size; exact: the padded image) */
    int mirror;                             /* --padding mirror */
    int resampled;                          /* --spectrum resampled */
    int first_axis_y;                       /* pass 1 and pass 3 run along y */
    int input_buffer, output_buffer;        /* --input buffer, --output buffer */
    spdrt_format output_format;             /* an output image's format (rgba16f, rgba32f);
                                               the input image is created in it too */
    int f16;                                /* --storage f16 */
} spdrt_conv_info;

/* Loads NAME.convplan (written with --target spirv; the modules it names are read from the
 * plan file's directory) and builds the job on ctx. */
spdrt_result spdrt_conv_load(spdrt_context *ctx, const char *path, spdrt_conv **out);
/* The same from the plan's text and its modules in the plan's order (spectrum1, spectrum2,
 * resample, pass1, pass2, pass3: six; five for --spectrum exact, which has no resample),
 * copied: what spdgen --selftest runs. */
spdrt_result spdrt_conv_create(spdrt_context *ctx, const char *plan, const uint32_t *const spirv[],
                               const size_t spirv_words[], spdrt_conv **out);
const spdrt_conv_info *spdrt_conv_describe(const spdrt_conv *conv);
void spdrt_conv_destroy(spdrt_context *ctx, spdrt_conv *conv);

/* Sets the PSF: width x height pixels of `channels` floats, centred at (width / 2, height /
 * 2), at most the plan's PSF size. Runs the spectrum shaders and keeps the spectrum for
 * every later run (resampled: and resamples it for the psf_scale of the last run, 1 at
 * first; a run or record for another psf_scale resamples again first). normalize: each channel is divided by its sum first, so the convolution
 * keeps the image's brightness (a PSF summing to 1 needs no normalizing). */
spdrt_result spdrt_conv_set_kernel(spdrt_context *ctx, spdrt_conv *conv, const float *psf,
                                   uint32_t width, uint32_t height, int normalize);

/* One run's parameters (the shaders' push constants). */
typedef struct {
    uint32_t width, height;  /* the image, at most the plan's */
    int composite;           /* 0: the convolution; 1: src + intensity * (conv - src) */
    float intensity;
    float sharpen;           /* t of the lerp from the PSF to a delta, in the spectrum */
    float psf_scale;         /* resampled: the PSF drawn this many times larger; 0 counts as 1 */
} spdrt_conv_params;

/* GPU times of a run's passes (timestamps), -1 where the queue has none. */
typedef struct {
    double pass_ms[3];
    double total_ms;
} spdrt_conv_times;

/* Floats per pixel of the host input and output arrays (4 for images, channels for
 * buffers). */
uint32_t spdrt_conv_input_floats(const spdrt_conv *conv);
uint32_t spdrt_conv_output_floats(const spdrt_conv *conv);

/* Rounds `pixels` pixels of a host input to what the input image holds (halves for an
 * rgba16f image; nothing for rgba32f or a buffer), so a reference sees what the shaders
 * read. */
void spdrt_conv_round_input(const spdrt_conv *conv, float *input, size_t pixels);

/* Convolves `input` (width x height pixels) with the PSF set last into `output`. The
 * spectra between the passes and the output are filled with NaN first, so a value the
 * shaders should have written and did not shows. A resampled job whose spectrum was
 * resampled for another psf_scale resamples it first, in the same submission. `times` may
 * be NULL. */
spdrt_result spdrt_conv_run(spdrt_context *ctx, spdrt_conv *conv, const spdrt_conv_params *params,
                            const float *input, float *output, spdrt_conv_times *times);

/* The kernel spectrum spdrt_conv_set_kernel computed, as complex values (two floats), in the
 * layout the shaders read it: see spdrt_conv_spectrum_at. `out` holds
 * spdrt_conv_spectrum_values(conv) complex values. */
size_t spdrt_conv_spectrum_values(const spdrt_conv *conv);
spdrt_result spdrt_conv_read_spectrum(spdrt_context *ctx, spdrt_conv *conv, float *out);
/* Where H(kx, ky) of channel c is in that array: the exact spectrum holds kx (along the first
 * axis: 0..padded/2) in tiles of pass 2's columns, by the position pass 2 holds the other
 * at (bit-reversed for a power of two); the resampled one the whole spectrum. (size_t)-1 for
 * a frequency the array does not hold (the exact spectrum's other half along the first axis:
 * use the conjugate of H(-kx, -ky)). */
size_t spdrt_conv_spectrum_at(const spdrt_conv *conv, uint32_t c, uint32_t kx, uint32_t ky);

/* ---- the references (runtime/conv/conv_ref.c, conv_fft_ref.c) ----------------------------- */

/* What a reference computes: the image and PSF sizes, channels, padding and composite. */
typedef struct {
    uint32_t width, height;        /* the image */
    uint32_t psf_width, psf_height;
    uint32_t channels;
    int mirror;                    /* the image extended symmetrically, else zero */
    int composite;
    double intensity;
    double sharpen;                /* t of the lerp to a delta */
    uint32_t in_floats, out_floats; /* floats per pixel of input and output (4 or channels) */
} spdrt_conv_ref_config;

/* The direct convolution in double, independent of any FFT: out(x, y) = sum over the PSF of
 * ext(x - i + psf_width / 2, y - j + psf_height / 2) psf(i, j), ext the image padded with
 * zeros or mirrored; with sharpen t, (1 - t) conv + t src; then the composite, and channels
 * past `channels` copied from the input (0, alpha 1, for a buffer input). out holds
 * width x height x out_floats doubles. Returns 0, or -1 when out of memory. */
int spdrt_conv_reference(const spdrt_conv_ref_config *c, const float *input, const float *psf,
                         double *out);

/* One pixel of the same: out_floats doubles. */
void spdrt_conv_reference_pixel(const spdrt_conv_ref_config *c, const float *input, const float *psf,
                                uint32_t x, uint32_t y, double *out);

/* The resampled path on the CPU in double: the PSF's spectrum at spectrum_width x
 * spectrum_height (centred, FFTShift), sampled bilinearly at the padded image's frequencies
 * times psf_scale (at a Nyquist frequency, P / 2, the samples at +u and -u averaged, so the
 * product stays Hermitian), the image padded as the shaders pad it (padded_width x
 * padded_height), transformed, multiplied, transformed back, cropped, composited. */
int spdrt_conv_reference_resampled(const spdrt_conv_ref_config *c, uint32_t padded_width,
                                   uint32_t padded_height, uint32_t spectrum_width,
                                   uint32_t spectrum_height, double psf_scale, const float *input,
                                   const float *psf, double *out);

/* The centred spectrum of a PSF on an n1 x n2 grid in double (the PSF's centre moved to the
 * origin by an explicit circular shift, then a DFT): out[(c * ny + ky) * nx + kx] complex,
 * two doubles. For checking the FFTShift sign. */
int spdrt_conv_reference_spectrum(const float *psf, uint32_t width, uint32_t height,
                                  uint32_t channels, uint32_t nx, uint32_t ny, double *out);

/* Error of `count` floats against the reference (values, not complex). */
typedef struct {
    double rel_l2;      /* sqrt(sum (got - ref)^2 / sum ref^2) */
    double max_rel;     /* max |got - ref| / max |ref| */
    double max_abs;
    size_t non_finite;  /* NaN or infinite values */
} spdrt_conv_error;
void spdrt_conv_compare(const float *got, const double *ref, size_t count, spdrt_conv_error *err);

/* The accuracy bars against the direct convolution, over the convolved channels
 * (docs/conv.md, "Error bounds"): fp32 spectra, and f16 spectra (IEEE halves between the
 * passes). An rgba16f output adds 2^-10 to both (a half store may round toward zero). */
#define SPDRT_CONV_BOUND_REL_L2 2e-6
#define SPDRT_CONV_BOUND_MAX_REL 1e-5
#define SPDRT_CONV_BOUND_F16_REL_L2 2e-3
#define SPDRT_CONV_BOUND_F16_MAX_REL 4e-3

#ifdef __cplusplus
}
#endif
#endif
