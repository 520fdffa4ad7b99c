/* kernels.c: setting up and recording what the benchmark times (see kernels.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

#define LEVEL_GROUP 8u     /* bench/shaders/level.comp: 8x8 invocations, one texel each */
#define COPY_GROUP_ELEMS 1024u /* bench/shaders/copy.comp: 256 invocations, 4 vec4s each */

/* ---- SPD ----------------------------------------------------------------------------- */

/* The contract's descriptors: the whole workload, the whole counter and hand-off buffers. */
static void spd_descriptors(bench_workload *wl, bench_spd_kernel *k, uint32_t mips_bound,
                            VkDescriptorImageInfo *mips) {
    VkDescriptorBufferInfo counters = {wl->counters.buffer, 0, VK_WHOLE_SIZE};
    VkDescriptorBufferInfo handoff = {wl->level6.buffer, 0, VK_WHOLE_SIZE};
    spdrt__spd_write_set(wl->ctx, k->pipe.sets[0], wl->views, 0, wl->levels, mips_bound, mips,
                         &counters, &handoff);
}

spdrt_result bench_spd_kernel_create(bench_workload *wl, const uint32_t *spirv, size_t words,
                                     uint32_t mips_bound, uint32_t subgroup, uint32_t tile,
                                     int normalized_sampler, bench_spd_kernel *out) {
    VkDescriptorImageInfo *mips;
    spdrt_result res;
    memset(out, 0, sizeof *out);
    out->wl = wl;
    out->tile = tile ? tile : 64;
    if (out->tile < wl->min_tile)
        return spdrt__error(wl->ctx, SPDRT_ERROR_ARGUMENT,
                            "a --tile %u shader on a workload sized for tiles of %u and up",
                            out->tile, wl->min_tile);
    if (mips_bound < wl->levels)
        return spdrt__error(wl->ctx, SPDRT_ERROR_ARGUMENT,
                            "the shader binds %u levels but the workload has %u", mips_bound,
                            wl->levels);
    mips = calloc(mips_bound, sizeof *mips);
    if (!mips)
        return spdrt__error(wl->ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    res = spdrt__spd_pipeline_create(wl->ctx, spirv, words, mips_bound, subgroup,
                                     normalized_sampler, spdrt__format_vk(wl->format), &out->pipe);
    if (res == SPDRT_OK)
        spd_descriptors(wl, out, mips_bound, mips);
    free(mips);
    return res;
}

void bench_spd_kernel_record(VkCommandBuffer cb, void *user) {
    bench_spd_kernel *k = user;
    bench_workload *wl = k->wl;
    /* The contract's 32 bytes: a whole-image dispatch (tile_count and tile_offset 0),
     * tiles_per_workgroup tiles per workgroup. */
    uint32_t per_wg = k->tiles_per_workgroup > 1 ? k->tiles_per_workgroup : 1;
    uint32_t push[8] = {wl->width, wl->height, k->mip_count ? k->mip_count : wl->levels,
                        0, 0, 0, per_wg, 0};
    uint32_t grid_x = ((wl->width + k->tile - 1) / k->tile + per_wg - 1) / per_wg;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipe.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipe.layout, 0, 1,
                            &k->pipe.sets[0], 0, NULL);
    vkCmdPushConstants(cb, k->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    vkCmdDispatch(cb, grid_x, (wl->height + k->tile - 1) / k->tile, 1);
}

void bench_spd_kernel_destroy(bench_spd_kernel *k) {
    if (k->wl && !k->wl->ctx->hung)
        spdrt__pipeline_destroy(k->wl->ctx, &k->pipe);
    memset(k, 0, sizeof *k);
}

/* ---- one dispatch per level ---------------------------------------------------------- */

spdrt_result bench_level_kernel_create(bench_workload *wl, const uint32_t *spirv, size_t words,
                                       bench_level_kernel *out) {
    static const spdrt_binding bindings[2] = {{VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, NULL, 0},
                                              {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, NULL, 0}};
    spdrt_pipeline_desc desc = {.spirv = spirv, .spirv_words = words, .bindings = bindings,
                                .binding_count = 2, .push_bytes = 16, .set_count = wl->levels};
    VkDescriptorImageInfo img[2];
    VkWriteDescriptorSet w[2];
    spdrt_result res;
    uint32_t k, i;
    memset(out, 0, sizeof *out);
    out->wl = wl;
    res = spdrt__pipeline_create(wl->ctx, &desc, &out->pipe);
    if (res != SPDRT_OK)
        return res;
    for (k = 0; k < wl->levels; k++) {
        memset(img, 0, sizeof img);
        memset(w, 0, sizeof w);
        img[0].imageView = wl->views[k];
        img[1].imageView = wl->views[k + 1];
        for (i = 0; i < 2; i++) {
            img[i].imageLayout = VK_IMAGE_LAYOUT_GENERAL;
            w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
            w[i].dstSet = out->pipe.sets[k];
            w[i].dstBinding = i;
            w[i].descriptorCount = 1;
            w[i].descriptorType = bindings[i].type;
            w[i].pImageInfo = &img[i];
        }
        vkUpdateDescriptorSets(wl->ctx->device, 2, w, 0, NULL);
    }
    return SPDRT_OK;
}

void bench_level_kernel_record(VkCommandBuffer cb, void *user) {
    bench_level_kernel *lk = user;
    bench_workload *wl = lk->wl;
    VkMemoryBarrier between;
    uint32_t k;
    memset(&between, 0, sizeof between);
    between.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    between.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    between.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, lk->pipe.pipeline);
    for (k = 0; k < wl->levels; k++) {
        uint32_t push[4] = {wl->w[k], wl->h[k], wl->w[k + 1], wl->h[k + 1]};
        /* Level k was written by the previous dispatch. */
        if (k > 0)
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &between, 0, NULL,
                                 0, NULL);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, lk->pipe.layout, 0, 1,
                                &lk->pipe.sets[k], 0, NULL);
        vkCmdPushConstants(cb, lk->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push,
                           push);
        vkCmdDispatch(cb, (wl->w[k + 1] + LEVEL_GROUP - 1) / LEVEL_GROUP,
                      (wl->h[k + 1] + LEVEL_GROUP - 1) / LEVEL_GROUP, 1);
    }
}

