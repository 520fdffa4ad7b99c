/* fp16.c: the device features fp16 shaders (spdgen --half) need, enabled where the device
 * has them, and a check of each shader's SPIR-V against them before a pipeline is built, so
 * a --half shader on a device without them fails with a message naming the feature instead
 * of undefined behaviour (or a validation-layer complaint).
 *
 *   shaderFloat16                fp16 arithmetic (SPIR-V capability Float16)
 *   storageBuffer16BitAccess     halves in a storage buffer (the level-6 hand-off;
 *                                capability StorageBuffer16BitAccess)
 *   shaderSubgroupExtendedTypes  subgroup shuffles / quad broadcasts of fp16 values (no
 *                                capability of its own: found by the result types of the
 *                                module's OpGroupNonUniform* instructions) */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
    OP_CAPABILITY = 17, OP_TYPE_FLOAT = 22, OP_TYPE_VECTOR = 23,
    OP_GROUP_NON_UNIFORM_FIRST = 333, OP_GROUP_NON_UNIFORM_LAST = 366, /* Elect .. QuadSwap */
    CAP_FLOAT16 = 9, CAP_STORAGE_BUFFER_16BIT = 4433, CAP_UNIFORM_STORAGE_BUFFER_16BIT = 4434,
};

void spdrt__fp16_chain(spdrt_context *ctx, spdrt__fp16_features *f, int f16_ext, int sub_ext,
                       void **next) {
    memset(f, 0, sizeof *f);
    f->storage.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
    f->storage.pNext = *next; /* core in Vulkan 1.1, the runtime's minimum */
    *next = &f->storage;
    f->has_float16 = ctx->api_version >= VK_API_VERSION_1_2 || f16_ext;
    f->has_subgroup = ctx->api_version >= VK_API_VERSION_1_2 || sub_ext;
    f->float16_ext = ctx->api_version < VK_API_VERSION_1_2 && f16_ext;
    f->subgroup_ext = ctx->api_version < VK_API_VERSION_1_2 && sub_ext;
    if (f->has_float16) {
        f->float16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES;
        f->float16.pNext = *next;
        *next = &f->float16;
    }
    if (f->has_subgroup) {
        f->subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES;
        f->subgroup.pNext = *next;
        *next = &f->subgroup;
    }
}

void spdrt__fp16_enable(spdrt_context *ctx, spdrt__fp16_features *f, const void **next,
                        const char **exts, uint32_t *count) {
    /* Only the features the shaders use; the rest stay off. */
    VkPhysicalDevice16BitStorageFeatures *s = &f->storage;
    ctx->storage16 = s->storageBuffer16BitAccess;
    ctx->uniform_storage16 = s->uniformAndStorageBuffer16BitAccess;
    ctx->float16 = f->has_float16 && f->float16.shaderFloat16;
    ctx->subgroup_f16 = f->has_subgroup && f->subgroup.shaderSubgroupExtendedTypes;
    memset(s, 0, sizeof *s);
    s->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
    s->storageBuffer16BitAccess = (VkBool32)ctx->storage16;
    s->uniformAndStorageBuffer16BitAccess = (VkBool32)ctx->uniform_storage16;
    s->pNext = (void *)*next;
    *next = s;
    if (ctx->float16) {
        memset(&f->float16, 0, sizeof f->float16);
        f->float16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES;
        f->float16.shaderFloat16 = VK_TRUE;
        f->float16.pNext = (void *)*next;
        *next = &f->float16;
        if (f->float16_ext) exts[(*count)++] = VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME;
    }
    if (ctx->subgroup_f16) {
        f->subgroup.pNext = (void *)*next;
        *next = &f->subgroup;
        if (f->subgroup_ext) exts[(*count)++] = VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME;
    }
}

static int in_list(const uint32_t *ids, size_t n, uint32_t id) {
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id) return 1;
    return 0;
}

spdrt_result spdrt__fp16_check(spdrt_context *ctx, const uint32_t *spirv, size_t words) {
    const char *missing = NULL;
    uint32_t f16_types[64];
    size_t n_types = 0;
    int subgroup_f16 = 0;
    for (size_t i = 5; i < words;) {
        uint32_t count = spirv[i] >> 16, op = spirv[i] & 0xffffu;
        if (count == 0 || i + count > words) break; /* malformed: vkCreateShaderModule says so */
        const uint32_t *w = spirv + i;
        if (op == OP_CAPABILITY && count >= 2) {
            if (w[1] == CAP_FLOAT16 && !ctx->float16) missing = "shaderFloat16";
            if (w[1] == CAP_STORAGE_BUFFER_16BIT && !ctx->storage16) missing = "storageBuffer16BitAccess";
            if (w[1] == CAP_UNIFORM_STORAGE_BUFFER_16BIT && !ctx->uniform_storage16)
                missing = "uniformAndStorageBuffer16BitAccess";
        } else if (op == OP_TYPE_FLOAT && count >= 3 && w[2] == 16 && n_types < 64) {
            f16_types[n_types++] = w[1];
        } else if (op == OP_TYPE_VECTOR && count >= 4 && in_list(f16_types, n_types, w[2]) && n_types < 64) {
            f16_types[n_types++] = w[1];
        } else if (op >= OP_GROUP_NON_UNIFORM_FIRST && op <= OP_GROUP_NON_UNIFORM_LAST && count >= 2 &&
                   in_list(f16_types, n_types, w[1])) {
            subgroup_f16 = 1;
        }
        i += count;
    }
    if (!missing && subgroup_f16 && !ctx->subgroup_f16) missing = "shaderSubgroupExtendedTypes";
    if (missing)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the shader computes in fp16 (spdgen --half) and needs the Vulkan "
                            "feature %s, which \"%s\" does not offer; generate it without --half",
                            missing, ctx->info.name);
    return SPDRT_OK;
}
