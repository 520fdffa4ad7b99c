/* workload.c: the image, buffers and level-0 data of one (size, format). */
#include <string.h>

#include "source.h"
#include "workload.h"


uint64_t bench_level_bytes(const bench_workload *wl, uint32_t k) {
    return (uint64_t)wl->w[k] * wl->h[k] * wl->texel;
}

const unsigned char *bench_workload_source_row(const bench_workload *wl, uint32_t y) {
    return (const unsigned char *)wl->source.map + (size_t)y * wl->width * wl->texel;
}

void bench_image_layout(VkCommandBuffer cb, const bench_workload *wl, uint32_t base,
                        uint32_t count, VkImageLayout from, VkImageLayout to) {
    spdrt__image_barrier(cb, &wl->image, base, count, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_ACCESS_MEMORY_WRITE_BIT, from, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, to);
}

static void record_upload(VkCommandBuffer cb, void *user) {
    bench_workload *wl = user;
    VkBufferImageCopy copy;
    VkBufferCopy seed;
    bench_image_layout(cb, wl, 0, wl->levels + 1, VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    memset(&copy, 0, sizeof copy);
    copy.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    copy.imageSubresource.layerCount = 1;
    copy.imageExtent.width = wl->width;
    copy.imageExtent.height = wl->height;
    copy.imageExtent.depth = 1;
    vkCmdCopyBufferToImage(cb, wl->source.buffer, wl->image.image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    bench_image_layout(cb, wl, 0, wl->levels + 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_GENERAL);
    /* The floor copies real (random) data too, not never-written memory. */
    vkCmdFillBuffer(cb, wl->copy_src.buffer, 0, VK_WHOLE_SIZE, 0x3e9a5c1du);
    bench_barrier_all(cb);
    memset(&seed, 0, sizeof seed);
    seed.size = wl->copy_src.size < wl->source.size ? wl->copy_src.size : wl->source.size;
    vkCmdCopyBuffer(cb, wl->source.buffer, wl->copy_src.buffer, 1, &seed);
}

static void record_clear(VkCommandBuffer cb, void *user) {
    bench_workload *wl = user;
    VkClearColorValue sentinel;
    VkImageSubresourceRange range;
    int c;
    memset(&sentinel, 0, sizeof sentinel);
    for (c = 0; c < 4; c++)
        sentinel.float32[c] = BENCH_SENTINEL;
    memset(&range, 0, sizeof range);
    range.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    range.baseMipLevel = 1;
    range.levelCount = wl->levels;
    range.layerCount = 1;
    bench_image_layout(cb, wl, 1, wl->levels, VK_IMAGE_LAYOUT_GENERAL,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkCmdClearColorImage(cb, wl->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &sentinel, 1,
                         &range);
    bench_image_layout(cb, wl, 1, wl->levels, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_GENERAL);
    vkCmdFillBuffer(cb, wl->counters.buffer, 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cb, wl->level6.buffer, 0, VK_WHOLE_SIZE, 0);
}

spdrt_result bench_workload_clear(bench_workload *wl) {
    return bench_submit(wl->ctx, record_clear, wl);
}

static spdrt_result create_buffers(bench_workload *wl) {
    spdrt_context *ctx = wl->ctx;
    uint64_t level6 = 16, counters = 16, c, h;
    uint32_t t;
    int hierarchy;
    /* the largest any tile's shader needs, with either tail at 64 */
    for (t = wl->min_tile; t <= 64; t *= 2)
        for (hierarchy = 0; hierarchy < 2; hierarchy++) {
            spdrt_spd_buffer_bytes(t, hierarchy, wl->levels, wl->width, wl->height, 1,
                                   spdrt_format_channels(wl->format), &c, &h);
            counters = c > counters ? c : counters;
            level6 = h > level6 ? h : level6;
        }
    const VkBufferUsageFlags copy_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    spdrt_result res;
    res = spdrt__buffer_create(ctx, bench_level_bytes(wl, 0),
                               VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &wl->source);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, counters,
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &wl->counters);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, level6,
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &wl->level6);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, wl->copy_bytes > wl->shaped_read_bytes
                                            ? wl->copy_bytes : wl->shaped_read_bytes,
                                   copy_usage, 0, &wl->copy_src);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, wl->copy_bytes, copy_usage, 0, &wl->copy_dst);
    return res;
}

spdrt_result bench_workload_create(spdrt_context *ctx, uint32_t width, uint32_t height,
                                   spdrt_format format, uint32_t levels, uint32_t min_tile,
                                   uint64_t seed, bench_workload *out) {
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    spdrt_result res;
    uint32_t k;
    memset(out, 0, sizeof *out);
    out->ctx = ctx;
    if (width == 0 || height == 0 || levels == 0 || levels >= BENCH_MAX_LEVELS)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "workload %ux%u with %u levels", width,
                            height, levels);
    out->width = width, out->height = height, out->levels = levels, out->format = format;
    out->min_tile = min_tile ? min_tile : 64;
    out->texel = spdrt__format_texel_size(format);
    for (k = 0; k <= levels; k++) {
        out->w[k] = width >> k ? width >> k : 1;
        out->h[k] = height >> k ? height >> k : 1;
        out->bytes += bench_level_bytes(out, k);
    }
    /* Half the bytes each way, in whole vec4s. */
    out->copy_bytes = (out->bytes / 2 + 15) / 16 * 16;
    out->shaped_read_bytes = (bench_level_bytes(out, 0) + 15) / 16 * 16;
    out->shaped_write_bytes = (out->bytes - bench_level_bytes(out, 0) + 15) / 16 * 16;

    res = spdrt__image_create(ctx, spdrt__format_vk(format), width, height, levels + 1, 1,
                              usage, &out->image);
    for (k = 0; res == SPDRT_OK && k <= levels; k++)
        res = spdrt__image_view(ctx, &out->image, k, 0, &out->views[k]);
    if (res == SPDRT_OK)
        res = create_buffers(out);
    if (res == SPDRT_OK) {
        bench_source_fill(format, out->source.map, (size_t)width * height, seed);
        res = bench_submit(ctx, record_upload, out);
    }
    if (res != SPDRT_OK)
        bench_workload_destroy(out);
    return res;
}

void bench_workload_destroy(bench_workload *wl) {
    spdrt_context *ctx = wl->ctx;
    uint32_t k;
    if (!ctx || ctx->hung) /* the device may still use them: see spdrt_destroy */
        return;
    spdrt__buffer_destroy(ctx, &wl->copy_dst);
    spdrt__buffer_destroy(ctx, &wl->copy_src);
    spdrt__buffer_destroy(ctx, &wl->level6);
    spdrt__buffer_destroy(ctx, &wl->counters);
    spdrt__buffer_destroy(ctx, &wl->source);
    for (k = 0; k < BENCH_MAX_LEVELS; k++)
        if (wl->views[k])
            vkDestroyImageView(ctx->device, wl->views[k], NULL);
    spdrt__image_destroy(ctx, &wl->image);
    memset(wl, 0, sizeof *wl);
}
