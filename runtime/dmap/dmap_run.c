/* dmap_run.c: running a spdgen --dmap fdm|fsr shader (the contract in spdrt_dmap.h): the
 * inputs as 16-bit float images, the map filled with a sentinel before each dispatch (so a
 * texel never written shows), read back in the reference's layout. */
#include <stdlib.h>
#include <string.h>

#include "dmap_gpu.h"
#include "dmap_internal.h"
#include "dmap_model.h"

typedef struct {
    spdrt_pipeline pipe;
    dmap_image map, colour, motion;
    spdrt_buffer staging, readback, axes;
} run_state;

static void release(spdrt_context *ctx, run_state *s)
{
    spdrt__pipeline_destroy(ctx, &s->pipe);
    spdrt__dmap_image_destroy(ctx, &s->map);
    spdrt__dmap_image_destroy(ctx, &s->colour);
    spdrt__dmap_image_destroy(ctx, &s->motion);
    spdrt__buffer_destroy(ctx, &s->staging);
    spdrt__buffer_destroy(ctx, &s->readback);
    spdrt__buffer_destroy(ctx, &s->axes);
}

static spdrt_result check(spdrt_context *ctx, const spdrt_dmap_gen_config *c,
                          const spdrt_dmap_gen_params *p, const float *colour, const float *motion)
{
    if (!c->views || c->views > SPDRT_DMAP_MAX_VIEWS)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "views %u: must be 1..6", c->views);
    if (!p->width || !p->height || p->width > 16384 || p->height > 16384)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "render size %ux%u: must be 1..16384 a side",
                            p->width, p->height);
    if (c->texel < 8 || c->texel > 1024 || (c->texel & (c->texel - 1)))
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "texel %u: must be a power of two 8..1024", c->texel);
    if (c->content && (!colour || !motion))
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "a --content shader needs colour and motion");
    return SPDRT_OK;
}

/* The grid of the contract: 8x8 texels per workgroup, a 64x64-pixel region, or a texel. */
static void grid_of(const spdrt_dmap_gen_config *c, const spdrt_dmap_gen_params *p, uint32_t g[3])
{
    spdrt_dmap_extent e = spdrt_dmap_gen_extent(c, p->width, p->height);
    if (!c->content) g[0] = dmap_div_up(e.width, 8), g[1] = dmap_div_up(e.height, 8);
    else if (c->texel > 64) g[0] = e.width, g[1] = e.height;
    else g[0] = dmap_div_up(p->width, 64), g[1] = dmap_div_up(p->height, 64);
    g[2] = c->views;
}

static spdrt_result create(spdrt_context *ctx, const uint32_t *spirv, size_t words,
                           const spdrt_dmap_gen_config *c, const spdrt_dmap_gen_params *p,
                           uint32_t push_words, run_state *s)
{
    const VkFormat map_format =
        c->kind == SPDRT_DMAP_FDM ? VK_FORMAT_R8G8_UNORM : VK_FORMAT_R8_UINT;
    const spdrt_binding bindings[4] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, NULL, map_format},
                                       {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, NULL, 0},
                                       {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, NULL, 0},
                                       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0}};
    const uint32_t count = c->rate_map ? 4u : c->content ? 3u : 1u;
    spdrt_pipeline_desc desc = {spirv, words, bindings, count, 4 * push_words, 1, 0, 0};
    spdrt_result res = spdrt__subgroup_plan(ctx, c->content ? c->subgroup : 0, c->content ? 256 : 64,
                                            &desc.required_subgroup, &desc.full_subgroups);
    if (res == SPDRT_OK) res = spdrt__pipeline_create(ctx, &desc, &s->pipe);
    const spdrt_dmap_extent e = spdrt_dmap_gen_extent(c, p->width, p->height);
    const int fdm = c->kind == SPDRT_DMAP_FDM, is_array = c->views > 1;
    if (res == SPDRT_OK)
        res = spdrt__dmap_image_create(ctx, map_format, fdm ? 2 : 1, e.width,
                                e.height, c->views, is_array,
                                VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT, &s->map);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, dmap_image_bytes(&s->map), VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1,
                                   &s->readback);
    if (res == SPDRT_OK && c->rate_map)
        res = spdrt__buffer_create(ctx, 4 * spdrt_dmap_gen_axes_count(c, p->width, p->height),
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1,
                                   &s->axes);
    if (res != SPDRT_OK || !c->content) return res;
    const VkImageUsageFlags in = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    res = spdrt__dmap_image_create(ctx, VK_FORMAT_R16G16B16A16_SFLOAT, 8, p->width, p->height, c->views, is_array,
                            in, &s->colour);
    if (res == SPDRT_OK)
        res = spdrt__dmap_image_create(ctx, VK_FORMAT_R16G16_SFLOAT, 4, p->width, p->height, c->views, is_array,
                                in, &s->motion);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, dmap_image_bytes(&s->colour) + dmap_image_bytes(&s->motion),
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &s->staging);
    return res;
}

