/* conv_load.c: a --conv job from its plan file (NAME.convplan): the five pipelines (six for a
 * resampled spectrum), the
 * buffers between the passes sized for the plan's largest image and PSF, and the descriptor
 * writes that do not change between runs. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"

static const char *const ROLES[CONV_SHADERS] = {"spectrum1", "spectrum2", "resample", "pass1", "pass2",
                                                "pass3"};

static uint32_t *read_words(const char *path, size_t *words)
{
    FILE *f = fopen(path, "rb");
    uint32_t *data = NULL;
    long size = -1;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (size > 0 && size % 4 == 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)size)) &&
        fread(data, 1, (size_t)size, f) != (size_t)size) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *words = size > 0 ? (size_t)size / 4 : 0;
    return data;
}

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
    for (uint32_t b = 0; b < count; b++) bindings[b] = (spdrt_binding){types[b], 1, NULL};
    if (s->wg > ctx->limits.maxComputeWorkGroupInvocations || s->wg > ctx->limits.maxComputeWorkGroupSize[0])
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "conv %s: a workgroup of %u invocations exceeds "
                            "\"%s\"'s %u", ROLES[i], s->wg, ctx->info.name, ctx->limits.maxComputeWorkGroupInvocations);
    if (s->shared > ctx->limits.maxComputeSharedMemorySize)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "conv %s needs %u bytes of shared memory; \"%s\" has %u",
                            ROLES[i], s->shared, ctx->info.name, ctx->limits.maxComputeSharedMemorySize);
    spdrt_pipeline_desc desc = {.spirv = code, .spirv_words = words, .bindings = bindings,
                                .binding_count = count, .push_bytes = CONV_PUSH_BYTES, .set_count = 1};
    spdrt_result res = spdrt__subgroup_plan(ctx, s->subgroup, s->wg, &desc.required_subgroup,
                                            &desc.full_subgroups);
    uint32_t size = desc.required_subgroup ? desc.required_subgroup : ctx->info.max_subgroup_size;
    if (desc.full_subgroups && s->wg % size != 0) desc.full_subgroups = 0;
    if (res == SPDRT_OK) res = spdrt__pipeline_create(ctx, &desc, &s->pipe);
    return res;
}

static int parse_format(const char *v, spdrt_format *out)
{
    if (!strcmp(v, "none")) {
        *out = SPDRT_RGBA32F;
        return 0;
    }
    return spdrt_format_by_name(v, out);
}

/* 1 if value is first or second (the set's two words), stored in *out as 0 or 1; else 0. */
static int parse_pair(const char *value, const char *first, const char *second, int *out)
{
    if (strcmp(value, first) && strcmp(value, second)) return 0;
    *out = !strcmp(value, second);
    return 1;
}

/* One "key value..." line into conv; 0, or -1 when it is malformed: an unknown key, a value
 * outside its set, a missing number (a damaged plan never runs). */
