/* dmap_internal.h: a spdgen --dmap fdm|fsr shader made ready to run again and again, for the
 * benchmark (bench/dmap_bench.c) and spdrt_dmap_gen_run. Not installed. */
#ifndef SPDRT_DMAP_INTERNAL_H
#define SPDRT_DMAP_INTERNAL_H

#include "core/internal.h"
#include "spdrt_dmap.h"

typedef struct dmap_gen_job dmap_gen_job;

/* The pipeline, the inputs uploaded (RGBA16F, RG16F) and the map (cleared to a sentinel),
 * each in the layout the shader uses. */
spdrt_result spdrt__dmap_gen_prepare(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                              const spdrt_dmap_gen_config *c, const spdrt_dmap_gen_params *p,
                              const float *colour, const float *motion, dmap_gen_job **out);
/* Records one dispatch (bind, push constants, dispatch): a bench_record_fn (user = job). */
void spdrt__dmap_gen_record(VkCommandBuffer cb, void *user);
/* `dispatches` dispatches, the map refilled with the sentinel before each (and --rate-map's
 * buffer with all ones), then the map read back (the reference's layout) and the axes
 * (with --rate-map; else NULL). */
spdrt_result spdrt__dmap_gen_read(spdrt_context *ctx, dmap_gen_job *job, uint32_t dispatches, uint8_t *map,
                           uint32_t *axes);
/* Bytes the shader reads per pixel (colour RGBA16F and motion RG16F; 0 without --content). */
static inline uint32_t dmap_gen_read_bytes_per_pixel(const spdrt_dmap_gen_config *c)
{
    return c->content ? 12u : 0u;
}
void spdrt__dmap_gen_release(spdrt_context *ctx, dmap_gen_job *job);

#endif
