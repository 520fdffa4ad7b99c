/* spd_run.c: one SPD run following the binding contract in spdrt_spd.h.
 *
 * Everything is recorded into one command buffer: upload level 0, clear the other levels
 * to the sentinel, zero the counters, the dispatches, then copy the levels out. One
 * submission keeps the synchronization in plain sight: each step is separated from the next
 * by exactly the barrier it needs, and synchronization validation checks all of them. */
#include <stdlib.h>
#include <string.h>

#include "spd_internal.h"

#define MAX_LEVELS 16u  /* spdrt_spd_levels holds levels 0..15 */
/* What refill_between_dispatches writes into the hand-off buffer: a large finite positive
 * value read as a float (2.7e36), as two halves (65504 each) and as an integer, so a tail
 * that reads it shows in max and mean. */
#define HANDOFF_POISON 0x7bff7bffu

typedef struct {
    const spdrt_pipeline *pipe; /* owned by the context's cache */
    spdrt_image image;
    VkImageView views[MAX_LEVELS];  /* [k] = level k */
    spdrt_buffer upload, update, readback, counters, level6;
    /* Pass p's level-6 hand-off is its own range of the buffer, so an update's pass finds
     * the values of its tiles that it does not dispatch as that pass left them. */
    VkDeviceSize level6_offset[SPDRT_SPD_MAX_PASSES + 1];
    VkQueryPool timestamps;
} spd_resources;

static void release(spdrt_context *ctx, spd_resources *rs) {
    uint32_t k;
    if (ctx->hung)  /* the device may still use them: see spdrt_destroy */
        return;
    if (rs->timestamps)
        vkDestroyQueryPool(ctx->device, rs->timestamps, NULL);
    spdrt__buffer_destroy(ctx, &rs->level6);
    spdrt__buffer_destroy(ctx, &rs->counters);
    spdrt__buffer_destroy(ctx, &rs->readback);
    spdrt__buffer_destroy(ctx, &rs->update);
    spdrt__buffer_destroy(ctx, &rs->upload);
    for (k = 0; k < MAX_LEVELS; k++)
        if (rs->views[k])
            vkDestroyImageView(ctx->device, rs->views[k], NULL);
    spdrt__image_destroy(ctx, &rs->image);
}

static spdrt_result check_params(spdrt_context *ctx, const uint32_t *spirv,
                                 const spdrt_spd_params *p, const float *source,
                                 const spdrt_spd_levels *out) {
    char problem[256];
    if (!p || !out)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_spd_run: params and out are required");
    if (spdrt__spd_check_shader(p, problem, sizeof problem) != 0 ||
        spdrt__spd_check_source(p, problem, sizeof problem) != 0)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_spd_run: %s", problem);
    if (p->dispatches == 0)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT,
                            "spdrt_spd_run: dispatches must be at least 1");
    if (!spirv || !source)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT,
                            "spdrt_spd_run: the SPIR-V and the source data are required");
    if (p->update_source && spdrt__spd_hierarchy(p))
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT,
                            "spdrt_spd_run: a sub-rectangle update needs a --tile 64 --tail loop "
                            "shader (got --tile %u --tail hierarchy: its hierarchy of counters "
                            "counts every tile of a block, so each dispatch must cover the whole "
                            "grid)", spdrt__spd_tile(p));
    if (p->update_source) {
        spdrt_rect tiles;
        if (spdrt_spd_update_tiles(p->width, p->height, p->update, 0, p->edge, &tiles) != 0)
            return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT,
                                "spdrt_spd_run: update rectangle (%u, %u) %ux%u is empty or "
                                "not inside the %ux%u source", p->update.x, p->update.y,
                                p->update.width, p->update.height, p->width, p->height);
    }
    return SPDRT_OK;
}

static uint64_t level_bytes(const spdrt_spd_levels *out, uint32_t k, uint32_t texel) {
    return (uint64_t)out->width[k] * out->height[k] * out->layers * texel;
}

static uint32_t plan_passes(const spdrt_spd_params *p, const spdrt_spd_levels *out,
                            uint32_t base[SPDRT_SPD_MAX_PASSES + 1]);

