/* tests/spd/edge.h: what edge.c and edge_sweep.c share: --edge conservative and --edge
 * weighted on the local Vulkan device.
 *
 * Every case generates the shader with the real spdgen binary (GLSL, or HLSL through
 * glslang), runs it through libspdrt under the validation layer with synchronization
 * validation (two dispatches, levels refilled with a sentinel between them, no host counter
 * reset), and checks every level:
 *   conservative (min, max, minmax): each texel of level k equals the min (max) over its
 *     whole level-0 footprint, computed here by brute force from level 0 (columns
 *     [x 2^k, (x+1) 2^k - 1], the last column to w0 - 1; rows likewise), so it bounds every
 *     texel of the footprint; and bit-exact equal to the CPU reference (spd_ref_run_edge).
 *   weighted (mean): the mean of every level equals the mean of level 0 within a stated
 *     bound, and every level matches the CPU reference within spd_ref_bound's bound.
 *
 * Each program is `NAME glsl|hlsl` and prints TAP (edge_test_main). */
#ifndef SPD_EDGE_H
#define SPD_EDGE_H

#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spd/spd_passes.h"
#include "spdrt_spd.h"
#include "spdrt.h"
#include "common.h"
#include "tap.h"

#define SENTINEL (-1234.5f)

static const char *target = "glsl";

typedef struct {
    const char *flags;     /* spdgen flags after --spd */
    spd_op op;
    spdrt_edge edge;
    spdrt_format format;
    uint32_t mips_bound;   /* the shader's levels per dispatch */
    uint32_t mips_total;   /* its --mips (0: = mips_bound) */
    uint32_t subgroup;
    int array;
} shader_case;

typedef struct {
    uint32_t *code;
    size_t words;
} spirv;

static spirv generate(const char *flags)
{
    spirv s = {0};
    s.code = spd_test_spirv(flags, target, &s.words);
    return s;
}

/* Random values in [0, 1), distinct per texel and channel. */
static float *make_source(size_t texels, uint32_t seed)
{
    return spd_test_source(texels * 4, seed, 0);
}

/* The conservative property, from level 0 directly: texel (x, y) of level k against the
 * min/max of its footprint. Level 0 as the GPU holds it: r32f and rg32f keep channel 0
 * exactly (the data is exact in fp32). Returns the number of texels that differ. */
static size_t footprint_violations(const shader_case *sc, const float *source,
                                   const spdrt_spd_levels *gpu, char *first, size_t first_size)
{
    uint32_t w0 = gpu->width[0], h0 = gpu->height[0];
    size_t bad = 0;
    for (uint32_t k = 1; k <= gpu->mip_count; k++) {
        uint32_t w = gpu->width[k], h = gpu->height[k];
        for (uint32_t l = 0; l < gpu->layers; l++)
            for (uint32_t y = 0; y < h; y++)
                for (uint32_t x = 0; x < w; x++) {
                    uint32_t x0 = x << k, y0 = y << k;
                    uint32_t x1 = x == w - 1 ? w0 - 1 : ((x + 1) << k) - 1;
                    uint32_t y1 = y == h - 1 ? h0 - 1 : ((y + 1) << k) - 1;
                    float lo = INFINITY, hi = -INFINITY;
                    for (uint32_t j = y0; j <= y1 && j < h0; j++)
                        for (uint32_t i = x0; i <= x1 && i < w0; i++) {
                            float d = source[(((size_t)l * h0 + j) * w0 + i) * 4];
                            lo = d < lo ? d : lo;
                            hi = d > hi ? d : hi;
                        }
                    const float *g = gpu->level[k] + (((size_t)l * h + y) * w + x) * 4;
                    float want0 = sc->op == SPD_OP_MAX ? hi : lo;
                    int wrong = g[0] != want0 || (sc->op == SPD_OP_MINMAX && g[1] != hi);
                    if (wrong && bad++ == 0)
                        snprintf(first, first_size, "level %u (%u, %u) layer %u: got %.9g, "
                                 "footprint [%u..%u]x[%u..%u] gives %.9g", k, x, y, l, g[0],
                                 x0, x1, y0, y1, want0);
                }
    }
    return bad;
}

