/* fft_internal.h: what fft_run.c (one shader), fft_plan.c (a four-step plan of shaders) and
 * the benchmarks share; not installed. */
#ifndef SPDRT_FFT_INTERNAL_H
#define SPDRT_FFT_INTERNAL_H

#include "core/internal.h"
#include "spdrt_fft.h"

#define FFT_PUSH_BYTES 16u

struct spdrt_fft_pipeline {
    spdrt_pipeline pipe;
    spdrt_fft_config config;
    spdrt_buffer lut;              /* --twiddles lut: N/2 float2, device-local */
    spdrt_buffer chirp, spectrum;  /* Bluestein: N and M float2; Rader: spectrum, N - 1 float2 */
    uint32_t bindings;             /* 2, 3 with the twiddle table or Rader's, 4 with Bluestein's */
};

/* Whether params' strides keep the FFTs within the arrays spdrt_fft_input_floats and
 * spdrt_fft_output_floats size: rows at least a row apart, columns (--stride) at least count
 * apart. 0 (the packed default) always does. */
int spdrt__fft_strides_fit(const spdrt_fft_config *c, const spdrt_fft_params *p);

/* The configuration's own consistency (not the device's limits): 0, or -1 with what is
 * wrong in err. */
int spdrt__fft_check_config(const spdrt_fft_config *c, char *err, size_t size);

/* Points the pipeline's descriptor set at src (binding 0) and dst (binding 1), and its own
 * tables (bindings 2 and 3) where it has them. */
void spdrt__fft_bind(spdrt_context *ctx, const spdrt_fft_pipeline *fp, const spdrt_buffer *src,
                     const spdrt_buffer *dst);
/* The same with the tables given: a Bluestein plan's passes share one chirp and spectrum. */
void spdrt__fft_bind_tables(spdrt_context *ctx, const spdrt_fft_pipeline *fp, const spdrt_buffer *src,
                            const spdrt_buffer *dst, const spdrt_buffer *table2, const spdrt_buffer *table3);

/* A pipeline of `bindings` storage buffers and no tables of its own (a plan's pass);
 * spdrt_fft_pipeline_create adds the tables its config asks for. */
spdrt_result spdrt__fft_pipeline_create(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                                        const spdrt_fft_config *config, uint32_t bindings,
                                        spdrt_fft_pipeline **out);
/* Bluestein's chirp (n float2) and kernel spectrum (m float2), device-local
 * (spdrt_fft_bluestein_tables). */
spdrt_result spdrt__fft_tables_create(spdrt_context *ctx, uint32_t n, uint32_t m, int inverse,
                                      spdrt_buffer *chirp, spdrt_buffer *spectrum);

/* The buffers of one run: the input's staging copy and device buffer, the scratch between
 * a plan's passes (none for one shader), the output and its read-back copy, and the two
 * timestamps. */
typedef struct {
    spdrt_buffer upload, src, scratch, scratch2, dst, readback;
    VkQueryPool timestamps;
} spdrt__fft_resources;

/* scratch_bytes 0: no scratch buffer; scratch2 is the plan's to create. */
spdrt_result spdrt__fft_resources_create(spdrt_context *ctx, VkDeviceSize in_bytes,
                                         VkDeviceSize scratch_bytes, VkDeviceSize out_bytes,
                                         spdrt__fft_resources *rs);
/* Nothing after a timed-out submission: the device may still use them. */
void spdrt__fft_resources_release(spdrt_context *ctx, spdrt__fft_resources *rs);
/* n floats to the input's staging buffer and from the read-back one, as halves with f16. */
void spdrt__fft_upload(const spdrt__fft_resources *rs, int f16, const float *input, size_t n);
void spdrt__fft_download(const spdrt__fft_resources *rs, int f16, float *output, size_t n);

#endif
