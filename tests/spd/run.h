/* tests/spd/run.h: what the SPD device programs of this folder share (matrix.c, sizes.c,
 * tiles.c, update.c, half.c, multitile.c; edge.c and edge_sweep.c have edge.h): the shader
 * under test made by the real spdgen binary (GLSL, or HLSL compiled through glslang:
 * --target spirv --spirv-from hlsl), run through libspdrt under the Khronos validation layer
 * with synchronization validation, and every texel of every level compared with the CPU
 * reference (runtime/spd/spd_ref.c):
 *   the bounds of spd_ref_bound(): min, max, test-order bit-exact; mean within 2^-20;
 *   rgba16f / rgba8 within one unit of the format (Vulkan lets stores round either way),
 *   rgba8 and the 16-bit float formats with --sampler linear within two (spd_ref_filter_bound:
 *   a hardware filter may round to the format too).
 * Constant images must stay that constant at every level, odd sizes included.
 * Every level is filled with a sentinel first and every run records two dispatches without
 * a host reset of the counters, with the levels refilled in between, so the second tail must
 * run (the shader reset its counter) and every texel must be written again.
 *
 * Each program is `NAME glsl|hlsl` and prints TAP (spd_test_main). */
#ifndef SPD_RUN_H
#define SPD_RUN_H

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

/* 0, 4 and 8 run everywhere; spd_test_main adds the device's own subgroup size when it is larger
 * (32 on NVIDIA), so a GPU run also covers the widest shuffle plan the device allows. */
static int subgroups[4] = {0, 4, 8};
static size_t subgroup_count = 3;

static uint32_t mips_bound = 12; /* the --mips of the shader under test */
static uint32_t mips_total;      /* the chain's levels with --max-mips-per-pass (0: one pass) */
static uint32_t tile;            /* the --tile of the shader under test (0: 64) */
static int hierarchy;            /* the shader under test was made with --tail hierarchy */
static int sampler_linear;       /* the shader under test was made with --sampler linear */
static int sampler_normalized;   /* ... and samples at normalized coordinates */
static uint32_t tiles_per_workgroup; /* spdrt_spd_params.tiles_per_workgroup of the runs */
static int half_math;            /* the shader under test was made with --half: per-level bounds */
static int quiet;                /* sizes.c: report failures only, summarized by the caller */
static int quiet_failures;

/* Runs spdgen and reads the SPIR-V it wrote. */
static inline uint32_t *generate_with(const char *target, const char *op, int subgroup,
                                      const char *format, int array, const char *extra,
                                      size_t *words)
{
    char args[512];
    snprintf(args, sizeof args, "--op %s --subgroup %d --format %s %s %s", op, subgroup, format,
             array ? "--array" : "", extra);
    return spd_test_spirv(args, target, words);
}

static inline uint32_t *generate(const char *target, const char *op, int subgroup,
                                 const char *format, int array, size_t *words)
{
    return generate_with(target, op, subgroup, format, array, "", words);
}

/* Deterministic source data: distinct values in [0, 1) per texel and channel, or integers
 * below 2^24 for r32ui. */
static int integer_source;
static inline float *make_source(uint32_t w, uint32_t h, uint32_t layers, uint32_t seed)
{
    return spd_test_source((size_t)w * h * layers * 4, seed, integer_source);
}

/* Runs one configuration on one size and reports one TAP line. */
static inline void run_case_with(spdrt_context *ctx, const uint32_t *spirv, size_t words,
                                 const char *label, spd_op op, spdrt_format format, int subgroup,
                                 int array, uint32_t w, uint32_t h, const float *constant)
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

static inline void run_case(spdrt_context *ctx, const uint32_t *spirv, size_t words,
                            const char *label, spd_op op, spdrt_format format, int subgroup,
                            int array, uint32_t w, uint32_t h)
{
    run_case_with(ctx, spirv, words, label, op, format, subgroup, array, w, h, NULL);
}

/* The main() of every program here: `NAME glsl|hlsl` runs the program's cases (`run`) for
 * that target on the local Vulkan device, then one line for the validation layer's messages;
 * prints TAP (a plan of 0, skipped, without a device). */
static inline int spd_test_main(int argc, char **argv,
                                void (*run)(spdrt_context *ctx, const char *target))
{
    if (argc != 2 || (strcmp(argv[1], "glsl") && strcmp(argv[1], "hlsl"))) {
        fprintf(stderr, "usage: %s glsl|hlsl\n", argv[0]);
        return 2;
    }
    const char *target = argv[1];
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
    run(ctx, target);
    uint32_t messages = spdrt_validation_messages(ctx);
    ok(messages == 0, "no validation-layer messages (synchronization validation on): %u", messages);
    spdrt_destroy(ctx);
    return tap_plan();
}

#endif
