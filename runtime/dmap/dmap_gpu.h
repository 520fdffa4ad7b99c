/* dmap_gpu.h: what the --dmap runs share (dmap_run.c, dmap_resolve_run.c): images that take
 * their contents from a staging buffer, read back into another. Not installed. */
#ifndef SPDRT_DMAP_GPU_H
#define SPDRT_DMAP_GPU_H

#include "core/internal.h"
#include "spdrt_dmap.h"

/* An image of one level and `layers` layers, its view (2D, or 2D array when is_array) and
 * the bytes one texel takes. */
typedef struct {
    spdrt_image image;
    VkImageView view;
    uint32_t texel_bytes;
} dmap_image;

spdrt_result spdrt__dmap_image_create(spdrt_context *ctx, VkFormat format, uint32_t texel_bytes,
                               uint32_t width, uint32_t height, uint32_t layers, int is_array,
                               VkImageUsageFlags usage, dmap_image *out);
void spdrt__dmap_image_destroy(spdrt_context *ctx, dmap_image *img);
static inline VkDeviceSize dmap_image_bytes(const dmap_image *img)
{
    return (VkDeviceSize)img->image.width * img->image.height * img->image.layers * img->texel_bytes;
}

/* Records: the whole image from `buffer` at `offset` (packed rows, layer after layer), left
 * in `layout` for `stage`/`access`. */
void spdrt__dmap_record_upload(VkCommandBuffer cb, const dmap_image *img, VkBuffer buffer,
                        VkDeviceSize offset, VkImageLayout layout, VkPipelineStageFlags stage,
                        VkAccessFlags access);
/* Records: the image (in GENERAL after compute writes) into `buffer`, packed. */
void spdrt__dmap_record_readback(VkCommandBuffer cb, const dmap_image *img, VkBuffer buffer);
/* Records: the image (in GENERAL, or UNDEFINED the first time) cleared to `value`, then
 * GENERAL for compute shader reads and writes. */
void spdrt__dmap_record_clear(VkCommandBuffer cb, const dmap_image *img, VkImageLayout from,
                       const VkClearColorValue *value);

#endif
