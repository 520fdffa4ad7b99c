/* fft_internal.h: what fft_run.c (one shader) and fft_plan.c (a four-step plan of shaders)
 * share; not installed. */
#ifndef SPDRT_FFT_INTERNAL_H
#define SPDRT_FFT_INTERNAL_H

#include "internal.h"
#include "spdrt_fft.h"

#define FFT_PUSH_BYTES 16u

struct spdrt_fft_pipeline {
    spdrt_pipeline pipe;
    spdrt_fft_config config;
    spdrt_buffer lut;              /* --twiddles lut: N/2 float2, device-local */
    uint32_t bindings;             /* 2, or 3 with the table */
};

/* Points the pipeline's descriptor set at src (binding 0) and dst (binding 1). */
void spdrt__fft_bind(spdrt_context *ctx, const spdrt_fft_pipeline *fp, const spdrt_buffer *src,
                     const spdrt_buffer *dst);
/* A global memory barrier. */
void spdrt__fft_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                        VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);
/* Milliseconds between the two timestamps of `pool`, or -1. */
double spdrt__fft_timestamps(spdrt_context *ctx, VkQueryPool pool);

#endif
