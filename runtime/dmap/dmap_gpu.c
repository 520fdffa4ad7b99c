/* dmap_gpu.c: images for the --dmap runs, filled from and read back into host buffers. */
#include <string.h>

#include "dmap_gpu.h"

spdrt_result spdrt__dmap_image_create(spdrt_context *ctx, VkFormat format, uint32_t texel_bytes,
                               uint32_t width, uint32_t height, uint32_t layers, int is_array,
                               VkImageUsageFlags usage, dmap_image *out)
{
    memset(out, 0, sizeof *out);
    out->texel_bytes = texel_bytes;
    spdrt_result res = spdrt__image_create(ctx, format, width, height, 1, layers, usage, &out->image);
    if (res == SPDRT_OK) res = spdrt__image_view(ctx, &out->image, 0, is_array, &out->view);
    if (res != SPDRT_OK) spdrt__dmap_image_destroy(ctx, out);
    return res;
}

void spdrt__dmap_image_destroy(spdrt_context *ctx, dmap_image *img)
{
    if (img->view) vkDestroyImageView(ctx->device, img->view, NULL);
    if (img->image.image) spdrt__image_destroy(ctx, &img->image);
    memset(img, 0, sizeof *img);
}

static VkBufferImageCopy whole(const dmap_image *img, VkDeviceSize offset)
{
    VkBufferImageCopy copy;
    memset(&copy, 0, sizeof copy);
    copy.bufferOffset = offset;
    copy.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    copy.imageSubresource.layerCount = img->image.layers;
    copy.imageExtent.width = img->image.width;
    copy.imageExtent.height = img->image.height;
    copy.imageExtent.depth = 1;
    return copy;
}

void spdrt__dmap_record_upload(VkCommandBuffer cb, const dmap_image *img, VkBuffer buffer,
                        VkDeviceSize offset, VkImageLayout layout, VkPipelineStageFlags stage,
                        VkAccessFlags access)
{
    VkBufferImageCopy copy = whole(img, offset);
    spdrt__image_barrier(cb, &img->image, 0, 1, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                         VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkCmdCopyBufferToImage(cb, buffer, img->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    spdrt__image_barrier(cb, &img->image, 0, 1, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, stage,
                         access, layout);
}

void spdrt__dmap_record_readback(VkCommandBuffer cb, const dmap_image *img, VkBuffer buffer)
{
    VkBufferImageCopy copy = whole(img, 0);
    spdrt__image_barrier(cb, &img->image, 0, 1, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_ACCESS_SHADER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    vkCmdCopyImageToBuffer(cb, img->image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
    spdrt__memory_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

void spdrt__dmap_record_clear(VkCommandBuffer cb, const dmap_image *img, VkImageLayout from,
                       const VkClearColorValue *value)
{
    VkImageSubresourceRange range;
    memset(&range, 0, sizeof range);
    range.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    range.levelCount = 1;
    range.layerCount = img->image.layers;
    const VkAccessFlags rw = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    int first = from == VK_IMAGE_LAYOUT_UNDEFINED;
    spdrt__image_barrier(cb, &img->image, 0, 1,
                         first ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         first ? 0 : rw, from, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkCmdClearColorImage(cb, img->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, value, 1, &range);
    spdrt__image_barrier(cb, &img->image, 0, 1, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, rw, VK_IMAGE_LAYOUT_GENERAL);
}
