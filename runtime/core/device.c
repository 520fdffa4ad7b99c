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