/* The hand-off ranges, one per pass: what spdrt_spd_buffer_bytes gives for the pass's source
 * level (--tail loop: a level-6 value per tile per layer), each range aligned for a
 * storage-buffer descriptor and at least 16 bytes. The counters are shared by the passes
 * (each dispatch leaves them zero): *counters, the largest pass's. Returns the buffer's size. */
static uint64_t level6_ranges(spdrt_context *ctx, const spdrt_spd_params *p,
                              const spdrt_spd_levels *out, spd_resources *rs,
                              uint64_t *counters) {
    uint64_t align = ctx->limits.minStorageBufferOffsetAlignment, offset = 0;
    uint32_t base[SPDRT_SPD_MAX_PASSES + 1], pass, passes = plan_passes(p, out, base);
    if (align == 0)
        align = 1;
    *counters = 16;
    for (pass = 0; pass < passes; pass++) {
        uint64_t bytes, counter_bytes;
        spdrt_spd_buffer_bytes(spdrt__spd_tile(p), spdrt__spd_hierarchy(p), p->mips_bound,
                               out->width[base[pass]],
                               out->height[base[pass]], p->layers,
                               spdrt_format_channels(p->format), &counter_bytes, &bytes);
        if (bytes < 16)
            bytes = 16;
        if (counter_bytes > *counters)
            *counters = counter_bytes;
        rs->level6_offset[pass] = offset;
        offset += (bytes + align - 1) / align * align;
    }
    rs->level6_offset[passes] = offset;
    return offset;
}

static spdrt_result create_resources(spdrt_context *ctx, const spdrt_spd_params *p,
                                     const spdrt_spd_levels *out, spd_resources *rs) {
    uint32_t texel = spdrt__format_texel_size(p->format), k;
    uint64_t readback = 0, level6, counters;
    spdrt_result res;
    VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                              VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;

    res = spdrt__image_create(ctx, spdrt__format_vk(p->format), p->width, p->height,
                              out->mip_count + 1, p->layers, usage, &rs->image);
    for (k = 0; res == SPDRT_OK && k <= out->mip_count; k++)
        res = spdrt__image_view(ctx, &rs->image, k, p->is_array, &rs->views[k]);
    if (res != SPDRT_OK)
        return res;

    for (k = 1; k <= out->mip_count; k++)
        readback += level_bytes(out, k, texel);
    level6 = level6_ranges(ctx, p, out, rs, &counters);
    readback += counters; /* then the counters, to check they ended at zero */
    res = spdrt__buffer_create(ctx, level_bytes(out, 0, texel), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                               1, &rs->upload);
    if (res == SPDRT_OK && p->update_source)
        res = spdrt__buffer_create(ctx, level_bytes(out, 0, texel),
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &rs->update);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, readback, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1,
                                   &rs->readback);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, counters,
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                   0, &rs->counters);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, level6,
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                   0, &rs->level6);
    if (res == SPDRT_OK)
        res = spdrt__timestamps_create(ctx, &rs->timestamps);
    return res;
}

/* Pass `pass` reads level `base` and has its own range of the hand-off buffer. */
static void write_descriptors(spdrt_context *ctx, const spdrt_spd_params *p, uint32_t pass,
                              uint32_t base, uint32_t mip_count, spd_resources *rs,
                              VkDescriptorImageInfo *mips) {
    VkDescriptorBufferInfo counters = {rs->counters.buffer, 0, VK_WHOLE_SIZE};
    VkDescriptorBufferInfo handoff = {rs->level6.buffer, rs->level6_offset[pass],
                                      rs->level6_offset[pass + 1] - rs->level6_offset[pass]};
    spdrt__spd_write_set(ctx, rs->pipe->sets[pass], rs->views, base, mip_count, p->mips_bound,
                         mips, &counters, &handoff);
}

/* A layout transition of every level and layer of the image. */
static void image_barrier(VkCommandBuffer cb, const spdrt_image *img,
                          VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                          VkImageLayout from, VkPipelineStageFlags dst_stage,
                          VkAccessFlags dst_access, VkImageLayout to) {
    spdrt__image_barrier(cb, img, 0, img->levels, src_stage, src_access, from, dst_stage,
                         dst_access, to);
}

