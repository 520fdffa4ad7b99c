/* conv_load.c: a --conv job from its plan file (NAME.convplan, read by conv_parse.c): the five
 * pipelines (six for a resampled spectrum), the buffers between the passes sized for the
 * plan's largest image and PSF, and the descriptor writes that do not change between runs. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"

/* The descriptor types of each shader's bindings (binding i = types[i]). */
static uint32_t binding_types(const spdrt_conv_info *info, int shader, VkDescriptorType types[3])
{
    const VkDescriptorType sb = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    VkDescriptorType src = info->input_buffer ? sb : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    types[0] = types[1] = types[2] = sb;
    if (shader == CONV_PASS1) types[0] = src;
    if (shader == CONV_PASS3) {
        types[1] = src;
        types[2] = info->output_buffer ? sb : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    }
    return shader == CONV_PASS2 || shader == CONV_PASS3 ? 3u : 2u;
}

static spdrt_result create_shader(spdrt_context *ctx, spdrt_conv *conv, int i, const uint32_t *code,
                                  size_t words)
{
    conv_shader *s = &conv->shaders[i];
    VkDescriptorType types[3];
    spdrt_binding bindings[3];
    uint32_t count = binding_types(&conv->info, i, types);
    for (uint32_t b = 0; b < count; b++) bindings[b] = (spdrt_binding){types[b], 1, NULL, 0};
    /* Pass 3's output image holds the plan's format: the shader must declare it. */
    if (i == CONV_PASS3 && !conv->info.output_buffer)
        bindings[2].format = spdrt__format_vk(conv->info.output_format);
    if (s->wg > ctx->limits.maxComputeWorkGroupInvocations || s->wg > ctx->limits.maxComputeWorkGroupSize[0])
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "conv %s: a workgroup of %u invocations exceeds "
                            "\"%s\"'s %u", spdrt__conv_roles[i], s->wg, ctx->info.name,
                            ctx->limits.maxComputeWorkGroupInvocations);
    if (s->shared > ctx->limits.maxComputeSharedMemorySize)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "conv %s needs %u bytes of shared memory; \"%s\" has %u",
                            spdrt__conv_roles[i], s->shared, ctx->info.name, ctx->limits.maxComputeSharedMemorySize);
    spdrt_pipeline_desc desc = {.spirv = code, .spirv_words = words, .bindings = bindings,
                                .binding_count = count, .push_bytes = CONV_PUSH_BYTES, .set_count = 1};
    spdrt_result res = spdrt__subgroup_plan(ctx, s->subgroup, s->wg, &desc.required_subgroup,
                                            &desc.full_subgroups);
    uint32_t size = desc.required_subgroup ? desc.required_subgroup : ctx->info.max_subgroup_size;
    if (desc.full_subgroups && s->wg % size != 0) desc.full_subgroups = 0;
    if (res == SPDRT_OK) res = spdrt__pipeline_create(ctx, &desc, &s->pipe);
    return res;
}

static spdrt_result create_buffers(spdrt_context *ctx, spdrt_conv *conv)
{
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    spdrt_buffer *bufs[5] = {&conv->z, &conv->y, &conv->s, &conv->zk, &conv->r};
    spdrt_result res = SPDRT_OK;
    for (int k = 0; k < 5 && res == SPDRT_OK; k++)
        if (conv->values[k])
            res = spdrt__buffer_create(ctx, conv->values[k] * spdrt__conv_complex_bytes(conv), usage, 0, bufs[k]);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, (VkDeviceSize)conv->info.psf_width * conv->info.psf_height *
                                   conv->info.channels * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 1,
                                   &conv->psf);
    return res;
}

/* The bindings that stay: the spectrum shaders' and the buffers between the passes. */
static void bind_fixed(spdrt_context *ctx, spdrt_conv *conv)
{
    VkDescriptorSet set;
    set = conv->shaders[CONV_SPECTRUM1].pipe.sets[0];
    spdrt__write_buffer(ctx, set, 0, conv->psf.buffer, 0, VK_WHOLE_SIZE);
    spdrt__write_buffer(ctx, set, 1, conv->zk.buffer, 0, VK_WHOLE_SIZE);
    set = conv->shaders[CONV_SPECTRUM2].pipe.sets[0];
    spdrt__write_buffer(ctx, set, 0, conv->zk.buffer, 0, VK_WHOLE_SIZE);
    spdrt__write_buffer(ctx, set, 1, conv->s.buffer, 0, VK_WHOLE_SIZE);
    if (conv->info.resampled) {
        set = conv->shaders[CONV_RESAMPLE].pipe.sets[0];
        spdrt__write_buffer(ctx, set, 0, conv->s.buffer, 0, VK_WHOLE_SIZE);
        spdrt__write_buffer(ctx, set, 1, conv->r.buffer, 0, VK_WHOLE_SIZE);
    }
    spdrt__write_buffer(ctx, conv->shaders[CONV_PASS1].pipe.sets[0], 1, conv->z.buffer, 0, VK_WHOLE_SIZE);
    set = conv->shaders[CONV_PASS2].pipe.sets[0];
    spdrt__write_buffer(ctx, set, 0, conv->z.buffer, 0, VK_WHOLE_SIZE);
    spdrt__write_buffer(ctx, set, 1, conv->y.buffer, 0, VK_WHOLE_SIZE);
    spdrt__write_buffer(ctx, set, 2, (conv->info.resampled ? conv->r : conv->s).buffer, 0, VK_WHOLE_SIZE);
    spdrt__write_buffer(ctx, conv->shaders[CONV_PASS3].pipe.sets[0], 0, conv->y.buffer, 0, VK_WHOLE_SIZE);
}

