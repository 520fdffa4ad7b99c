/* device.h: an application's VkDevice as libspdrt records on it (spdrt_vk.h): the device,
 * its allocator and the device-level functions libspdrt calls, found through the
 * application's vkGetDeviceProcAddr or the loader's. Not installed. */
#ifndef SPDRT_DEVICE_H
#define SPDRT_DEVICE_H

#include "internal.h"
#include "spdrt_vk.h"

/* Every function the recording API calls; each is a member without its "vk". */
#define SPDRT_DEVICE_FUNCTIONS(X) \
    X(AllocateDescriptorSets) \
    X(CmdBindDescriptorSets) \
    X(CmdBindPipeline) \
    X(CmdDispatch) \
    X(CmdPipelineBarrier) \
    X(CmdPushConstants) \
    X(CreateComputePipelines) \
    X(CreateDescriptorPool) \
    X(CreateDescriptorSetLayout) \
    X(CreatePipelineLayout) \
    X(CreateSampler) \
    X(CreateShaderModule) \
    X(DestroyDescriptorPool) \
    X(DestroyDescriptorSetLayout) \
    X(DestroyPipeline) \
    X(DestroyPipelineLayout) \
    X(DestroySampler) \
    X(DestroyShaderModule) \
    X(UpdateDescriptorSets)

typedef struct {
    VkDevice device;
    const VkAllocationCallbacks *allocator;
#define SPDRT_DEVICE_MEMBER(name) PFN_vk##name name;
    SPDRT_DEVICE_FUNCTIONS(SPDRT_DEVICE_MEMBER)
#undef SPDRT_DEVICE_MEMBER
} spdrt_device_fns;

/* Fills *out for `device`; get_device_proc_addr NULL: the loader's (opened on first use).
 * Returns 0, or -1 with the reason in err. */
int spdrt__device_load(VkDevice device, const VkAllocationCallbacks *allocator,
                       PFN_vkGetDeviceProcAddr get_device_proc_addr, spdrt_device_fns *out,
                       char *err, size_t err_size);

/* A compute pipeline on an application's device: set 0 from a binding list (binding i =
 * bindings[i], as pipeline.c lays them out), one push-constant range at offset 0, entry point
 * "main"; required_subgroup 0: the device picks. */
typedef struct {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
} spdrt_device_pipeline;

/* VK_SUCCESS, or the failing call's result with its name in *call; on failure nothing is
 * left to destroy. */
VkResult spdrt__device_pipeline_create(const spdrt_device_fns *vk, const uint32_t *spirv,
                                       size_t spirv_words, const spdrt_binding *bindings,
                                       uint32_t binding_count, uint32_t push_bytes,
                                       uint32_t required_subgroup, int full_subgroups,
                                       spdrt_device_pipeline *out, const char **call);
void spdrt__device_pipeline_destroy(const spdrt_device_fns *vk, spdrt_device_pipeline *p);

#endif
