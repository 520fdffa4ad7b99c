/* fft_matrix.c: the per-config FFT test on the local Vulkan device (lavapipe on CI).
 *
 * For each configuration it generates the shader with the real spdgen binary (GLSL, or HLSL
 * compiled through glslang: --target spirv --spirv-from hlsl), runs it through libspdrt
 * under the Khronos validation layer with synchronization validation (any message fails),
 * on random data in [-1, 1] for several FFTs per dispatch, and compares the output with the
 * double-precision reference (runtime/fft_ref.c): relative L2 error <= 4e-7 and
 * max|err| / max|ref| <= 2e-6 (fp16 storage: 1e-3 and 2e-3, the output's rounding to half).
 * The output buffer is filled with NaN first, so an element never written fails. Every TAP
 * line reports the measured errors.
 *
 * The matrix covers every listed value of each parameter at least once and every listed N
 * on both languages, without the full cross product (lavapipe runs on the CPU).
 * usage: fft_matrix glsl|hlsl [part]   part = sizes | shapes | options (default: all)
 *        fft_matrix list               the spdgen flags of every case, one per line (the
 *                                      MSL and SPIR-V checks run the same matrix) */
#include "fft_common.h"
#include "tap.h"

static spdrt_context *ctx;
static const char *lang;
static int list_only; /* print the flags instead of running */

/* Runs one case with `count` FFTs; one TAP line. */
static void run_case(const fft_case *c, uint32_t count)
{
    char flags[512];
    spdrt_fft_config cfg;
    spdrt_fft_pipeline *pipe = NULL;
    size_t words;
    fft_case_flags(c, flags, sizeof flags);
    if (list_only) {
        printf("%s\n", flags);
        return;
    }
    uint32_t *spirv = fft_generate(c, lang, &cfg, &words);
    if (!spirv) {
        ok(0, "%s %s: generated", lang, flags);
        return;
    }
    spdrt_fft_params p = {.count = count, .dispatches = 1};
    size_t in_n = spdrt_fft_input_floats(&cfg, &p), out_n = spdrt_fft_output_floats(&cfg, &p);
    float *in = malloc(in_n * sizeof *in), *out = malloc(out_n * sizeof *out);
    double *ref = malloc(out_n * sizeof *ref);
    uint32_t before = spdrt_validation_messages(ctx);
    spdrt_fft_error e = {0};
    int ran = 0;
    if (in && out && ref) {
        fft_random(in, in_n, c->n + 7 * c->wg + 13 * c->subgroup);
        if (spdrt_fft_pipeline_create(ctx, spirv, words, &cfg, &pipe) == SPDRT_OK &&
            spdrt_fft_run(ctx, pipe, &p, in, out, NULL) == SPDRT_OK &&
            spdrt_fft_reference(&cfg, &p, in, ref) == 0) {
            spdrt_fft_compare(out, ref, out_n, !(c->real && c->inverse), &e);
            ran = 1;
        } else {
            printf("# %s\n", spdrt_last_error(ctx));
        }
    }
    double l2_bound = c->f16 ? FFT_BOUND_F16_REL_L2 : FFT_BOUND_REL_L2;
    double max_bound = c->f16 ? FFT_BOUND_F16_MAX_REL : FFT_BOUND_MAX_REL;
    uint32_t messages = spdrt_validation_messages(ctx) - before;
    ok(ran && e.non_finite == 0 && e.rel_l2 <= l2_bound && e.max_rel <= max_bound && messages == 0,
       "%s %s x %u: rel L2 %.2e (<= %.0e), max %.2e (<= %.0e)%s%s", lang, flags, count, e.rel_l2,
       l2_bound, e.max_rel, max_bound, e.non_finite ? ", VALUES NEVER WRITTEN" : "",
       messages ? ", VALIDATION MESSAGES" : "");
    spdrt_fft_pipeline_destroy(ctx, pipe);
    free(spirv);
    free(in);
    free(out);
    free(ref);
}

/* Every listed N with Nabla's shape (E = 2 up to 2 x 1024, then 1024 invocations), subgroup
 * shuffles of the device's size, both directions. */
static void sizes(void)
{
    static const uint32_t ns[] = {4, 8, 16, 64, 256, 1024, 2048, 4096, 8192, 16384};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        uint32_t n = ns[i], wg = n / 2 <= 1024 ? n / 2 : 1024;
        uint32_t sg = wg >= 8 ? 8 : 0;
        for (int inverse = 0; inverse < 2; inverse++) {
            fft_case c = {.n = n, .ept = n / wg, .wg = wg, .subgroup = sg, .inverse = inverse};
            run_case(&c, n <= 1024 ? 8 : 2);
        }
    }
}

/* Every E in {2, 4, 8, 16} and every workgroup size 2..1024 (with sizes()), each with
 * subgroups 0, 4 and 8 where they fit. */
