/* tests/spd/sizes.c: SPD sizes on the local Vulkan device, checked as run.h describes: every
 * (w, h) in 1..130 x 1..130, long thin sources and sources beyond 4096x4096 in one dispatch;
 * 64 and 2048 layers of distinct constants; --max-mips-per-pass equal to one pass.
 *
 * usage: sizes glsl|hlsl   prints TAP. */
#include "run.h"

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

    spirv = generate_with(target, "max", 8, "r32f", 0, "--max-size 16384x16384 --tail loop",
                          &words);
    snprintf(label, sizeof label, "%s max --subgroup 8 r32f --max-size 16384x16384 --tail loop",
             target);
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
    free(spirv);

    /* Past 4096 texels a side the default tail is the hierarchy: the shader made with no
     * --tail runs as one (libspdrt's default 4 tiles per workgroup) over the same sizes. */
    spirv = generate_with(target, "max", 8, "r32f", 0, "--max-size 16384x16384", &words);
    snprintf(label, sizeof label, "%s max --subgroup 8 r32f --max-size 16384x16384 (default "
             "tail: hierarchy)", target);
    if (!spirv) {
        ok(0, "%s: spdgen failed", label);
        return;
    }
    hierarchy = 1;
    for (size_t i = 0; i < sizeof big / sizeof *big; i++)
        if (big[i].w != 8192)
            run_case(ctx, spirv, words, label, SPD_OP_MAX, SPDRT_R32F, 8, 0, big[i].w, big[i].h);
    hierarchy = 0;
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

static void run_all_sizes(spdrt_context *ctx, const char *target)
{
    run_sizes(ctx, target);
    run_layers(ctx, target, 300, 260, 64);
    run_layers(ctx, target, 130, 3, 2048);
    run_passes(ctx, target);
}

int main(int argc, char **argv) { return spd_test_main(argc, argv, run_all_sizes); }
