/* tests/spd/multitile.c: several tiles per workgroup (spdrt_spd_params.tiles_per_workgroup, a
 * push constant) on the local Vulkan device (run.h's generate_with() and run_case()). The
 * other SPD programs run the runtime's default (0: SPDRT_DEFAULT_TILES_PER_WORKGROUP for
 * --tail loop, one for --tail hierarchy); this one names 1, 2, 3 and 64 for the loop tail and
 * 1, 2 and T (the most it allows) for the hierarchy (HLSL: one of them per shader).
 *
 * The shader does not know the grid: a workgroup reduces tiles group.x * K .. + K - 1 of its
 * row, clipped to the image, and adds how many it did to the counter (the hierarchy: to the
 * counter of their T x T block of tiles). Whatever K, every level must equal the CPU
 * reference (bit-exact for min, max and test-order, whose weights put each corner of every
 * 2x2 block in a different place, so a tile reduced twice, skipped or placed at the wrong x
 * shows), on grids where K divides the row, does not (the last workgroup of a row gets fewer
 * tiles), and exceeds it (one workgroup per row); for the hierarchy on grids of several
 * blocks per row (T = 8: 64 texels, T = 64: 4096). Two dispatches without a host reset
 * (run_case) check that every counter still ends at zero.
 *
 * usage: multitile glsl|hlsl   prints TAP. */
#include "run.h"
#include "spd/spd_internal.h"

/* A shader of this program and how to run it. */
typedef struct {
    const char *op, *format, *extra;
    spd_op ref;
    spdrt_format f;
    int subgroup, array;
    uint32_t mips_bound, mips_total, hierarchy_tile; /* hierarchy_tile: --tail hierarchy's T */
    int sampler_linear;
} multitile_shader;

typedef struct { uint32_t w, h; } multitile_grid;

/* Every shader at every tiles_per_workgroup its tail allows (the loop: 1, 2, 3 and 64; the
 * hierarchy: 1, 2 and T), each on every grid. HLSL, the same plan spelled again, runs each
 * shader at one of them, rotating with the shader's index (the runtime's side of K does not
 * depend on the language; GLSL runs them all). */
static void run_shaders(spdrt_context *ctx, const char *target, const multitile_shader *shaders,
                        size_t shader_count, const multitile_grid *grids, size_t grid_count)
{
    static const uint32_t loop_per_workgroup[] = {1, 2, 3, 64};
    for (size_t s = 0; s < shader_count; s++) {
        const multitile_shader *x = &shaders[s];
        size_t words;
        uint32_t *spirv = generate_with(target, x->op, x->subgroup, x->format, x->array, x->extra, &words);
        uint32_t t = x->hierarchy_tile;
        const uint32_t hierarchy_per_workgroup[] = {1, 2, t};
        const uint32_t *per_workgroup = t ? hierarchy_per_workgroup : loop_per_workgroup;
        size_t per_workgroup_count = t ? 3 : sizeof loop_per_workgroup / sizeof *loop_per_workgroup;
        mips_bound = x->mips_bound, mips_total = x->mips_total;
        tile = t, hierarchy = t != 0, sampler_linear = x->sampler_linear;
        size_t first = 0, end = per_workgroup_count;
        if (strcmp(target, "hlsl") == 0) first = s % per_workgroup_count, end = first + 1;
        for (size_t k = first; k < end; k++) {
            char label[192];
            tiles_per_workgroup = per_workgroup[k];
            snprintf(label, sizeof label, "%s %s --subgroup %d %s %s%s, %u tiles per workgroup", target,
                     x->op, x->subgroup, x->format, x->extra, x->array ? " 8 layers" : "",
                     tiles_per_workgroup);
            if (!spirv) {
                ok(0, "%s: spdgen failed", label);
                continue;
            }
            for (size_t g = 0; g < grid_count; g++)
                run_case(ctx, spirv, words, label, x->ref, x->f, x->subgroup, x->array, grids[g].w,
                         grids[g].h);
        }
        free(spirv);
    }
    tiles_per_workgroup = 0;
    mips_bound = 12, mips_total = 0;
    tile = 0, hierarchy = 0, sampler_linear = 0;
}

