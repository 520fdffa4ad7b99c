/* pipeline.c: the SPD binding contract (spdrt.h) as a descriptor set layout, and a compute
 * pipeline for one shader with the subgroup size the shader was generated for. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SPIRV_MAGIC 0x07230203u
#define SPD_LOCAL_SIZE 256u   /* the local size of --tile 64 shaders, 256x1x1 */
#define SPD_PUSH_BYTES 32u  /* the contract's block: templates/spd_push.lua */

/* Decides how the pipeline meets the shader's --subgroup S (the minimum subgroup size its
 * code assumes): *required = S when the device can be told to use exactly S, and *full
 * when whole subgroups can be demanded (a partial subgroup would break the shuffles). */
spdrt_result spdrt__subgroup_plan(spdrt_context *ctx, uint32_t s, uint32_t local_size,
                                  uint32_t *required, int *full) {
    const spdrt_device_info *info = &ctx->info;
    uint32_t least;
    *required = 0;
    *full = 0;
    if (s == 0)
        return SPDRT_OK;
    if (s & (s - 1))
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT,
                            "shader subgroup size %u is not a power of two", s);
    if (!(ctx->subgroup_stages & VK_SHADER_STAGE_COMPUTE_BIT))
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the shader uses subgroup operations (--subgroup %u) but \"%s\" "
                            "has none in compute shaders", s, info->name);
    if (s < 8 && !(ctx->subgroup_ops & VK_SUBGROUP_FEATURE_QUAD_BIT))
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the shader uses subgroup quad operations (--subgroup %u) but \"%s\" "
                            "does not support them", s, info->name);
    if (s >= 8 && !(ctx->subgroup_ops & VK_SUBGROUP_FEATURE_SHUFFLE_BIT))
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the shader uses subgroup shuffles (--subgroup %u) but \"%s\" does "
                            "not support them", s, info->name);
    /* Full subgroups need a multiple of the subgroup size in invocations; a smaller
     * workgroup (--tile below 64) is one partial subgroup, its exchanges within it. */
    if (s >= 8 && ctx->size_control && info->min_subgroup_size <= s &&
        s <= info->max_subgroup_size &&
        local_size / s <= ctx->max_workgroup_subgroups) {
        *required = s;
        *full = ctx->full_subgroups && local_size % s == 0;
        return SPDRT_OK;
    }
    *full = ctx->full_subgroups && local_size % info->subgroup_size == 0;
    /* Otherwise the device picks: every size it may pick must be at least S. With size
     * control that is any size in [min, max]; without it, the one subgroupSize. */
    if (s > info->max_subgroup_size)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the shader needs subgroups of at least %u invocations but \"%s\" "
                            "has at most %u", s, info->name, info->max_subgroup_size);
    least = info->min_subgroup_size;
    if (least < s)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the shader needs subgroups of at least %u invocations but \"%s\" "
                            "may use %u and cannot be told to use %u", s, info->name, least, s);
    return SPDRT_OK;
}

/* The sampler of --sampler linear shaders (binding 4): linear filtering, clamp to edge, made
 * once per context and built into every SPD layout as an immutable sampler, so shaders that
 * do not declare it are unaffected. By default a shader samples at texel coordinates
 * (unnormalized: the block centres 2x + 1 are exact at any size); with --sampler-coords
 * normalized or --array at normalized ones (Vulkan allows unnormalized coordinates only on
 * single-layer views). The unnormalized sampler's other settings are the ones Vulkan requires
 * of it: one filter, nearest mips, LOD 0. */
