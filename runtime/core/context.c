/* context.c: the instance, the device we run on and the one compute queue.
 *
 * Everything the rest of the runtime needs to know about the device (limits, memory types,
 * subgroup facts) is gathered here once, so the other files never query Vulkan for it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define LAYER_VALIDATION "VK_LAYER_KHRONOS_validation"

/* ---- errors -------------------------------------------------------------------------- */

const char *spdrt__vk_result_name(VkResult r) {
    switch (r) {
#define NAME(x) case x: return #x;
    NAME(VK_SUCCESS) NAME(VK_NOT_READY) NAME(VK_TIMEOUT) NAME(VK_EVENT_SET)
    NAME(VK_EVENT_RESET) NAME(VK_INCOMPLETE) NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY) NAME(VK_ERROR_INITIALIZATION_FAILED)
    NAME(VK_ERROR_DEVICE_LOST) NAME(VK_ERROR_MEMORY_MAP_FAILED)
    NAME(VK_ERROR_LAYER_NOT_PRESENT) NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    NAME(VK_ERROR_FEATURE_NOT_PRESENT) NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    NAME(VK_ERROR_TOO_MANY_OBJECTS) NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    NAME(VK_ERROR_FRAGMENTED_POOL) NAME(VK_ERROR_UNKNOWN) NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
    NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE) NAME(VK_ERROR_FRAGMENTATION)
    NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS) NAME(VK_PIPELINE_COMPILE_REQUIRED)
    NAME(VK_ERROR_INVALID_SHADER_NV)
#undef NAME
    default: return "VK_RESULT_UNKNOWN";
    }
}

spdrt_result spdrt__error(spdrt_context *ctx, spdrt_result code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
    va_end(ap);
    return code;
}

/* Every failing Vulkan call is SPDRT_ERROR_VULKAN, out-of-memory results included: the
 * message names the call and the VkResult, which says more than a code could. */
spdrt_result spdrt__vk_error(spdrt_context *ctx, const char *call, VkResult r) {
    return spdrt__error(ctx, SPDRT_ERROR_VULKAN, "%s failed: %s", call,
                        spdrt__vk_result_name(r));
}

#define VK_CHECK(ctx, call, args) do { VkResult r_ = call args; \
    if (r_ != VK_SUCCESS) return spdrt__vk_error(ctx, #call, r_); } while (0)

/* ---- validation messages ------------------------------------------------------------- */

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
    spdrt_context *ctx = user;
    (void)types;
    if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT))
        ctx->validation_messages++;
    fprintf(stderr, "spdrt: validation: %s\n", data->pMessage ? data->pMessage : "(no text)");
    return VK_FALSE;  /* never make the call fail: we want the real result too */
}

static void messenger_info(spdrt_context *ctx, VkDebugUtilsMessengerCreateInfoEXT *mi) {
    memset(mi, 0, sizeof *mi);
    mi->sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    mi->messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mi->messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mi->pfnUserCallback = on_message;
    mi->pUserData = ctx;
}

/* ---- instance ------------------------------------------------------------------------ */

static int has_layer(const char *name) {
    uint32_t n = 0, i;
    VkLayerProperties *props;
    int found = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    props = calloc(n, sizeof *props);
    if (!props)
        return 0;
    if (vkEnumerateInstanceLayerProperties(&n, props) == VK_SUCCESS)
        for (i = 0; i < n && !found; i++)
            found = strcmp(props[i].layerName, name) == 0;
    free(props);
    return found;
}

/* Whether the loader (layer NULL) or a layer offers an instance extension. */
static int has_instance_ext(const char *layer, const char *name) {
    uint32_t n = 0, i;
    VkExtensionProperties *props;
    int found = 0;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    props = calloc(n, sizeof *props);
    if (!props)
        return 0;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, props) == VK_SUCCESS)
        for (i = 0; i < n && !found; i++)
            found = strcmp(props[i].extensionName, name) == 0;
    free(props);
    return found;
}

