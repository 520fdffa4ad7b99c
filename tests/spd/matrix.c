/* tests/spd/matrix.c: the per-config SPD test on the local Vulkan device (lavapipe on CI).
 *
 * For each configuration it generates the shader with the real spdgen binary (GLSL, or
 * HLSL compiled through glslang: --target spirv --spirv-from hlsl), runs it through
 * libspdrt under the Khronos validation layer with synchronization validation, and compares
 * every texel of every level with the CPU reference (runtime/spd/spd_ref.c):
 *   the bounds of spd_ref_bound(): min, max, test-order bit-exact; mean within 2^-20;
 *   rgba16f / rgba8 within one unit of the format (Vulkan lets stores round either way),
 *   rgba8 and the 16-bit float formats with --sampler linear within two (spd_ref_filter_bound:
 *   a hardware filter may round to the format too).
 * Constant images must stay that constant at every level, odd sizes included.
 * Every level is filled with a sentinel first and every run records two dispatches without
 * a host reset of the counters, with the levels refilled in between, so the second tail must
 * run (the shader reset its counter) and every texel must be written again.
 *
 * Mode "sizes": every size 1..130 squared and the large ones, 64 and 2048 layers, passes.
 * Mode "update": sub-rectangle updates (update.h).
 * Mode "half": --half, fp16 math (half.h).
 * Mode "multitile": several tiles per workgroup (multitile.h).
 *
 * usage: matrix glsl|hlsl [sizes|update|tiles|half|multitile]   prints TAP. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spdrt_spd.h"
#include "spdrt.h"
#include "common.h"
#include "tap.h"

#define SENTINEL (-1234.5f)

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
/* 0, 4 and 8 run everywhere; main() adds the device's own subgroup size when it is larger
 * (32 on NVIDIA), so a GPU run also covers the widest shuffle plan the device allows. */
static int subgroups[4] = {0, 4, 8};
static size_t subgroup_count = 3;
static const struct { const char *name; spdrt_format format; } formats[] = {
    {"r32f", SPDRT_R32F}, {"rgba32f", SPDRT_RGBA32F},
};

static uint32_t mips_bound = 12; /* the --mips of the shader under test */
static uint32_t mips_total;      /* the chain's levels with --max-mips-per-pass (0: one pass) */
static uint32_t tile;            /* the --tile of the shader under test (0: 64) */
static int hierarchy;            /* the shader under test was made with --tail hierarchy */
static int sampler_linear;       /* the shader under test was made with --sampler linear */
static int sampler_normalized;   /* ... and samples at normalized coordinates */
static uint32_t tiles_per_workgroup; /* spdrt_spd_params.tiles_per_workgroup of the runs */
static int half_math;            /* the shader under test was made with --half: per-level bounds */
static int quiet;                /* sweep mode: report failures only, summarized by the caller */
static int quiet_failures;

/* Runs spdgen and reads the SPIR-V it wrote. */
static uint32_t *generate_with(const char *target, const char *op, int subgroup, const char *format,
                               int array, const char *extra, size_t *words)
{
    char args[512];
    snprintf(args, sizeof args, "--op %s --subgroup %d --format %s %s %s", op, subgroup, format,
             array ? "--array" : "", extra);
    return spd_test_spirv(args, target, words);
}

static uint32_t *generate(const char *target, const char *op, int subgroup, const char *format,
                          int array, size_t *words)
{
    return generate_with(target, op, subgroup, format, array, "", words);
}

/* Deterministic source data: distinct values in [0, 1) per texel and channel, or integers
 * below 2^24 for r32ui. */
static int integer_source;
static float *make_source(uint32_t w, uint32_t h, uint32_t layers, uint32_t seed)
{
    return spd_test_source((size_t)w * h * layers * 4, seed, integer_source);
}