static int parse_line(spdrt_conv *conv, const char *line, char files[CONV_SHADERS][256])
{
    spdrt_conv_info *i = &conv->info;
    char word[64], value[64], role[32], file[256], tail[8];
    unsigned long long v[4];
    unsigned wg, sg, shared, n, cols, groups, channels;
    int flag = 0;
    if (sscanf(line, "%63s", word) != 1) return 0;
    if (!strcmp(word, "shader")) {
        if (sscanf(line, "shader %31s file %255s wg %u subgroup %u shared %u n %u columns %u groups %u", role,
                   file, &wg, &sg, &shared, &n, &cols, &groups) != 8)
            return -1;
        for (int k = 0; k < CONV_SHADERS; k++)
            if (!strcmp(role, ROLES[k])) {
                conv->shaders[k] = (conv_shader){wg, sg, shared, n, cols, groups, {0}};
                snprintf(files[k], 256, "%s", file);
                return 0;
            }
        return -1;
    }
    /* two numbers and nothing after them; one word and nothing after it */
    int two = sscanf(line, "%*s %llu %llu %7s", &v[0], &v[1], tail) == 2;
    int one = sscanf(line, "%*s %63s %7s", value, tail) == 1;
    if (!one) value[0] = '\0';
    if (!strcmp(word, "image") && two) i->image_width = (uint32_t)v[0], i->image_height = (uint32_t)v[1];
    else if (!strcmp(word, "psf") && two) i->psf_width = (uint32_t)v[0], i->psf_height = (uint32_t)v[1];
    else if (!strcmp(word, "padded") && two) i->padded_width = (uint32_t)v[0], i->padded_height = (uint32_t)v[1];
    else if (!strcmp(word, "spectrum-size") && two)
        i->spectrum_width = (uint32_t)v[0], i->spectrum_height = (uint32_t)v[1];
    else if (!strcmp(word, "channels")) {
        if (!one || sscanf(value, "%u%7s", &channels, tail) != 1) return -1;
        i->channels = channels;
    } else if (!strcmp(word, "padding") && parse_pair(value, "zero", "mirror", &flag)) i->mirror = flag;
    else if (!strcmp(word, "spectrum") && parse_pair(value, "exact", "resampled", &flag)) i->resampled = flag;
    else if (!strcmp(word, "first-axis") && parse_pair(value, "x", "y", &flag)) i->first_axis_y = flag;
    else if (!strcmp(word, "input") && parse_pair(value, "image", "buffer", &flag)) i->input_buffer = flag;
    else if (!strcmp(word, "output") && parse_pair(value, "image", "buffer", &flag)) i->output_buffer = flag;
    else if (!strcmp(word, "storage") && parse_pair(value, "f32", "f16", &flag)) i->f16 = flag;
    else if (!strcmp(word, "format") && one) return parse_format(value, &i->output_format);
    else if (!strcmp(word, "spectrum-tiles")) {
        if (sscanf(line, "spectrum-tiles %u", &conv->s_tile) != 1 || !conv->s_tile) return -1;
    } else if (!strcmp(word, "buffers")) {
        unsigned long long r;
        if (sscanf(line, "buffers %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &r) != 5) return -1;
        for (int k = 0; k < 4; k++) conv->values[k] = v[k];
        conv->values[4] = r;
    } else {
        return -1;
    }
    return 0;
}

/* The sizes along the passes' axes, and the plan's consistency. */
static int derive(spdrt_conv *conv)
{
    spdrt_conv_info *i = &conv->info;
    int y = i->first_axis_y;
    conv->e1_max = y ? i->image_height : i->image_width;
    conv->e2_max = y ? i->image_width : i->image_height;
    conv->k2_max = y ? i->psf_width : i->psf_height;
    conv->p1 = y ? i->padded_height : i->padded_width;
    conv->q1 = y ? i->spectrum_height : i->spectrum_width;
    if (!i->channels || i->channels > 4 || !i->image_width || !i->psf_width || !conv->p1 || !conv->q1) return -1;
    for (int k = 0; k < CONV_SHADERS; k++) {
        /* the resample is there exactly when the spectrum is resampled; it runs no FFT */
        int wanted = k != CONV_RESAMPLE || i->resampled;
        if (!wanted != !conv->shaders[k].wg || (wanted && k != CONV_RESAMPLE && !conv->shaders[k].n)) return -1;
    }
    if (!i->resampled != !conv->values[4]) return -1;
    conv->scale = 1.0f;
    return 0;
}

static spdrt_result create_buffers(spdrt_context *ctx, spdrt_conv *conv)
{
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    spdrt_buffer *bufs[5] = {&conv->z, &conv->y, &conv->s, &conv->zk, &conv->r};
    spdrt_result res = SPDRT_OK;
    for (int k = 0; k < 5 && res == SPDRT_OK; k++)
        if (conv->values[k])
            res = spdrt__buffer_create(ctx, conv->values[k] * conv_complex_bytes(conv), usage, 0, bufs[k]);
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

/* Parses the plan's text into conv; the modules' file names into files; the first malformed
 * line, if any, into why. */
static int parse_plan(spdrt_conv *conv, const char *text, char files[CONV_SHADERS][256], char *why,
                      size_t why_size)
{
    char line[1024];
    int version = 0, bad = 0, number = 0;
    conv->info.output_format = SPDRT_RGBA32F;
    why[0] = '\0';
    while (*text) {
        size_t len = strcspn(text, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), text);
        text += len + (text[len] == '\n');
        number++;
        if (line[0] == '#') continue;
        if (!strncmp(line, "spdgen-conv-plan ", 17)) version = atoi(line + 17);
        else if (parse_line(conv, line, files) && !bad++)
            snprintf(why, why_size, " (line %d: %.200s)", number, line);
    }
    return version == 2 && !bad && !derive(conv) ? 0 : -1;
}

static spdrt_result create(spdrt_context *ctx, const char *plan, const uint32_t *const spirv[CONV_SHADERS],
                           const size_t words[CONV_SHADERS], const char *where, spdrt_conv **out)
{
    char files[CONV_SHADERS][256], why[256];
    spdrt_conv *conv = calloc(1, sizeof *conv);
    if (!conv) return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    memset(files, 0, sizeof files);
    spdrt_result res = SPDRT_OK;
    if (parse_plan(conv, plan, files, why, sizeof why))
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s is not a version-2 spdgen conv plan%s", where, why);
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

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long size = -1;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (size >= 0 && size < (1 << 20) && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)size + 1))) {
        if (fread(text, 1, (size_t)size, f) != (size_t)size) {
            free(text);
            text = NULL;
        } else {
            text[size] = '\0';
        }
    }
    fclose(f);
    return text;
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
    char *text = read_text(path);
    if (!text) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "cannot open the conv plan %s", path);
    memset(&probe, 0, sizeof probe);
    memset(files, 0, sizeof files);
    spdrt_result res = SPDRT_OK;
    if (parse_plan(&probe, text, files, why, sizeof why))
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s is not a version-2 spdgen conv plan%s", path, why);
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
        else if (!(code[count] = read_words(file, &words[count])))
            res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "cannot read the conv module %s", file);
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

uint32_t conv_complex_bytes(const spdrt_conv *conv) { return conv->info.f16 ? 4u : 8u; }
