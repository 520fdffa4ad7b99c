/* memory.c: buffers, images and their memory.
 *
 * Every resource gets its own allocation: an SPD run creates a handful, far below any
 * allocation limit, and one allocation per object keeps destruction trivially correct. */
#include <string.h>

#include "internal.h"

/* The first memory type allowed by `bits` that has all of `need`, preferring one that
 * also has `want`. Returns UINT32_MAX if none has `need`. */
static uint32_t find_memory_type(const spdrt_context *ctx, uint32_t bits,
                                 VkMemoryPropertyFlags need, VkMemoryPropertyFlags want) {
    uint32_t i, found = UINT32_MAX;
    for (i = 0; i < ctx->memory.memoryTypeCount; i++) {
        VkMemoryPropertyFlags f = ctx->memory.memoryTypes[i].propertyFlags;
        if (!(bits & (1u << i)) || (f & need) != need)
            continue;
        if ((f & want) == want)
            return i;
        if (found == UINT32_MAX)
            found = i;
    }
    return found;
}

static spdrt_result allocate(spdrt_context *ctx, const VkMemoryRequirements *req,
                             int host_visible, const char *what, VkDeviceMemory *out) {
    /* Host-visible memory is for staging: coherent so no flush/invalidate is needed (the
     * spec guarantees such a type exists), cached when possible because we read it back.
     * Everything else wants device-local memory; any type will do if there is none. */
    VkMemoryPropertyFlags need = host_visible
        ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT : 0;
    VkMemoryPropertyFlags want = host_visible ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT
                                              : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    uint32_t type = find_memory_type(ctx, req->memoryTypeBits, need, want);
    VkMemoryAllocateInfo ai;
    VkResult r;
    if (type == UINT32_MAX)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "no suitable memory type for the %s (type bits 0x%x)", what,
                            req->memoryTypeBits);
    memset(&ai, 0, sizeof ai);
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = req->size;
    ai.memoryTypeIndex = type;
    r = vkAllocateMemory(ctx->device, &ai, NULL, out);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkAllocateMemory", r);
    return SPDRT_OK;
}

spdrt_result spdrt__buffer_create(spdrt_context *ctx, VkDeviceSize size,
                                  VkBufferUsageFlags usage, int host_visible,
                                  spdrt_buffer *out) {
    VkBufferCreateInfo bci;
    VkMemoryRequirements req;
    VkResult r;
    spdrt_result res;
    memset(out, 0, sizeof *out);
    /* Vulkan has no empty buffer: a size of 0 is a caller's mistake (a damaged plan). */
    if (size == 0) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "a buffer of 0 bytes was asked for");
    /* Past it a driver may fail, or (CPU drivers) crash, rather than return an error. */
    if (ctx->max_allocation && size > ctx->max_allocation)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "a buffer of %llu bytes exceeds \"%s\"'s largest "
                            "allocation, %llu bytes", (unsigned long long)size, ctx->info.name,
                            (unsigned long long)ctx->max_allocation);
    /* libspdrt binds each of its storage buffers whole, and a descriptor's range may not pass
     * this limit (drivers that do not enforce it read and write out of bounds). */
    if ((usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) && size > ctx->limits.maxStorageBufferRange)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "a storage buffer of %llu bytes exceeds "
                            "\"%s\"'s maxStorageBufferRange, %u bytes: a shader cannot bind it "
                            "whole", (unsigned long long)size, ctx->info.name,
                            ctx->limits.maxStorageBufferRange);
    memset(&bci, 0, sizeof bci);
    bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bci.size = size;
    bci.usage = usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    r = vkCreateBuffer(ctx->device, &bci, NULL, &out->buffer);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkCreateBuffer", r);
    out->size = size;
    vkGetBufferMemoryRequirements(ctx->device, out->buffer, &req);
    res = allocate(ctx, &req, host_visible, "buffer", &out->memory);
    if (res != SPDRT_OK)
        goto fail;
    r = vkBindBufferMemory(ctx->device, out->buffer, out->memory, 0);
    if (r != VK_SUCCESS) {
        res = spdrt__vk_error(ctx, "vkBindBufferMemory", r);
        goto fail;
    }
    if (host_visible) {
        r = vkMapMemory(ctx->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->map);
        if (r != VK_SUCCESS) {
            res = spdrt__vk_error(ctx, "vkMapMemory", r);
            goto fail;
        }
    }
    return SPDRT_OK;
fail:
    spdrt__buffer_destroy(ctx, out);
    return res;
}