static spdrt_result linear_sampler(spdrt_context *ctx, int normalized, VkSampler *out) {
    VkSampler *s = &ctx->linear_sampler[normalized ? 1 : 0];
    VkSamplerCreateInfo sci;
    VkResult r;
    if (!*s) {
        memset(&sci, 0, sizeof sci);
        sci.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
        sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
        sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
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

static spdrt_result create_layout(spdrt_context *ctx, uint32_t mips_bound, int normalized_sampler,
                                  spdrt_pipeline *p) {
    VkDescriptorSetLayoutBinding b[5];
    VkSampler sampler;
    VkDescriptorSetLayoutCreateInfo lci;
    VkPushConstantRange pc;
    VkPipelineLayoutCreateInfo plci;
    VkResult r;
    static const VkDescriptorType types[4] = {
        VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    uint32_t i;
    spdrt_result res = linear_sampler(ctx, normalized_sampler, &sampler);
    if (res != SPDRT_OK)
        return res;
    memset(b, 0, sizeof b);
    for (i = 0; i < 4; i++) {
        b[i].binding = i;
        b[i].descriptorType = types[i];
        b[i].descriptorCount = i == 1 ? mips_bound : 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    b[4].binding = 4;
    b[4].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER;
    b[4].descriptorCount = 1;
    b[4].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    b[4].pImmutableSamplers = &sampler;
    memset(&lci, 0, sizeof lci);
    lci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    lci.bindingCount = 5;
    lci.pBindings = b;
    r = vkCreateDescriptorSetLayout(ctx->device, &lci, NULL, &p->set_layout);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkCreateDescriptorSetLayout", r);
    pc.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    pc.offset = 0;
    pc.size = SPD_PUSH_BYTES;
    memset(&plci, 0, sizeof plci);
    plci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &p->set_layout;
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &pc;
    r = vkCreatePipelineLayout(ctx->device, &plci, NULL, &p->layout);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkCreatePipelineLayout", r);
    return SPDRT_OK;
}

static spdrt_result create_set(spdrt_context *ctx, uint32_t mips_bound, spdrt_pipeline *p) {
    VkDescriptorPoolSize sizes[4];
    VkDescriptorPoolCreateInfo pci;
    VkDescriptorSetAllocateInfo ai;
    VkResult r;
    VkDescriptorSetLayout layouts[SPDRT_MAX_PASSES];
    uint32_t i;
    sizes[0].type = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    sizes[0].descriptorCount = SPDRT_MAX_PASSES;
    sizes[1].type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    sizes[1].descriptorCount = mips_bound * SPDRT_MAX_PASSES;
    sizes[2].type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    sizes[2].descriptorCount = 2 * SPDRT_MAX_PASSES;
    sizes[3].type = VK_DESCRIPTOR_TYPE_SAMPLER;
    sizes[3].descriptorCount = SPDRT_MAX_PASSES;
    memset(&pci, 0, sizeof pci);
    pci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pci.maxSets = SPDRT_MAX_PASSES;
    pci.poolSizeCount = 4;
    pci.pPoolSizes = sizes;
    r = vkCreateDescriptorPool(ctx->device, &pci, NULL, &p->pool);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkCreateDescriptorPool", r);
    memset(&ai, 0, sizeof ai);
    ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    ai.descriptorPool = p->pool;
    for (i = 0; i < SPDRT_MAX_PASSES; i++)
        layouts[i] = p->set_layout;
    ai.descriptorSetCount = SPDRT_MAX_PASSES;
    ai.pSetLayouts = layouts;
    r = vkAllocateDescriptorSets(ctx->device, &ai, p->pass_sets);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkAllocateDescriptorSets", r);
    p->set = p->pass_sets[0];
    return SPDRT_OK;
}

spdrt_result spdrt__compute_pipeline_create(spdrt_context *ctx, const uint32_t *spirv,
                                            size_t spirv_words, uint32_t required, int full,
                                            spdrt_pipeline *p) {
    VkShaderModuleCreateInfo mci;
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rs;
    VkComputePipelineCreateInfo cci;
    VkResult r;
    spdrt_result res = spdrt__fp16_check(ctx, spirv, spirv_words);
    if (res != SPDRT_OK)
        return res;
    memset(&mci, 0, sizeof mci);
    mci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    mci.codeSize = spirv_words * sizeof(uint32_t);
    mci.pCode = spirv;
    r = vkCreateShaderModule(ctx->device, &mci, NULL, &p->module);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkCreateShaderModule", r);

    memset(&cci, 0, sizeof cci);
    cci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    cci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cci.stage.module = p->module;
    cci.stage.pName = "main";
    if (full)
        cci.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    if (required) {
        memset(&rs, 0, sizeof rs);
        rs.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO;
        rs.requiredSubgroupSize = required;
        cci.stage.pNext = &rs;
    }
    cci.flags = spdrt__statistics_flags(ctx);
    cci.layout = p->layout;
    cci.basePipelineIndex = -1;
    r = vkCreateComputePipelines(ctx->device, VK_NULL_HANDLE, 1, &cci, NULL, &p->pipeline);
    if (r != VK_SUCCESS) {
        p->pipeline = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateComputePipelines", r);
    }
    spdrt__statistics_record(ctx, p->pipeline);
    return SPDRT_OK;
}

/* The LocalSize x of the module's entry point (OpExecutionMode LocalSize, or LocalSizeId
 * with a constant, as SPIR-V 1.6 states it); SPD_LOCAL_SIZE when neither is found. SPD
 * shaders of other tiles than 64 have 1..256 invocations (--wg). */
static uint32_t local_size_x(const uint32_t *spirv, size_t words) {
    size_t i, len;
    uint32_t id = 0;
    for (i = 5; i < words; i += len) {
        uint32_t op = spirv[i] & 0xffffu;
        len = spirv[i] >> 16;
        if (len == 0 || i + len > words)
            break;
        if (op == 16 && len >= 4 && spirv[i + 2] == 17)  /* OpExecutionMode LocalSize */
            return spirv[i + 3];
        if (op == 331 && len >= 4 && spirv[i + 2] == 38)  /* OpExecutionModeId LocalSizeId */
            id = spirv[i + 3];
        if (op == 43 && len >= 4 && id && spirv[i + 2] == id)  /* OpConstant of that id */
            return spirv[i + 3];
    }
    return SPD_LOCAL_SIZE;
}

spdrt_result spdrt__spd_pipeline_create(spdrt_context *ctx, const uint32_t *spirv,
                                        size_t spirv_words, uint32_t mips_bound,
                                        uint32_t subgroup, int normalized_sampler,
                                        spdrt_pipeline *out) {
    uint32_t required;
    int full;
    spdrt_result res;
    memset(out, 0, sizeof *out);
    if (!spirv || spirv_words < 5 || spirv[0] != SPIRV_MAGIC)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT,
                            "not a SPIR-V module (%zu words, first word 0x%08x)", spirv_words,
                            spirv && spirv_words ? spirv[0] : 0u);
    if (mips_bound == 0)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "mips_bound must be at least 1");
    if (mips_bound > ctx->limits.maxPerStageDescriptorStorageImages ||
        mips_bound > ctx->limits.maxDescriptorSetStorageImages)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the shader binds %u storage images; the device allows %u per stage",
                            mips_bound, ctx->limits.maxPerStageDescriptorStorageImages);
    res = spdrt__subgroup_plan(ctx, subgroup, local_size_x(spirv, spirv_words), &required, &full);
    if (res == SPDRT_OK)
        res = create_layout(ctx, mips_bound, normalized_sampler, out);
    if (res == SPDRT_OK)
        res = create_set(ctx, mips_bound, out);
    if (res == SPDRT_OK)
        res = spdrt__compute_pipeline_create(ctx, spirv, spirv_words, required, full, out);
    if (res != SPDRT_OK)
        spdrt__spd_pipeline_destroy(ctx, out);
    return res;
}

void spdrt__spd_pipeline_destroy(spdrt_context *ctx, spdrt_pipeline *p) {
    if (p->pipeline)
        vkDestroyPipeline(ctx->device, p->pipeline, NULL);
    if (p->module)
        vkDestroyShaderModule(ctx->device, p->module, NULL);
    if (p->pool)  /* frees p->set with it */
        vkDestroyDescriptorPool(ctx->device, p->pool, NULL);
    if (p->layout)
        vkDestroyPipelineLayout(ctx->device, p->layout, NULL);
    if (p->set_layout)
        vkDestroyDescriptorSetLayout(ctx->device, p->set_layout, NULL);
    memset(p, 0, sizeof *p);
}

void spdrt__spd_pipeline_cache_clear(spdrt_context *ctx) {
    spdrt__spd_pipeline_destroy(ctx, &ctx->spd_cache.pipe);
    free(ctx->spd_cache.spirv);
    memset(&ctx->spd_cache, 0, sizeof ctx->spd_cache);
}

spdrt_result spdrt__spd_pipeline_get(spdrt_context *ctx, const uint32_t *spirv,
                                     size_t spirv_words, uint32_t mips_bound, uint32_t subgroup,
                                     int normalized_sampler, const spdrt_pipeline **out) {
    spdrt_spd_pipeline_cache *c = &ctx->spd_cache;
    spdrt_result res;
    if (c->spirv && c->spirv_words == spirv_words && c->mips_bound == mips_bound &&
        c->subgroup == subgroup && c->normalized_sampler == normalized_sampler &&
        memcmp(c->spirv, spirv, spirv_words * 4) == 0) {
        *out = &c->pipe;
        return SPDRT_OK;
    }
    spdrt__spd_pipeline_cache_clear(ctx);
    res = spdrt__spd_pipeline_create(ctx, spirv, spirv_words, mips_bound, subgroup,
                                     normalized_sampler, &c->pipe);
    if (res != SPDRT_OK)
        return res;
    c->spirv = malloc(spirv_words * 4);
    if (!c->spirv) {
        spdrt__spd_pipeline_cache_clear(ctx);
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(c->spirv, spirv, spirv_words * 4);
    c->spirv_words = spirv_words;
    c->mips_bound = mips_bound;
    c->subgroup = subgroup;
    c->normalized_sampler = normalized_sampler;
    *out = &c->pipe;
    return SPDRT_OK;
}
