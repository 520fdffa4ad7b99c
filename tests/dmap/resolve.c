/* resolve.c: spdgen --dmap resolve on the local Vulkan device, under the validation layer,
 * for one front end (GLSL, or HLSL through glslang), on subsampled renders made on the CPU
 * from the turnip model's layouts (spdrt_dmap_subsampled_render) of an affine scene:
 *   - nearest and linear, bit for bit against the CPU reference (dmap_resolve.c);
 *   - nearest gives every pixel the scene at the centre of the fragment that covers it, as
 *     the model's bins (areas, sliding with an offset) place fragments: derived here from
 *     the bins alone, not from the subsampled layout;
 *   - linear is exact where all four taps lie in the pixel's own bin: interpolating an
 *     affine scene sampled at fragment centres gives the scene at the pixel centre.
 * Passes: merged bins, non-square areas, an FDM offset with two views, and a pass of more
 * than 512 bins (no subsampled layout: the identity). rgba32f, and rgba16f within its unit.
 *
 * usage: resolve glsl|hlsl    prints TAP */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spdgen_spirv.h"
#include "spdrt_dmap.h"
#include "tap.h"

static const char *front_end;
static spdrt_context *ctx;

static uint32_t *spirv_of(const char *filter, const char *format, uint32_t views, size_t *words)
{
    char args[256];
    snprintf(args, sizeof args, "--dmap resolve --filter %s --format %s --views %u --spirv-from %s", filter, format,
             views, front_end);
    return spdgen_spirv(args, words);
}

/* An affine scene, different per view. */
static void scene(float x, float y, uint32_t view, float rgba[4], void *user)
{
    (void)user;
    rgba[0] = 0.01f * x + 0.002f * y + 0.1f * (float)view;
    rgba[1] = 0.5f - 0.003f * x;
    rgba[2] = 0.25f + 0.001f * y;
    rgba[3] = 1.0f;
}

static uint32_t rng = 4242;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 1664525u + 1013904223u;
    return (rng >> 8) % n;
}

typedef struct {
    const char *what;
    uint32_t w, h, tile, views;
    int offset, merging;
} pass_case;

static const pass_case PASSES[] = {
    {"320x200, 64-pixel tiles, merging", 320, 200, 64, 1, 0, 1},
    {"333x251, 96x64 tiles, an FDM offset, two views", 333, 251, 96, 2, 1, 0},
    {"1024x640 in 32-pixel tiles (640 bins: no subsampled layout)", 1024, 640, 32, 1, 0, 0},
};

/* A map of random areas 1, 2, 4 per axis, 32-pixel texels. */
static uint8_t *random_map(const pass_case *c, spdrt_dmap_pass *p)
{
    memset(p, 0, sizeof *p);
    p->framebuffer = (spdrt_dmap_extent){c->w, c->h};
    p->tile = (spdrt_dmap_extent){c->tile, c->tile == 96 ? 64 : c->tile};
    p->views = c->views;
    p->map_extent = (spdrt_dmap_extent){(c->w + 31) / 32, (c->h + 31) / 32};
    size_t n = (size_t)p->map_extent.width * p->map_extent.height * c->views * 2;
    uint8_t *map = malloc(n);
    static const uint32_t areas[] = {1, 2, 4};
    for (size_t i = 0; i < n; i++) map[i] = spdrt_dmap_density_byte(areas[rnd(3)]);
    p->map = map;
    p->has_offset = c->offset;
    for (uint32_t v = 0; v < c->views; v++) p->offset[v] = (spdrt_dmap_offset){8 * (int32_t)(3 + 5 * v), -24};
    p->device.bin_merging = c->merging;
    p->subsampled = 1;
    return map;
}

/* The scene at the centre of the fragment over pixel (x, y), from the bins alone. */
static void expected_nearest(const spdrt_dmap_pass *p, const spdrt_dmap_layout *L, uint32_t v, uint32_t x,
                             uint32_t y, float rgba[4])
{
    spdrt_dmap_offset bo = {0, 0};
    if (p->has_offset) bo = spdrt_dmap_bin_offset(p->offset[v], p->tile);
    const spdrt_dmap_bin *b = spdrt_dmap_bin_at(L, (x + (uint32_t)bo.x) / p->tile.width,
                                                (y + (uint32_t)bo.y) / p->tile.height);
    spdrt_dmap_rect r = spdrt_dmap_view_bin(p, b, v);
    spdrt_dmap_extent a = b->area[v];
    float cx = (float)r.x + (float)((x - (uint32_t)r.x) / a.width) * (float)a.width + 0.5f * (float)a.width;
    float cy = (float)r.y + (float)((y - (uint32_t)r.y) / a.height) * (float)a.height + 0.5f * (float)a.height;
    scene(cx, cy, v, rgba, NULL);
}

/* Whether the four linear taps of pixel (x, y) lie in its own bin's subsampled rectangle. */
static int taps_inside(const spdrt_dmap_resolve_params *rp, const spdrt_dmap_pass *p,
                       const spdrt_dmap_layout *L, const uint32_t *bins, uint32_t v, uint32_t x, uint32_t y)
{
    const uint32_t *base = bins + (size_t)v * (rp->bins + 1) * 4;
    uint32_t column = (x + base[0]) / rp->tile_width, row = (y + base[1]) / rp->tile_height;
    const uint32_t *e = base + 4 + 4 * (size_t)(row * rp->stride + column);
    const spdrt_dmap_bin *b = spdrt_dmap_bin_at(L, column, row);
    if (!(b->subsampled_views & (1u << v))) return 0;
    spdrt_dmap_rect s = b->subsampled_pos[v];
    uint32_t lw = e[2] & 255u, lh = e[2] >> 8;
    float cx = (float)(e[1] & 65535u) + ((float)(x - (e[0] & 65535u)) + 0.5f) / (float)(1u << lw) - 0.5f;
    float cy = (float)(e[1] >> 16) + ((float)(y - (e[0] >> 16)) + 0.5f) / (float)(1u << lh) - 0.5f;
    int x0 = (int)floorf(cx), y0 = (int)floorf(cy);
    (void)p;
    return x0 >= s.x && x0 + 1 < s.x + s.width && y0 >= s.y && y0 + 1 < s.y + s.height;
}

