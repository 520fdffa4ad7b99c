/* fsr_hw_vulkan.h: the graphics side of fsr_hw.c, in plain Vulkan 1.2 (libspdrt runs only
 * compute): a device with VK_KHR_fragment_shading_rate where one offers attachment rates,
 * and one full-screen pass into an R32_UINT image whose fragment shader records
 * gl_ShadingRateEXT, with the generated map as the shading-rate attachment (pipeline rate
 * 1x1, combiners KEEP then REPLACE: the attachment's rate is the fragment's). */
#ifndef FSR_HW_VULKAN_H
#define FSR_HW_VULKAN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <vulkan/vulkan.h>

typedef struct {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    VkCommandPool pool;
    VkPhysicalDeviceMemoryProperties memory;
    int fsr;                    /* attachment shading rates enabled */
    VkExtent2D min_texel, max_texel;
    uint32_t rate_mask;         /* bit log2 w * 5 + log2 h: the rates of one sample */
    char name[256];
    unsigned messages;          /* validation-layer messages */
    int validation;
} hw;

static VKAPI_ATTR VkBool32 VKAPI_CALL hw_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT type,
                                                const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)type;
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        ((hw *)user)->messages++;
        printf("# validation: %s\n", data->pMessage);
    }
    return VK_FALSE;
}

static int has_layer(const char *name)
{
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, NULL);
    VkLayerProperties *l = calloc(n ? n : 1, sizeof *l);
    vkEnumerateInstanceLayerProperties(&n, l);
    int found = 0;
    for (uint32_t i = 0; i < n; i++) found |= !strcmp(l[i].layerName, name);
    free(l);
    return found;
}

static int has_device_extension(VkPhysicalDevice p, const char *name)
{
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(p, NULL, &n, NULL);
    VkExtensionProperties *e = calloc(n ? n : 1, sizeof *e);
    vkEnumerateDeviceExtensionProperties(p, NULL, &n, e);
    int found = 0;
    for (uint32_t i = 0; i < n; i++) found |= !strcmp(e[i].extensionName, name);
    free(e);
    return found;
}

static int create_instance(hw *h)
{
    const char *layer = "VK_LAYER_KHRONOS_validation", *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    h->validation = !getenv("SPDGEN_NO_VALIDATION") && has_layer(layer);
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "fsr_hw", 1, "spdgen", 1, VK_API_VERSION_1_2};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, h->validation ? 1u : 0u,
                                &layer, h->validation ? 1u : 0u, &ext};
    if (vkCreateInstance(&ici, NULL, &h->instance) != VK_SUCCESS) return -1;
    if (h->validation) {
        VkDebugUtilsMessengerCreateInfoEXT m = {VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT, NULL, 0,
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
            VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
            hw_message, h};
        PFN_vkCreateDebugUtilsMessengerEXT create =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(h->instance, "vkCreateDebugUtilsMessengerEXT");
        if (create) create(h->instance, &m, NULL, &h->messenger);
    }
    return 0;
}

/* Attachment shading rates on p: the feature, the texel sizes and the rates of 1 sample. */
static int query_fsr(hw *h, VkPhysicalDevice p)
{
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(p, &props);
    if (props.apiVersion < VK_API_VERSION_1_2 || !has_device_extension(p, VK_KHR_FRAGMENT_SHADING_RATE_EXTENSION_NAME))
        return 0;
    VkPhysicalDeviceFragmentShadingRateFeaturesKHR f = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_FEATURES_KHR, NULL, 0, 0, 0};
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f, {0}};
    vkGetPhysicalDeviceFeatures2(p, &f2);
    if (!f.attachmentFragmentShadingRate) return 0;
    VkPhysicalDeviceFragmentShadingRatePropertiesKHR fp;
    memset(&fp, 0, sizeof fp);
    fp.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_PROPERTIES_KHR;
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &fp, {0}};
    vkGetPhysicalDeviceProperties2(p, &p2);
    h->min_texel = fp.minFragmentShadingRateAttachmentTexelSize;
    h->max_texel = fp.maxFragmentShadingRateAttachmentTexelSize;
    PFN_vkGetPhysicalDeviceFragmentShadingRatesKHR rates = (PFN_vkGetPhysicalDeviceFragmentShadingRatesKHR)
        vkGetInstanceProcAddr(h->instance, "vkGetPhysicalDeviceFragmentShadingRatesKHR");
    uint32_t n = 0;
    if (!rates || rates(p, &n, NULL) != VK_SUCCESS) return 0;
    VkPhysicalDeviceFragmentShadingRateKHR *r = calloc(n ? n : 1, sizeof *r);
    for (uint32_t i = 0; i < n; i++) r[i].sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_KHR;
    rates(p, &n, r);
    h->rate_mask = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lw = (uint32_t)ffs((int)r[i].fragmentSize.width) - 1;
        uint32_t lh = (uint32_t)ffs((int)r[i].fragmentSize.height) - 1;
        if ((r[i].sampleCounts & VK_SAMPLE_COUNT_1_BIT) && lw <= 4 && lh <= 4) h->rate_mask |= 1u << (lw * 5 + lh);
    }
    free(r);
    return 1;
}

/* A device: SPDGEN_DEVICE's (a name substring), else the first with attachment rates,
 * else the first (for the dry run). Returns 0, or -1 with the reason in why. */