static spdrt_result create_instance(spdrt_context *ctx, int validation) {
    uint32_t loader = VK_API_VERSION_1_0, api;
    const char *exts[2];
    uint32_t next = 0;
    VkApplicationInfo app;
    VkInstanceCreateInfo ci;
    VkValidationFeaturesEXT vf;
    VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkDebugUtilsMessengerCreateInfoEXT mi;
    const char *layers[] = {LAYER_VALIDATION};

    VK_CHECK(ctx, vkEnumerateInstanceVersion, (&loader));
    if (loader < VK_API_VERSION_1_1)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the Vulkan loader supports only %u.%u; spdrt needs Vulkan 1.1",
                            VK_API_VERSION_MAJOR(loader), VK_API_VERSION_MINOR(loader));
    /* Ask for 1.3 where the loader has it, so 1.3 devices give us core subgroup size
     * control; the device's own version caps what we use (ctx->api_version). */
    api = loader < VK_API_VERSION_1_3 ? loader : VK_API_VERSION_1_3;

    memset(&app, 0, sizeof app);
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "spdrt";
    app.pEngineName = "spdgen";
    app.apiVersion = api;

    memset(&ci, 0, sizeof ci);
    ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ci.pApplicationInfo = &app;
    if (validation) {
        if (!has_layer(LAYER_VALIDATION))
            return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                                "validation requested but the Vulkan layer " LAYER_VALIDATION
                                " is not installed (install vulkan-validationlayers)");
        if (!has_instance_ext(LAYER_VALIDATION, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME))
            return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                                LAYER_VALIDATION " lacks " VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME
                                " (too old? install a newer vulkan-validationlayers)");
        if (!has_instance_ext(NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
            !has_instance_ext(LAYER_VALIDATION, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
            return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                                "validation requested but " VK_EXT_DEBUG_UTILS_EXTENSION_NAME
                                " is not available");
        exts[next++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
        exts[next++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        ci.enabledLayerCount = 1;
        ci.ppEnabledLayerNames = layers;
        ci.enabledExtensionCount = next;
        ci.ppEnabledExtensionNames = exts;
        /* Chained into the create info as well, so messages from vkCreateInstance and
         * vkDestroyInstance themselves are seen and counted. */
        messenger_info(ctx, &mi);
        memset(&vf, 0, sizeof vf);
        vf.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
        vf.pNext = &mi;
        vf.enabledValidationFeatureCount = 1;
        vf.pEnabledValidationFeatures = enables;
        ci.pNext = &vf;
    }
    VK_CHECK(ctx, vkCreateInstance, (&ci, NULL, &ctx->instance));
    if (validation) {
        PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(ctx->instance, "vkCreateDebugUtilsMessengerEXT");
        if (!create)
            return spdrt__error(ctx, SPDRT_ERROR_VULKAN,
                                "vkGetInstanceProcAddr failed: no vkCreateDebugUtilsMessengerEXT");
        VkResult r = create(ctx->instance, &mi, NULL, &ctx->messenger);
        if (r != VK_SUCCESS)
            return spdrt__vk_error(ctx, "vkCreateDebugUtilsMessengerEXT", r);
    }
    ctx->api_version = api;
    return SPDRT_OK;
}

/* ---- device choice ------------------------------------------------------------------- */

static int contains_nocase(const char *hay, const char *needle) {
    size_t n = strlen(needle), i;
    for (; *hay; hay++) {
        for (i = 0; i < n; i++)
            if (tolower((unsigned char)hay[i]) != tolower((unsigned char)needle[i]))
                break;
        if (i == n)
            return 1;
    }
    return n == 0;
}

static int all_digits(const char *s) {
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

/* "0: NAME (...), 1: ..." for error messages that must say what could be chosen. */
static void list_devices(const VkPhysicalDeviceProperties *props, uint32_t n, char *buf,
                         size_t size) {
    size_t used = 0;
    uint32_t i;
    buf[0] = '\0';
    for (i = 0; i < n && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%u: %s", i ? ", " : "", i,
                         props[i].deviceName);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* By type: discrete first, then the other GPUs, then anything (a CPU implementation). */
static int type_rank(VkPhysicalDeviceType t) {
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 1;
    default: return 2;
    }
}

static spdrt_result choose_device(spdrt_context *ctx, const char *wanted, const char *what) {
    uint32_t n = 0, i, best = 0;
    VkPhysicalDevice *devs;
    VkPhysicalDeviceProperties *props;
    spdrt_result res = SPDRT_OK;
    char names[600];
    VkResult r = vkEnumeratePhysicalDevices(ctx->instance, &n, NULL);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkEnumeratePhysicalDevices", r);
    if (n == 0)
        return spdrt__error(ctx, SPDRT_ERROR_NO_DEVICE,
                            "no Vulkan device found (install a driver, e.g. mesa-vulkan-drivers "
                            "for the lavapipe CPU device)");
    devs = calloc(n, sizeof *devs);
    props = calloc(n, sizeof *props);
    if (!devs || !props) {
        free(devs), free(props);
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory listing devices");
    }
    r = vkEnumeratePhysicalDevices(ctx->instance, &n, devs);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        res = spdrt__vk_error(ctx, "vkEnumeratePhysicalDevices", r);
        goto done;
    }
    for (i = 0; i < n; i++)
        vkGetPhysicalDeviceProperties(devs[i], &props[i]);
    list_devices(props, n, names, sizeof names);
    if (wanted && all_digits(wanted)) {
        unsigned long idx = strtoul(wanted, NULL, 10);
        if (idx >= n)
            res = spdrt__error(ctx, SPDRT_ERROR_NO_DEVICE,
                               "%s=\"%s\" but there %s only %u Vulkan device%s (%s)", what,
                               wanted, n == 1 ? "is" : "are", n, n == 1 ? "" : "s", names);
        best = (uint32_t)idx;
    } else if (wanted) {
        for (i = 0; i < n; i++)
            if (contains_nocase(props[i].deviceName, wanted))
                break;
        if (i == n)
            res = spdrt__error(ctx, SPDRT_ERROR_NO_DEVICE,
                               "%s=\"%s\" matches no Vulkan device (available: %s)", what,
                               wanted, names);
        best = i;
    } else {
        for (i = 1; i < n; i++)
            if (type_rank(props[i].deviceType) < type_rank(props[best].deviceType))
                best = i;
    }
    if (res == SPDRT_OK) {
        if (props[best].apiVersion < VK_API_VERSION_1_1)
            res = spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                               "device \"%s\" supports only Vulkan %u.%u; spdrt needs 1.1",
                               props[best].deviceName, VK_API_VERSION_MAJOR(props[best].apiVersion),
                               VK_API_VERSION_MINOR(props[best].apiVersion));
        ctx->physical = devs[best];
        if (props[best].apiVersion < ctx->api_version)
            ctx->api_version = props[best].apiVersion;
    }
done:
    free(devs);
    free(props);
    return res;
}

/* ---- device facts and creation ------------------------------------------------------- */

static int has_device_ext(VkPhysicalDevice pd, const char *name, int *found) {
    uint32_t n = 0, i;
    VkExtensionProperties *props;
    *found = 0;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS)
        return -1;
    props = calloc(n ? n : 1, sizeof *props);
    if (!props)
        return -1;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props) == VK_SUCCESS)
        for (i = 0; i < n && !*found; i++)
            *found = strcmp(props[i].extensionName, name) == 0;
    free(props);
    return 0;
}

