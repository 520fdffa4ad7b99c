/* pipeline.c: compute pipelines. One builder for every kernel and the benchmarks: a shader
 * module, a descriptor set layout from a binding list, a pipeline layout with one push-constant
 * range, a pool with the sets the caller asked for, and the pipeline with the subgroup size
 * the shader was generated for. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SPIRV_MAGIC 0x07230203u
#define MAX_BINDINGS 8u

spdrt_result spdrt__spirv_check(spdrt_context *ctx, const uint32_t *spirv, size_t words) {
    if (!spirv || words < 5 || spirv[0] != SPIRV_MAGIC)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT,
                            "not a SPIR-V module (%zu words, first word 0x%08x)", words,
                            spirv && words ? spirv[0] : 0u);
    return SPDRT_OK;
}

/* OpExecutionMode LocalSize, or LocalSizeId with a constant, as SPIR-V 1.6 states it. */
uint32_t spdrt__spirv_local_size_x(const uint32_t *spirv, size_t words, uint32_t otherwise) {
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
    return otherwise;
}

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

static spdrt_result create_layouts(spdrt_context *ctx, const spdrt_pipeline_desc *d,
                                   spdrt_pipeline *p) {
    VkDescriptorSetLayoutBinding b[MAX_BINDINGS];
    VkDescriptorSetLayoutCreateInfo lci;
    VkPushConstantRange pc;
    VkPipelineLayoutCreateInfo plci;
    VkResult r;
    uint32_t i;
    memset(b, 0, sizeof b);
    for (i = 0; i < d->binding_count; i++) {
        b[i].binding = i;
        b[i].descriptorType = d->bindings[i].type;
        b[i].descriptorCount = d->bindings[i].count ? d->bindings[i].count : 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        b[i].pImmutableSamplers = d->bindings[i].samplers;
    }
    memset(&lci, 0, sizeof lci);
    lci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    lci.bindingCount = d->binding_count;
    lci.pBindings = b;
    r = vkCreateDescriptorSetLayout(ctx->device, &lci, NULL, &p->set_layout);
    if (r != VK_SUCCESS) {
        p->set_layout = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateDescriptorSetLayout", r);
    }
    pc.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    pc.offset = 0;
    pc.size = d->push_bytes;
    memset(&plci, 0, sizeof plci);
    plci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &p->set_layout;
    plci.pushConstantRangeCount = d->push_bytes ? 1 : 0;
    plci.pPushConstantRanges = d->push_bytes ? &pc : NULL;
    r = vkCreatePipelineLayout(ctx->device, &plci, NULL, &p->layout);
    if (r != VK_SUCCESS) {
        p->layout = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreatePipelineLayout", r);
    }
    return SPDRT_OK;
}