void bench_level_kernel_destroy(bench_level_kernel *k) {
    if (k->wl && !k->wl->ctx->hung)
        spdrt__pipeline_destroy(k->wl->ctx, &k->pipe);
    memset(k, 0, sizeof *k);
}

/* ---- FidelityFX SPD (a peer) ---------------------------------------------------------- */

/* Pass p reads level base and writes the next `mips` levels (FidelityFX's own push constants:
 * mips, workgroups, offset); its 64x64 tiles over level base make the grid. */
static void ffx_grid(const bench_workload *wl, uint32_t base, uint32_t *x, uint32_t *y) {
    *x = (wl->w[base] + 63) / 64;
    *y = (wl->h[base] + 63) / 64;
}

spdrt_result bench_ffx_kernel_create(bench_workload *wl, const uint32_t *spirv, size_t words,
                                     bench_ffx_kernel *out) {
    static const spdrt_binding bindings[3] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                               BENCH_FFX_LEVELS, NULL, 0},
                                              {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, NULL, 0},
                                              {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0}};
    spdrt_pipeline_desc desc = {.spirv = spirv, .spirv_words = words, .bindings = bindings,
                                .binding_count = 3, .push_bytes = 16, .set_count = 2};
    VkDescriptorImageInfo levels[BENCH_FFX_LEVELS];
    VkWriteDescriptorSet w;
    spdrt_result res;
    uint32_t p, k;
    memset(out, 0, sizeof *out);
    out->wl = wl;
    /* One dispatch while level 6 fits one 64x64 region, else two: levels 1-6, then the rest
     * from level 6. */
    if (wl->levels > 6 && (wl->w[6] > 64 || wl->h[6] > 64)) {
        out->passes = 2;
        out->base[1] = 6, out->mips[0] = 6, out->mips[1] = wl->levels - 6;
    } else {
        out->passes = 1, out->mips[0] = wl->levels;
    }
    if (out->mips[out->passes - 1] > BENCH_FFX_LEVELS - 1)
        return spdrt__error(wl->ctx, SPDRT_ERROR_UNSUPPORTED,
                            "FidelityFX SPD makes at most %u levels a dispatch",
                            BENCH_FFX_LEVELS - 1);
    res = spdrt__pipeline_create(wl->ctx, &desc, &out->pipe);
    if (res != SPDRT_OK)
        return res;
    for (p = 0; p < out->passes; p++) {
        uint32_t last = out->base[p] + out->mips[p];
        for (k = 0; k < BENCH_FFX_LEVELS; k++) {
            memset(&levels[k], 0, sizeof levels[k]);
            levels[k].imageView = wl->views[out->base[p] + k < last ? out->base[p] + k : last];
            levels[k].imageLayout = VK_IMAGE_LAYOUT_GENERAL;
        }
        memset(&w, 0, sizeof w);
        w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w.dstSet = out->pipe.sets[p];
        w.dstBinding = 0;
        w.descriptorCount = BENCH_FFX_LEVELS;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        w.pImageInfo = levels;
        vkUpdateDescriptorSets(wl->ctx->device, 1, &w, 0, NULL);
        spdrt__write_image(wl->ctx, out->pipe.sets[p], 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                           wl->views[out->base[p] + 6 < last ? out->base[p] + 6 : last],
                           VK_IMAGE_LAYOUT_GENERAL);
        spdrt__write_buffer(wl->ctx, out->pipe.sets[p], 2, wl->counters.buffer, 0,
                            VK_WHOLE_SIZE);
    }
    return SPDRT_OK;
}

