/* conv_parse.c: a --conv plan's text (NAME.convplan) into a job's sizes, buffers and shaders.
 * Read strictly: every key once, every number whole, every value in its set, every size in
 * range, and the buffers what the sizes give. A damaged plan never runs, since its shaders
 * would read and write past buffers sized from it. */
#include <stdio.h>
#include <string.h>

#include "conv_internal.h"

/* The column passes' tiles hold at least this many columns (gen/conv/conv.h's
 * SG_CONV_TILE_COLUMNS); buffer_values follows gen/conv/conv_check.c's sizes. Every plan the
 * tests generate is loaded through this check. */
#define TILE_MIN_COLUMNS 8u
/* No side of a plan is larger (spdgen's padded sides stop at 16384). */
#define SIDE_MAX 65536u

const char *const spdrt__conv_roles[CONV_SHADERS + 1] = {"spectrum1", "spectrum2", "resample", "pass1", "pass2",
                                                  "pass3", NULL};

enum { K_VERSION, K_IMAGE, K_PSF, K_CHANNELS, K_PADDING, K_SPECTRUM, K_AXIS, K_INPUT, K_OUTPUT, K_FORMAT,
       K_STORAGE, K_PADDED, K_SPECTRUM_SIZE, K_BUFFERS, K_TILES, K_COUNT };
static const char *const KEYS[K_COUNT + 1] = {
    "spdgen-conv-plan", "image", "psf", "channels", "padding", "spectrum", "first-axis", "input", "output",
    "format", "storage", "padded", "spectrum-size", "buffers", "spectrum-tiles", NULL};

/* Two sizes, each 1..SIDE_MAX. */
static int sizes(char **w, int count, uint32_t *a, uint32_t *b)
{
    return count == 3 && !spdrt__plan_u32(w[1], a) && !spdrt__plan_u32(w[2], b) && *a && *b && *a <= SIDE_MAX &&
                   *b <= SIDE_MAX
               ? 0
               : -1;
}

/* One word of the set {first, second}: 0 or 1 in *out. */
static int pair(char **w, int count, const char *first, const char *second, int *out)
{
    const char *const names[] = {first, second, NULL};
    *out = count == 2 ? spdrt__plan_choice(w[1], names) : -1;
    return *out < 0 ? -1 : 0;
}

static int key_line(spdrt_conv *conv, int key, char **w, int count, uint32_t *version)
{
    spdrt_conv_info *i = &conv->info;
    switch (key) {
    case K_VERSION: return count == 2 && !spdrt__plan_u32(w[1], version) ? 0 : -1;
    case K_IMAGE: return sizes(w, count, &i->image_width, &i->image_height);
    case K_PSF: return sizes(w, count, &i->psf_width, &i->psf_height);
    case K_PADDED: return sizes(w, count, &i->padded_width, &i->padded_height);
    case K_SPECTRUM_SIZE: return sizes(w, count, &i->spectrum_width, &i->spectrum_height);
    case K_CHANNELS:
        return count == 2 && !spdrt__plan_u32(w[1], &i->channels) && i->channels >= 1 && i->channels <= 4 ? 0 : -1;
    case K_PADDING: return pair(w, count, "zero", "mirror", &i->mirror);
    case K_SPECTRUM: return pair(w, count, "exact", "resampled", &i->resampled);
    case K_AXIS: return pair(w, count, "x", "y", &i->first_axis_y);
    case K_INPUT: return pair(w, count, "image", "buffer", &i->input_buffer);
    case K_OUTPUT: return pair(w, count, "image", "buffer", &i->output_buffer);
    case K_STORAGE: return pair(w, count, "f32", "f16", &i->f16);
    case K_FORMAT:
        if (count != 2) return -1;
        if (!strcmp(w[1], "none")) {
            i->output_format = SPDRT_RGBA32F;
            return 0;
        }
        return spdrt_format_by_name(w[1], &i->output_format);
    case K_TILES: return count == 2 && !spdrt__plan_u32(w[1], &conv->s_tile) && conv->s_tile ? 0 : -1;
    case K_BUFFERS:
        if (count != 6) return -1;
        for (int k = 0; k < 5; k++)
            if (spdrt__plan_u64(w[1 + k], &conv->values[k])) return -1;
        return 0;
    }
    return -1;
}

/* "shader ROLE file F wg W subgroup S shared B n N columns C groups G": each role once. */
static int shader_line(spdrt_conv *conv, char **w, int count, char files[CONV_SHADERS][256])
{
    static const char *const keys[] = {"wg", "subgroup", "shared", "n", "columns", "groups"};
    uint32_t v[6];
    int role = count == 16 ? spdrt__plan_choice(w[1], spdrt__conv_roles) : -1;
    if (role < 0 || conv->shaders[role].wg || strcmp(w[2], "file") || strlen(w[3]) >= 256) return -1;
    for (int k = 0; k < 6; k++)
        if (strcmp(w[4 + 2 * k], keys[k]) || spdrt__plan_u32(w[5 + 2 * k], &v[k])) return -1;
    if (!v[0]) return -1;
    conv->shaders[role] = (conv_shader){v[0], v[1], v[2], v[3], v[4], v[5], {0}};
    snprintf(files[role], 256, "%s", w[3]);
    return 0;
}

static uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

/* The complex values of z, y, s, zk and r that the shaders index for the plan's sizes. */
static void buffer_values(const spdrt_conv *conv, uint32_t p2, uint32_t q2, uint64_t out[5])
{
    const spdrt_conv_info *i = &conv->info;
    uint64_t ch = i->channels, e2 = conv->e2_max, k2 = conv->k2_max;
    uint32_t lanes_s2 = conv->shaders[CONV_SPECTRUM2].columns, lanes_2 = conv->shaders[CONV_PASS2].columns;
    uint64_t tiled_2 = round_up(conv->p1 / 2 + 1, conv->s_tile);
    uint64_t tiled_s2 = round_up(conv->q1 / 2 + 1, lanes_s2 > TILE_MIN_COLUMNS ? lanes_s2 : TILE_MIN_COLUMNS);
    out[0] = ch * tiled_2 * ((e2 + 1) / 2) * 2;
    out[1] = ch * tiled_2 * e2;
    out[2] = i->resampled ? ch * q2 * conv->q1 : ch * tiled_2 * p2;
    out[3] = ch * tiled_s2 * ((k2 + 1) / 2) * 2;
    out[4] = i->resampled ? ch * conv->shaders[CONV_PASS2].groups_per_channel * (uint64_t)lanes_2 * p2 : 0;
}

/* The sizes along the passes' axes, and the plan's consistency: -1 if the shaders are not
 * the job's, -2 if the buffers are not what its sizes give (those into want). */
static int derive(spdrt_conv *conv, uint64_t want[5])
{
    spdrt_conv_info *i = &conv->info;
    int y = i->first_axis_y;
    conv->e1_max = y ? i->image_height : i->image_width;
    conv->e2_max = y ? i->image_width : i->image_height;
    conv->k2_max = y ? i->psf_width : i->psf_height;
    conv->p1 = y ? i->padded_height : i->padded_width;
    conv->q1 = y ? i->spectrum_height : i->spectrum_width;
    for (int k = 0; k < CONV_SHADERS; k++) {
        /* the resample is there exactly when the spectrum is resampled; it runs no FFT */
        int wanted = k != CONV_RESAMPLE || i->resampled;
        if (!wanted != !conv->shaders[k].wg || (wanted && k != CONV_RESAMPLE && !conv->shaders[k].n)) return -1;
    }
    if (!conv->shaders[CONV_SPECTRUM2].columns || !conv->shaders[CONV_PASS2].columns ||
        conv->s_tile < conv->shaders[CONV_PASS2].columns)
        return -1;
    buffer_values(conv, y ? i->padded_width : i->padded_height, y ? i->spectrum_width : i->spectrum_height, want);
    if (memcmp(want, conv->values, 5 * sizeof *want)) return -2;
    conv->scale = 1.0f;
    return 0;
}

int spdrt__conv_parse_plan(spdrt_conv *conv, char *text, char files[CONV_SHADERS][256], char *why, size_t why_size)
{
    char *cursor = text, *line, *w[20], shown[200], buffers[200] = "";
    uint32_t version = 0;
    uint64_t want[5];
    unsigned seen = 0;
    int number = 0, buffers_line = 0;
    conv->info.output_format = SPDRT_RGBA32F;
    why[0] = '\0';
    while ((line = spdrt__plan_line(&cursor))) {
        number++;
        snprintf(shown, sizeof shown, "%s", line);
        int count = spdrt__plan_words(line, w, 19);
        if (count == 0 || w[0][0] == '#') continue;
        int key = strcmp(w[0], "shader") ? spdrt__plan_key(w[0], KEYS, &seen) : -1;
        int bad = key >= 0 ? key_line(conv, key, w, count, &version) : strcmp(w[0], "shader") ? -1
                                                                          : shader_line(conv, w, count, files);
        if (key == K_VERSION && !bad) bad = version != 2;
        if (key == K_BUFFERS) buffers_line = number, snprintf(buffers, sizeof buffers, "%s", shown);
        if (bad) {
            snprintf(why, why_size, " (line %d: %s%s)", number, shown,
                     key < 0 && spdrt__plan_choice(w[0], KEYS) >= 0 ? ": a key given twice" : "");
            return -1;
        }
    }
    for (int k = 0; k < K_COUNT; k++)
        if (!(seen & (1u << k))) {
            snprintf(why, why_size, " (no %s line)", KEYS[k]);
            return -1;
        }
    int rc = derive(conv, want);
    if (rc == -1) snprintf(why, why_size, " (its shader lines are not those of its sizes and spectrum)");
    if (rc == -2)
        snprintf(why, why_size, " (line %d: %s: its sizes give buffers %llu %llu %llu %llu %llu)", buffers_line,
                 buffers, (unsigned long long)want[0], (unsigned long long)want[1], (unsigned long long)want[2],
                 (unsigned long long)want[3], (unsigned long long)want[4]);
    return rc ? -1 : 0;
}