/* Runs one configuration on one size and reports one TAP line. */
static void run_case_with(spdrt_context *ctx, const uint32_t *spirv, size_t words, const char *label,
                          spd_op op, spdrt_format format, int subgroup, int array, uint32_t w,
                          uint32_t h, const float *constant)
{
    uint32_t layers = array ? 8 : 1;
    float *source = make_source(w, h, layers, w * 7919u + h);
    float expected = constant ? spd_ref_quantize(format, *constant) : 0.0f;
    for (size_t i = 0; constant && source && i < (size_t)w * h * layers * 4; i++) source[i] = *constant;
    spdrt_spd_params params = {
        .width = w, .height = h, .layers = layers, .is_array = array, .mips_bound = mips_bound,
        .subgroup = (uint32_t)subgroup, .format = format, .dispatches = 2, .sentinel = SENTINEL,
        .refill_between_dispatches = 1, .sampler_linear = sampler_linear,
        .sampler_normalized = sampler_normalized, .tile = tile,
        .hierarchy = hierarchy, .mips_total = mips_total, .tiles_per_workgroup = tiles_per_workgroup,
    };
    spdrt_spd_levels gpu = {0}, ref = {0};
    uint32_t mips = spdrt_spd_mip_count(w, h, mips_total ? mips_total : mips_bound);
    spdrt_result rc = source ? spdrt_spd_run(ctx, spirv, words, &params, source, &gpu) : SPDRT_ERROR_OUT_OF_MEMORY;
    if (rc != SPDRT_OK) {
        ok(0, "%s %ux%u: runtime error: %s", label, w, h, spdrt_last_error(ctx));
    } else if (spd_ref_run(op, format, w, h, layers, mips, source, &ref) != 0) {
        ok(0, "%s %ux%u: reference ran out of memory", label, w, h);
    } else if (gpu.mip_count != mips) {
        ok(0, "%s %ux%u: %u levels produced, want %u", label, w, h, gpu.mip_count, mips);
    } else if (gpu.counters_left != 0) {
        ok(0, "%s %ux%u: %u counters not reset by the last dispatch", label, w, h, gpu.counters_left);
    } else {
        spd_ref_comparison c = {0};
        double bound = 0; /* the last level's: the --half bounds grow with the level */
        for (uint32_t k = 1; k <= mips; k++) {
            bound = spd_ref_bound_level(op, format, half_math, sampler_linear, k);
            spd_ref_compare_level(&gpu, &ref, k, spdrt_format_channels(format), bound,
                                  constant ? &expected : NULL, SENTINEL, &c);
        }
        char within[64];
        snprintf(within, sizeof within, bound == 0 ? "bit-exact" : "within %.3g", bound);
        int passed = c.mismatches == 0 && c.sentinels == 0;
        if (quiet) {
            if (!passed) {
                printf("# %s %ux%u: %zu mismatches, %zu sentinels; first: %s\n", label, w, h,
                       c.mismatches, c.sentinels, c.first);
                quiet_failures++;
            }
        } else {
            ok(passed, "%s %ux%u%s: %u levels %s%s, max error %.3g%s", label, w, h,
                constant ? " constant image" : "", mips, within, constant ? " of the constant" : "",
                c.max_error, c.sentinels ? " (sentinels left)" : "");
            if (c.mismatches) printf("# %zu mismatches; first: %s\n", c.mismatches, c.first);
        }
    }
    spdrt_spd_levels_free(&gpu);
    spdrt_spd_levels_free(&ref);
    free(source);
}

static void run_case(spdrt_context *ctx, const uint32_t *spirv, size_t words, const char *label,
                     spd_op op, spdrt_format format, int subgroup, int array, uint32_t w,
                     uint32_t h)
{
    run_case_with(ctx, spirv, words, label, op, format, subgroup, array, w, h, NULL);
}

/* Sizes: every (w, h) in 1..130 x 1..130 (one shader, pipelines reused, so ~1 ms each),
 * long thin and just-over-4096 sources, and sources beyond 4096x4096 in one dispatch: with
 * the default shader (12 levels, the tail loops over level-6 regions) and with a 14-level
 * shader (--max-size 16384x16384). */
