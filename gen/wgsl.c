/* wgsl.c: WebGPU's rules every kernel shares (wgsl.h). The format table follows the WebGPU
 * specification's "Plain color formats" table (STORAGE_BINDING, write-only access). */
#include <stdio.h>
#include <string.h>

#include "contract.h"
#include "wgsl.h"

const char *const sg_wgsl_features[] = {"subgroups", "shader-f16", "texture-formats-tier1",
                                        "float32-filterable", NULL};

/* Why a shader needs each feature, for the error line; in sg_wgsl_features' order. */
static const char *const feature_rules[] = {
    "subgroup and quad operations exist only with it, as 'enable subgroups;'",
    "f16 values exist only with it, as 'enable f16;'",
    "core WebGPU binds fewer formats as storage textures",
    "core WebGPU samples r32float, rg32float and rgba32float with non-filtering samplers only",
};

void sg_wgsl_defaults(sg_common *common)
{
    common->wg_invocations = SG_WGSL_DEFAULT_INVOCATIONS;
    common->wg_storage = SG_WGSL_DEFAULT_STORAGE;
    common->storage_textures = SG_WGSL_DEFAULT_STORAGE_TEXTURES;
    common->features = 0;
}

static int feature_index(int feature)
{
    int i = 0;
    while ((1 << i) != feature) i++;
    return i;
}

int sg_wgsl_need(const sg_run *run, int feature, const char *what)
{
    if (!sg_is_wgsl(run) || (run->common.features & feature)) return 0;
    int i = feature_index(feature);
    return sg_usage_error("%s: WGSL needs the WebGPU feature '%s' (%s); add --features %s if the "
                          "device enables it", what, sg_wgsl_features[i], feature_rules[i],
                          sg_wgsl_features[i]);
}

/* The project's storage formats as WebGPU names them, and the feature that makes each a
 * storage format (0: core). */
static const struct {
    const char *name, *webgpu;
    int feature;
} formats[] = {
    {"r16f", "r16float", SG_WGSL_FORMATS_TIER1},   {"rg16f", "rg16float", SG_WGSL_FORMATS_TIER1},
    {"rgba16f", "rgba16float", 0},                 {"r32f", "r32float", 0},
    {"rg32f", "rg32float", 0},                     {"rgba32f", "rgba32float", 0},
    {"rgba8", "rgba8unorm", 0},                    {"r32ui", "r32uint", 0},
    {"rg8", "rg8unorm", SG_WGSL_FORMATS_TIER1},    {"r8ui", "r8uint", SG_WGSL_FORMATS_TIER1},
};

int sg_wgsl_storage_format(const sg_run *run, const char *flag, const char *format)
{
    if (!sg_is_wgsl(run)) return 0;
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        if (strcmp(formats[i].name, format) != 0) continue;
        if (!formats[i].feature || (run->common.features & formats[i].feature)) return 0;
        return sg_usage_error("%s %s: WebGPU binds %s as a storage texture only with the feature "
                              "'texture-formats-tier1' (the WebGPU specification's plain color "
                              "formats table); add --features texture-formats-tier1 if the device "
                              "enables it", flag, format, formats[i].webgpu);
    }
    return sg_usage_error("%s %s: no WebGPU storage texture format holds it", flag, format);
}

int sg_wgsl_check_contract(const sg_run *run, const sg_contract *c)
{
    const sg_common *o = &run->common;
    if (!sg_is_wgsl(run)) return 0;
    long invocations = c->workgroup[0] * c->workgroup[1] * c->workgroup[2];
    if (invocations > o->wg_invocations || c->workgroup[0] > o->wg_invocations)
        return sg_usage_error("the shader's workgroup of %ldx%ldx%ld invocations exceeds the WebGPU "
                              "limit maxComputeInvocationsPerWorkgroup of %ld (--wg-invocations; "
                              "WebGPU's default is %d)", c->workgroup[0], c->workgroup[1],
                              c->workgroup[2], o->wg_invocations, SG_WGSL_DEFAULT_INVOCATIONS);
    if (c->shared_bytes > o->wg_storage)
        return sg_usage_error("the shader needs %ld bytes of workgroup storage, more than the WebGPU "
                              "limit maxComputeWorkgroupStorageSize of %ld (--wg-storage; WebGPU's "
                              "default is %d)", c->shared_bytes, o->wg_storage, SG_WGSL_DEFAULT_STORAGE);
    long textures = 0;
    for (int i = 0; i < c->binding_count; i++)
        if (strcmp(c->bindings[i].kind, "storage image") == 0) textures += c->bindings[i].count;
    if (textures > o->storage_textures)
        return sg_usage_error("the shader binds %ld storage textures, more than the WebGPU limit "
                              "maxStorageTexturesPerShaderStage of %ld (--storage-textures; WebGPU's "
                              "default is %d)", textures, o->storage_textures,
                              SG_WGSL_DEFAULT_STORAGE_TEXTURES);
    return 0;
}
