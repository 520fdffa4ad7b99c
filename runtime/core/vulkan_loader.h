/* vulkan_loader.h: the Vulkan entry points libspdrt uses, loaded at run time.
 *
 * libspdrt opens the Vulkan loader (libvulkan.so.1) with dlopen when a context is created
 * instead of linking it, so a program that links libspdrt (spdgen itself, for --selftest)
 * still starts on machines without Vulkan and only its Vulkan features fail, with a clear
 * message. The runtime's code calls vkFoo as usual: each name is a macro for a function
 * pointer spdrt__vkFoo (prefixed so it never interposes on the loader's own symbols when a
 * program also links libvulkan). Extension functions are looked up with
 * vkGetInstanceProcAddr where they are used. */
#ifndef SPDRT_VULKAN_LOADER_H
#define SPDRT_VULKAN_LOADER_H

#include <stddef.h>
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

/* Every core entry point libspdrt (and bench/) may call. */
#define SPDRT_VULKAN_FUNCTIONS(X) \
    X(vkAllocateCommandBuffers) \
    X(vkAllocateDescriptorSets) \
    X(vkAllocateMemory) \
    X(vkBeginCommandBuffer) \
    X(vkBindBufferMemory) \
    X(vkBindImageMemory) \
    X(vkCmdBindDescriptorSets) \
    X(vkCmdBindPipeline) \
    X(vkCmdBlitImage) \
    X(vkCmdClearColorImage) \
    X(vkCmdCopyBuffer) \
    X(vkCmdCopyBufferToImage) \
    X(vkCmdCopyImage) \
    X(vkCmdCopyImageToBuffer) \
    X(vkCmdDispatch) \
    X(vkCmdFillBuffer) \
    X(vkCmdPipelineBarrier) \
    X(vkCmdPushConstants) \
    X(vkCmdResetQueryPool) \
    X(vkCmdWriteTimestamp) \
    X(vkCreateBuffer) \
    X(vkCreateCommandPool) \
    X(vkCreateComputePipelines) \
    X(vkCreateDescriptorPool) \
    X(vkCreateDescriptorSetLayout) \
    X(vkCreateDevice) \
    X(vkCreateFence) \
    X(vkCreateImage) \
    X(vkCreateImageView) \
    X(vkCreateInstance) \
    X(vkCreatePipelineLayout) \
    X(vkCreateQueryPool) \
    X(vkCreateShaderModule) \
    X(vkCreateSampler) \
    X(vkDestroyBuffer) \
    X(vkDestroyCommandPool) \
    X(vkDestroyDescriptorPool) \
    X(vkDestroyDescriptorSetLayout) \
    X(vkDestroyDevice) \
    X(vkDestroyFence) \
    X(vkDestroyImage) \
    X(vkDestroyImageView) \
    X(vkDestroyInstance) \
    X(vkDestroyPipeline) \
    X(vkDestroyPipelineLayout) \
    X(vkDestroyQueryPool) \
    X(vkDestroyShaderModule) \
    X(vkDestroySampler) \
    X(vkDeviceWaitIdle) \
    X(vkEndCommandBuffer) \
    X(vkEnumerateDeviceExtensionProperties) \
    X(vkEnumerateInstanceExtensionProperties) \
    X(vkEnumerateInstanceLayerProperties) \
    X(vkEnumerateInstanceVersion) \
    X(vkEnumeratePhysicalDevices) \
    X(vkFreeCommandBuffers) \
    X(vkFreeMemory) \
    X(vkGetBufferMemoryRequirements) \
    X(vkGetDeviceProcAddr) \
    X(vkGetDeviceQueue) \
    X(vkGetImageMemoryRequirements) \
    X(vkGetInstanceProcAddr) \
    X(vkGetPhysicalDeviceFeatures2) \
    X(vkGetPhysicalDeviceFormatProperties) \
    X(vkGetPhysicalDeviceImageFormatProperties) \
    X(vkGetPhysicalDeviceMemoryProperties) \
    X(vkGetPhysicalDeviceProperties) \
    X(vkGetPhysicalDeviceProperties2) \
    X(vkGetPhysicalDeviceQueueFamilyProperties) \
    X(vkGetQueryPoolResults) \
    X(vkMapMemory) \
    X(vkQueueSubmit) \
    X(vkQueueWaitIdle) \
    X(vkResetCommandBuffer) \
    X(vkResetFences) \
    X(vkUnmapMemory) \
    X(vkUpdateDescriptorSets) \
    X(vkWaitForFences) \

#define SPDRT_DECLARE(name) extern PFN_##name spdrt__##name;
SPDRT_VULKAN_FUNCTIONS(SPDRT_DECLARE)
#undef SPDRT_DECLARE