static void run_sizes(spdrt_context *ctx, const char *target)
{
    size_t words;
    char label[128];
    uint32_t *spirv = generate(target, "max", 8, "r32f", 0, &words);
    snprintf(label, sizeof label, "%s max --subgroup 8 r32f", target);
    if (!spirv) {
        ok(0, "%s: spdgen failed", label);
        return;
    }
    quiet = 1;
    for (uint32_t w = 1; w <= 130; w += 13) {
        int before = quiet_failures;
        for (uint32_t x = w; x < w + 13; x++)
            for (uint32_t h = 1; h <= 130; h++)
                run_case(ctx, spirv, words, label, SPD_OP_MAX, SPDRT_R32F, 8, 0, x, h);
        ok(quiet_failures == before, "%s: every size %u..%u x 1..130, all levels bit-exact",
            label, w, w + 12);
    }
    quiet = 0;
    run_case(ctx, spirv, words, label, SPD_OP_MAX, SPDRT_R32F, 8, 0, 5000, 3000);
    free(spirv);

    spirv = generate_with(target, "max", 8, "r32f", 0, "--max-size 16384x16384", &words);
    snprintf(label, sizeof label, "%s max --subgroup 8 r32f --max-size 16384x16384", target);
    if (!spirv) {
        ok(0, "%s: spdgen failed", label);
        return;
    }
    mips_bound = 14;
    static const struct { uint32_t w, h; } big[] = {
        {4095, 1}, {1, 4095}, {4097, 3}, {16384, 4}, {4, 16384}, {5000, 3000}, {8192, 8192},
    };
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        /* 8192x8192 once: a 1 GiB float source and its reference take a while on the CPU. */
        if (big[i].w == 8192 && strcmp(target, "glsl") != 0) continue;
        run_case(ctx, spirv, words, label, SPD_OP_MAX, SPDRT_R32F, 8, 0, big[i].w, big[i].h);
    }
    mips_bound = 12;
    free(spirv);
}

/* --max-mips-per-pass K: the chain in passes of K levels (pass p reads level p*K) must give
 * exactly the single-pass result for a 32-bit format, every level and layer, bit for bit. */
static void run_passes(spdrt_context *ctx, const char *target)
{
    static const uint32_t per_pass[] = {1, 2, 5, 6, 7};
    const uint32_t w = 1500, h = 900, layers = 3;
    size_t words;
    uint32_t *single = generate(target, "mean", 8, "rgba32f", 1, &words);
    float *source = make_source(w, h, layers, 77);
    spdrt_spd_params params = {
        .width = w, .height = h, .layers = layers, .is_array = 1, .mips_bound = 12,
        .subgroup = 8, .format = SPDRT_RGBA32F, .dispatches = 1, .sentinel = SENTINEL,
    };
    spdrt_spd_levels one = {0};
    if (!single || !source || spdrt_spd_run(ctx, single, words, &params, source, &one) != SPDRT_OK) {
        ok(0, "%s passes: the single-pass run failed: %s", target, spdrt_last_error(ctx));
        goto done;
    }
    for (size_t i = 0; i < sizeof per_pass / sizeof *per_pass; i++) {
        char extra[64];
        size_t passes_words;
        snprintf(extra, sizeof extra, "--mips 12 --max-mips-per-pass %u", per_pass[i]);
        uint32_t *spirv = generate_with(target, "mean", 8, "rgba32f", 1, extra, &passes_words);
        spdrt_spd_params p = params;
        p.mips_bound = per_pass[i];
        p.mips_total = 12;
        spdrt_spd_levels split = {0};
        if (!spirv || spdrt_spd_run(ctx, spirv, passes_words, &p, source, &split) != SPDRT_OK) {
            ok(0, "%s --max-mips-per-pass %u: %s", target, per_pass[i],
                spirv ? spdrt_last_error(ctx) : "spdgen failed");
        } else {
            spd_ref_comparison c = {0};
            for (uint32_t k = 1; k <= one.mip_count; k++)
                spd_ref_compare_level(&split, &one, k, 4, 0.0, NULL, SENTINEL, &c);
            ok(split.mip_count == one.mip_count && c.mismatches == 0 && c.sentinels == 0,
                "%s mean rgba32f 3 layers %ux%u --max-mips-per-pass %u: %u dispatches give the "
                "single-pass levels bit for bit%s%s", target, w, h, per_pass[i],
                (one.mip_count + per_pass[i] - 1) / per_pass[i], c.mismatches ? "; first: " : "",
                c.first);
        }
        spdrt_spd_levels_free(&split);
        free(spirv);
    }
done:
    spdrt_spd_levels_free(&one);
    free(source);
    free(single);
}

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

/* Layers, each a different constant: every level of layer l must be layer l's constant,
 * so each slice's counter and hand-off are its own (FidelityFX SPD assumed 6 slices). Run
 * with 64 layers, and with 2048 (the most the CLI and most devices allow) at a size that
 * still has a tail (7 levels from 3 tiles per layer). */