/* colour and motion as halves, one after the other in the staging buffer. */
static void fill_staging(const run_state *s, const float *colour, const float *motion)
{
    uint16_t *h = s->staging.map;
    size_t nc = (size_t)dmap_image_bytes(&s->colour) / 2, nm = (size_t)dmap_image_bytes(&s->motion) / 2;
    for (size_t i = 0; i < nc; i++) h[i] = spdrt__float_to_half(colour[i]);
    for (size_t i = 0; i < nm; i++) h[nc + i] = spdrt__float_to_half(motion[i]);
}

/* The map's sentinel: values no rate encodes, density byte 128 (encodings are 255 >> k) and
 * FSR texel 238. */
static VkClearColorValue sentinel_of(const spdrt_dmap_gen_config *c)
{
    VkClearColorValue sentinel;
    memset(&sentinel, 0, sizeof sentinel);
    if (c->kind == SPDRT_DMAP_FDM) sentinel.float32[0] = sentinel.float32[1] = 128.0f / 255.0f;
    else sentinel.uint32[0] = 238;
    return sentinel;
}

struct dmap_gen_job {
    run_state s;
    spdrt_dmap_gen_config c;
    spdrt_dmap_gen_params p;
    uint32_t push[16], push_words, grid[3];
};

typedef struct {
    dmap_gen_job *job;
    uint32_t dispatches;
} recording;

/* Inputs uploaded, the map cleared to the sentinel, all in the layouts the shader uses. */
static void record_setup(VkCommandBuffer cb, void *user)
{
    const dmap_gen_job *j = user;
    const VkPipelineStageFlags cs = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    if (j->c.content) {
        spdrt__dmap_record_upload(cb, &j->s.colour, j->s.staging.buffer, 0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                           cs, VK_ACCESS_SHADER_READ_BIT);
        spdrt__dmap_record_upload(cb, &j->s.motion, j->s.staging.buffer, dmap_image_bytes(&j->s.colour),
                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, cs, VK_ACCESS_SHADER_READ_BIT);
    }
    VkClearColorValue sentinel = sentinel_of(&j->c);
    spdrt__dmap_record_clear(cb, &j->s.map, VK_IMAGE_LAYOUT_UNDEFINED, &sentinel);
}

