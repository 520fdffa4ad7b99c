/* tests/spd/half.c: --half (fp16 math) on the local Vulkan device (run.h's generate_with,
 * run_case and make_source).
 *
 *   min/max: bit-exact against the fp32 CPU reference (min and max of halves are exact) for
 *     every 16-bit format, --subgroup 0/4/8, power-of-two, odd and tail sizes (1000x1000
 *     on a pairwise third), 2D and array,
 *     and --tile 16 / 4 (the counter hierarchy).
 *   mean (and the order-sensitive test-order): within the per-level bound derived in
 *     spd_ref.h (spd_ref_bound_level) on random data in [0, 1).
 *   Inf: +Inf and -Inf in the source propagate exactly through min/max; a mean over +Inf is
 *     +Inf. NaN is unspecified (min/max may return either operand) and not tested.
 *   A device without shaderFloat16 (simulated by clearing the context's flag) refuses the
 *     shader with a message naming the feature.
 *
 * usage: half glsl|hlsl   prints TAP. */
#include "run.h"
#include "core/internal.h" /* the simulated device: ctx->float16 */

static const struct { const char *name; spdrt_format format; } half_formats[] = {
    {"r16f", SPDRT_R16F}, {"rg16f", SPDRT_RG16F}, {"rgba16f", SPDRT_RGBA16F},
};

/* A source of random values in [0, 1) with every 37th value +Inf and, unless only_positive,
 * every 53rd -Inf (a mean over both would be Inf - Inf = NaN). *infs counts those in the
 * first `channels` channels, the ones the shader reads. */
static float *inf_source(uint32_t w, uint32_t h, uint32_t seed, int only_positive,
                         uint32_t channels, size_t *infs)
{
    float *s = make_source(w, h, 1, seed);
    *infs = 0;
    for (size_t i = 0; s && i < (size_t)w * h * 4; i++) {
        if (i % 37 == 5) s[i] = INFINITY;
        else if (!only_positive && i % 53 == 7) s[i] = -INFINITY;
        *infs += i % 4 < channels && isinf(s[i]);
    }
    return s;
}

/* Runs a --half shader on an Inf-laced source; compares every level with the reference
 * (bit-exact for min/max; infinities must match exactly for mean, the rest within the
 * bound) and counts the infinite texels the reference has beyond level 0. */
static void run_half_inf(spdrt_context *ctx, const char *target, const char *op, spd_op ref_op,
                         const char *format_name, spdrt_format format, int subgroup)
{
    const uint32_t w = 300, h = 200;
    char label[160];
    size_t words, infs;
    snprintf(label, sizeof label, "%s %s --half --subgroup %d %s %ux%u with %s", target, op,
             subgroup, format_name, w, h, ref_op == SPD_OP_MEAN ? "+Inf" : "+Inf and -Inf");
    uint32_t *spirv = generate_with(target, op, subgroup, format_name, 0, "--half", &words);
    uint32_t channels = spdrt_format_channels(format);
    float *source = inf_source(w, h, 11, ref_op == SPD_OP_MEAN, channels, &infs);
    spdrt_spd_params params = {
        .width = w, .height = h, .layers = 1, .mips_bound = 12, .subgroup = (uint32_t)subgroup,
        .format = format, .dispatches = 1, .sentinel = SENTINEL,
    };
    spdrt_spd_levels gpu = {0}, ref = {0};
    if (!spirv || !source || spdrt_spd_run(ctx, spirv, words, &params, source, &gpu) != SPDRT_OK ||
        spd_ref_run(ref_op, format, w, h, 1, gpu.mip_count, source, &ref) != 0) {
        ok(0, "%s: %s", label, spirv ? spdrt_last_error(ctx) : "spdgen failed");
    } else {
        spd_ref_comparison c = {0};
        size_t ref_infs = 0;
        for (uint32_t k = 1; k <= gpu.mip_count; k++) {
            spd_ref_compare_level(&gpu, &ref, k, channels,
                                  spd_ref_bound_level(ref_op, format, 1, sampler_linear, k),
                                  NULL, SENTINEL, &c);
            for (size_t i = 0; i < (size_t)gpu.width[k] * gpu.height[k] * 4; i++)
                ref_infs += i % 4 < channels && isinf(ref.level[k][i]);
        }
        ok(c.mismatches == 0 && c.sentinels == 0 && ref_infs > 0,
           "%s: %zu infinities in level 0, %zu infinite values in levels 1..%u, every level %s "
           "the reference%s%s", label, infs, ref_infs, gpu.mip_count,
           ref_op == SPD_OP_MEAN ? "matches (infinities exactly, the rest within the bound of)"
                                 : "bit-exact against",
           c.mismatches ? "; first: " : "", c.first);
    }
    spdrt_spd_levels_free(&gpu);
    spdrt_spd_levels_free(&ref);
    free(source);
    free(spirv);
}

/* Generates one --half shader and runs it on `n` sizes through run_case (per-level bounds). */
static void run_half_sizes(spdrt_context *ctx, const char *target, const char *op, spd_op ref_op,
                           const char *format_name, spdrt_format format, int subgroup, int array,
                           const char *extra, const uint32_t (*wh)[2], size_t n)
{
    char label[160], flags[96];
    size_t words;
    snprintf(flags, sizeof flags, "--half%s%s", *extra ? " " : "", extra);
    snprintf(label, sizeof label, "%s %s %s --subgroup %d %s%s", target, op, flags, subgroup,
             format_name, array ? " 8 layers" : "");
    uint32_t *spirv = generate_with(target, op, subgroup, format_name, array, flags, &words);
    if (!spirv) {
        ok(0, "%s: spdgen failed", label);
        return;
    }
    half_math = 1;
    for (size_t z = 0; z < n; z++)
        run_case(ctx, spirv, words, label, ref_op, format, subgroup, array, wh[z][0], wh[z][1]);
    half_math = 0;
    free(spirv);
}

