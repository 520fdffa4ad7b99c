/* tests/spd/matrix.c: the per-config SPD test on the local Vulkan device (lavapipe on CI),
 * checked as run.h describes: ops x subgroups x formats x {2D, 8-layer array} x sizes
 * (arrays at 300x200 for 1000x1000), the order-sensitive test op on every exchange path, the
 * 16- and 8-bit formats, constant images, more formats and ops (r16f, rg16f, rg32f, r32ui,
 * minmax, srgb-mean), --sampler linear, and 4096x4096 once.
 *
 * usage: matrix glsl|hlsl   prints TAP. */
#include "run.h"

typedef struct {
    const char *op;
    spd_op ref_op;
} op_case;

static const op_case ops[] = {
    {"min", SPD_OP_MIN}, {"max", SPD_OP_MAX}, {"mean", SPD_OP_MEAN},
};
static const struct { uint32_t w, h; } sizes[] = {
    {1, 1}, {2, 2}, {64, 64}, {65, 65}, {127, 33}, {128, 32}, {1, 300}, {1000, 1000},
    /* One axis reaches one texel while levels remain: the edge-repeat rule at work. */
    {5, 300}, {260, 3},
};
static const struct { const char *name; spdrt_format format; } formats[] = {
    {"r32f", SPDRT_R32F}, {"rgba32f", SPDRT_RGBA32F},
};

/* sRGB: a 2x2 of code values 0 and 255 averages in linear light to 0.5, which encodes to
 * 187.5 -> 188 (an average of code values would give 128). */
static void run_srgb_known_value(spdrt_context *ctx, const char *target)
{
    size_t words;
    uint32_t *spirv = generate(target, "srgb-mean", 8, "rgba8", 0, &words);
    float source[2 * 2 * 4] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1};
    spdrt_spd_params params = {
        .width = 2, .height = 2, .layers = 1, .mips_bound = 12, .subgroup = 8,
        .format = SPDRT_RGBA8, .dispatches = 1, .sentinel = SENTINEL,
    };
    spdrt_spd_levels gpu = {0};
    if (!spirv || spdrt_spd_run(ctx, spirv, words, &params, source, &gpu) != SPDRT_OK) {
        ok(0, "%s srgb-mean 2x2 of 0 and 255: %s", target, spirv ? spdrt_last_error(ctx) : "spdgen failed");
    } else {
        float *t = gpu.level[1];
        ok(t[0] == 188.0f / 255.0f && t[1] == 188.0f / 255.0f && t[2] == 188.0f / 255.0f &&
                t[3] == 1.0f,
            "%s srgb-mean: a 2x2 of 0 and 255 averages to (%g, %g, %g) x 255, want 188, alpha 255",
            target, t[0] * 255.0f, t[1] * 255.0f, t[2] * 255.0f);
    }
    spdrt_spd_levels_free(&gpu);
    free(spirv);
}

