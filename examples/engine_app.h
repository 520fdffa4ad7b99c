/* engine_app.h: the stand-in for an application's renderer that examples/engine_hiz.c plugs
 * into: an instance with the validation layer and synchronization validation, a device with
 * one compute queue, memory, and a submit that waits. An engine has all of this already. */
#ifndef ENGINE_APP_H
#define ENGINE_APP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

typedef struct {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    unsigned messages; /* what the validation layer reported */
} app;

#define CHECK(call)                                                                     \
    do {                                                                                \
        VkResult r_ = (call);                                                           \
        if (r_ != VK_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: %s: VkResult %d\n", __FILE__, __LINE__, #call, r_); \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

static VKAPI_ATTR VkBool32 VKAPI_CALL app_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT type,
                                                  const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                  void *user)
{
    (void)severity, (void)type;
    ((app *)user)->messages++;
    fprintf(stderr, "validation: %s\n", data->pMessage);
    return VK_FALSE;
}

static void app_create(app *a)
{
    const char *layer = "VK_LAYER_KHRONOS_validation", *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                        .enabledValidationFeatureCount = 1,
                                        .pEnabledValidationFeatures = &sync};
    VkApplicationInfo ai = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "engine_hiz", .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pNext = &features,
                                .pApplicationInfo = &ai, .enabledLayerCount = 1,
                                .ppEnabledLayerNames = &layer, .enabledExtensionCount = 1,
                                .ppEnabledExtensionNames = &ext};
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = app_message, .pUserData = a};
    VkQueueFamilyProperties props[16];
    float priority = 1.0f;
    uint32_t count = 1, family = 0, families = 16;
    memset(a, 0, sizeof *a);
    CHECK(vkCreateInstance(&ici, NULL, &a->instance));
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger = (PFN_vkCreateDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(a->instance, "vkCreateDebugUtilsMessengerEXT");
    CHECK(create_messenger(a->instance, &mci, NULL, &a->messenger));
    if (vkEnumeratePhysicalDevices(a->instance, &count, &a->physical) < 0 || count == 0) {
        fprintf(stderr, "no Vulkan device\n");
        exit(1);
    }
    vkGetPhysicalDeviceQueueFamilyProperties(a->physical, &families, props);
    while (family < families && !(props[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) family++;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = family, .queueCount = 1,
                                   .pQueuePriorities = &priority};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci};
    CHECK(vkCreateDevice(a->physical, &dci, NULL, &a->device));
    vkGetDeviceQueue(a->device, family, 0, &a->queue);
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = family};
    CHECK(vkCreateCommandPool(a->device, &pci, NULL, &a->pool));
}

/* Memory of the first type the resource accepts with these properties. */
static VkDeviceMemory app_memory(app *a, VkMemoryRequirements req, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    VkDeviceMemory memory;
    uint32_t type = 0;
    vkGetPhysicalDeviceMemoryProperties(a->physical, &mp);
    while (type < mp.memoryTypeCount && (!(req.memoryTypeBits & (1u << type)) ||
                                         (mp.memoryTypes[type].propertyFlags & want) != want))
        type++;
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = req.size, .memoryTypeIndex = type};
    CHECK(vkAllocateMemory(a->device, &mai, NULL, &memory));
    return memory;
}

/* A buffer with its own memory; host-visible and mapped into *map where map is given. */
static VkBuffer app_buffer(app *a, VkDeviceSize size, VkBufferUsageFlags usage,
                           VkDeviceMemory *memory, void **map)
{
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                              .usage = usage};
    VkMemoryRequirements req;
    VkBuffer buffer;
    CHECK(vkCreateBuffer(a->device, &bci, NULL, &buffer));
    vkGetBufferMemoryRequirements(a->device, buffer, &req);
    *memory = app_memory(a, req, map ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                     : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    CHECK(vkBindBufferMemory(a->device, buffer, *memory, 0));
    if (map) CHECK(vkMapMemory(a->device, *memory, 0, VK_WHOLE_SIZE, 0, map));
    return buffer;
}

static VkImage app_image(app *a, VkFormat format, uint32_t w, uint32_t h, uint32_t mips,
                         VkImageUsageFlags usage, VkDeviceMemory *memory)
{
    VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                             .imageType = VK_IMAGE_TYPE_2D, .format = format,
                             .extent = {w, h, 1}, .mipLevels = mips, .arrayLayers = 1,
                             .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
                             .usage = usage};
    VkMemoryRequirements req;
    VkImage image;
    CHECK(vkCreateImage(a->device, &ici, NULL, &image));
    vkGetImageMemoryRequirements(a->device, image, &req);
    *memory = app_memory(a, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    CHECK(vkBindImageMemory(a->device, image, *memory, 0));
    return image;
}

static VkCommandBuffer app_begin(app *a)
{
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = a->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(a->device, &cai, &cmd));
    CHECK(vkBeginCommandBuffer(cmd, &bi));
    return cmd;
}

static void app_submit_and_wait(app *a, VkCommandBuffer cmd)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                       .pCommandBuffers = &cmd};
    CHECK(vkEndCommandBuffer(cmd));
    CHECK(vkQueueSubmit(a->queue, 1, &si, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(a->queue));
    vkFreeCommandBuffers(a->device, a->pool, 1, &cmd);
}

/* Destroys the device and the instance; returns the validation messages seen. */
static unsigned app_destroy(app *a)
{
    vkDestroyCommandPool(a->device, a->pool, NULL);
    vkDestroyDevice(a->device, NULL);
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger = (PFN_vkDestroyDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(a->instance, "vkDestroyDebugUtilsMessengerEXT");
    destroy_messenger(a->instance, a->messenger, NULL);
    vkDestroyInstance(a->instance, NULL);
    return a->messages;
}

#endif