/* Mean of channel c of level k (all layers), in double. */
static double level_mean(const spdrt_spd_levels *lv, const float *level0, uint32_t k, uint32_t c)
{
    const float *data = k ? lv->level[k] : level0;
    size_t n = (size_t)lv->width[k] * lv->height[k] * lv->layers;
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += data[i * 4 + c];
    return sum / (double)n;
}

/* Dispatches the chain takes (spd_pass_end, as the runtime plans them). */
static uint32_t count_passes(const shader_case *sc, uint32_t w, uint32_t h, uint32_t mips)
{
    uint32_t base = 0, n = 0;
    while (base < mips) {
        base = spd_pass_end(w, h, base, mips, sc->mips_bound, sc->edge == SPDRT_EDGE_WEIGHTED);
        n++;
    }
    return n;
}

static int quiet; /* edge_sweep.c: report failures only */
static const spdrt_rect *update_rect; /* set: run_case updates this rectangle after the full run */

/* One case on one size: returns 1 when every check passed. */
static int run_case(spdrt_context *ctx, const shader_case *sc, const spirv *s, uint32_t w,
                    uint32_t h)
{
    uint32_t layers = sc->array ? 3 : 1, channels = spdrt_format_channels(sc->format);
    size_t texels = (size_t)w * h * layers;
    float *source = make_source(texels, w * 7919u + h * 31u + 7u);
    /* An update: the GPU runs the chain on `source`, then only the tiles over the rectangle
     * with `fresh` inside it; everything is checked against the changed source. */
    float *fresh = update_rect ? make_source(texels, 99u + w) : NULL;
    float *changed = update_rect ? malloc(texels * 4 * sizeof(float)) : NULL;
    float *level0 = malloc(texels * 4 * sizeof(float));
    spdrt_spd_params params = {
        .width = w, .height = h, .layers = layers, .is_array = sc->array,
        .mips_bound = sc->mips_bound, .mips_total = sc->mips_total, .subgroup = sc->subgroup,
        .format = sc->format, .dispatches = 2, .sentinel = SENTINEL,
        .refill_between_dispatches = 1, .edge = sc->edge,
    };
    spdrt_spd_levels gpu = {0}, ref = {0};
    uint32_t mips = spdrt_spd_mip_count(w, h, sc->mips_total ? sc->mips_total : sc->mips_bound);
    char label[300], first[300] = "";
    int passed = 0;
    snprintf(label, sizeof label, "%s %s %ux%u%s", target, sc->flags, w, h,
             sc->array ? " x3 layers" : "");
    if (!source || !level0 || (update_rect && (!fresh || !changed))) {
        ok(0, "%s: out of memory", label);
        goto done;
    }
    if (update_rect) {
        const spdrt_rect *r = update_rect;
        memcpy(changed, source, texels * 4 * sizeof(float));
        for (uint32_t l = 0; l < layers; l++)
            for (uint32_t y = r->y; y < r->y + r->height; y++)
                for (uint32_t x = r->x; x < r->x + r->width; x++)
                    memcpy(changed + (((size_t)l * h + y) * w + x) * 4,
                           fresh + (((size_t)l * h + y) * w + x) * 4, 4 * sizeof(float));
        params.update_source = fresh;
        params.update = *r;
        snprintf(label + strlen(label), sizeof label - strlen(label), ", update (%u, %u) %ux%u",
                 r->x, r->y, r->width, r->height);
    }
    const float *truth = update_rect ? changed : source; /* what the levels must reduce */
    /* Level 0 as stored (and read back as RGBA) in the format. */
    for (size_t i = 0; i < texels; i++)
        for (uint32_t c = 0; c < 4; c++)
            level0[i * 4 + c] = c < channels ? spd_ref_quantize(sc->format, truth[i * 4 + c])
                                             : (c == 3 ? 1.0f : 0.0f);
    if (spdrt_spd_run(ctx, s->code, s->words, &params, source, &gpu) != SPDRT_OK) {
        ok(0, "%s: runtime error: %s", label, spdrt_last_error(ctx));
        goto done;
    }
    if (spd_ref_run_edge(sc->op, sc->edge, sc->format, w, h, layers, mips,
                         sc->mips_total ? sc->mips_bound : 0, truth, &ref) != 0) {
        ok(0, "%s: the reference failed", label);
        goto done;
    }
    if (gpu.mip_count != mips) {
        ok(0, "%s: %u levels, want %u", label, gpu.mip_count, mips);
        goto done;
    }
    /* Level k against the reference within the bound of the dispatch that makes it. */
    spd_ref_comparison c = {0};
    double bound = spd_ref_bound(sc->op, sc->format);
    for (uint32_t k = 1; k <= mips; k++) {
        uint32_t dispatch = spd_ref_dispatch_of_level(w, h, k, mips, sc->mips_bound, sc->edge);
        bound = spd_ref_level_bound(sc->format, spd_ref_bound(sc->op, sc->format), dispatch);
        spd_ref_compare_level(&gpu, &ref, k, channels, bound, NULL, SENTINEL, &c);
    }
    int ref_ok = c.mismatches == 0 && c.sentinels == 0;
    if (sc->edge == SPDRT_EDGE_CONSERVATIVE) {
        size_t bad = footprint_violations(sc, level0, &gpu, first, sizeof first);
        passed = ref_ok && bad == 0;
        if (!quiet || !passed)
            ok(passed, "%s: %u levels bit-exact vs the reference (%zu mismatches, %zu unwritten%s%s); "
               "every texel is the %s of its whole footprint (%zu violations%s%s)", label, mips,
               c.mismatches, c.sentinels, c.mismatches ? "; first: " : "", c.first,
               sc->op == SPD_OP_MINMAX ? "min/max" : sc->op == SPD_OP_MAX ? "max" : "min", bad,
               bad ? "; first: " : "", first);
    } else {
        /* Every stored level rounds each texel by at most one unit of the format (Vulkan lets
         * stores round either way), and every dispatch after the first re-reads its rounded
         * source level; fp32 arithmetic adds a few ulps per level. */
        uint32_t passes = count_passes(sc, w, h, mips);
        double unit = sc->format == SPDRT_RGBA16F ? 1.0 / 2048.0 : 0.0;
        double mean_bound = unit * (1 + passes) + 1e-5;
        double worst = 0;
        /* sRGB-encoded levels keep the mean of linear light, not of code values: the
         * reference comparison alone checks them. */
        for (uint32_t k = 1; k <= mips && sc->op != SPD_OP_SRGB_MEAN; k++)
            for (uint32_t ch = 0; ch < channels; ch++) {
                double d = fabs(level_mean(&gpu, level0, k, ch) - level_mean(&gpu, level0, 0, ch));
                if (!(d <= worst)) worst = d;
            }
        passed = ref_ok && worst <= mean_bound;
        ok(passed, "%s: %u levels in %u dispatch(es); every level within %.3g (last level) of the reference "
           "(max error %.3g, %zu mismatches, %zu unwritten%s%s); level means within %.3g of "
           "level 0's (worst %.3g)", label, mips, passes, bound, c.max_error, c.mismatches,
           c.sentinels, c.mismatches ? "; first: " : "", c.first, mean_bound, worst);
    }
done:
    spdrt_spd_levels_free(&gpu);
    spdrt_spd_levels_free(&ref);
    free(source);
    free(fresh);
    free(changed);
    free(level0);
    return passed;
}

/* The main() of edge.c and edge_sweep.c: `NAME glsl|hlsl` runs the program's cases (`run`)
 * for that target on the local Vulkan device, then one line for the validation layer's
 * messages; prints TAP. */
static int edge_test_main(int argc, char **argv, void (*run)(spdrt_context *ctx))
{
    if (argc != 2 || (strcmp(argv[1], "glsl") && strcmp(argv[1], "hlsl"))) {
        fprintf(stderr, "usage: %s glsl|hlsl\n", argv[0]);
        return 2;
    }
    target = argv[1];
    spdrt_context *ctx;
    char err[512];
    spdrt_options options = {.validation = 1};
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        ok(0, "no Vulkan device: %s", err);
        return tap_plan();
    }
    run(ctx);
    uint32_t messages = spdrt_validation_messages(ctx);
    ok(messages == 0, "no validation-layer messages (synchronization validation on): %u", messages);
    spdrt_destroy(ctx);
    return tap_plan();
}

#endif
