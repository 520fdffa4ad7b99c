/* spd_multitile.h: several tiles per workgroup (spdrt_spd_params.tiles_per_workgroup, the
 * push constant of --tile 64 --tail loop shaders), the "multitile" mode of spd_matrix.c (it
 * uses that file's generate_with() and run_case()). The other modes run the runtime's default
 * (0: SPDRT_DEFAULT_TILES_PER_WORKGROUP); this one names 1, 2, 3 and 64.
 *
 * The shader does not know the grid: a workgroup reduces tiles group.x * K .. + K - 1 of its
 * row, clipped to the image, and adds how many it did to the counter. Whatever K, every
 * level must equal the CPU reference (bit-exact for min, max and test-order, whose weights
 * put each corner of every 2x2 block in a different place, so a tile reduced twice, skipped
 * or placed at the wrong x shows), on grids where K divides the row, does not (the last
 * workgroup of a row gets fewer tiles), and exceeds it (one workgroup per row). Two
 * dispatches without a host reset (run_case) check that the counter still ends at zero. */
#ifndef SPD_MULTITILE_H
#define SPD_MULTITILE_H

static void run_multitile(spdrt_context *ctx, const char *target)
{
    static const uint32_t per_workgroup[] = {1, 2, 3, 64};
    static const struct { uint32_t w, h; } grids[] = {
        {64, 64}, {130, 65}, {1000, 700}, {4100, 70}, {5000, 300},
    };
    static const struct {
        const char *op, *format, *extra;
        spd_op ref;
        spdrt_format f;
        int subgroup, array;
        uint32_t mips_bound, mips_total;
    } shaders[] = {
        {"max", "r32f", "", SPD_OP_MAX, SPDRT_R32F, 0, 0, 12, 0},
        {"max", "r32f", "", SPD_OP_MAX, SPDRT_R32F, 8, 0, 12, 0},
        {"test-order", "rgba32f", "", SPD_OP_TEST_ORDER, SPDRT_RGBA32F, 4, 0, 12, 0},
        {"mean", "rgba16f", "", SPD_OP_MEAN, SPDRT_RGBA16F, 8, 0, 12, 0},
        {"min", "r32f", "", SPD_OP_MIN, SPDRT_R32F, 8, 1, 12, 0},
        /* No hand-off (levels 1..6 only): the loop still covers every tile. */
        {"max", "r32f", "--mips 6", SPD_OP_MAX, SPDRT_R32F, 8, 0, 6, 0},
        /* Passes of 7 levels: both hand level 6 over; each pass's grid is its own. */
        {"max", "r32f", "--mips 12 --max-mips-per-pass 7", SPD_OP_MAX, SPDRT_R32F, 8, 0, 7, 12},
    };
    for (size_t s = 0; s < sizeof shaders / sizeof *shaders; s++) {
        size_t words;
        uint32_t *spirv = generate_with(target, shaders[s].op, shaders[s].subgroup, shaders[s].format,
                                        shaders[s].array, shaders[s].extra, &words);
        char label[192];
        mips_bound = shaders[s].mips_bound, mips_total = shaders[s].mips_total;
        for (size_t k = 0; k < sizeof per_workgroup / sizeof *per_workgroup; k++) {
            tiles_per_workgroup = per_workgroup[k];
            snprintf(label, sizeof label, "%s %s --subgroup %d %s %s%s, %u tiles per workgroup", target,
                     shaders[s].op, shaders[s].subgroup, shaders[s].format, shaders[s].extra,
                     shaders[s].array ? " 8 layers" : "", tiles_per_workgroup);
            if (!spirv) {
                ok(0, "%s: spdgen failed", label);
                continue;
            }
            for (size_t g = 0; g < sizeof grids / sizeof *grids; g++)
                run_case(ctx, spirv, words, label, shaders[s].ref, shaders[s].f, shaders[s].subgroup,
                         shaders[s].array, grids[g].w, grids[g].h);
        }
        free(spirv);
    }
    tiles_per_workgroup = 0;
    mips_bound = 12, mips_total = 0;

    /* The hierarchy counts workgroups per block: the runtime refuses more than one tile. */
    size_t words;
    uint32_t *spirv = generate_with(target, "max", 8, "r32f", 0, "--tail hierarchy", &words);
    float texels[64 * 64 * 4] = {0};
    spdrt_spd_params p = {.width = 64, .height = 64, .layers = 1, .mips_bound = 12, .subgroup = 8,
                          .format = SPDRT_R32F, .dispatches = 1, .hierarchy = 1,
                          .tiles_per_workgroup = 2};
    spdrt_spd_levels out = {0};
    spdrt_result r = spirv ? spdrt_spd_run(ctx, spirv, words, &p, texels, &out) : SPDRT_ERROR_ARGUMENT;
    ok(r == SPDRT_ERROR_ARGUMENT && strstr(spdrt_last_error(ctx), "tiles_per_workgroup"),
       "%s: 2 tiles per workgroup with --tail hierarchy is refused (%s)", target, spdrt_last_error(ctx));
    spdrt_spd_levels_free(&out);
    free(spirv);

    /* More than SPDRT_MAX_TILES_PER_WORKGROUP is refused too, before anything runs. */
    spirv = generate_with(target, "max", 8, "r32f", 0, "", &words);
    p.hierarchy = 0, p.tiles_per_workgroup = SPDRT_MAX_TILES_PER_WORKGROUP + 1;
    r = spirv ? spdrt_spd_run(ctx, spirv, words, &p, texels, &out) : SPDRT_ERROR_ARGUMENT;
    ok(r == SPDRT_ERROR_ARGUMENT && strstr(spdrt_last_error(ctx), "tiles_per_workgroup 65"),
       "%s: %u tiles per workgroup is refused (%s)", target, SPDRT_MAX_TILES_PER_WORKGROUP + 1,
       spdrt_last_error(ctx));
    spdrt_spd_levels_free(&out);
    free(spirv);
}

#endif