void bench_ffx_kernel_record(VkCommandBuffer cb, void *user) {
    bench_ffx_kernel *k = user;
    uint32_t p;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipe.pipeline);
    for (p = 0; p < k->passes; p++) {
        uint32_t x, y, push[4];
        ffx_grid(k->wl, k->base[p], &x, &y);
        push[0] = k->mips[p], push[1] = x * y, push[2] = 0, push[3] = 0;
        if (p > 0) /* level 6, written by pass 1, is pass 2's source */
            spdrt__memory_barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                  VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipe.layout, 0, 1,
                                &k->pipe.sets[p], 0, NULL);
        vkCmdPushConstants(cb, k->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push,
                           push);
        vkCmdDispatch(cb, x, y, 1);
    }
}

void bench_ffx_kernel_destroy(bench_ffx_kernel *k) {
    if (k->wl && !k->wl->ctx->hung)
        spdrt__pipeline_destroy(k->wl->ctx, &k->pipe);
    memset(k, 0, sizeof *k);
}

/* ---- blit chain ---------------------------------------------------------------------- */

spdrt_result bench_blit_supported(bench_workload *wl, VkFilter filter) {
    spdrt_context *ctx = wl->ctx;
    VkFormatProperties fp;
    VkQueueFamilyProperties *fams;
    uint32_t n = 0;
    VkQueueFlags flags;
    VkFormatFeatureFlags need = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
    if (filter == VK_FILTER_LINEAR)
        need |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, NULL);
    fams = calloc(n ? n : 1, sizeof *fams);
    if (!fams)
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, fams);
    flags = ctx->queue_family < n ? fams[ctx->queue_family].queueFlags : 0;
    free(fams);
    if (!(flags & VK_QUEUE_GRAPHICS_BIT))
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "vkCmdBlitImage needs a graphics queue; the runtime's queue "
                            "(family %u) has none", ctx->queue_family);
    vkGetPhysicalDeviceFormatProperties(ctx->physical, spdrt__format_vk(wl->format), &fp);
    if ((fp.optimalTilingFeatures & need) != need)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the device cannot blit %s images%s",
                            spdrt__format_name(wl->format),
                            filter == VK_FILTER_LINEAR ? " with linear filtering" : "");
    return SPDRT_OK;
}

