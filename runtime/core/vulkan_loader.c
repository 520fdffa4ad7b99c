/* vulkan_loader.c: opens libvulkan.so.1 and resolves the entry points in vulkan_loader.h.
 * The loader exports every core command as a trampoline that dispatches on its first
 * argument, so plain dlsym serves instance and device commands alike. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>

#include "vulkan_loader.h"

#define SPDRT_DEFINE(name) PFN_##name spdrt__##name;
SPDRT_VULKAN_FUNCTIONS(SPDRT_DEFINE)
#undef SPDRT_DEFINE

int spdrt__vulkan_load(char *err, size_t err_size)
{
    static void *library;
    if (library) return 0;
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(err, err_size, "cannot load the Vulkan loader libvulkan.so.1 (Debian/Ubuntu: "
                 "install libvulkan1): %s", dlerror());
        return -1;
    }
    /* dlsym returns void *; POSIX guarantees it converts to a function pointer. */
#define SPDRT_RESOLVE(name)                                                                    \
    *(void **)&spdrt__##name = dlsym(lib, #name);                                               \
    if (!spdrt__##name) {                                                                      \
        snprintf(err, err_size, "the Vulkan loader lacks %s (Vulkan 1.1 is required)", #name); \
        dlclose(lib);                                                                          \
        return -1;                                                                             \
    }
    SPDRT_VULKAN_FUNCTIONS(SPDRT_RESOLVE)
#undef SPDRT_RESOLVE
    library = lib;
    return 0;
}