void spdrt__dmap_gen_record(VkCommandBuffer cb, void *user)
{
    const dmap_gen_job *j = user;
    if (j->c.rate_map) { /* the axes start at all ones: the shader lowers them */
        vkCmdFillBuffer(cb, j->s.axes.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
        spdrt__memory_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                              VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                              VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                              VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, j->s.pipe.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, j->s.pipe.layout, 0, 1, j->s.pipe.sets, 0, NULL);
    vkCmdPushConstants(cb, j->s.pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4 * j->push_words, j->push);
    vkCmdDispatch(cb, j->grid[0], j->grid[1], j->grid[2]);
}

spdrt_result spdrt__dmap_gen_prepare(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                              const spdrt_dmap_gen_config *c, const spdrt_dmap_gen_params *p,
                              const float *colour, const float *motion, dmap_gen_job **out)
{
    VkCommandBuffer cb;
    *out = NULL;
    dmap_gen_job *j = calloc(1, sizeof *j);
    if (!j) return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    j->c = *c;
    j->p = *p;
    spdrt_result res = spdrt__spirv_check(ctx, spirv, spirv_words);
    if (res == SPDRT_OK) res = check(ctx, c, p, colour, motion);
    j->push_words = spdrt_dmap_gen_push(c, p, j->push);
    grid_of(c, p, j->grid);
    if (res == SPDRT_OK) res = create(ctx, spirv, spirv_words, c, p, j->push_words, &j->s);
    if (res == SPDRT_OK) {
        if (c->content) fill_staging(&j->s, colour, motion);
        spdrt__write_image(ctx, j->s.pipe.sets[0], 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, j->s.map.view,
                         VK_IMAGE_LAYOUT_GENERAL);
        if (c->content) {
            spdrt__write_image(ctx, j->s.pipe.sets[0], 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, j->s.colour.view,
                             VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            spdrt__write_image(ctx, j->s.pipe.sets[0], 2, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, j->s.motion.view,
                             VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        }
        if (c->rate_map) spdrt__write_buffer(ctx, j->s.pipe.sets[0], 3, j->s.axes.buffer, 0, j->s.axes.size);
        res = spdrt__commands_begin(ctx, &cb);
    }
    if (res == SPDRT_OK) {
        record_setup(cb, j);
        res = spdrt__commands_submit(ctx, cb);
    }
    if (res != SPDRT_OK) {
        spdrt__dmap_gen_release(ctx, j);
        return res;
    }
    *out = j;
    return SPDRT_OK;
}

/* `dispatches` runs, each after the map was refilled with the sentinel, then the read-back. */
static void record_runs(VkCommandBuffer cb, void *user)
{
    const recording *r = user;
    VkClearColorValue sentinel = sentinel_of(&r->job->c);
    for (uint32_t d = 0; d < r->dispatches; d++) {
        spdrt__dmap_record_clear(cb, &r->job->s.map, VK_IMAGE_LAYOUT_GENERAL, &sentinel);
        spdrt__dmap_gen_record(cb, r->job);
    }
    spdrt__dmap_record_readback(cb, &r->job->s.map, r->job->s.readback.buffer);
}

spdrt_result spdrt__dmap_gen_read(spdrt_context *ctx, dmap_gen_job *j, uint32_t dispatches, uint8_t *map,
                           uint32_t *axes)
{
    VkCommandBuffer cb;
    recording r = {j, dispatches};
    spdrt_result res = spdrt__commands_begin(ctx, &cb);
    if (res == SPDRT_OK) {
        record_runs(cb, &r);
        res = spdrt__commands_submit(ctx, cb);
    }
    if (res == SPDRT_OK) memcpy(map, j->s.readback.map, (size_t)dmap_image_bytes(&j->s.map));
    if (res == SPDRT_OK && axes && j->c.rate_map) memcpy(axes, j->s.axes.map, (size_t)j->s.axes.size);
    return res;
}

void spdrt__dmap_gen_release(spdrt_context *ctx, dmap_gen_job *j)
{
    if (!j) return;
    release(ctx, &j->s);
    free(j);
}

spdrt_result spdrt_dmap_gen_run(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                                const spdrt_dmap_gen_config *c, const spdrt_dmap_gen_params *p,
                                const float *colour, const float *motion, uint32_t dispatches,
                                uint8_t *map, uint32_t *axes)
{
    dmap_gen_job *j;
    spdrt_result res = spdrt__dmap_gen_prepare(ctx, spirv, spirv_words, c, p, colour, motion, &j);
    if (res == SPDRT_OK) res = spdrt__dmap_gen_read(ctx, j, dispatches ? dispatches : 1, map, axes);
    spdrt__dmap_gen_release(ctx, j);
    return res;
}