static spdrt_result create(spdrt_context *ctx, const char *plan, const uint32_t *const spirv[CONV_SHADERS],
                           const size_t words[CONV_SHADERS], const char *where, spdrt_conv **out)
{
    char files[CONV_SHADERS][256], why[256];
    spdrt_conv *conv = calloc(1, sizeof *conv);
    char *text = strdup(plan); /* the parse cuts it into words */
    if (!conv || !text) {
        free(conv);
        free(text);
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    memset(files, 0, sizeof files);
    spdrt_result res = SPDRT_OK;
    if (spdrt__conv_parse_plan(conv, text, files, why, sizeof why))
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s is not a version-2 spdgen conv plan%s", where, why);
    free(text);
    /* The modules come in the plan's order: every shader but an exact job's resample. */
    for (int k = 0, m = 0; k < CONV_SHADERS && res == SPDRT_OK; k++) {
        if (!conv->shaders[k].wg) continue;
        res = spdrt__spirv_check(ctx, spirv[m], words[m]);
        if (res == SPDRT_OK) res = create_shader(ctx, conv, k, spirv[m], words[m]);
        m++;
    }
    if (res == SPDRT_OK) res = create_buffers(ctx, conv);
    if (res != SPDRT_OK) {
        spdrt_conv_destroy(ctx, conv);
        return res;
    }
    bind_fixed(ctx, conv);
    *out = conv;
    return SPDRT_OK;
}

spdrt_result spdrt_conv_create(spdrt_context *ctx, const char *plan, const uint32_t *const spirv[],
                               const size_t spirv_words[], spdrt_conv **out)
{
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    if (!out || !plan || !spirv || !spirv_words)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_create: plan, spirv, spirv_words and out are required");
    *out = NULL;
    return create(ctx, plan, spirv, spirv_words, "the plan text", out);
}

spdrt_result spdrt_conv_load(spdrt_context *ctx, const char *path, spdrt_conv **out)
{
    char dir[1024], files[CONV_SHADERS][256], why[256];
    uint32_t *code[CONV_SHADERS] = {NULL};
    size_t words[CONV_SHADERS] = {0};
    spdrt_conv probe;
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    if (!out || !path) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_load: path and out are required");
    *out = NULL;
    int nul_line = 0;
    char *text = spdrt__plan_text(path, &nul_line), *cut = text ? strdup(text) : NULL;
    if (!text || !cut) {
        free(text);
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "cannot open the conv plan %s", path);
    }
    memset(&probe, 0, sizeof probe);
    memset(files, 0, sizeof files);
    spdrt_result res = SPDRT_OK;
    if (nul_line)
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s is not a version-2 spdgen conv plan (line %d holds a NUL "
                           "byte)", path, nul_line);
    else if (spdrt__conv_parse_plan(&probe, cut, files, why, sizeof why))
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s is not a version-2 spdgen conv plan%s", path, why);
    free(cut);
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) slash[1] = '\0';
    else dir[0] = '\0';
    int count = 0; /* the modules in the plan's order, as spdrt_conv_create takes them */
    for (int k = 0; k < CONV_SHADERS && res == SPDRT_OK; k++) {
        char file[1024 + 256];
        if (!probe.shaders[k].wg) continue;
        if (snprintf(file, sizeof file, "%s%s", dir, files[k]) >= (int)sizeof file)
            res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "the conv module path is too long: %s", files[k]);
        else if (!(code[count] = spdrt__read_words(file, &words[count])))
            res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: cannot read the %s module %s", path, spdrt__conv_roles[k],
                               file);
        count++;
    }
    if (res == SPDRT_OK) res = create(ctx, text, (const uint32_t *const *)code, words, path, out);
    for (int k = 0; k < CONV_SHADERS; k++) free(code[k]);
    free(text);
    return res;
}

const spdrt_conv_info *spdrt_conv_describe(const spdrt_conv *conv) { return &conv->info; }

void spdrt_conv_destroy(spdrt_context *ctx, spdrt_conv *conv)
{
    if (!ctx || !conv) return;
    if (!ctx->hung) {
        for (int k = 0; k < CONV_SHADERS; k++) spdrt__pipeline_destroy(ctx, &conv->shaders[k].pipe);
        spdrt__buffer_destroy(ctx, &conv->z);
        spdrt__buffer_destroy(ctx, &conv->y);
        spdrt__buffer_destroy(ctx, &conv->s);
        spdrt__buffer_destroy(ctx, &conv->zk);
        spdrt__buffer_destroy(ctx, &conv->r);
        spdrt__buffer_destroy(ctx, &conv->psf);
    }
    free(conv);
}

uint32_t spdrt__conv_complex_bytes(const spdrt_conv *conv) { return conv->info.f16 ? 4u : 8u; }
