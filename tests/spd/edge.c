/* tests/spd/edge.c: --edge conservative (min, max, minmax) and --edge weighted (mean,
 * srgb-mean) on 15 sizes from 1x1 to 1000x1000, beyond 4096, in dispatches of several levels,
 * and sub-rectangle updates, checked as edge.h describes.
 *
 * usage: edge glsl|hlsl   prints TAP. */
#include "edge.h"

static void run_sizes(spdrt_context *ctx, const shader_case *sc, const uint32_t (*sizes)[2],
                      size_t n)
{
    spirv s = generate(sc->flags);
    if (!s.code) {
        ok(0, "%s %s: spdgen failed", target, sc->flags);
        return;
    }
    for (size_t i = 0; i < n; i++) run_case(ctx, sc, &s, sizes[i][0], sizes[i][1]);
    free(s.code);
}

#define COUNT(a) (sizeof(a) / sizeof *(a))

static const uint32_t odd_sizes[][2] = {
    {1, 1}, {2, 2}, {3, 3}, {1, 7}, {7, 1}, {5, 300}, {260, 3}, {63, 63}, {64, 64},
    {65, 65}, {127, 33}, {129, 191}, {193, 130}, {255, 257}, {1000, 1000},
};

static void conservative(spdrt_context *ctx)
{
    static const shader_case cases[] = {
        {"--op max --format r32f --edge conservative", SPD_OP_MAX, SPDRT_EDGE_CONSERVATIVE, SPDRT_R32F, 12, 0, 0, 0},
        {"--op min --format r32f --edge conservative --subgroup 4", SPD_OP_MIN, SPDRT_EDGE_CONSERVATIVE, SPDRT_R32F, 12, 0, 4, 0},
        {"--op minmax --format rg32f --edge conservative --subgroup 8", SPD_OP_MINMAX, SPDRT_EDGE_CONSERVATIVE, SPDRT_RG32F, 12, 0, 8, 0},
        {"--op max --format r32f --edge conservative --subgroup 8 --array", SPD_OP_MAX, SPDRT_EDGE_CONSERVATIVE, SPDRT_R32F, 12, 0, 8, 1},
    };
    for (size_t i = 0; i < COUNT(cases); i++) run_sizes(ctx, &cases[i], odd_sizes, COUNT(odd_sizes));

    /* Beyond 4096 in one dimension: the tail loops over several 64x64 regions of level 6,
     * and 13-14 levels reach phase 4. */
    static const shader_case big = {"--op max --format r32f --edge conservative --max-size 16384x16384",
                                    SPD_OP_MAX, SPDRT_EDGE_CONSERVATIVE, SPDRT_R32F, 14, 0, 0, 0};
    static const uint32_t big_sizes[][2] = {{8193, 5}, {4097, 3}, {3, 12289}, {4500, 4100}};
    run_sizes(ctx, &big, big_sizes, COUNT(big_sizes));

    /* Split into dispatches: the rule is level to level, so passes give the same levels. */
    static const shader_case passes = {"--op min --format r32f --edge conservative --max-mips-per-pass 4",
                                       SPD_OP_MIN, SPDRT_EDGE_CONSERVATIVE, SPDRT_R32F, 4, 12, 0, 0};
    static const uint32_t pass_sizes[][2] = {{127, 33}, {1000, 999}, {301, 4097}};
    run_sizes(ctx, &passes, pass_sizes, COUNT(pass_sizes));
}