static void shapes(void)
{
    static const struct { uint32_t n, ept; } s[] = {
        {16, 8}, {64, 16}, {256, 4}, {1024, 8}, {4096, 16}, {16384, 16}, {2048, 2},
        {512, 4}, {8192, 8}, {64, 4},
    };
    static const uint32_t sgs[] = {0, 4, 8};
    for (size_t i = 0; i < sizeof s / sizeof *s; i++)
        for (size_t k = 0; k < 3; k++) {
            uint32_t wg = s[i].n / s[i].ept;
            if (sgs[k] > wg) continue;
            fft_case c = {.n = s[i].n, .ept = s[i].ept, .wg = wg, .subgroup = sgs[k], .inverse = (int)(i & 1)};
            run_case(&c, s[i].n <= 1024 ? 4 : 1);
        }
    /* The smallest workgroup: W = 2. */
    fft_case w2 = {.n = 32, .ept = 16, .wg = 2};
    run_case(&w2, 4);
}

/* Orders, norms, real signals, columns, rows per workgroup, f16 storage and the twiddle table. */
static void options(void)
{
    static const fft_case cases[] = {
        {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .native = 1},
        {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .native = 1, .inverse = 1},
        {.n = 4096, .ept = 8, .wg = 512, .subgroup = 4, .native = 1},
        {.n = 4096, .ept = 8, .wg = 512, .subgroup = 0, .native = 1, .inverse = 1},
        {.n = 256, .ept = 2, .wg = 128, .norm = "none", .inverse = 1},
        {.n = 256, .ept = 2, .wg = 128, .norm = "unitary"},
        {.n = 256, .ept = 2, .wg = 128, .norm = "unitary", .inverse = 1},
        {.n = 512, .ept = 4, .wg = 128, .subgroup = 8, .real = 1},
        {.n = 512, .ept = 4, .wg = 128, .subgroup = 8, .real = 1, .inverse = 1},
        {.n = 8, .ept = 2, .wg = 4, .subgroup = 4, .real = 1},
        {.n = 8, .ept = 2, .wg = 4, .real = 1, .inverse = 1},
        {.n = 16384, .ept = 16, .wg = 1024, .subgroup = 8, .real = 1},
        {.n = 256, .ept = 4, .wg = 64, .subgroup = 8, .strided = 1},
        {.n = 1024, .ept = 16, .wg = 64, .subgroup = 4, .strided = 1, .inverse = 1},
        {.n = 64, .ept = 2, .wg = 32, .strided = 1, .native = 1},
        {.n = 64, .ept = 2, .wg = 32, .rows = 8},
        {.n = 128, .ept = 4, .wg = 32, .subgroup = 8, .rows = 4, .inverse = 1},
        {.n = 256, .ept = 8, .wg = 32, .subgroup = 4, .rows = 2, .native = 1},
        {.n = 16, .ept = 2, .wg = 8, .rows = 8, .f16 = 1, .inverse = 1},
        {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .f16 = 1},
        {.n = 2048, .ept = 8, .wg = 256, .f16 = 1, .inverse = 1, .native = 1},
        {.n = 512, .ept = 4, .wg = 128, .f16 = 1, .real = 1},
        {.n = 512, .ept = 4, .wg = 128, .subgroup = 8, .f16 = 1, .real = 1, .inverse = 1},
        {.n = 64, .ept = 2, .wg = 32, .f16 = 1, .real = 1, .inverse = 1},
        {.n = 16, .ept = 16, .wg = 1, .f16 = 1, .real = 1, .inverse = 1},
        {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .lut = 1},
        {.n = 4096, .ept = 16, .wg = 256, .subgroup = 4, .lut = 1, .inverse = 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint32_t count = cases[i].n <= 1024 ? 6 : 2;
        if (cases[i].strided || cases[i].rows) count = 9; /* a partial last group */
        run_case(&cases[i], count);
    }
}

int main(int argc, char **argv)
{
    char err[512];
    spdrt_options options_ = {.validation = 1};
    if (argc < 2 || (strcmp(argv[1], "glsl") && strcmp(argv[1], "hlsl") && strcmp(argv[1], "list"))) {
        fprintf(stderr, "usage: fft_matrix glsl|hlsl [sizes|shapes|options] | fft_matrix list\n");
        return 2;
    }
    lang = argv[1];
    const char *part = argc > 2 ? argv[2] : "all";
    if (!strcmp(lang, "list")) {
        list_only = 1;
        sizes();
        shapes();
        options();
        return 0;
    }
    if (spdrt_create(&options_, &ctx, err, sizeof err) != SPDRT_OK) {
        printf("1..0 # SKIP no Vulkan device with validation: %s\n", err);
        return 0;
    }
    printf("# device: %s (%s), subgroup size %u\n", spdrt_device(ctx)->name, spdrt_device(ctx)->driver,
           spdrt_device(ctx)->subgroup_size);
    if (!strcmp(part, "all") || !strcmp(part, "sizes")) sizes();
    if (!strcmp(part, "all") || !strcmp(part, "shapes")) shapes();
    if (!strcmp(part, "all") || !strcmp(part, "options")) options();
    spdrt_destroy(ctx);
    return tap_plan();
}