static void run_pass(const pass_case *c)
{
    spdrt_dmap_pass p;
    uint8_t *map = random_map(c, &p);
    spdrt_dmap_layout L;
    char err[128];
    if (spdrt_dmap_layout_make(&p, &L, err, sizeof err)) {
        ok(0, "%s: the model accepts the pass (%s)", c->what, err);
        free(map);
        return;
    }
    spdrt_dmap_resolve_params rp;
    size_t words = spdrt_dmap_resolve_bins(&p, &L, NULL, &rp);
    uint32_t *bins = malloc(words * sizeof *bins);
    spdrt_dmap_resolve_bins(&p, &L, bins, &rp);
    spdrt_dmap_extent se = spdrt_dmap_subsampled_extent(&p);
    size_t pixels = (size_t)c->w * c->h * c->views;
    float *src = malloc((size_t)se.width * se.height * c->views * 4 * sizeof *src);
    float *gpu = malloc(pixels * 4 * sizeof *gpu), *ref = malloc(pixels * 4 * sizeof *ref);
    spdrt_dmap_subsampled_render(&p, &L, scene, NULL, src);
    for (int linear = 0; linear < 2; linear++) {
        size_t sw;
        uint32_t *spirv = spirv_of(linear ? "linear" : "nearest", "rgba32f", c->views, &sw);
        int ran = spirv && spdrt_dmap_resolve_run(ctx, spirv, sw, c->views, SPDRT_RGBA32F, &rp, bins, words, src,
                                                  gpu) == SPDRT_OK;
        if (!ran) printf("# %s\n", spirv ? spdrt_last_error(ctx) : "spdgen failed");
        spdrt_dmap_resolve_reference(&rp, c->views, linear, bins, src, ref);
        size_t diff = 0, checked = 0, wrong = 0;
        for (size_t i = 0; ran && i < pixels * 4; i++) diff += gpu[i] != ref[i];
        for (uint32_t v = 0; ran && v < c->views; v++)
            for (uint32_t y = 0; y < c->h; y++)
                for (uint32_t x = 0; x < c->w; x++) {
                    const float *g = gpu + (((size_t)v * c->h + y) * c->w + x) * 4;
                    float want[4];
                    if (!linear) {
                        expected_nearest(&p, &L, v, x, y, want);
                    } else {
                        if (!L.subsampled || !taps_inside(&rp, &p, &L, bins, v, x, y)) continue;
                        scene((float)x + 0.5f, (float)y + 0.5f, v, want, NULL);
                    }
                    checked++;
                    for (int k = 0; k < 4; k++)
                        if (fabsf(g[k] - want[k]) > (linear ? 1e-4f : 0.0f)) {
                            if (!wrong++) printf("# view %u (%u, %u) channel %d: %g, expected %g\n", v, x, y, k,
                                                 g[k], want[k]);
                            break;
                        }
                }
        ok(ran && diff == 0, "%s, %s: every value equals the CPU reference", c->what, linear ? "linear" : "nearest");
        if (!linear)
            ok(ran && wrong == 0, "%s, nearest: each pixel is the scene at its fragment's centre (%zu pixels)",
               c->what, checked);
        else if (L.subsampled)
            ok(ran && wrong == 0 && checked > 0, "%s, linear: the affine scene at the pixel centre where the "
               "taps lie in the bin (%zu pixels)", c->what, checked);
        free(spirv);
    }
    if (c->views == 1) {
        size_t sw;
        uint32_t *spirv = spirv_of("nearest", "rgba16f", 1, &sw);
        int ran = spirv && spdrt_dmap_resolve_run(ctx, spirv, sw, 1, SPDRT_RGBA16F, &rp, bins, words, src, gpu) ==
                  SPDRT_OK;
        spdrt_dmap_resolve_reference(&rp, 1, 0, bins, src, ref);
        size_t wrong = 0;
        for (size_t i = 0; ran && i < pixels * 4; i++)
            wrong += fabsf(gpu[i] - ref[i]) > fabsf(ref[i]) * 0x1p-10f;
        ok(ran && wrong == 0, "%s, nearest into rgba16f: within one unit of the half format", c->what);
        free(spirv);
    }
    free(src);
    free(gpu);
    free(ref);
    free(bins);
    spdrt_dmap_layout_free(&L);
    free(map);
}

int main(int argc, char **argv)
{
    front_end = argc > 1 ? argv[1] : "glsl";
    char err[512];
    spdrt_options options = {.validation = 1};
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        printf("1..0 # SKIP no Vulkan device: %s\n", err);
        return 0;
    }
    for (size_t i = 0; i < sizeof PASSES / sizeof *PASSES; i++) run_pass(&PASSES[i]);
    ok(spdrt_validation_messages(ctx) == 0, "the validation layer reported nothing (%u messages)",
       spdrt_validation_messages(ctx));
    spdrt_destroy(ctx);
    return tap_plan();
}