static int hw_open(hw *h, char *why, size_t size)
{
    memset(h, 0, sizeof *h);
    if (create_instance(h)) return snprintf(why, size, "no Vulkan 1.2 instance"), -1;
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(h->instance, &n, NULL);
    VkPhysicalDevice *all = calloc(n ? n : 1, sizeof *all);
    vkEnumeratePhysicalDevices(h->instance, &n, all);
    const char *wanted = getenv("SPDGEN_DEVICE");
    int pick = -1;
    for (uint32_t i = 0; i < n && pick < 0; i++) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(all[i], &props);
        if (wanted && *wanted ? strcasestr(props.deviceName, wanted) != NULL : query_fsr(h, all[i])) pick = (int)i;
    }
    if (pick < 0 && n && !(wanted && *wanted)) pick = 0;
    if (pick < 0) {
        free(all);
        return snprintf(why, size, "no Vulkan device%s", wanted ? " matches SPDGEN_DEVICE" : ""), -1;
    }
    h->physical = all[pick];
    free(all);
    h->fsr = query_fsr(h, h->physical);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(h->physical, &props);
    snprintf(h->name, sizeof h->name, "%s", props.deviceName);
    vkGetPhysicalDeviceMemoryProperties(h->physical, &h->memory);
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(h->physical, &nf, NULL);
    VkQueueFamilyProperties *fams = calloc(nf ? nf : 1, sizeof *fams);
    vkGetPhysicalDeviceQueueFamilyProperties(h->physical, &nf, fams);
    for (h->family = 0; h->family < nf && !(fams[h->family].queueFlags & VK_QUEUE_GRAPHICS_BIT); h->family++) {}
    free(fams);
    if (h->family == nf) return snprintf(why, size, "%.200s has no graphics queue", h->name), -1;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo q = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, h->family, 1, &priority};
    VkPhysicalDeviceFragmentShadingRateFeaturesKHR f = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_FEATURES_KHR, NULL, 0, 0, VK_TRUE};
    const char *ext = VK_KHR_FRAGMENT_SHADING_RATE_EXTENSION_NAME;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, h->fsr ? &f : NULL, 0, 1, &q, 0, NULL,
                              h->fsr ? 1u : 0u, &ext, NULL};
    if (vkCreateDevice(h->physical, &dci, NULL, &h->device) != VK_SUCCESS)
        return snprintf(why, size, "vkCreateDevice failed on %.200s", h->name), -1;
    vkGetDeviceQueue(h->device, h->family, 0, &h->queue);
    VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, h->family};
    vkCreateCommandPool(h->device, &pci, NULL, &h->pool);
    return 0;
}

static void hw_close(hw *h)
{
    if (h->device) {
        vkDeviceWaitIdle(h->device);
        vkDestroyCommandPool(h->device, h->pool, NULL);
        vkDestroyDevice(h->device, NULL);
    }
    if (h->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(h->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy) destroy(h->instance, h->messenger, NULL);
    }
    if (h->instance) vkDestroyInstance(h->instance, NULL);
}

static VkDeviceMemory hw_memory(hw *h, VkMemoryRequirements req, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < h->memory.memoryTypeCount; i++)
        if ((req.memoryTypeBits & (1u << i)) && (h->memory.memoryTypes[i].propertyFlags & want) == want) {
            VkMemoryAllocateInfo a = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, req.size, i};
            VkDeviceMemory m = VK_NULL_HANDLE;
            vkAllocateMemory(h->device, &a, NULL, &m);
            return m;
        }
    return VK_NULL_HANDLE;
}

typedef struct {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *map;
} hw_buffer;

static int hw_buffer_make(hw *h, VkDeviceSize size, VkBufferUsageFlags usage, hw_buffer *b)
{
    VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, size, usage, VK_SHARING_MODE_EXCLUSIVE,
                             0, NULL};
    if (vkCreateBuffer(h->device, &bi, NULL, &b->buffer) != VK_SUCCESS) return -1;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->device, b->buffer, &req);
    b->memory = hw_memory(h, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (!b->memory) return -1;
    vkBindBufferMemory(h->device, b->buffer, b->memory, 0);
    return vkMapMemory(h->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map) == VK_SUCCESS ? 0 : -1;
}

static void hw_buffer_free(hw *h, hw_buffer *b)
{
    if (b->buffer) vkDestroyBuffer(h->device, b->buffer, NULL);
    if (b->memory) vkFreeMemory(h->device, b->memory, NULL);
}

typedef struct {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
} hw_image;

static int hw_image_make(hw *h, VkFormat format, uint32_t w, uint32_t hgt, VkImageUsageFlags usage, hw_image *img)
{
    VkImageCreateInfo ii = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, NULL, 0, VK_IMAGE_TYPE_2D, format, {w, hgt, 1}, 1, 1,
                            VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_TILING_OPTIMAL, usage, VK_SHARING_MODE_EXCLUSIVE, 0, NULL,
                            VK_IMAGE_LAYOUT_UNDEFINED};
    if (vkCreateImage(h->device, &ii, NULL, &img->image) != VK_SUCCESS) return -1;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(h->device, img->image, &req);
    img->memory = hw_memory(h, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (!img->memory) return -1;
    vkBindImageMemory(h->device, img->image, img->memory, 0);
    VkImageViewCreateInfo vi = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, NULL, 0, img->image, VK_IMAGE_VIEW_TYPE_2D,
                                format, {0, 0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    return vkCreateImageView(h->device, &vi, NULL, &img->view) == VK_SUCCESS ? 0 : -1;
}

static void hw_image_free(hw *h, hw_image *img)
{
    if (img->view) vkDestroyImageView(h->device, img->view, NULL);
    if (img->image) vkDestroyImage(h->device, img->image, NULL);
    if (img->memory) vkFreeMemory(h->device, img->memory, NULL);
}

static void hw_barrier(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
                       VkPipelineStageFlags src_stage, VkAccessFlags src, VkPipelineStageFlags dst_stage,
                       VkAccessFlags dst)
{
    VkImageMemoryBarrier b = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, NULL, src, dst, from, to,
                              VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, image,
                              {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1, &b);
}

#endif