static void buffer_barriers(VkCommandBuffer cb, const spdrt_buffer *const *bufs, uint32_t n,
                            VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                            VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
    VkBufferMemoryBarrier b[2];
    uint32_t i;
    memset(b, 0, sizeof b);
    for (i = 0; i < n; i++) {
        b[i].sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
        b[i].srcAccessMask = src_access;
        b[i].dstAccessMask = dst_access;
        b[i].srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b[i].buffer = bufs[i]->buffer;
        b[i].size = VK_WHOLE_SIZE;
    }
    vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, NULL, n, b, 0, NULL);
}

/* Passes of the chain, one dispatch each (spdrt__spd_passes). */
static uint32_t plan_passes(const spdrt_spd_params *p, const spdrt_spd_levels *out,
                            uint32_t base[SPDRT_SPD_MAX_PASSES + 1]) {
    return spdrt__spd_passes(p, out->mip_count, base);
}

/* update NULL: the whole chain. Otherwise only the tiles over the changed rectangle, in
 * every pass (mapped to the pass's source level by spdrt_spd_update_tiles). */
static void record_passes(VkCommandBuffer cb, const spdrt_spd_params *p,
                          const spdrt_spd_levels *out, spd_resources *rs,
                          const VkMemoryBarrier *between, const spdrt_rect *update) {
    uint32_t base[SPDRT_SPD_MAX_PASSES + 1], pass, passes = plan_passes(p, out, base);
    for (pass = 0; pass < passes; pass++) {
        /* src_width, src_height, mip_count, tile_count, tile_offset_x/y,
         * tiles_per_workgroup, unused */
        uint32_t push[8] = {out->width[base[pass]], out->height[base[pass]],
                            base[pass + 1] - base[pass], 0, 0, 0, 0, 0};
        spdrt_rect tiles = {0, 0, (push[0] + spdrt__spd_tile(p) - 1) / spdrt__spd_tile(p),
                            (push[1] + spdrt__spd_tile(p) - 1) / spdrt__spd_tile(p)};
        if (update) {
            /* check_params accepted the rectangle (and --tile 64), so every pass maps it. */
            spdrt_spd_update_tiles(p->width, p->height, *update, base[pass], p->edge, &tiles);
            push[3] = tiles.width * tiles.height;
            push[4] = tiles.x;
            push[5] = tiles.y;
        } else if (spdrt__spd_tiles_per_workgroup(p) > 1) {
            push[6] = spdrt__spd_tiles_per_workgroup(p);
            tiles.width = (tiles.width + push[6] - 1) / push[6];
        }
        if (pass > 0)
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, between, 0, NULL,
                                 0, NULL);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, rs->pipe->layout, 0, 1,
                                &rs->pipe->sets[pass], 0, NULL);
        vkCmdPushConstants(cb, rs->pipe->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push,
                           push);
        vkCmdDispatch(cb, tiles.width, tiles.height, p->layers);
    }
}

/* The update: the changed rectangle of level 0 from its staging buffer (every layer),
 * optionally the sentinel in every level, then the passes over the rectangle's tiles only
 * (timed instead of the full dispatches). */