/* What the device said, kept in the context (for pipelines) and in its public info. */
static void keep_properties(spdrt_context *ctx, const VkPhysicalDeviceProperties *props,
                            const VkPhysicalDeviceSubgroupProperties *sg,
                            const VkPhysicalDeviceSubgroupSizeControlProperties *ssc,
                            const VkPhysicalDeviceDriverProperties *drv,
                            const VkPhysicalDeviceSubgroupSizeControlFeatures *sscf) {
    spdrt_device_info *info = &ctx->info;
    ctx->limits = props->limits;
    ctx->subgroup_ops = sg->supportedOperations;
    ctx->subgroup_stages = sg->supportedStages;
    ctx->size_control = ssc && sscf->subgroupSizeControl && sscf->computeFullSubgroups &&
                        (ssc->requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
    ctx->full_subgroups = ssc && sscf->computeFullSubgroups;
    ctx->max_workgroup_subgroups = ssc ? ssc->maxComputeWorkgroupSubgroups : 0;
    vkGetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->memory);

    snprintf(info->name, sizeof info->name, "%s", props->deviceName);
    if (drv)
        snprintf(info->driver, sizeof info->driver, "%.127s %.127s", drv->driverName,
                 drv->driverInfo);
    else
        snprintf(info->driver, sizeof info->driver, "driver version 0x%x", props->driverVersion);
    info->vendor_id = props->vendorID;
    info->device_id = props->deviceID;
    info->api_version = props->apiVersion;
    info->subgroup_size = sg->subgroupSize;
    info->subgroup_size_control = ctx->size_control;
    info->min_subgroup_size = ctx->size_control ? ssc->minSubgroupSize : sg->subgroupSize;
    info->max_subgroup_size = ctx->size_control ? ssc->maxSubgroupSize : sg->subgroupSize;
    info->max_shared_memory = ctx->limits.maxComputeSharedMemorySize;
    info->max_storage_buffer_range = ctx->limits.maxStorageBufferRange;
}

/* The first family that computes; on every device we know it also does transfers
 * (compute families must, per the spec, accept transfer commands). */