void bench_blit_before(VkCommandBuffer cb, void *user) {
    bench_blit_chain *bc = user;
    bench_image_layout(cb, bc->wl, 0, 1, VK_IMAGE_LAYOUT_GENERAL,
                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    bench_image_layout(cb, bc->wl, 1, bc->wl->levels, VK_IMAGE_LAYOUT_GENERAL,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
}

void bench_blit_after(VkCommandBuffer cb, void *user) {
    bench_blit_chain *bc = user;
    bench_image_layout(cb, bc->wl, 0, bc->wl->levels, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                       VK_IMAGE_LAYOUT_GENERAL);
    bench_image_layout(cb, bc->wl, bc->wl->levels, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_GENERAL);
}

void bench_blit_record(VkCommandBuffer cb, void *user) {
    bench_blit_chain *bc = user;
    bench_workload *wl = bc->wl;
    VkImageBlit blit;
    uint32_t k;
    for (k = 1; k <= wl->levels; k++) {
        memset(&blit, 0, sizeof blit);
        blit.srcSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
        blit.srcSubresource.mipLevel = k - 1;
        blit.srcSubresource.layerCount = 1;
        blit.srcOffsets[1].x = (int32_t)wl->w[k - 1];
        blit.srcOffsets[1].y = (int32_t)wl->h[k - 1];
        blit.srcOffsets[1].z = 1;
        blit.dstSubresource = blit.srcSubresource;
        blit.dstSubresource.mipLevel = k;
        blit.dstOffsets[1].x = (int32_t)wl->w[k];
        blit.dstOffsets[1].y = (int32_t)wl->h[k];
        blit.dstOffsets[1].z = 1;
        vkCmdBlitImage(cb, wl->image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                       wl->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit,
                       bc->filter);
        /* Level k is the next blit's source. After the last level the timestamp (and the
         * harness's barrier) is the only synchronization, as for SPD's one dispatch. */
        if (k < wl->levels)
            spdrt__image_barrier(cb, &wl->image, k, 1, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                 VK_ACCESS_TRANSFER_WRITE_BIT,
                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    }
}

/* ---- the floor: a vec4 copy ---------------------------------------------------------- */

/* How many of the bytes [0, total) fall in chunk c (chunks of `chunk` bytes). */
static uint64_t chunk_part(uint64_t total, uint64_t chunk, uint64_t c) {
    uint64_t lo = c * chunk;
    if (lo >= total)
        return 0;
    return total - lo < chunk ? total - lo : chunk;
}

spdrt_result bench_copy_kernel_create(bench_workload *wl, const uint32_t *spirv, size_t words,
                                      uint64_t read_bytes, uint64_t write_bytes,
                                      bench_copy_kernel *out) {
    static const spdrt_binding bindings[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},
                                              {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0}};
    spdrt_pipeline_desc desc = {.spirv = spirv, .spirv_words = words, .bindings = bindings,
                                .binding_count = 2, .push_bytes = 16};
    spdrt_context *ctx = wl->ctx;
    uint64_t chunks, i;
    VkDescriptorBufferInfo bufs[2];
    VkWriteDescriptorSet w[2];
    spdrt_result res;
    memset(out, 0, sizeof *out);
    out->wl = wl;
    out->read_bytes = read_bytes, out->write_bytes = write_bytes;
    if (read_bytes == 0 || write_bytes > read_bytes || read_bytes % 16 || write_bytes % 16 ||
        read_bytes > wl->copy_src.size || write_bytes > wl->copy_dst.size)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "floor copy of %llu bytes read, %llu "
                            "written: not multiples of 16 within the buffers",
                            (unsigned long long)read_bytes, (unsigned long long)write_bytes);
    /* One binding sees at most maxStorageBufferRange bytes (as little as 128 MiB): larger
     * copies are split into chunks, dispatched back to back with no barrier between. */
    out->chunk_bytes = bench_chunk_bytes(ctx, read_bytes);
    if (out->chunk_bytes == 0)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "maxStorageBufferRange %u is too small for the floor copy",
                            ctx->limits.maxStorageBufferRange);
    chunks = (read_bytes + out->chunk_bytes - 1) / out->chunk_bytes;
    desc.set_count = (uint32_t)chunks;
    res = spdrt__pipeline_create(ctx, &desc, &out->pipe);
    if (res != SPDRT_OK)
        return res;
    for (i = 0; i < chunks; i++) {
        uint64_t offset = i * out->chunk_bytes;
        uint64_t wsize = chunk_part(write_bytes, out->chunk_bytes, i);
        bufs[0].buffer = wl->copy_src.buffer;
        bufs[0].offset = offset;
        bufs[0].range = chunk_part(read_bytes, out->chunk_bytes, i);
        /* A chunk that writes nothing still needs a valid binding (nothing is stored). */
        bufs[1].buffer = wl->copy_dst.buffer;
        bufs[1].offset = wsize ? offset : 0;
        bufs[1].range = wsize ? wsize : 16;
        memset(w, 0, sizeof w);
        for (uint32_t b = 0; b < 2; b++) {
            w[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
            w[b].dstSet = out->pipe.sets[i];
            w[b].dstBinding = b;
            w[b].descriptorCount = 1;
            w[b].descriptorType = bindings[b].type;
            w[b].pBufferInfo = &bufs[b];
        }
        vkUpdateDescriptorSets(ctx->device, 2, w, 0, NULL);
    }
    return SPDRT_OK;
}

void bench_copy_kernel_record(VkCommandBuffer cb, void *user) {
    bench_copy_kernel *ck = user;
    uint32_t i;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, ck->pipe.pipeline);
    for (i = 0; i < ck->pipe.set_count; i++) {
        uint32_t push[4];
        push[0] = (uint32_t)(chunk_part(ck->read_bytes, ck->chunk_bytes, i) / 16);
        push[1] = (uint32_t)(chunk_part(ck->write_bytes, ck->chunk_bytes, i) / 16);
        push[2] = 0xffffffffu; /* copy.comp's `never`: random data holds no all-ones vec4 */
        push[3] = 0;
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, ck->pipe.layout, 0, 1,
                                &ck->pipe.sets[i], 0, NULL);
        vkCmdPushConstants(cb, ck->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push,
                           push);
        bench_dispatch_linear(cb, ck->wl->ctx,
                              (push[0] + COPY_GROUP_ELEMS - 1) / COPY_GROUP_ELEMS);
    }
}