/* The pool holds exactly the sets' descriptors: per type, its bindings' counts x sets. */
static spdrt_result create_sets(spdrt_context *ctx, const spdrt_pipeline_desc *d,
                                spdrt_pipeline *p) {
    VkDescriptorPoolSize sizes[MAX_BINDINGS];
    VkDescriptorPoolCreateInfo pci;
    VkDescriptorSetAllocateInfo ai;
    VkDescriptorSetLayout *layouts;
    VkResult r;
    uint32_t i, j, n = 0;
    for (i = 0; i < d->binding_count; i++) {
        uint32_t count = (d->bindings[i].count ? d->bindings[i].count : 1) * d->set_count;
        for (j = 0; j < n && sizes[j].type != d->bindings[i].type; j++)
            ;
        if (j == n) {
            sizes[n].type = d->bindings[i].type;
            sizes[n++].descriptorCount = 0;
        }
        sizes[j].descriptorCount += count;
    }
    memset(&pci, 0, sizeof pci);
    pci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pci.maxSets = d->set_count;
    pci.poolSizeCount = n;
    pci.pPoolSizes = sizes;
    r = vkCreateDescriptorPool(ctx->device, &pci, NULL, &p->pool);
    if (r != VK_SUCCESS) {
        p->pool = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateDescriptorPool", r);
    }
    p->sets = calloc(d->set_count, sizeof *p->sets);
    layouts = calloc(d->set_count, sizeof *layouts);
    if (!p->sets || !layouts) {
        free(layouts);
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (i = 0; i < d->set_count; i++)
        layouts[i] = p->set_layout;
    memset(&ai, 0, sizeof ai);
    ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    ai.descriptorPool = p->pool;
    ai.descriptorSetCount = d->set_count;
    ai.pSetLayouts = layouts;
    r = vkAllocateDescriptorSets(ctx->device, &ai, p->sets);
    free(layouts);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkAllocateDescriptorSets", r);
    p->set_count = d->set_count;
    return SPDRT_OK;
}

static spdrt_result create_pipeline(spdrt_context *ctx, const spdrt_pipeline_desc *d,
                                    spdrt_pipeline *p) {
    VkShaderModuleCreateInfo mci;
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rs;
    VkComputePipelineCreateInfo cci;
    VkResult r;
    memset(&mci, 0, sizeof mci);
    mci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    mci.codeSize = d->spirv_words * sizeof(uint32_t);
    mci.pCode = d->spirv;
    r = vkCreateShaderModule(ctx->device, &mci, NULL, &p->module);
    if (r != VK_SUCCESS) {
        p->module = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateShaderModule", r);
    }
    memset(&cci, 0, sizeof cci);
    cci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    cci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cci.stage.module = p->module;
    cci.stage.pName = "main";
    if (d->full_subgroups)
        cci.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    if (d->required_subgroup) {
        memset(&rs, 0, sizeof rs);
        rs.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO;
        rs.requiredSubgroupSize = d->required_subgroup;
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

spdrt_result spdrt__pipeline_create(spdrt_context *ctx, const spdrt_pipeline_desc *desc,
                                    spdrt_pipeline *out) {
    spdrt_result res;
    char why[256];
    int fits = 0;
    memset(out, 0, sizeof *out);
    if (desc->binding_count > MAX_BINDINGS)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "too many bindings (%u)",
                            desc->binding_count);
    if (desc->set_count == 0)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "a pipeline needs at least one set");
    res = spdrt__spirv_check(ctx, desc->spirv, desc->spirv_words);
    if (res == SPDRT_OK)
        fits = spdrt__spirv_fits(desc->spirv, desc->spirv_words, desc->bindings,
                                 desc->binding_count, desc->push_bytes, why, sizeof why);
    if (res == SPDRT_OK && fits != 0)
        res = spdrt__error(ctx, fits == -2 ? SPDRT_ERROR_OUT_OF_MEMORY : SPDRT_ERROR_ARGUMENT,
                           "%s", why);
    if (res == SPDRT_OK)
        res = spdrt__fp16_check(ctx, desc->spirv, desc->spirv_words);
    if (res == SPDRT_OK)
        res = create_layouts(ctx, desc, out);
    if (res == SPDRT_OK)
        res = create_sets(ctx, desc, out);
    if (res == SPDRT_OK)
        res = create_pipeline(ctx, desc, out);
    if (res != SPDRT_OK)
        spdrt__pipeline_destroy(ctx, out);
    return res;
}

void spdrt__pipeline_destroy(spdrt_context *ctx, spdrt_pipeline *p) {
    if (p->pipeline)
        vkDestroyPipeline(ctx->device, p->pipeline, NULL);
    if (p->module)
        vkDestroyShaderModule(ctx->device, p->module, NULL);
    if (p->pool)  /* frees the sets with it */
        vkDestroyDescriptorPool(ctx->device, p->pool, NULL);
    if (p->layout)
        vkDestroyPipelineLayout(ctx->device, p->layout, NULL);
    if (p->set_layout)
        vkDestroyDescriptorSetLayout(ctx->device, p->set_layout, NULL);
    free(p->sets);
    memset(p, 0, sizeof *p);
}

void spdrt__write_buffer(spdrt_context *ctx, VkDescriptorSet set, uint32_t binding, VkBuffer buffer,
                         VkDeviceSize offset, VkDeviceSize range)
{
    VkDescriptorBufferInfo info = {buffer, offset, range};
    VkWriteDescriptorSet w;
    memset(&w, 0, sizeof w);
    w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w.dstSet = set;
    w.dstBinding = binding;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &info;
    vkUpdateDescriptorSets(ctx->device, 1, &w, 0, NULL);
}

void spdrt__write_image(spdrt_context *ctx, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                        VkImageView view, VkImageLayout layout)
{
    VkDescriptorImageInfo info = {VK_NULL_HANDLE, view, layout};
    VkWriteDescriptorSet w;
    memset(&w, 0, sizeof w);
    w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w.dstSet = set;
    w.dstBinding = binding;
    w.descriptorCount = 1;
    w.descriptorType = type;
    w.pImageInfo = &info;
    vkUpdateDescriptorSets(ctx->device, 1, &w, 0, NULL);
}
