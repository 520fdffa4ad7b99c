/* spd_pipeline.c: the SPD binding contract (spdrt_spd.h) as a binding list for the core's
 * pipeline builder, the linear sampler of binding 4, and the context's cache of the last
 * pipeline: tests and benchmarks run one shader on many sizes, and building a pipeline costs
 * more than a small run. */
#include <stdlib.h>
#include <string.h>

#include "spd_internal.h"

#define SPD_LOCAL_SIZE 256u /* the local size of --tile 64 shaders; other tiles state --wg */
#define SPD_PUSH_BYTES 32u  /* the contract's block: templates/spd/push.lua */

/* A built pipeline kept with a copy of the SPIR-V and the parameters it was built for. */
typedef struct {
    spdrt_pipeline pipe;
    uint32_t *spirv;
    size_t spirv_words;
    uint32_t mips_bound, subgroup;
    int normalized_sampler;
    VkFormat level_format;
} spd_cache;

/* What SPD keeps with a context. */
typedef struct {
    /* Binding 4 of --sampler linear shaders, made on first use: [0] unnormalized coordinates
     * (texel units), [1] normalized (--sampler-coords normalized, implied by --array). */
    VkSampler linear_sampler[2];
    spd_cache cache;
} spd_state;

static const char state_key = 0; /* its address names SPD's state in the context */

static void cache_clear(spdrt_context *ctx, spd_cache *c) {
    spdrt__pipeline_destroy(ctx, &c->pipe);
    free(c->spirv);
    memset(c, 0, sizeof *c);
}

/* The cached pipeline's layout uses the samplers: it goes first. */
static void release_state(spdrt_context *ctx, void *data) {
    spd_state *st = data;
    cache_clear(ctx, &st->cache);
    for (int i = 0; i < 2; i++)
        if (st->linear_sampler[i])
            vkDestroySampler(ctx->device, st->linear_sampler[i], NULL);
}

static spdrt_result state_of(spdrt_context *ctx, spd_state **out) {
    *out = spdrt__context_state(ctx, &state_key, sizeof **out, release_state);
    return *out ? SPDRT_OK : spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
}

/* The sampler of --sampler linear shaders (binding 4): linear filtering, clamp to edge, made
 * once per context and built into every SPD layout as an immutable sampler, so shaders that
 * do not declare it are unaffected. By default a shader samples at texel coordinates
 * (unnormalized: the block centres 2x + 1 are exact at any size); with --sampler-coords
 * normalized or --array at normalized ones (Vulkan allows unnormalized coordinates only on
 * single-layer views). The unnormalized sampler's other settings are the ones Vulkan requires
 * of it: one filter, nearest mips, LOD 0. */
static spdrt_result linear_sampler(spdrt_context *ctx, int normalized, VkSampler *out) {
    spd_state *st;
    VkSampler *s;
    VkSamplerCreateInfo sci;
    VkResult r;
    spdrt_result res = state_of(ctx, &st);
    if (res != SPDRT_OK)
        return res;
    s = &st->linear_sampler[normalized ? 1 : 0];
    if (!*s) {
        memset(&sci, 0, sizeof sci);
        sci.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
        sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
        sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        sci.addressModeU = sci.addressModeV = sci.addressModeW =
            VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        sci.maxLod = 0.0f;
        sci.unnormalizedCoordinates = normalized ? VK_FALSE : VK_TRUE;
        r = vkCreateSampler(ctx->device, &sci, NULL, s);
        if (r != VK_SUCCESS) {
            *s = VK_NULL_HANDLE;
            return spdrt__vk_error(ctx, "vkCreateSampler", r);
        }
    }
    *out = *s;
    return SPDRT_OK;
}

