/* dmap_resolve_run.c: running a spdgen --dmap resolve shader (the contract in spdrt_dmap.h):
 * the subsampled image uploaded as RGBA32F, the bins as a storage buffer, the output filled
 * with a sentinel first and read back as RGBA floats. */
#include <math.h>
#include <string.h>

#include "dmap_gpu.h"
#include "dmap_model.h"

typedef struct {
    spdrt_pipeline pipe;
    dmap_image dst, src;
    spdrt_buffer staging, bins, readback;
} resolve_state;

static void release(spdrt_context *ctx, resolve_state *s)
{
    spdrt__pipeline_destroy(ctx, &s->pipe);
    spdrt__dmap_image_destroy(ctx, &s->dst);
    spdrt__dmap_image_destroy(ctx, &s->src);
    spdrt__buffer_destroy(ctx, &s->staging);
    spdrt__buffer_destroy(ctx, &s->bins);
    spdrt__buffer_destroy(ctx, &s->readback);
}

static spdrt_result create(spdrt_context *ctx, const uint32_t *spirv, size_t words, uint32_t views,
                           spdrt_format format, const spdrt_dmap_resolve_params *p, size_t bin_words,
                           resolve_state *s)
{
    const spdrt_binding bindings[3] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, NULL,
                                        spdrt__format_vk(format)},
                                       {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, NULL, 0},
                                       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0}};
    spdrt_pipeline_desc desc = {spirv, words, bindings, 3, sizeof *p, 1, 0, 0};
    spdrt_result res = spdrt__pipeline_create(ctx, &desc, &s->pipe);
    if (res == SPDRT_OK)
        res = spdrt__dmap_image_create(ctx, spdrt__format_vk(format), spdrt__format_texel_size(format), p->width,
                                p->height, views, views > 1,
                                VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT, &s->dst);
    if (res == SPDRT_OK)
        res = spdrt__dmap_image_create(ctx, VK_FORMAT_R32G32B32A32_SFLOAT, 16, p->src_width, p->src_height, views,
                                views > 1, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &s->src);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, dmap_image_bytes(&s->src), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &s->staging);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, bin_words * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 1, &s->bins);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, dmap_image_bytes(&s->dst), VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1,
                                   &s->readback);
    return res;
}

static void write_set(spdrt_context *ctx, const resolve_state *s, size_t bin_words)
{
    VkDescriptorSet set = s->pipe.sets[0];
    spdrt__write_image(ctx, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, s->dst.view, VK_IMAGE_LAYOUT_GENERAL);
    spdrt__write_image(ctx, set, 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, s->src.view,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    spdrt__write_buffer(ctx, set, 2, s->bins.buffer, 0, bin_words * 4);
}

spdrt_result spdrt_dmap_resolve_run(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                                    uint32_t views, spdrt_format format,
                                    const spdrt_dmap_resolve_params *p, const uint32_t *bins,
                                    size_t bin_words, const float *src, float *out)
{
    resolve_state s;
    VkCommandBuffer cb;
    memset(&s, 0, sizeof s);
    spdrt_result res = spdrt__spirv_check(ctx, spirv, spirv_words);
    if (res == SPDRT_OK && (!views || views > SPDRT_DMAP_MAX_VIEWS || !p->width || !p->height || !p->bins))
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "resolve: views 1..6, a size and at least one bin");
    if (res == SPDRT_OK && format != SPDRT_RGBA16F && format != SPDRT_RGBA32F && format != SPDRT_RGBA8)
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "resolve: rgba16f, rgba32f or rgba8 output");
    if (res == SPDRT_OK) res = create(ctx, spirv, spirv_words, views, format, p, bin_words, &s);
    if (res == SPDRT_OK) {
        memcpy(s.staging.map, src, (size_t)dmap_image_bytes(&s.src));
        memcpy(s.bins.map, bins, bin_words * 4);
        write_set(ctx, &s, bin_words);
        res = spdrt__commands_begin(ctx, &cb);
    }
    if (res == SPDRT_OK) {
        const VkPipelineStageFlags cs = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        VkClearColorValue sentinel;
        memset(&sentinel, 0, sizeof sentinel);
        sentinel.float32[0] = sentinel.float32[1] = sentinel.float32[2] = sentinel.float32[3] = 0.25f;
        spdrt__dmap_record_upload(cb, &s.src, s.staging.buffer, 0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, cs,
                           VK_ACCESS_SHADER_READ_BIT);
        spdrt__dmap_record_clear(cb, &s.dst, VK_IMAGE_LAYOUT_UNDEFINED, &sentinel);
        spdrt__memory_barrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT, cs,
                              VK_ACCESS_SHADER_READ_BIT);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s.pipe.pipeline);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s.pipe.layout, 0, 1, s.pipe.sets, 0, NULL);
        vkCmdPushConstants(cb, s.pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof *p, p);
        vkCmdDispatch(cb, dmap_div_up(p->width, 8), dmap_div_up(p->height, 8), views);
        spdrt__dmap_record_readback(cb, &s.dst, s.readback.buffer);
        res = spdrt__commands_submit(ctx, cb);
    }
    if (res == SPDRT_OK) {
        const uint8_t *texels = s.readback.map;
        const uint32_t size = spdrt__format_texel_size(format);
        const size_t n = (size_t)p->width * p->height * views;
        for (size_t i = 0; i < n; i++) spdrt__texel_unpack(format, texels + i * size, out + 4 * i);
    }
    release(ctx, &s);
    return res;
}