#define vkAllocateCommandBuffers spdrt__vkAllocateCommandBuffers
#define vkAllocateDescriptorSets spdrt__vkAllocateDescriptorSets
#define vkAllocateMemory spdrt__vkAllocateMemory
#define vkBeginCommandBuffer spdrt__vkBeginCommandBuffer
#define vkBindBufferMemory spdrt__vkBindBufferMemory
#define vkBindImageMemory spdrt__vkBindImageMemory
#define vkCmdBindDescriptorSets spdrt__vkCmdBindDescriptorSets
#define vkCmdBindPipeline spdrt__vkCmdBindPipeline
#define vkCmdBlitImage spdrt__vkCmdBlitImage
#define vkCmdClearColorImage spdrt__vkCmdClearColorImage
#define vkCmdCopyBuffer spdrt__vkCmdCopyBuffer
#define vkCmdCopyBufferToImage spdrt__vkCmdCopyBufferToImage
#define vkCmdCopyImage spdrt__vkCmdCopyImage
#define vkCmdCopyImageToBuffer spdrt__vkCmdCopyImageToBuffer
#define vkCmdDispatch spdrt__vkCmdDispatch
#define vkCmdFillBuffer spdrt__vkCmdFillBuffer
#define vkCmdPipelineBarrier spdrt__vkCmdPipelineBarrier
#define vkCmdPushConstants spdrt__vkCmdPushConstants
#define vkCmdResetQueryPool spdrt__vkCmdResetQueryPool
#define vkCmdWriteTimestamp spdrt__vkCmdWriteTimestamp
#define vkCreateBuffer spdrt__vkCreateBuffer
#define vkCreateCommandPool spdrt__vkCreateCommandPool
#define vkCreateComputePipelines spdrt__vkCreateComputePipelines
#define vkCreateDescriptorPool spdrt__vkCreateDescriptorPool
#define vkCreateDescriptorSetLayout spdrt__vkCreateDescriptorSetLayout
#define vkCreateDevice spdrt__vkCreateDevice
#define vkCreateFence spdrt__vkCreateFence
#define vkCreateImage spdrt__vkCreateImage
#define vkCreateImageView spdrt__vkCreateImageView
#define vkCreateInstance spdrt__vkCreateInstance
#define vkCreatePipelineLayout spdrt__vkCreatePipelineLayout
#define vkCreateQueryPool spdrt__vkCreateQueryPool
#define vkCreateShaderModule spdrt__vkCreateShaderModule
#define vkDestroySampler spdrt__vkDestroySampler
#define vkCreateSampler spdrt__vkCreateSampler
#define vkDestroyBuffer spdrt__vkDestroyBuffer
#define vkDestroyCommandPool spdrt__vkDestroyCommandPool
#define vkDestroyDescriptorPool spdrt__vkDestroyDescriptorPool
#define vkDestroyDescriptorSetLayout spdrt__vkDestroyDescriptorSetLayout
#define vkDestroyDevice spdrt__vkDestroyDevice
#define vkDestroyFence spdrt__vkDestroyFence
#define vkDestroyImage spdrt__vkDestroyImage
#define vkDestroyImageView spdrt__vkDestroyImageView
#define vkDestroyInstance spdrt__vkDestroyInstance
#define vkDestroyPipeline spdrt__vkDestroyPipeline
#define vkDestroyPipelineLayout spdrt__vkDestroyPipelineLayout
#define vkDestroyQueryPool spdrt__vkDestroyQueryPool
#define vkDestroyShaderModule spdrt__vkDestroyShaderModule
#define vkDeviceWaitIdle spdrt__vkDeviceWaitIdle
#define vkEndCommandBuffer spdrt__vkEndCommandBuffer
#define vkEnumerateDeviceExtensionProperties spdrt__vkEnumerateDeviceExtensionProperties
#define vkEnumerateInstanceExtensionProperties spdrt__vkEnumerateInstanceExtensionProperties
#define vkEnumerateInstanceLayerProperties spdrt__vkEnumerateInstanceLayerProperties
#define vkEnumerateInstanceVersion spdrt__vkEnumerateInstanceVersion
#define vkEnumeratePhysicalDevices spdrt__vkEnumeratePhysicalDevices
#define vkFreeCommandBuffers spdrt__vkFreeCommandBuffers
#define vkFreeMemory spdrt__vkFreeMemory
#define vkGetBufferMemoryRequirements spdrt__vkGetBufferMemoryRequirements
#define vkGetDeviceProcAddr spdrt__vkGetDeviceProcAddr
#define vkGetDeviceQueue spdrt__vkGetDeviceQueue
#define vkGetImageMemoryRequirements spdrt__vkGetImageMemoryRequirements
#define vkGetInstanceProcAddr spdrt__vkGetInstanceProcAddr
#define vkGetPhysicalDeviceFeatures2 spdrt__vkGetPhysicalDeviceFeatures2
#define vkGetPhysicalDeviceFormatProperties spdrt__vkGetPhysicalDeviceFormatProperties
#define vkGetPhysicalDeviceImageFormatProperties spdrt__vkGetPhysicalDeviceImageFormatProperties
#define vkGetPhysicalDeviceMemoryProperties spdrt__vkGetPhysicalDeviceMemoryProperties
#define vkGetPhysicalDeviceProperties spdrt__vkGetPhysicalDeviceProperties
#define vkGetPhysicalDeviceProperties2 spdrt__vkGetPhysicalDeviceProperties2
#define vkGetPhysicalDeviceQueueFamilyProperties spdrt__vkGetPhysicalDeviceQueueFamilyProperties
#define vkGetQueryPoolResults spdrt__vkGetQueryPoolResults
#define vkMapMemory spdrt__vkMapMemory
#define vkQueueSubmit spdrt__vkQueueSubmit
#define vkQueueWaitIdle spdrt__vkQueueWaitIdle
#define vkResetCommandBuffer spdrt__vkResetCommandBuffer
#define vkResetFences spdrt__vkResetFences
#define vkUnmapMemory spdrt__vkUnmapMemory
#define vkUpdateDescriptorSets spdrt__vkUpdateDescriptorSets
#define vkWaitForFences spdrt__vkWaitForFences

/* Opens the loader and resolves every entry point above, once per process. Returns 0, or -1
 * with the reason in err. */
int spdrt__vulkan_load(char *err, size_t err_size);

#endif