static spdrt_result choose_queue_family(spdrt_context *ctx) {
    VkQueueFamilyProperties *fams;
    uint32_t nfam = 0, i;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &nfam, NULL);
    fams = calloc(nfam ? nfam : 1, sizeof *fams);
    if (!fams)
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &nfam, fams);
    for (i = 0; i < nfam; i++)
        if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            break;
    if (i == nfam) {
        free(fams);
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "device \"%s\" has no compute queue",
                            ctx->info.name);
    }
    ctx->queue_family = i;
    ctx->timestamp_valid_bits = fams[i].timestampValidBits;
    free(fams);
    ctx->info.timestamp_period_ns = ctx->timestamp_valid_bits ? ctx->limits.timestampPeriod : 0.0;
    return SPDRT_OK;
}

static spdrt_result create_device(spdrt_context *ctx, int capture_statistics) {
    VkPhysicalDeviceProperties2 p2;
    VkPhysicalDeviceSubgroupProperties sg;
    VkPhysicalDeviceSubgroupSizeControlProperties ssc;
    VkPhysicalDeviceDriverProperties drv;
    VkPhysicalDeviceMaintenance3Properties m3;
    VkPhysicalDeviceFeatures2 f2;
    VkPhysicalDeviceSubgroupSizeControlFeatures sscf;
    int ssc_ext = 0, drv_ext = 0, f16_ext = 0, sub_ext = 0, stats_ext = 0, has_ssc, has_drv;
    spdrt__fp16_features fp16;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR stats;
    void *query_next = NULL;
    const void *enable_next = NULL;
    const char *exts[4];
    uint32_t next = 0;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci;
    VkDeviceCreateInfo dci;
    spdrt_result result;

    if (has_device_ext(ctx->physical, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME, &ssc_ext) ||
        has_device_ext(ctx->physical, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME, &drv_ext) ||
        has_device_ext(ctx->physical, VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME, &f16_ext) ||
        has_device_ext(ctx->physical, VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME, &sub_ext) ||
        has_device_ext(ctx->physical, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME, &stats_ext))
        return spdrt__error(ctx, SPDRT_ERROR_VULKAN,
                            "vkEnumerateDeviceExtensionProperties failed");
    /* Promoted structs may be chained when core has them or the extension is offered. */
    has_ssc = ctx->api_version >= VK_API_VERSION_1_3 || ssc_ext;
    has_drv = ctx->api_version >= VK_API_VERSION_1_2 || drv_ext;

    memset(&sg, 0, sizeof sg);
    sg.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    memset(&ssc, 0, sizeof ssc);
    ssc.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES;
    memset(&drv, 0, sizeof drv);
    drv.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    memset(&p2, 0, sizeof p2);
    p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    p2.pNext = &sg;
    if (has_ssc)
        ssc.pNext = sg.pNext, sg.pNext = &ssc;
    if (has_drv)
        drv.pNext = sg.pNext, sg.pNext = &drv;
    memset(&m3, 0, sizeof m3);
    m3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
    m3.pNext = sg.pNext, sg.pNext = &m3;
    vkGetPhysicalDeviceProperties2(ctx->physical, &p2);
    ctx->max_allocation = m3.maxMemoryAllocationSize;

    memset(&sscf, 0, sizeof sscf);
    sscf.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
    memset(&f2, 0, sizeof f2);
    f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    if (has_ssc)
        query_next = &sscf;
    spdrt__fp16_chain(ctx, &fp16, f16_ext, sub_ext, &query_next);
    spdrt__statistics_chain(ctx, capture_statistics, stats_ext, &stats, &query_next);
    f2.pNext = query_next;
    vkGetPhysicalDeviceFeatures2(ctx->physical, &f2);

    keep_properties(ctx, &p2.properties, &sg, has_ssc ? &ssc : NULL, has_drv ? &drv : NULL,
                    has_ssc ? &sscf : NULL);
    result = choose_queue_family(ctx);
    if (result != SPDRT_OK)
        return result;

    memset(&qci, 0, sizeof qci);
    qci.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    qci.queueFamilyIndex = ctx->queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    memset(&dci, 0, sizeof dci);
    dci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    if (sscf.subgroupSizeControl || sscf.computeFullSubgroups) {
        /* Enable exactly what the device offers; sscf still holds the queried values. */
        sscf.pNext = NULL;
        enable_next = &sscf;
        if (ctx->api_version < VK_API_VERSION_1_3)
            exts[next++] = VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME;
    }
    spdrt__fp16_enable(ctx, &fp16, &enable_next, exts, &next);
    spdrt__statistics_enable(ctx, &stats, &enable_next, exts, &next);
    dci.pNext = enable_next;
    dci.enabledExtensionCount = next;
    dci.ppEnabledExtensionNames = next ? exts : NULL;
    VK_CHECK(ctx, vkCreateDevice, (ctx->physical, &dci, NULL, &ctx->device));
    vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
    return SPDRT_OK;
}