static void run_matrix(spdrt_context *ctx, const char *target)
{
    /* ops x subgroup x format x {2D, 8-layer array} x sizes. */
    for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
        for (size_t s = 0; s < subgroup_count; s++)
            for (size_t f = 0; f < sizeof formats / sizeof *formats; f++)
                for (int array = 0; array <= 1; array++) {
                    char label[128];
                    snprintf(label, sizeof label, "%s %s --subgroup %d %s%s", target, ops[o].op,
                             subgroups[s], formats[f].name, array ? " 8 layers" : "");
                    size_t words;
                    uint32_t *spirv = generate(target, ops[o].op, subgroups[s], formats[f].name, array, &words);
                    if (!spirv) {
                        ok(0, "%s: spdgen failed", label);
                        continue;
                    }
                    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
                        /* 8 layers of 1000x1000 are most of the matrix's time; arrays take
                         * 300x200 (several workgroups, the hand-off) instead. */
                        int big = sizes[z].w == 1000 && array;
                        run_case(ctx, spirv, words, label, ops[o].ref_op, formats[f].format,
                                 subgroups[s], array, big ? 300 : sizes[z].w,
                                 big ? 200 : sizes[z].h);
                    }
                    free(spirv);
                }

    /* The 2x2 order: a test-only op weighting each corner differently, on every subgroup
     * path, so a transposed or mirrored exchange anywhere shows as a mismatch. */
    for (size_t s = 0; s < subgroup_count; s++) {
        char label[128];
        snprintf(label, sizeof label, "%s test-order --subgroup %d rgba32f", target, subgroups[s]);
        size_t words;
        uint32_t *spirv = generate(target, "test-order", subgroups[s], "rgba32f", 0, &words);
        if (!spirv) {
            ok(0, "%s: spdgen failed", label);
            continue;
        }
        run_case(ctx, spirv, words, label, SPD_OP_TEST_ORDER, SPDRT_RGBA32F, subgroups[s], 0, 4096 / 8, 4096 / 16);
        run_case(ctx, spirv, words, label, SPD_OP_TEST_ORDER, SPDRT_RGBA32F, subgroups[s], 0, 300, 1000);
        free(spirv);
    }

    /* The 16- and 8-bit formats, and constant images: every level of a constant image is
     * that constant, odd sizes included (FidelityFX SPD's issue #2 darkens its edges). */
    {
        static const struct { const char *name; spdrt_format format; } narrow[] = {
            {"rgba16f", SPDRT_RGBA16F}, {"rgba8", SPDRT_RGBA8}, {"rgba32f", SPDRT_RGBA32F}};
        const float constant = 0.3f;
        for (size_t f = 0; f < 3; f++)
            for (int array = 0; array <= 1; array++) {
                char label[128];
                snprintf(label, sizeof label, "%s mean --subgroup 8 %s%s", target, narrow[f].name,
                         array ? " 8 layers" : "");
                size_t words;
                uint32_t *spirv = generate(target, "mean", 8, narrow[f].name, array, &words);
                if (!spirv) {
                    ok(0, "%s: spdgen failed", label);
                    continue;
                }
                if (narrow[f].format != SPDRT_RGBA32F) {
                    run_case(ctx, spirv, words, label, SPD_OP_MEAN, narrow[f].format, 8, array, 127, 33);
                    run_case(ctx, spirv, words, label, SPD_OP_MEAN, narrow[f].format, 8, array, 1000, 1000);
                }
                run_case_with(ctx, spirv, words, label, SPD_OP_MEAN, narrow[f].format, 8, array, 127, 33, &constant);
                run_case_with(ctx, spirv, words, label, SPD_OP_MEAN, narrow[f].format, 8, array, 65, 1, &constant);
                free(spirv);
            }
    }

    /* More formats and ops: r16f, rg16f, rg32f (mean and max), r32ui (integer min, max),
     * minmax depth pyramids (one channel to (min, max)), srgb-mean. */
    {
        static const struct { const char *op, *format; int subgroup, array; } more[] = {
            {"mean", "r16f", 8, 0}, {"max", "r16f", 4, 1}, {"mean", "rg16f", 0, 0},
            {"max", "rg32f", 8, 1}, {"mean", "rg32f", 4, 0}, {"min", "r32ui", 8, 0},
            {"max", "r32ui", 0, 1}, {"minmax", "rg32f", 8, 0}, {"minmax", "rg16f", 4, 1},
            {"minmax", "rg32f", 0, 1}, {"srgb-mean", "rgba8", 8, 0}, {"srgb-mean", "rgba8", 0, 1},
        };
        for (size_t m = 0; m < sizeof more / sizeof *more; m++) {
            char label[128];
            spd_op op;
            spdrt_format format;
            spd_ref_op_by_name(more[m].op, &op);
            spdrt_format_by_name(more[m].format, &format);
            snprintf(label, sizeof label, "%s %s --subgroup %d %s%s", target, more[m].op,
                     more[m].subgroup, more[m].format, more[m].array ? " 8 layers" : "");
            size_t words;
            uint32_t *spirv = generate(target, more[m].op, more[m].subgroup, more[m].format,
                                       more[m].array, &words);
            if (!spirv) {
                ok(0, "%s: spdgen failed", label);
                continue;
            }
            integer_source = format == SPDRT_R32UI;
            run_case(ctx, spirv, words, label, op, format, more[m].subgroup, more[m].array, 127, 33);
            run_case(ctx, spirv, words, label, op, format, more[m].subgroup, more[m].array, 1000, 1000);
            integer_source = 0;
            free(spirv);
        }
    }
    run_srgb_known_value(ctx, target);

    /* --sampler linear: level 1 by one bilinear fetch per 2x2 block, for mean, within the same
     * bound of the reference as the load path (8/16-bit formats: one unit more, the filter's
     * rounding, spd_ref_filter_bound). By
     * default at texel coordinates, so any size: odd sides (the dropped last row and column
     * are never fetched), one-texel sides (clamp to edge repeats the texel, as the load path's
     * clamped reads do) and sides far from powers of two, whose normalized coordinates
     * (2x + 1) / w would be inexact. --sampler-coords normalized (implied by --array) samples
     * at normalized coordinates: power-of-two sides, other sizes refused by the runtime. */
    {
        static const struct { const char *format; int subgroup, array, normalized; } lin[] = {
            {"rgba32f", 8, 0, 0}, {"r32f", 0, 1, 1}, {"rgba16f", 4, 0, 0}, {"rgba8", 8, 0, 0},
            {"rgba8", 0, 1, 1}, {"rgba32f", 4, 0, 1},
        };
        static const struct { uint32_t w, h; } pot[] = {{2, 2}, {64, 64}, {1, 256}, {512, 1}, {1024, 256}};
        static const struct { uint32_t w, h; } any[] = {{3, 2}, {127, 33}, {1, 99}, {1000, 1000}, {1920, 1080}};
        for (size_t m = 0; m < sizeof lin / sizeof *lin; m++) {
            char label[128];
            spdrt_format format;
            size_t words;
            const char *flags = lin[m].normalized && !lin[m].array
                                    ? "--sampler linear --sampler-coords normalized" : "--sampler linear";
            spdrt_format_by_name(lin[m].format, &format);
            snprintf(label, sizeof label, "%s mean %s --subgroup %d %s%s", target, flags,
                     lin[m].subgroup, lin[m].format, lin[m].array ? " 8 layers" : "");
            uint32_t *spirv = generate_with(target, "mean", lin[m].subgroup, lin[m].format,
                                            lin[m].array, flags, &words);
            if (!spirv) {
                ok(0, "%s: spdgen failed", label);
                continue;
            }
            sampler_linear = 1, sampler_normalized = lin[m].normalized;
            for (size_t z = 0; z < sizeof pot / sizeof *pot; z++)
                run_case(ctx, spirv, words, label, SPD_OP_MEAN, format, lin[m].subgroup,
                         lin[m].array, pot[z].w, pot[z].h);
            if (!lin[m].normalized) {
                for (size_t z = 0; z < sizeof any / sizeof *any; z++)
                    run_case(ctx, spirv, words, label, SPD_OP_MEAN, format, lin[m].subgroup, 0,
                             any[z].w, any[z].h);
            } else {
                uint32_t layers = lin[m].array ? 8 : 1;
                float texel[4 * 3 * 2 * 8] = {0};
                spdrt_spd_params params = {.width = 3, .height = 2, .layers = layers,
                                           .is_array = lin[m].array, .mips_bound = 12,
                                           .subgroup = (uint32_t)lin[m].subgroup, .format = format,
                                           .dispatches = 1, .sampler_linear = 1,
                                           .sampler_normalized = !lin[m].array};
                spdrt_spd_levels out = {0};
                spdrt_result r = spdrt_spd_run(ctx, spirv, words, &params, texel, &out);
                ok(r == SPDRT_ERROR_ARGUMENT && strstr(spdrt_last_error(ctx), "power-of-two"),
                   "%s: a 3x2 source is refused (%s)", label, spdrt_last_error(ctx));
                spdrt_spd_levels_free(&out);
            }
            sampler_linear = 0, sampler_normalized = 0;
            free(spirv);
        }
    }

    /* The largest size the 12-level chain covers, once per target. */
    {
        size_t words;
        uint32_t *spirv = generate(target, "max", 8, "r32f", 0, &words);
        if (spirv) run_case(ctx, spirv, words, "max --subgroup 8 r32f", SPD_OP_MAX, SPDRT_R32F, 8, 0, 4096, 4096);
        else ok(0, "4096x4096: spdgen failed");
        free(spirv);
    }
}

int main(int argc, char **argv) { return spd_test_main(argc, argv, run_matrix); }
