/* commands.c: one-shot command buffers and what every run records into them: barriers and
 * the two timestamps that bracket the work. */
#include <string.h>

#include "internal.h"

spdrt_result spdrt__commands_begin(spdrt_context *ctx, VkCommandBuffer *out) {
    VkCommandBufferAllocateInfo ai;
    VkCommandBufferBeginInfo bi;
    VkResult r;
    memset(&ai, 0, sizeof ai);
    ai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    ai.commandPool = ctx->pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    r = vkAllocateCommandBuffers(ctx->device, &ai, out);
    if (r != VK_SUCCESS) {
        *out = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkAllocateCommandBuffers", r);
    }
    memset(&bi, 0, sizeof bi);
    bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    r = vkBeginCommandBuffer(*out, &bi);
    if (r != VK_SUCCESS) {
        vkFreeCommandBuffers(ctx->device, ctx->pool, 1, out);
        *out = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkBeginCommandBuffer", r);
    }
    return SPDRT_OK;
}

/* Ends, submits and waits for `cb`, then frees it, whatever happened (except on a
 * timeout, when the device may still be executing it: see ctx->hung). */
spdrt_result spdrt__commands_submit(spdrt_context *ctx, VkCommandBuffer cb) {
    VkSubmitInfo si;
    VkResult r;
    spdrt_result res = SPDRT_OK;
    r = vkEndCommandBuffer(cb);
    if (r != VK_SUCCESS) {
        res = spdrt__vk_error(ctx, "vkEndCommandBuffer", r);
        goto done;
    }
    memset(&si, 0, sizeof si);
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    r = vkQueueSubmit(ctx->queue, 1, &si, ctx->fence);
    if (r != VK_SUCCESS) {
        res = spdrt__vk_error(ctx, "vkQueueSubmit", r);
        goto done;
    }
    r = vkWaitForFences(ctx->device, 1, &ctx->fence, VK_TRUE, SPDRT_FENCE_TIMEOUT_NS);
    if (r == VK_TIMEOUT) {
        ctx->hung = 1;
        return spdrt__error(ctx, SPDRT_ERROR_VULKAN,
                            "vkWaitForFences failed: VK_TIMEOUT (the GPU did not finish within "
                            "%llu s; a shader may be stuck waiting)",
                            SPDRT_FENCE_TIMEOUT_NS / 1000000000ull);
    }
    if (r != VK_SUCCESS) {
        res = spdrt__vk_error(ctx, "vkWaitForFences", r);
        /* DEVICE_LOST: nothing runs any more, so freeing below is fine. */
        goto done;
    }
    r = vkResetFences(ctx->device, 1, &ctx->fence);
    if (r != VK_SUCCESS)
        res = spdrt__vk_error(ctx, "vkResetFences", r);
done:
    vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &cb);
    return res;
}

void spdrt__memory_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage,
                           VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                           VkAccessFlags dst_access) {
    VkMemoryBarrier b;
    memset(&b, 0, sizeof b);
    b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    b.srcAccessMask = src_access;
    b.dstAccessMask = dst_access;
    vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 1, &b, 0, NULL, 0, NULL);
}

void spdrt__image_barrier(VkCommandBuffer cb, const spdrt_image *img, uint32_t base,
                          uint32_t count, VkPipelineStageFlags src_stage,
                          VkAccessFlags src_access, VkImageLayout from,
                          VkPipelineStageFlags dst_stage, VkAccessFlags dst_access,
                          VkImageLayout to) {
    VkImageMemoryBarrier b;
    memset(&b, 0, sizeof b);
    b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    b.srcAccessMask = src_access;
    b.dstAccessMask = dst_access;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = img->image;
    b.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    b.subresourceRange.baseMipLevel = base;
    b.subresourceRange.levelCount = count;
    b.subresourceRange.layerCount = img->layers;
    vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1, &b);
}

spdrt_result spdrt__timestamps_create(spdrt_context *ctx, VkQueryPool *out) {
    VkQueryPoolCreateInfo qci;
    VkResult r;
    *out = VK_NULL_HANDLE;
    if (!ctx->timestamp_valid_bits)
        return SPDRT_OK;
    memset(&qci, 0, sizeof qci);
    qci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 2;
    r = vkCreateQueryPool(ctx->device, &qci, NULL, out);
    if (r != VK_SUCCESS) {
        *out = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateQueryPool", r);
    }
    return SPDRT_OK;
}

VkResult spdrt__timestamps_ms(const spdrt_context *ctx, VkQueryPool pool, double *ms) {
    uint64_t t[2], mask;
    VkResult r;
    *ms = -1.0;
    if (!pool)
        return VK_SUCCESS;
    r = vkGetQueryPoolResults(ctx->device, pool, 0, 2, sizeof t, t, sizeof t[0],
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS)
        return r;
    /* The counters wrap at timestampValidBits. */
    mask = ctx->timestamp_valid_bits >= 64 ? ~0ull : (1ull << ctx->timestamp_valid_bits) - 1;
    *ms = (double)((t[1] - t[0]) & mask) * ctx->info.timestamp_period_ns / 1e6;
    return VK_SUCCESS;
}