static void run_multitile(spdrt_context *ctx, const char *target)
{
    static const multitile_grid grids[] = {
        {64, 64}, {130, 65}, {1000, 700}, {4100, 70}, {5000, 300},
    };
    static const multitile_shader shaders[] = {
        {"max", "r32f", "", SPD_OP_MAX, SPDRT_R32F, 0, 0, 12, 0, 0, 0},
        {"max", "r32f", "", SPD_OP_MAX, SPDRT_R32F, 8, 0, 12, 0, 0, 0},
        {"test-order", "rgba32f", "", SPD_OP_TEST_ORDER, SPDRT_RGBA32F, 4, 0, 12, 0, 0, 0},
        {"mean", "rgba16f", "", SPD_OP_MEAN, SPDRT_RGBA16F, 8, 0, 12, 0, 0, 0},
        {"min", "r32f", "", SPD_OP_MIN, SPDRT_R32F, 8, 1, 12, 0, 0, 0},
        /* No hand-off (levels 1..6 only): the loop still covers every tile. */
        {"max", "r32f", "--mips 6", SPD_OP_MAX, SPDRT_R32F, 8, 0, 6, 0, 0, 0},
        /* Passes of 7 levels: both hand level 6 over; each pass's grid is its own. */
        {"max", "r32f", "--mips 12 --max-mips-per-pass 7", SPD_OP_MAX, SPDRT_R32F, 8, 0, 7, 12, 0, 0},
        /* The hierarchy: a workgroup's tiles share their block's counter. */
        {"max", "r32f", "--tail hierarchy", SPD_OP_MAX, SPDRT_R32F, 8, 0, 12, 0, 64, 0},
        {"test-order", "rgba32f", "--tail hierarchy", SPD_OP_TEST_ORDER, SPDRT_RGBA32F, 4, 0, 12, 0, 64, 0},
        {"min", "r32f", "--tail hierarchy", SPD_OP_MIN, SPDRT_R32F, 8, 1, 12, 0, 64, 0},
        {"max", "r32f", "--tile 8 --wg 16", SPD_OP_MAX, SPDRT_R32F, 8, 0, 12, 0, 8, 0},
        {"test-order", "rgba32f", "--tile 8 --wg 4", SPD_OP_TEST_ORDER, SPDRT_RGBA32F, 0, 1, 12, 0, 8, 0},
        {"max", "r32f", "--tile 8 --wg 16 --mips 12 --max-mips-per-pass 5", SPD_OP_MAX, SPDRT_R32F, 8,
         0, 5, 12, 8, 0},
    };
    run_shaders(ctx, target, shaders, sizeof shaders / sizeof *shaders, grids,
                sizeof grids / sizeof *grids);

    /* --sampler linear --fetch-ahead N: a tile's first N bilinear fetches were issued while
     * its workgroup reduced the tile before it (the workgroup's first tile fetches its own).
     * A fetch of the wrong tile, a missing one or one that lands in the wrong value makes
     * level-1 texels of another block: random texels' means, far outside
     * spd_ref_bound_level. Power-of-two grids (the array's normalized coordinates need
     * them) with rows of 1, 16 and 128 tiles (two blocks of the hierarchy's first stage);
     * the shaders: --tail hierarchy with its default of 2, the loop with all 4 (an 8-layer
     * array), and 2x2 blocks (--tile 32 --wg 256, one fetch) with 1. */
    static const multitile_grid pot_grids[] = {{64, 64}, {1024, 128}, {8192, 64}};
    static const multitile_shader ahead[] = {
        {"mean", "rgba8", "--sampler linear --tail hierarchy", SPD_OP_MEAN, SPDRT_RGBA8, 8, 0, 12, 0, 64, 1},
        {"mean", "r32f", "--sampler linear --fetch-ahead 4", SPD_OP_MEAN, SPDRT_R32F, 0, 1, 12, 0, 0, 1},
        {"mean", "rgba32f", "--sampler linear --fetch-ahead 1 --tile 32 --wg 256", SPD_OP_MEAN,
         SPDRT_RGBA32F, 4, 0, 12, 0, 32, 1},
    };
    run_shaders(ctx, target, ahead, sizeof ahead / sizeof *ahead, pot_grids,
                sizeof pot_grids / sizeof *pot_grids);
    /* The 2D ones fetch at texel coordinates, so also on grids that are not powers of two:
     * the next tile may be clipped by the image's edge or lie past it (the fetches clamp). */
    static const multitile_grid odd_grids[] = {{130, 65}, {1000, 700}};
    const multitile_shader ahead_2d[] = {ahead[0], ahead[2]};
    run_shaders(ctx, target, ahead_2d, sizeof ahead_2d / sizeof *ahead_2d, odd_grids,
                sizeof odd_grids / sizeof *odd_grids);

    /* The hierarchy counts a workgroup's tiles on one block's counter: the runtime refuses a
     * number of tiles that is not a power of two (3) or more than T (16 at --tile 8), which
     * could straddle two blocks. */
    size_t words;
    uint32_t *spirv = generate_with(target, "max", 8, "r32f", 0, "--tile 8 --wg 16", &words);
    float texels[64 * 64 * 4] = {0};
    spdrt_spd_params p = {.width = 64, .height = 64, .layers = 1, .mips_bound = 12, .subgroup = 8,
                          .format = SPDRT_R32F, .dispatches = 1, .tile = 8, .hierarchy = 1};
    spdrt_spd_levels out = {0};
    static const uint32_t refused[] = {3, 16};
    for (size_t k = 0; k < 2; k++) {
        char want[64];
        p.tiles_per_workgroup = refused[k];
        snprintf(want, sizeof want, "tiles_per_workgroup %u with --tile 8", refused[k]);
        spdrt_result r = spirv ? spdrt_spd_run(ctx, spirv, words, &p, texels, &out) : SPDRT_ERROR_ARGUMENT;
        ok(r == SPDRT_ERROR_ARGUMENT && strstr(spdrt_last_error(ctx), want),
           "%s: %u tiles per workgroup with --tile 8 is refused (%s)", target, refused[k],
           spdrt_last_error(ctx));
        spdrt_spd_levels_free(&out);
    }
    free(spirv);

    /* More than SPDRT_MAX_TILES_PER_WORKGROUP is refused too, before anything runs. */
    spirv = generate_with(target, "max", 8, "r32f", 0, "", &words);
    p.tile = 0, p.hierarchy = 0, p.tiles_per_workgroup = SPDRT_MAX_TILES_PER_WORKGROUP + 1;
    spdrt_result r = spirv ? spdrt_spd_run(ctx, spirv, words, &p, texels, &out) : SPDRT_ERROR_ARGUMENT;
    ok(r == SPDRT_ERROR_ARGUMENT && strstr(spdrt_last_error(ctx), "tiles_per_workgroup 65"),
       "%s: %u tiles per workgroup is refused (%s)", target, SPDRT_MAX_TILES_PER_WORKGROUP + 1,
       spdrt_last_error(ctx));
    spdrt_spd_levels_free(&out);
    free(spirv);

    /* What 0 means: 2 tiles for the loop, 4 from 32 MiB of level 0 (one layer) and for the
     * hierarchy, one for smaller tiles and for dispatches of at most 6 levels. */
    static const struct { uint32_t w, h, tile, hierarchy, mips; spdrt_format f; uint32_t want; }
        defaults[] = {
            {1920, 1080, 64, 0, 10, SPDRT_RGBA16F, 2}, {2048, 2048, 64, 0, 11, SPDRT_RGBA8, 2},
            {2048, 2048, 64, 0, 11, SPDRT_RGBA16F, 4}, {2048, 2047, 64, 0, 11, SPDRT_RGBA16F, 2},
            {4096, 2048, 64, 0, 12, SPDRT_RGBA8, 4},   {1920, 1080, 64, 1, 10, SPDRT_RGBA8, 4},
            {1920, 1080, 32, 1, 10, SPDRT_RGBA8, 1},   {4096, 4096, 64, 0, 6, SPDRT_RGBA16F, 1},
        };
    for (size_t k = 0; k < sizeof defaults / sizeof *defaults; k++) {
        spdrt_spd_params d = {.width = defaults[k].w, .height = defaults[k].h, .layers = 1,
                              .mips_bound = defaults[k].mips, .tile = defaults[k].tile,
                              .hierarchy = (int)defaults[k].hierarchy, .format = defaults[k].f};
        uint32_t got = spdrt__spd_tiles_per_workgroup(&d);
        ok(got == defaults[k].want, "%s: default tiles per workgroup at %ux%u %s --tile %u%s, "
           "%u levels: %u (want %u)", target, d.width, d.height, spdrt__format_name(d.format),
           d.tile, d.hierarchy ? " --tail hierarchy" : "", d.mips_bound, got, defaults[k].want);
    }
}

int main(int argc, char **argv) { return spd_test_main(argc, argv, run_multitile); }