static void weighted(spdrt_context *ctx)
{
    static const shader_case cases[] = {
        {"--op mean --format r32f --edge weighted", SPD_OP_MEAN, SPDRT_EDGE_WEIGHTED, SPDRT_R32F, 12, 0, 0, 0},
        {"--op mean --format rgba16f --edge weighted --subgroup 8", SPD_OP_MEAN, SPDRT_EDGE_WEIGHTED, SPDRT_RGBA16F, 12, 0, 8, 0},
        {"--op mean --format rgba32f --edge weighted --subgroup 4 --array", SPD_OP_MEAN, SPDRT_EDGE_WEIGHTED, SPDRT_RGBA32F, 12, 0, 4, 1},
    };
    for (size_t i = 0; i < COUNT(cases); i++) run_sizes(ctx, &cases[i], odd_sizes, COUNT(odd_sizes));

    /* Odd level-6 sizes: the tail's first level applies the weights itself. */
    static const shader_case big = {"--op mean --format r32f --edge weighted --max-size 16384x16384",
                                    SPD_OP_MEAN, SPDRT_EDGE_WEIGHTED, SPDRT_R32F, 14, 0, 0, 0};
    static const uint32_t big_sizes[][2] = {{4095, 5}, {8191, 3}, {4160, 4160}, {9000, 7}};
    run_sizes(ctx, &big, big_sizes, COUNT(big_sizes));

    static const shader_case passes = {"--op mean --format r32f --edge weighted --max-mips-per-pass 3",
                                       SPD_OP_MEAN, SPDRT_EDGE_WEIGHTED, SPDRT_R32F, 3, 12, 0, 0};
    static const uint32_t pass_sizes[][2] = {{127, 33}, {1000, 999}, {512, 256}};
    run_sizes(ctx, &passes, pass_sizes, COUNT(pass_sizes));

    static const shader_case srgb = {"--op srgb-mean --format rgba8 --edge weighted",
                                     SPD_OP_SRGB_MEAN, SPDRT_EDGE_WEIGHTED, SPDRT_RGBA8, 12, 0, 0, 0};
    static const uint32_t srgb_sizes[][2] = {{65, 65}, {255, 129}};
    run_sizes(ctx, &srgb, srgb_sizes, COUNT(srgb_sizes));
}

/* Sub-rectangle updates: each mode's reach into the neighbouring tile must be re-run
 * (spdrt_spd_update_tiles widens the rectangle). A rectangle starting at a tile border just
 * right of / below the tile holding the last texels, on the edge, 1x1 in the corner. */
static void updates(spdrt_context *ctx)
{
    static const shader_case cases[] = {
        {"--op max --format r32f --edge conservative --subgroup 8", SPD_OP_MAX, SPDRT_EDGE_CONSERVATIVE, SPDRT_R32F, 12, 0, 8, 0},
        {"--op minmax --format rg32f --edge conservative --array", SPD_OP_MINMAX, SPDRT_EDGE_CONSERVATIVE, SPDRT_RG32F, 12, 0, 0, 1},
        {"--op mean --format r32f --edge weighted --subgroup 4", SPD_OP_MEAN, SPDRT_EDGE_WEIGHTED, SPDRT_R32F, 12, 0, 4, 0},
        {"--op mean --format r32f --edge weighted --max-mips-per-pass 2", SPD_OP_MEAN, SPDRT_EDGE_WEIGHTED, SPDRT_R32F, 2, 12, 0, 0},
    };
    static const struct { uint32_t w, h; spdrt_rect r; } rects[] = {
        {100, 90, {70, 10, 5, 5}}, {100, 90, {10, 64, 3, 20}}, {100, 90, {99, 89, 1, 1}},
        {129, 65, {64, 0, 3, 3}}, {129, 65, {128, 64, 1, 1}}, {301, 203, {192, 128, 64, 64}},
        {1000, 999, {0, 0, 1000, 999}}, {1000, 999, {960, 900, 40, 99}},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        spirv s = generate(cases[i].flags);
        if (!s.code) {
            ok(0, "%s %s: spdgen failed", target, cases[i].flags);
            continue;
        }
        for (size_t r = 0; r < COUNT(rects); r++) {
            update_rect = &rects[r].r;
            run_case(ctx, &cases[i], &s, rects[r].w, rects[r].h);
        }
        update_rect = NULL;
        free(s.code);
    }
}

static void run_edge(spdrt_context *ctx)
{
    conservative(ctx);
    weighted(ctx);
    updates(ctx);
}

int main(int argc, char **argv) { return edge_test_main(argc, argv, run_edge); }