static spdrt_result create_queue_objects(spdrt_context *ctx) {
    VkCommandPoolCreateInfo pci;
    VkFenceCreateInfo fci;
    memset(&pci, 0, sizeof pci);
    pci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pci.queueFamilyIndex = ctx->queue_family;
    VK_CHECK(ctx, vkCreateCommandPool, (ctx->device, &pci, NULL, &ctx->pool));
    memset(&fci, 0, sizeof fci);
    fci.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    VK_CHECK(ctx, vkCreateFence, (ctx->device, &fci, NULL, &ctx->fence));
    return SPDRT_OK;
}

/* ---- public -------------------------------------------------------------------------- */

spdrt_result spdrt_create(const spdrt_options *options, spdrt_context **out, char *err,
                          size_t err_size) {
    spdrt_context *ctx;
    spdrt_result res;
    const char *wanted = NULL, *what = "device";
    char load_error[512];
    if (!out) {
        if (err && err_size)
            snprintf(err, err_size, "spdrt_create: out (where the context goes) is required");
        return SPDRT_ERROR_ARGUMENT;
    }
    *out = NULL;
    if (spdrt__vulkan_load(load_error, sizeof load_error) != 0) {
        if (err && err_size)
            snprintf(err, err_size, "%s", load_error);
        return SPDRT_ERROR_NO_DEVICE;
    }
    ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        if (err && err_size)
            snprintf(err, err_size, "out of memory creating the spdrt context");
        return SPDRT_ERROR_OUT_OF_MEMORY;
    }
    if (options && options->device) {
        wanted = options->device;
    } else if ((wanted = getenv("SPDGEN_DEVICE")) != NULL) {
        what = "SPDGEN_DEVICE";
        if (!*wanted)  /* an empty variable means "not set" */
            wanted = NULL;
    }
    res = create_instance(ctx, options && options->validation);
    if (res == SPDRT_OK)
        res = choose_device(ctx, wanted, what);
    if (res == SPDRT_OK)
        res = create_device(ctx, options && options->capture_statistics);
    if (res == SPDRT_OK)
        res = create_queue_objects(ctx);
    if (res != SPDRT_OK) {
        if (err && err_size)
            snprintf(err, err_size, "%s", ctx->error);
        spdrt_destroy(ctx);
        return res;
    }
    *out = ctx;
    return SPDRT_OK;
}

void spdrt_destroy(spdrt_context *ctx) {
    if (!ctx)
        return;
    /* After a timed-out submission the device still runs our work; destroying what it
     * uses would be undefined, so a hung context deliberately leaks its device, and the
     * context itself, which the still-live messenger points to. */
    if (ctx->device && !ctx->hung) {
        vkDeviceWaitIdle(ctx->device);
        while (ctx->states) {
            spdrt__state *st = ctx->states;
            ctx->states = st->next;
            st->release(ctx, st->data);
            free(st->data);
            free(st);
        }
        if (ctx->fence)
            vkDestroyFence(ctx->device, ctx->fence, NULL);
        if (ctx->pool)
            vkDestroyCommandPool(ctx->device, ctx->pool, NULL);
        vkDestroyDevice(ctx->device, NULL);
    }
    if (ctx->instance && !ctx->hung) {
        if (ctx->messenger) {
            PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
                vkGetInstanceProcAddr(ctx->instance, "vkDestroyDebugUtilsMessengerEXT");
            if (destroy)
                destroy(ctx->instance, ctx->messenger, NULL);
        }
        vkDestroyInstance(ctx->instance, NULL);
    }
    if (!ctx->hung)
        free(ctx);
}

void *spdrt__context_state(spdrt_context *ctx, const void *key, size_t size,
                           spdrt__state_release release) {
    spdrt__state *st;
    for (st = ctx->states; st; st = st->next)
        if (st->key == key)
            return st->data;
    st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->data = calloc(1, size);
    if (!st->data) {
        free(st);
        return NULL;
    }
    st->key = key;
    st->release = release;
    st->next = ctx->states;
    ctx->states = st;
    return st->data;
}

const char *spdrt_last_error(const spdrt_context *ctx) {
    return ctx ? ctx->error : "no spdrt context";
}

const spdrt_device_info *spdrt_device(const spdrt_context *ctx) {
    return ctx ? &ctx->info : NULL;
}

uint32_t spdrt_validation_messages(const spdrt_context *ctx) {
    return ctx ? ctx->validation_messages : 0;
}