static void record_update(VkCommandBuffer cb, const spdrt_spd_params *p,
                          const spdrt_spd_levels *out, spd_resources *rs,
                          const VkClearColorValue *sentinel, const VkImageSubresourceRange *levels,
                          const VkMemoryBarrier *between) {
    uint32_t texel = spdrt__format_texel_size(p->format);
    const spdrt_rect *r = &p->update;
    VkBufferImageCopy copy;
    const VkAccessFlags shader_rw = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    /* The full dispatches read level 0 and wrote the others: both before the transfers. */
    image_barrier(cb, &rs->image, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, shader_rw,
                  VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    memset(&copy, 0, sizeof copy);
    copy.bufferOffset = ((VkDeviceSize)r->y * p->width + r->x) * texel;
    copy.bufferRowLength = p->width;
    copy.bufferImageHeight = p->height;
    copy.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    copy.imageSubresource.layerCount = p->layers;
    copy.imageOffset.x = (int32_t)r->x;
    copy.imageOffset.y = (int32_t)r->y;
    copy.imageExtent.width = r->width;
    copy.imageExtent.height = r->height;
    copy.imageExtent.depth = 1;
    vkCmdCopyBufferToImage(cb, rs->update.buffer, rs->image.image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    if (p->refill_before_update)
        vkCmdClearColorImage(cb, rs->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, sentinel,
                             1, levels);
    image_barrier(cb, &rs->image, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  shader_rw, VK_IMAGE_LAYOUT_GENERAL);
    /* The counters and the hand-off buffer: the last full dispatch's writes before these. */
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, between, 0, NULL, 0, NULL);
    if (rs->timestamps)
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, rs->timestamps, 0);
    record_passes(cb, p, out, rs, between, &p->update);
    if (rs->timestamps)
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, rs->timestamps, 1);
}