static void run_half(spdrt_context *ctx, const char *target)
{
    /* 64x64 one tile; 65x65 and 127x33 odd (NPOT, dropped edges); 5x300 reaches a
     * one-texel-wide level early; 1000x1000 has the level-6 hand-off and tail, run where
     * format + subgroup + op indices are 0 mod 3, so that it meets every format with every
     * subgroup, every op with each of them (a third of the device time of all). */
    static const uint32_t half_sizes[][2] = {{64, 64}, {65, 65}, {127, 33}, {5, 300}, {1000, 1000}};
    static const int sgs[] = {0, 4, 8};
    const size_t nsizes = sizeof half_sizes / sizeof *half_sizes;
#define HALF_SIZES(op_index) ((f + s + (op_index)) % 3 == 0 ? nsizes : nsizes - 1)
    for (size_t f = 0; f < 3; f++)
        for (size_t s = 0; s < 3; s++) {
            run_half_sizes(ctx, target, "min", SPD_OP_MIN, half_formats[f].name,
                           half_formats[f].format, sgs[s], 0, "", half_sizes, HALF_SIZES(0));
            run_half_sizes(ctx, target, "max", SPD_OP_MAX, half_formats[f].name,
                           half_formats[f].format, sgs[s], s == 1, "", half_sizes, HALF_SIZES(1));
            run_half_sizes(ctx, target, "mean", SPD_OP_MEAN, half_formats[f].name,
                           half_formats[f].format, sgs[s], s == 2, "", half_sizes, HALF_SIZES(2));
        }
#undef HALF_SIZES
    /* The 2x2 order on every exchange path, a depth pyramid, bilinear level 1, 13 levels. */
    static const uint32_t order_sizes[][2] = {{300, 1000}, {512, 256}};
    for (size_t s = 0; s < 3; s++)
        run_half_sizes(ctx, target, "test-order", SPD_OP_TEST_ORDER, "rgba16f", SPDRT_RGBA16F,
                       sgs[s], 0, "", order_sizes, 2);
    run_half_sizes(ctx, target, "minmax", SPD_OP_MINMAX, "rg16f", SPDRT_RG16F, 8, 1, "", half_sizes, nsizes);
    static const uint32_t pot[][2] = {{64, 64}, {1024, 256}};
    sampler_linear = 1;
    run_half_sizes(ctx, target, "mean", SPD_OP_MEAN, "rgba16f", SPDRT_RGBA16F, 4, 0,
                   "--sampler linear", pot, 2);
    sampler_linear = 0;
    static const uint32_t big[][2] = {{5000, 3000}};
    mips_bound = 13;
    run_half_sizes(ctx, target, "mean", SPD_OP_MEAN, "r16f", SPDRT_R16F, 8, 0,
                   "--max-size 8192x8192", big, 1);
    mips_bound = 12;

    /* Smaller tiles: the counter hierarchy's stage buffers carry halves too. */
    static const uint32_t tile_wh[][2] = {{65, 65}, {1000, 700}};
    static const struct { uint32_t t; const char *extra; } tiles[] = {
        {16, "--tile 16 --wg 64"}, {4, "--tile 4 --wg 4"},
    };
    for (size_t i = 0; i < 2; i++) {
        tile = tiles[i].t;
        run_half_sizes(ctx, target, "min", SPD_OP_MIN, "rgba16f", SPDRT_RGBA16F, 4, 0,
                       tiles[i].extra, tile_wh, 2);
        run_half_sizes(ctx, target, "mean", SPD_OP_MEAN, "rg16f", SPDRT_RG16F, 8, 1,
                       tiles[i].extra, tile_wh, 2);
        tile = 0;
    }

    run_half_inf(ctx, target, "max", SPD_OP_MAX, "rgba16f", SPDRT_RGBA16F, 8);
    run_half_inf(ctx, target, "min", SPD_OP_MIN, "rg16f", SPDRT_RG16F, 4);
    run_half_inf(ctx, target, "min", SPD_OP_MIN, "r16f", SPDRT_R16F, 0);
    run_half_inf(ctx, target, "mean", SPD_OP_MEAN, "rgba16f", SPDRT_RGBA16F, 8);

    /* A device without shaderFloat16: the runtime must refuse, naming the feature. */
    {
        size_t words;
        uint32_t *spirv = generate_with(target, "max", 8, "r16f", 0, "--half", &words);
        float texel[4 * 4 * 4] = {0};
        spdrt_spd_params params = {.width = 4, .height = 4, .layers = 1, .mips_bound = 12,
                                   .subgroup = 8, .format = SPDRT_R16F, .dispatches = 1};
        spdrt_spd_levels out = {0};
        int had = ctx->float16;
        ctx->float16 = 0;
        spdrt_result r = spirv ? spdrt_spd_run(ctx, spirv, words, &params, texel, &out) : SPDRT_OK;
        ctx->float16 = had;
        ok(r == SPDRT_ERROR_UNSUPPORTED && strstr(spdrt_last_error(ctx), "shaderFloat16") &&
               strstr(spdrt_last_error(ctx), "--half"),
           "%s --half on a device without shaderFloat16 (simulated) is refused: %s", target,
           spdrt_last_error(ctx));
        spdrt_spd_levels_free(&out);
        free(spirv);
    }
}

int main(int argc, char **argv) { return spd_test_main(argc, argv, run_half); }