static void run_layers(spdrt_context *ctx, const char *target, uint32_t w, uint32_t h, uint32_t layers)
{
    size_t words;
    uint32_t *spirv = generate(target, "max", 8, "r32f", 1, &words);
    float *source = malloc((size_t)w * h * layers * 4 * sizeof *source);
    if (!spirv || !source) {
        ok(0, "%u layers: spdgen failed or out of memory", layers);
        free(spirv);
        free(source);
        return;
    }
    for (uint32_t l = 0; l < layers; l++)
        for (size_t i = 0; i < (size_t)w * h * 4; i++) source[(size_t)l * w * h * 4 + i] = (float)(l + 1) / 4096.0f;
    spdrt_spd_params params = {
        .width = w, .height = h, .layers = layers, .is_array = 1, .mips_bound = 12, .subgroup = 8,
        .format = SPDRT_R32F, .dispatches = 2, .sentinel = SENTINEL, .refill_between_dispatches = 1,
    };
    spdrt_spd_levels gpu = {0};
    size_t wrong = 0;
    if (spdrt_spd_run(ctx, spirv, words, &params, source, &gpu) != SPDRT_OK) {
        ok(0, "%s %u layers: runtime error: %s", target, layers, spdrt_last_error(ctx));
    } else {
        for (uint32_t k = 1; k <= gpu.mip_count; k++)
            for (uint32_t l = 0; l < layers; l++) {
                size_t n = (size_t)gpu.width[k] * gpu.height[k];
                for (size_t i = 0; i < n; i++)
                    wrong += gpu.level[k][((size_t)l * n + i) * 4] != (float)(l + 1) / 4096.0f;
            }
        ok(wrong == 0, "%s max --array, %u layers of distinct constants %ux%u: every level of "
            "every layer is its constant (%zu wrong)", target, layers, w, h, wrong);
    }
    spdrt_spd_levels_free(&gpu);
    free(source);
    free(spirv);
}

#include "update.h"
#include "half.h"
#include "multitile.h"

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
        /* Below 64 the hierarchy is implied: --tail is named only where it is a choice. */
        hierarchy = shapes[i].hierarchy;
        snprintf(flags, sizeof flags, "--tile %u --wg %u%s%s", shapes[i].t, shapes[i].n,
                 shapes[i].t == 64 && hierarchy ? " --tail hierarchy" : "",
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

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "glsl") && strcmp(argv[1], "hlsl")) ||
        (argc > 2 && strcmp(argv[2], "sizes") && strcmp(argv[2], "update") &&
         strcmp(argv[2], "tiles") && strcmp(argv[2], "half") && strcmp(argv[2], "multitile"))) {
        fprintf(stderr, "usage: matrix glsl|hlsl [sizes|update|tiles|half|multitile]\n");
        return 2;
    }
    const char *target = argv[1];
    int sizes_only = argc > 2 && !strcmp(argv[2], "sizes");
    int update_only = argc > 2 && !strcmp(argv[2], "update");
    int tiles_only = argc > 2 && !strcmp(argv[2], "tiles");
    char err[512];
    spdrt_context *ctx;
    spdrt_options options = {.validation = 1};
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        printf("1..0 # SKIP no Vulkan device: %s\n", err);
        return 0;
    }
    const spdrt_device_info *dev = spdrt_device(ctx);
    printf("# device: %s (%s), subgroup %u\n", dev->name, dev->driver, dev->subgroup_size);
    if (dev->subgroup_size > 8 && dev->subgroup_size <= 64) subgroups[subgroup_count++] = (int)dev->subgroup_size;
    if (tiles_only) {
        run_tiles(ctx, target);
        goto finish;
    }
    if (sizes_only) {
        run_sizes(ctx, target);
        run_layers(ctx, target, 300, 260, 64);
        run_layers(ctx, target, 130, 3, 2048);
        run_passes(ctx, target);
        goto finish;
    }
    if (update_only) {
        run_updates(ctx, target);
        goto finish;
    }
    if (argc > 2 && !strcmp(argv[2], "multitile")) {
        run_multitile(ctx, target);
        goto finish;
    }
    if (argc > 2 && !strcmp(argv[2], "half")) {
        run_half(ctx, target);
        goto finish;
    }

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
                    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
                        run_case(ctx, spirv, words, label, ops[o].ref_op, formats[f].format,
                                 subgroups[s], array, sizes[z].w, sizes[z].h);
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

finish:;
    uint32_t messages = spdrt_validation_messages(ctx);
    ok(messages == 0, "no validation-layer messages (synchronization validation on): %u", messages);
    spdrt_destroy(ctx);
    return tap_plan();
}