spdrt_result spdrt__spd_pipeline_create(spdrt_context *ctx, const uint32_t *spirv,
                                        size_t spirv_words, uint32_t mips_bound,
                                        uint32_t subgroup, int normalized_sampler,
                                        VkFormat level_format, spdrt_pipeline *out) {
    spdrt_binding bindings[5] = {
        {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, NULL, 0},   /* level 0 */
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 0, NULL, 0},   /* levels 1..mips_bound */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},  /* counters */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},  /* the hand-off */
        {VK_DESCRIPTOR_TYPE_SAMPLER, 1, NULL, 0},         /* --sampler linear */
    };
    spdrt_pipeline_desc desc;
    VkSampler sampler;
    spdrt_result res;
    memset(out, 0, sizeof *out);
    res = spdrt__spirv_check(ctx, spirv, spirv_words);
    if (res != SPDRT_OK)
        return res;
    if (mips_bound == 0)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "mips_bound must be at least 1");
    if (mips_bound > ctx->limits.maxPerStageDescriptorStorageImages ||
        mips_bound > ctx->limits.maxDescriptorSetStorageImages)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the shader binds %u storage images; the device allows %u per stage",
                            mips_bound, ctx->limits.maxPerStageDescriptorStorageImages);
    memset(&desc, 0, sizeof desc);
    res = spdrt__subgroup_plan(ctx, subgroup,
                               spdrt__spirv_local_size_x(spirv, spirv_words, SPD_LOCAL_SIZE),
                               &desc.required_subgroup, &desc.full_subgroups);
    if (res == SPDRT_OK)
        res = linear_sampler(ctx, normalized_sampler, &sampler);
    if (res != SPDRT_OK)
        return res;
    bindings[1].count = mips_bound;
    bindings[1].format = level_format;
    bindings[4].samplers = &sampler;
    desc.spirv = spirv;
    desc.spirv_words = spirv_words;
    desc.bindings = bindings;
    desc.binding_count = 5;
    desc.push_bytes = SPD_PUSH_BYTES;
    desc.set_count = SPDRT_SPD_MAX_PASSES;
    return spdrt__pipeline_create(ctx, &desc, out);
}

void spdrt__spd_write_set(spdrt_context *ctx, VkDescriptorSet set, const VkImageView *views,
                          uint32_t base, uint32_t last, uint32_t mips_bound,
                          VkDescriptorImageInfo *mips, const VkDescriptorBufferInfo *counters,
                          const VkDescriptorBufferInfo *handoff) {
    VkDescriptorImageInfo src;
    VkWriteDescriptorSet w[4];
    uint32_t i;
    memset(&src, 0, sizeof src);
    src.imageView = views[base];
    src.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    for (i = 0; i < mips_bound; i++) {
        memset(&mips[i], 0, sizeof mips[i]);
        mips[i].imageView = views[base + i < last ? base + i + 1 : last];
        mips[i].imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    }
    memset(w, 0, sizeof w);
    for (i = 0; i < 4; i++) {
        w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w[i].dstSet = set;
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
    }
    w[0].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    w[0].pImageInfo = &src;
    w[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    w[1].descriptorCount = mips_bound;
    w[1].pImageInfo = mips;
    w[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[2].pBufferInfo = counters;
    w[3].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[3].pBufferInfo = handoff;
    vkUpdateDescriptorSets(ctx->device, 4, w, 0, NULL);
}

spdrt_result spdrt__spd_pipeline_get(spdrt_context *ctx, const uint32_t *spirv,
                                     size_t spirv_words, uint32_t mips_bound, uint32_t subgroup,
                                     int normalized_sampler, VkFormat level_format,
                                     const spdrt_pipeline **out) {
    spd_state *st;
    spd_cache *c;
    spdrt_result res = state_of(ctx, &st);
    if (res != SPDRT_OK)
        return res;
    c = &st->cache;
    if (c->spirv && c->spirv_words == spirv_words && c->mips_bound == mips_bound &&
        c->subgroup == subgroup && c->normalized_sampler == normalized_sampler &&
        c->level_format == level_format &&
        memcmp(c->spirv, spirv, spirv_words * 4) == 0) {
        *out = &c->pipe;
        return SPDRT_OK;
    }
    cache_clear(ctx, c);
    res = spdrt__spd_pipeline_create(ctx, spirv, spirv_words, mips_bound, subgroup,
                                     normalized_sampler, level_format, &c->pipe);
    if (res != SPDRT_OK)
        return res;
    c->spirv = malloc(spirv_words * 4);
    if (!c->spirv) {
        cache_clear(ctx, c);
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(c->spirv, spirv, spirv_words * 4);
    c->spirv_words = spirv_words;
    c->mips_bound = mips_bound;
    c->subgroup = subgroup;
    c->normalized_sampler = normalized_sampler;
    c->level_format = level_format;
    *out = &c->pipe;
    return SPDRT_OK;
}