void spdrt__buffer_destroy(spdrt_context *ctx, spdrt_buffer *b) {
    if (b->map)
        vkUnmapMemory(ctx->device, b->memory);
    if (b->buffer)
        vkDestroyBuffer(ctx->device, b->buffer, NULL);
    if (b->memory)
        vkFreeMemory(ctx->device, b->memory, NULL);
    memset(b, 0, sizeof *b);
}

spdrt_result spdrt__image_create(spdrt_context *ctx, VkFormat format, uint32_t width,
                                 uint32_t height, uint32_t levels, uint32_t layers,
                                 VkImageUsageFlags usage, spdrt_image *out) {
    VkImageFormatProperties fp;
    VkImageCreateInfo ici;
    VkMemoryRequirements req;
    VkResult r;
    spdrt_result res;
    memset(out, 0, sizeof *out);
    /* Ask first, so an unsupported combination is a readable UNSUPPORTED rather than
     * undefined behaviour in vkCreateImage. */
    r = vkGetPhysicalDeviceImageFormatProperties(ctx->physical, format, VK_IMAGE_TYPE_2D,
                                                 VK_IMAGE_TILING_OPTIMAL, usage, 0, &fp);
    if (r == VK_ERROR_FORMAT_NOT_SUPPORTED)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the device cannot create a VkFormat %d image with usage 0x%x "
                            "(sampled + storage + transfer)", (int)format, (unsigned)usage);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkGetPhysicalDeviceImageFormatProperties", r);
    if (width > fp.maxExtent.width || height > fp.maxExtent.height ||
        levels > fp.maxMipLevels || layers > fp.maxArrayLayers)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "image %ux%u, %u levels, %u layers exceeds the device's limits "
                            "(%ux%u, %u levels, %u layers)", width, height, levels, layers,
                            fp.maxExtent.width, fp.maxExtent.height, fp.maxMipLevels,
                            fp.maxArrayLayers);
    memset(&ici, 0, sizeof ici);
    ici.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent.width = width;
    ici.extent.height = height;
    ici.extent.depth = 1;
    ici.mipLevels = levels;
    ici.arrayLayers = layers;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = usage;
    ici.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    r = vkCreateImage(ctx->device, &ici, NULL, &out->image);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkCreateImage", r);
    out->format = format;
    out->width = width, out->height = height, out->levels = levels, out->layers = layers;
    vkGetImageMemoryRequirements(ctx->device, out->image, &req);
    res = allocate(ctx, &req, 0, "image", &out->memory);
    if (res != SPDRT_OK)
        goto fail;
    r = vkBindImageMemory(ctx->device, out->image, out->memory, 0);
    if (r != VK_SUCCESS) {
        res = spdrt__vk_error(ctx, "vkBindImageMemory", r);
        goto fail;
    }
    return SPDRT_OK;
fail:
    spdrt__image_destroy(ctx, out);
    return res;
}

void spdrt__image_destroy(spdrt_context *ctx, spdrt_image *img) {
    if (img->image)
        vkDestroyImage(ctx->device, img->image, NULL);
    if (img->memory)
        vkFreeMemory(ctx->device, img->memory, NULL);
    memset(img, 0, sizeof *img);
}

spdrt_result spdrt__image_view(spdrt_context *ctx, const spdrt_image *img, uint32_t level,
                               int is_array, VkImageView *out) {
    VkImageViewCreateInfo vci;
    VkResult r;
    memset(&vci, 0, sizeof vci);
    vci.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    vci.image = img->image;
    /* A non-array shader declares image2D/texture2D, which needs a 2D view: one layer. */
    vci.viewType = is_array ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
    vci.format = img->format;
    vci.components.r = VK_COMPONENT_SWIZZLE_IDENTITY;
    vci.components.g = VK_COMPONENT_SWIZZLE_IDENTITY;
    vci.components.b = VK_COMPONENT_SWIZZLE_IDENTITY;
    vci.components.a = VK_COMPONENT_SWIZZLE_IDENTITY;
    vci.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    vci.subresourceRange.baseMipLevel = level;
    vci.subresourceRange.levelCount = 1;
    vci.subresourceRange.baseArrayLayer = 0;
    vci.subresourceRange.layerCount = is_array ? img->layers : 1;
    r = vkCreateImageView(ctx->device, &vci, NULL, out);
    if (r != VK_SUCCESS) {
        *out = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateImageView", r);
    }
    return SPDRT_OK;
}
