/* device.c: the functions of an application's device (device.h). Device-level pointers from
 * vkGetDeviceProcAddr skip the loader's trampolines and work whichever loader made the
 * device, as long as the caller passes that loader's vkGetDeviceProcAddr. */
#include <stdio.h>
#include <string.h>

#include "device.h"

int spdrt__device_load(VkDevice device, const VkAllocationCallbacks *allocator,
                       PFN_vkGetDeviceProcAddr get_device_proc_addr, spdrt_device_fns *out,
                       char *err, size_t err_size) {
    memset(out, 0, sizeof *out);
    if (!device) {
        snprintf(err, err_size, "no VkDevice given");
        return -1;
    }
    if (!get_device_proc_addr) {
        if (spdrt__vulkan_load(err, err_size) != 0)
            return -1;
        get_device_proc_addr = vkGetDeviceProcAddr;
    }
    out->device = device;
    out->allocator = allocator;
#define SPDRT_DEVICE_RESOLVE(name)                                                      \
    out->name = (PFN_vk##name)get_device_proc_addr(device, "vk" #name);                \
    if (!out->name) {                                                                   \
        snprintf(err, err_size, "vkGetDeviceProcAddr found no vk%s on the device", #name); \
        return -1;                                                                      \
    }
    SPDRT_DEVICE_FUNCTIONS(SPDRT_DEVICE_RESOLVE)
#undef SPDRT_DEVICE_RESOLVE
    return 0;
}

#define MAX_BINDINGS 8u

VkResult spdrt__device_pipeline_create(const spdrt_device_fns *vk, const uint32_t *spirv,
                                       size_t spirv_words, const spdrt_binding *bindings,
                                       uint32_t binding_count, uint32_t push_bytes,
                                       uint32_t required_subgroup, int full_subgroups,
                                       spdrt_device_pipeline *out, const char **call) {
    VkDescriptorSetLayoutBinding b[MAX_BINDINGS];
    VkDescriptorSetLayoutCreateInfo lci;
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    VkPipelineLayoutCreateInfo plci;
    VkShaderModuleCreateInfo mci;
    VkShaderModule module = VK_NULL_HANDLE;
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rs;
    VkComputePipelineCreateInfo cci;
    VkResult r = VK_ERROR_INITIALIZATION_FAILED;
    uint32_t i;
    memset(out, 0, sizeof *out);
    *call = "too many bindings";
    if (binding_count > MAX_BINDINGS)
        return r;
    memset(b, 0, sizeof b);
    for (i = 0; i < binding_count; i++) {
        b[i].binding = i;
        b[i].descriptorType = bindings[i].type;
        b[i].descriptorCount = bindings[i].count ? bindings[i].count : 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        b[i].pImmutableSamplers = bindings[i].samplers;
    }
    memset(&lci, 0, sizeof lci);
    lci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    lci.bindingCount = binding_count;
    lci.pBindings = b;
    *call = "vkCreateDescriptorSetLayout";
    if ((r = vk->CreateDescriptorSetLayout(vk->device, &lci, vk->allocator, &out->set_layout)))
        goto fail;
    memset(&plci, 0, sizeof plci);
    plci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &out->set_layout;
    plci.pushConstantRangeCount = push_bytes ? 1 : 0;
    plci.pPushConstantRanges = push_bytes ? &range : NULL;
    *call = "vkCreatePipelineLayout";
    if ((r = vk->CreatePipelineLayout(vk->device, &plci, vk->allocator, &out->layout)))
        goto fail;
    memset(&mci, 0, sizeof mci);
    mci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    mci.codeSize = spirv_words * sizeof(uint32_t);
    mci.pCode = spirv;
    *call = "vkCreateShaderModule";
    if ((r = vk->CreateShaderModule(vk->device, &mci, vk->allocator, &module)))
        goto fail;
    memset(&cci, 0, sizeof cci);
    cci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    cci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cci.stage.module = module;
    cci.stage.pName = "main";
    if (full_subgroups)
        cci.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    if (required_subgroup) {
        memset(&rs, 0, sizeof rs);
        rs.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO;
        rs.requiredSubgroupSize = required_subgroup;
        cci.stage.pNext = &rs;
    }
    cci.layout = out->layout;
    cci.basePipelineIndex = -1;
    *call = "vkCreateComputePipelines";
    r = vk->CreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &cci, vk->allocator,
                                   &out->pipeline);
    /* The pipeline keeps what it needs of the module. */
    vk->DestroyShaderModule(vk->device, module, vk->allocator);
    if (r == VK_SUCCESS)
        return r;
fail:
    spdrt__device_pipeline_destroy(vk, out);
    return r;
}

void spdrt__device_pipeline_destroy(const spdrt_device_fns *vk, spdrt_device_pipeline *p) {
    if (p->pipeline)
        vk->DestroyPipeline(vk->device, p->pipeline, vk->allocator);
    if (p->layout)
        vk->DestroyPipelineLayout(vk->device, p->layout, vk->allocator);
    if (p->set_layout)
        vk->DestroyDescriptorSetLayout(vk->device, p->set_layout, vk->allocator);
    memset(p, 0, sizeof *p);
}
