/* tests/spd/tiles.c: SPD --tile T with every --wg it takes on the local Vulkan device,
 * checked as run.h describes.
 *
 * usage: tiles glsl|hlsl   prints TAP. */
#include "run.h"

/* --tile T with every --wg it takes: the chain must equal the CPU reference whatever the
 * tile (bit-exact for min/max, so the subgroup plans 0/4/8/device are bit-identical too),
 * on POT, NPOT and one-texel-wide sizes; 1000x700 needs 5 stages of the hierarchy at T = 4
 * and 9 at T = 2. Then mean, arrays, passes and the 14-level chain per tile (16384x4 and
 * 4x16384: 3 stages at T = 64). The 64x64 shape runs with both tails (--tail loop, the
 * default, and hierarchy); its hierarchy also on 5000x300, two stage-1 blocks of tiles.
 * Shapes whose invocations read 4x4 blocks run with --level1 interleaved (the default: a
 * shared-memory exchange forms level 2) and, for some, --level1 blocks (no exchange). */
static void run_tiles(spdrt_context *ctx, const char *target)
{
    /* HLSL, the same plans spelled again, runs every other size per shape and subgroup,
     * alternating, so each size still meets each shape; GLSL runs them all. */
    const int hlsl = strcmp(target, "hlsl") == 0;
    static const struct { uint32_t t, n; int hierarchy, blocks; } shapes[] = {
        {2, 1, 1, 0}, {4, 4, 1, 0}, {4, 1, 1, 0}, {8, 16, 1, 0}, {8, 4, 1, 0}, {16, 64, 1, 0}, {16, 16, 1, 0},
        {32, 256, 1, 0}, {32, 64, 1, 0}, {64, 256, 0, 0}, {64, 256, 1, 0},
        {8, 4, 1, 1}, {32, 64, 1, 1}, {64, 256, 0, 1},
    };
    static const struct { uint32_t w, h; } tile_sizes[] = {
        {1, 1}, {1, 37}, {37, 1}, {2, 2}, {64, 64}, {256, 256}, {65, 65}, {127, 33}, {1000, 700},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        char flags[64], extra[128], label[192];
        size_t words;
        tile = shapes[i].t;
        /* Below 64 the hierarchy is implied: --tail is named only where it is a choice (at
         * 64 always, since past 4096 texels a side the default is the hierarchy). */
        hierarchy = shapes[i].hierarchy;
        snprintf(flags, sizeof flags, "--tile %u --wg %u%s%s", shapes[i].t, shapes[i].n,
                 shapes[i].t != 64 ? "" : hierarchy ? " --tail hierarchy" : " --tail loop",
                 shapes[i].blocks ? " --level1 blocks" : "");
        for (size_t s = 0; s < subgroup_count; s++) {
            snprintf(extra, sizeof extra, "%s", flags);
            snprintf(label, sizeof label, "%s max --subgroup %d r32f %s", target, subgroups[s], extra);
            uint32_t *spirv = generate_with(target, "max", subgroups[s], "r32f", 0, extra, &words);
            if (!spirv) {
                ok(0, "%s: spdgen failed", label);
                continue;
            }
            for (size_t z = 0; z < sizeof tile_sizes / sizeof *tile_sizes; z++)
                if (!hlsl || z % 2 == (i + s) % 2)
                    run_case(ctx, spirv, words, label, SPD_OP_MAX, SPDRT_R32F, subgroups[s], 0,
                             tile_sizes[z].w, tile_sizes[z].h);
            free(spirv);
        }
        /* mean (within the bound) and min on 8-layer arrays, one counter tree per slice. */
        static const struct { const char *op; spd_op ref; const char *format; spdrt_format f; int array; } more[] = {
            {"mean", SPD_OP_MEAN, "rgba32f", SPDRT_RGBA32F, 0}, {"min", SPD_OP_MIN, "r32f", SPDRT_R32F, 1},
        };
        for (size_t m = 0; m < 2; m++) {
            int sg = m == 0 ? 8 : 4;
            snprintf(extra, sizeof extra, "%s", flags);
            snprintf(label, sizeof label, "%s %s --subgroup %d %s %s%s", target, more[m].op, sg,
                     more[m].format, extra, more[m].array ? " 8 layers" : "");
            uint32_t *spirv = generate_with(target, more[m].op, sg, more[m].format, more[m].array, extra, &words);
            if (!spirv) {
                ok(0, "%s: spdgen failed", label);
                continue;
            }
            run_case(ctx, spirv, words, label, more[m].ref, more[m].f, sg, more[m].array, 300, 170);
            run_case(ctx, spirv, words, label, more[m].ref, more[m].f, sg, more[m].array, 1, 129);
            free(spirv);
        }
        /* --max-mips-per-pass 3: four dispatches of this tile's shader (at 64, 7: two, the
         * first with a tail); and the 14-level chain of --max-size 16384x16384. */
        uint32_t per_pass = shapes[i].t == 64 ? 7 : 3;
        snprintf(extra, sizeof extra, "%s --mips 12 --max-mips-per-pass %u", flags, per_pass);
        snprintf(label, sizeof label, "%s max --subgroup 8 r32f %s", target, extra);
        uint32_t *spirv = generate_with(target, "max", 8, "r32f", 0, extra, &words);
        mips_bound = per_pass, mips_total = 12;
        if (spirv) run_case(ctx, spirv, words, label, SPD_OP_MAX, SPDRT_R32F, 8, 0, 1500, 900);
        else ok(0, "%s: spdgen failed", label);
        free(spirv);
        mips_bound = 14, mips_total = 0;
        snprintf(extra, sizeof extra, "%s --max-size 16384x16384", flags);
        snprintf(label, sizeof label, "%s max --subgroup 8 r32f %s", target, extra);
        spirv = generate_with(target, "max", 8, "r32f", 0, extra, &words);
        if (spirv) {
            run_case(ctx, spirv, words, label, SPD_OP_MAX, SPDRT_R32F, 8, 0, 16384, 4);
            run_case(ctx, spirv, words, label, SPD_OP_MAX, SPDRT_R32F, 8, 0, 4, 16384);
            if (shapes[i].t == 64 && hierarchy)
                run_case(ctx, spirv, words, label, SPD_OP_MAX, SPDRT_R32F, 8, 0, 5000, 300);
        } else {
            ok(0, "%s: spdgen failed", label);
        }
        free(spirv);
        mips_bound = 12;
    }
    tile = 0;
    hierarchy = 0;
}

int main(int argc, char **argv) { return spd_test_main(argc, argv, run_tiles); }
