/* spd_compare.c: comparing a shader's levels with the CPU reference, within the bound the
 * project states for each op and format. Shared by --selftest, the tests, the examples and
 * the benchmarks so all of them judge results the same way. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "spd_passes.h"
#include "spdrt_spd.h"

/* The index of `name` in names[0..n), or -1. */
static int index_by_name(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0) return (int)i;
    return -1;
}

int spd_ref_op_by_name(const char *name, spd_op *out)
{
    static const char *const names[] = {
        [SPD_OP_MIN] = "min", [SPD_OP_MAX] = "max", [SPD_OP_MEAN] = "mean",
        [SPD_OP_TEST_ORDER] = "test-order", [SPD_OP_MINMAX] = "minmax",
        [SPD_OP_SRGB_MEAN] = "srgb-mean",
    };
    int i = index_by_name(names, sizeof names / sizeof *names, name);
    if (i < 0) return -1;
    *out = (spd_op)i;
    return 0;
}

int spd_ref_edge_by_name(const char *name, spdrt_edge *out)
{
    static const char *const names[] = {
        [SPDRT_EDGE_DROP] = "drop", [SPDRT_EDGE_CONSERVATIVE] = "conservative",
        [SPDRT_EDGE_WEIGHTED] = "weighted",
    };
    int i = index_by_name(names, sizeof names / sizeof *names, name);
    if (i < 0) return -1;
    *out = (spdrt_edge)i;
    return 0;
}

double spd_ref_level_bound(spdrt_format format, double bound, uint32_t dispatch)
{
    int rounded = format == SPDRT_RGBA16F || format == SPDRT_RG16F || format == SPDRT_R16F ||
                  format == SPDRT_RGBA8;
    return rounded ? bound * (1.0 + dispatch) : bound;
}

uint32_t spd_ref_dispatch_of_level(uint32_t width, uint32_t height, uint32_t level,
                                   uint32_t mip_count, uint32_t mips_per_pass, spdrt_edge edge)
{
    uint32_t dispatch = 0, end = 0;
    while ((end = spd_pass_end(width, height, end, mip_count, mips_per_pass,
                               edge == SPDRT_EDGE_WEIGHTED)) < level)
        dispatch++;
    return dispatch;
}

double spd_ref_bound(spd_op op, spdrt_format format)
{
    if (format == SPDRT_RGBA16F || format == SPDRT_RG16F || format == SPDRT_R16F)
        return 1.0 / 2048.0;
    if (format == SPDRT_RGBA8) return 1.0 / 255.0 + 1e-7;
    return op == SPD_OP_MEAN ? 1.0 / 1048576.0 : 0.0;
}

/* The arithmetic's part of a level's bound: --half's per-level fp16 bound, else the format's. */
static double arithmetic_bound(spd_op op, spdrt_format format, int half, uint32_t level)
{
    const double u = 1.0 / 2048.0;
    if (!half) return spd_ref_bound(op, format);
    if (op == SPD_OP_MEAN) return (5.0 * level + 2.0) / 4.0 * u;
    if (op == SPD_OP_TEST_ORDER) return (4.0 * level + 1.0) / 2.0 * u;
    return 0.0; /* min, max, minmax */
}

double spd_ref_bound_level(spd_op op, spdrt_format format, int half, int sampler_linear,
                           uint32_t level)
{
    /* --sampler linear: one unit more on the 8/16-bit formats, a filter that returns the
     * 2x2 mean rounded to the format (spdrt_spd.h derives it). */
    return arithmetic_bound(op, format, half, level) +
           (sampler_linear ? spd_ref_filter_bound(format) : 0.0);
}

double spd_ref_filter_bound(spdrt_format format)
{
    if (format == SPDRT_RGBA16F || format == SPDRT_RG16F || format == SPDRT_R16F)
        return 1.0 / 2048.0;
    return format == SPDRT_RGBA8 ? 1.0 / 255.0 : 0.0;
}

void spd_ref_compare_level(const spdrt_spd_levels *gpu, const spdrt_spd_levels *ref,
                           uint32_t level, uint32_t channels, double bound,
                           const float *constant, float sentinel, spd_ref_comparison *c)
{
    uint32_t w = gpu->width[level], h = gpu->height[level];
    for (uint32_t l = 0; l < gpu->layers; l++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                for (uint32_t ch = 0; ch < channels; ch++) {
                    size_t i = ((((size_t)l * h) + y) * w + x) * 4 + ch;
                    float g = gpu->level[level][i], r = constant ? *constant : ref->level[level][i];
                    double err = fabs((double)g - (double)r);
                    /* g == r: equal infinities (whose difference is NaN) match too. */
                    int bad = bound == 0 ? memcmp(&g, &r, sizeof g) != 0 : !(g == r || err <= bound);
                    if (g == sentinel) c->sentinels++;
                    if (isnan(err)) err = INFINITY;
                    if (err > c->max_error) c->max_error = err;
                    if (bad && c->mismatches++ == 0)
                        snprintf(c->first, sizeof c->first,
                                 "level %u layer %u (%u, %u) channel %u: got %.9g, want %.9g",
                                 level, l, x, y, ch, g, r);
                }
}