#define CHECK_PLACES 16u
#define CHECK_BYTES 4096u

typedef struct {
    bench_copy_kernel *ck;
    spdrt_buffer host;
    uint64_t offset[CHECK_PLACES], size;
} copy_check;

static void record_copy_check(VkCommandBuffer cb, void *user) {
    copy_check *c = user;
    VkBufferCopy src[CHECK_PLACES], dst[CHECK_PLACES];
    uint32_t i;
    for (i = 0; i < CHECK_PLACES; i++) {
        src[i].srcOffset = dst[i].srcOffset = c->offset[i];
        src[i].dstOffset = (uint64_t)i * c->size;
        dst[i].dstOffset = (uint64_t)(CHECK_PLACES + i) * c->size;
        src[i].size = dst[i].size = c->size;
    }
    vkCmdCopyBuffer(cb, c->ck->wl->copy_src.buffer, c->host.buffer, CHECK_PLACES, src);
    vkCmdCopyBuffer(cb, c->ck->wl->copy_dst.buffer, c->host.buffer, CHECK_PLACES, dst);
}

int bench_copy_kernel_check(bench_copy_kernel *k, char *err, size_t err_size) {
    spdrt_context *ctx = k->wl->ctx;
    copy_check c;
    uint32_t i;
    int rc = 0;
    memset(&c, 0, sizeof c);
    c.ck = k;
    c.size = k->write_bytes < CHECK_BYTES ? k->write_bytes : CHECK_BYTES;
    if (c.size == 0)
        return 0;
    for (i = 0; i < CHECK_PLACES; i++)
        c.offset[i] = (k->write_bytes - c.size) / (CHECK_PLACES - 1) * i / 16 * 16;
    c.offset[CHECK_PLACES - 1] = k->write_bytes - c.size;
    if (spdrt__buffer_create(ctx, 2 * CHECK_PLACES * c.size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                             1, &c.host) != SPDRT_OK ||
        bench_submit(ctx, record_copy_check, &c) != SPDRT_OK) {
        snprintf(err, err_size, "reading the floor's buffers back: %s", spdrt_last_error(ctx));
        rc = -1;
    }
    for (i = 0; rc == 0 && i < CHECK_PLACES; i++) {
        const unsigned char *a = (const unsigned char *)c.host.map + (uint64_t)i * c.size;
        const unsigned char *b = a + (uint64_t)CHECK_PLACES * c.size;
        if (memcmp(a, b, c.size) != 0) {
            uint64_t j = 0;
            while (a[j] == b[j])
                j++;
            snprintf(err, err_size, "the floor copy is wrong: destination byte %llu is 0x%02x, "
                     "the source's 0x%02x (%llu bytes written)",
                     (unsigned long long)(c.offset[i] + j), b[j], a[j],
                     (unsigned long long)k->write_bytes);
            rc = -1;
        }
    }
    if (!ctx->hung)
        spdrt__buffer_destroy(ctx, &c.host);
    return rc;
}

void bench_copy_kernel_destroy(bench_copy_kernel *k) {
    if (k->wl && !k->wl->ctx->hung)
        spdrt__pipeline_destroy(k->wl->ctx, &k->pipe);
    memset(k, 0, sizeof *k);
}

void bench_copy_buffer_record(VkCommandBuffer cb, void *user) {
    bench_workload *wl = user;
    VkBufferCopy region;
    memset(&region, 0, sizeof region);
    region.size = wl->copy_bytes;
    vkCmdCopyBuffer(cb, wl->copy_src.buffer, wl->copy_dst.buffer, 1, &region);
}