static void record(VkCommandBuffer cb, const spdrt_spd_params *p, const spdrt_spd_levels *out,
                   spd_resources *rs) {
    const spdrt_buffer *storage[2] = {&rs->counters, &rs->level6};
    const spdrt_buffer *readback[1] = {&rs->readback};
    uint32_t texel = spdrt__format_texel_size(p->format), k, d;
    VkBufferImageCopy copy;
    VkClearColorValue sentinel;
    VkImageSubresourceRange levels;
    VkMemoryBarrier between;
    VkDeviceSize offset = 0;
    const VkAccessFlags shader_rw = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

    if (rs->timestamps)
        vkCmdResetQueryPool(cb, rs->timestamps, 0, 2);

    /* Transfers: level 0 from the staging buffer, the sentinel everywhere else, zeroed
     * counters (the shader keeps them zeroed from then on) and hand-off buffer. */
    image_barrier(cb, &rs->image, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                  VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    memset(&copy, 0, sizeof copy);
    copy.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    copy.imageSubresource.mipLevel = 0;
    copy.imageSubresource.layerCount = p->layers;
    copy.imageExtent.width = p->width;
    copy.imageExtent.height = p->height;
    copy.imageExtent.depth = 1;
    vkCmdCopyBufferToImage(cb, rs->upload.buffer, rs->image.image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    memset(&sentinel, 0, sizeof sentinel);
    for (k = 0; k < 4; k++)
        sentinel.float32[k] = p->sentinel;
    /* Integer formats read the clear value as uint32: the sentinel's integer part, or all ones
     * for a negative sentinel (no integer shader output is that large). */
    if (spdrt__format_is_uint(p->format))
        for (k = 0; k < 4; k++)
            sentinel.uint32[k] = p->sentinel >= 0.0f ? (uint32_t)p->sentinel : 0xffffffffu;
    memset(&levels, 0, sizeof levels);
    levels.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    levels.baseMipLevel = 1;
    levels.levelCount = out->mip_count;
    levels.layerCount = p->layers;
    vkCmdClearColorImage(cb, rs->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &sentinel,
                         1, &levels);
    vkCmdFillBuffer(cb, rs->counters.buffer, 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cb, rs->level6.buffer, 0, VK_WHOLE_SIZE, 0);

    /* Transfer -> compute. GENERAL serves both the sampled read of level 0 and the storage
     * writes of the others. */
    image_barrier(cb, &rs->image, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  shader_rw, VK_IMAGE_LAYOUT_GENERAL);
    buffer_barriers(cb, storage, 2, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, shader_rw);

    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, rs->pipe->pipeline);
    memset(&between, 0, sizeof between);
    between.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    between.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    between.dstAccessMask = shader_rw;
    for (d = 0; d < p->dispatches; d++) {
        int last = d + 1 == p->dispatches;
        /* Each dispatch rewrites the levels, the counters and the hand-off buffer the
         * previous one wrote: a full shader-write -> shader-read/write dependency. */
        if (d > 0)
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &between, 0, NULL,
                                 0, NULL);
        /* Optionally the sentinel again, so this dispatch must rewrite every texel of every
         * level (and its tail must run although nobody reset the counters on the host), and
         * a poison in the hand-off buffer, so a tail that started before every value of this
         * dispatch was published reads it instead of the previous dispatch's equal values. */
        if (d > 0 && p->refill_between_dispatches) {
            const spdrt_buffer *handoff[1] = {&rs->level6};
            image_barrier(cb, &rs->image, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_ACCESS_SHADER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
                          VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
            buffer_barriers(cb, handoff, 1, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, shader_rw,
                            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
            vkCmdClearColorImage(cb, rs->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                 &sentinel, 1, &levels);
            vkCmdFillBuffer(cb, rs->level6.buffer, 0, VK_WHOLE_SIZE, HANDOFF_POISON);
            image_barrier(cb, &rs->image, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, shader_rw, VK_IMAGE_LAYOUT_GENERAL);
            buffer_barriers(cb, handoff, 1, VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            shader_rw);
        }
        /* Timestamps at the compute stage: the first one waits for the earlier dispatches
         * to finish, so only the last dispatch is measured. */
        if (last && !p->update_source && rs->timestamps)
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, rs->timestamps, 0);
        record_passes(cb, p, out, rs, &between, NULL);
        if (last && !p->update_source && rs->timestamps)
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, rs->timestamps, 1);
    }
    if (p->update_source)
        record_update(cb, p, out, rs, &sentinel, &levels, &between);

    /* Compute -> transfer, then every produced level into the readback buffer, then make
     * the copies visible to the host that maps it. */
    image_barrier(cb, &rs->image, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
                  VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    for (k = 1; k <= out->mip_count; k++) {
        memset(&copy, 0, sizeof copy);
        copy.bufferOffset = offset;
        copy.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
        copy.imageSubresource.mipLevel = k;
        copy.imageSubresource.layerCount = p->layers;
        copy.imageExtent.width = out->width[k];
        copy.imageExtent.height = out->height[k];
        copy.imageExtent.depth = 1;
        vkCmdCopyImageToBuffer(cb, rs->image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               rs->readback.buffer, 1, &copy);
        offset += level_bytes(out, k, texel);
    }
    /* The counters after the last dispatch: every tail resets the counter that elected it. */
    {
        const spdrt_buffer *counters[1] = {&rs->counters};
        VkBufferCopy region = {0, offset, rs->counters.size};
        buffer_barriers(cb, counters, 1, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, shader_rw,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
        vkCmdCopyBuffer(cb, rs->counters.buffer, rs->readback.buffer, 1, &region);
    }
    buffer_barriers(cb, readback, 1, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

static spdrt_result read_levels(spdrt_context *ctx, const spdrt_spd_params *p,
                                spdrt_spd_levels *out, spd_resources *rs) {
    uint32_t texel = spdrt__format_texel_size(p->format), k;
    const unsigned char *bytes = rs->readback.map;
    for (k = 1; k <= out->mip_count; k++) {
        size_t n = (size_t)out->width[k] * out->height[k] * out->layers, i;
        float *dst = malloc(n * 4 * sizeof(float));
        if (!dst)
            return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY,
                                "out of memory reading back level %u", k);
        for (i = 0; i < n; i++)
            spdrt__texel_unpack(p->format, bytes + i * texel, dst + 4 * i);
        out->level[k] = dst;
        bytes += n * texel;
    }
    out->counters_left = 0;
    for (k = 0; k < rs->counters.size / sizeof(uint32_t); k++) {
        uint32_t counter;
        memcpy(&counter, bytes + k * sizeof counter, sizeof counter);
        out->counters_left += counter != 0;
    }
    {
        double ms;
        VkResult r = spdrt__timestamps_ms(ctx, rs->timestamps, &ms);
        if (r != VK_SUCCESS)
            return spdrt__vk_error(ctx, "vkGetQueryPoolResults", r);
        out->gpu_ms = ms; /* -1 without timestamps */
    }
    return SPDRT_OK;
}

spdrt_result spdrt_spd_run(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                           const spdrt_spd_params *params, const float *source,
                           spdrt_spd_levels *out) {
    spd_resources rs;
    VkDescriptorImageInfo *mips = NULL;
    VkCommandBuffer cb;
    spdrt_result res;
    uint32_t k, texel, grid[3];
    size_t n, i;
    if (!ctx)
        return SPDRT_ERROR_ARGUMENT;
    if (out) {
        memset(out, 0, sizeof *out);
        out->gpu_ms = -1.0;
    }
    res = check_params(ctx, spirv, params, source, out);
    if (res != SPDRT_OK)
        return res;
    if (ctx->hung)
        return spdrt__error(ctx, SPDRT_ERROR_VULKAN,
                            "an earlier submission never finished; the context is unusable");
    out->mip_count = spdrt_spd_mip_count(params->width, params->height,
                                         params->mips_total ? params->mips_total : params->mips_bound);
    if (out->mip_count >= MAX_LEVELS)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT,
                            "spdrt_spd_run: %u levels; spdrt_spd_levels holds at most %u",
                            out->mip_count, MAX_LEVELS - 1);
    out->layers = params->layers;
    for (k = 0; k <= out->mip_count; k++) {
        out->width[k] = params->width >> k ? params->width >> k : 1;
        out->height[k] = params->height >> k ? params->height >> k : 1;
    }
    if (out->mip_count == 0)  /* a 1x1 source: nothing to reduce */
        return SPDRT_OK;
    grid[0] = (params->width + spdrt__spd_tile(params) - 1) / spdrt__spd_tile(params);
    grid[1] = (params->height + spdrt__spd_tile(params) - 1) / spdrt__spd_tile(params);
    grid[2] = params->layers;
    for (k = 0; k < 3; k++)
        if (grid[k] > ctx->limits.maxComputeWorkGroupCount[k])
            return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                                "dispatch grid %ux%ux%u exceeds the device's %ux%ux%u",
                                grid[0], grid[1], grid[2],
                                ctx->limits.maxComputeWorkGroupCount[0],
                                ctx->limits.maxComputeWorkGroupCount[1],
                                ctx->limits.maxComputeWorkGroupCount[2]);

    if (params->layers > ctx->limits.maxImageArrayLayers)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "%u layers exceed the device's maxImageArrayLayers (%u)",
                            params->layers, ctx->limits.maxImageArrayLayers);

    memset(&rs, 0, sizeof rs);
    mips = calloc(params->mips_bound, sizeof *mips);
    if (!mips)
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    res = spdrt__spd_pipeline_get(ctx, spirv, spirv_words, params->mips_bound,
                                  params->subgroup, spdrt__spd_normalized_sampler(params),
                                  spdrt__format_vk(params->format), &rs.pipe);
    if (res == SPDRT_OK)
        res = create_resources(ctx, params, out, &rs);
    if (res != SPDRT_OK)
        goto done;

    texel = spdrt__format_texel_size(params->format);
    n = (size_t)params->width * params->height * params->layers;
    for (i = 0; i < n; i++)
        spdrt__texel_pack(params->format, source + 4 * i, (unsigned char *)rs.upload.map + i * texel);
    for (i = 0; params->update_source && i < n; i++)
        spdrt__texel_pack(params->format, params->update_source + 4 * i,
                          (unsigned char *)rs.update.map + i * texel);
    {
        uint32_t base[SPDRT_SPD_MAX_PASSES + 1], passes = plan_passes(params, out, base);
        for (k = 0; k < passes; k++)
            write_descriptors(ctx, params, k, base[k], out->mip_count, &rs, mips);
    }

    res = spdrt__commands_begin(ctx, &cb);
    if (res != SPDRT_OK)
        goto done;
    record(cb, params, out, &rs);
    res = spdrt__commands_submit(ctx, cb);
    if (res == SPDRT_OK)
        res = read_levels(ctx, params, out, &rs);
done:
    free(mips);
    release(ctx, &rs);
    if (res != SPDRT_OK) {
        spdrt_spd_levels_free(out);
        return res;
    }
    return SPDRT_OK;
}
