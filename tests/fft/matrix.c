/* tests/fft/matrix.c: the per-config FFT test on the local Vulkan device (lavapipe on CI).
 *
 * For each configuration it generates the shader with the real spdgen binary (GLSL, or HLSL
 * compiled through glslang: --target spirv --spirv-from hlsl), runs it through libspdrt
 * under the Khronos validation layer with synchronization validation (any message fails),
 * on random data in [-1, 1] for several FFTs per dispatch, and compares the output with the
 * double-precision reference (runtime/fft/fft_ref.c): relative L2 error <= 4e-7 and
 * max|err| / max|ref| <= 2e-6 (fp16 storage: 1e-3 and 2e-3, the output's rounding to half).
 * The output buffer is filled with NaN first, so an element never written fails. Every TAP
 * line reports the measured errors.
 *
 * The matrix covers every listed value of each parameter at least once and every listed N
 * on both languages, without the full cross product (lavapipe runs on the CPU).
 * usage: matrix glsl|hlsl [part]     part = sizes | shapes | options | columns (default: all)
 *        matrix list                   the spdgen flags of every case, one per line (the
 *                                      MSL and SPIR-V checks run the same matrix) */
#include "common.h"
#include "tap.h"

static spdrt_context *ctx;
static const char *lang;
static int list_only; /* print the flags instead of running */

/* Runs one case with `count` FFTs and the given strides (0: packed); one TAP line. */
static void run_strided(const fft_case *c, uint32_t count, uint32_t in_stride, uint32_t out_stride)
{
    char flags[512], strides[64] = "";
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
    spdrt_fft_params p = {.count = count, .in_stride = in_stride, .out_stride = out_stride, .dispatches = 1};
    if (in_stride || out_stride) snprintf(strides, sizeof strides, ", strides %u/%u", in_stride, out_stride);
    size_t in_n = spdrt_fft_input_floats(&cfg, &p), out_n = spdrt_fft_output_floats(&cfg, &p);
    float *in = malloc(in_n * sizeof *in), *out = malloc(out_n * sizeof *out);
    float *nans = malloc(in_n * sizeof *nans);
    double *ref = malloc(out_n * sizeof *ref), *named = malloc(out_n * sizeof *named);
    uint32_t before = spdrt_validation_messages(ctx);
    spdrt_fft_error e = {0};
    size_t gaps_written = 0;
    int ran = 0;
    if (in && out && ref && nans && named) {
        fft_random(in, in_n, c->n + 7 * c->wg + 13 * c->subgroup);
        for (size_t i = 0; i < in_n; i++) nans[i] = NAN;
        if (spdrt_fft_pipeline_create(ctx, spirv, words, &cfg, &pipe) == SPDRT_OK &&
            spdrt_fft_run(ctx, pipe, &p, in, out, NULL) == SPDRT_OK &&
            spdrt_fft_reference(&cfg, &p, in, ref) == 0 && spdrt_fft_reference(&cfg, &p, nans, named) == 0) {
            /* The output elements the contract names are those the reference computes from a
             * NaN input as NaN; the others (stride gaps) must still hold the NaN fill. Packed
             * strides name every element. */
            size_t used = 0;
            for (size_t i = 0; i < out_n; i++) {
                if (isnan(named[i])) {
                    out[used] = out[i];
                    ref[used++] = ref[i];
                } else if (!isnan(out[i])) {
                    gaps_written++;
                }
            }
            spdrt_fft_compare(out, ref, used, !(c->real && c->inverse), &e);
            ran = 1;
        } else {
            printf("# %s\n", spdrt_last_error(ctx));
        }
    }
    double l2_bound = c->f16 ? FFT_BOUND_F16_REL_L2 : FFT_BOUND_REL_L2;
    double max_bound = c->f16 ? FFT_BOUND_F16_MAX_REL : FFT_BOUND_MAX_REL;
    uint32_t messages = spdrt_validation_messages(ctx) - before;
    ok(ran && e.non_finite == 0 && gaps_written == 0 && e.rel_l2 <= l2_bound && e.max_rel <= max_bound &&
       messages == 0, "%s %s x %u%s: rel L2 %.2e (<= %.0e), max %.2e (<= %.0e)%s%s%s", lang, flags, count,
       strides, e.rel_l2, l2_bound, e.max_rel, max_bound, e.non_finite ? ", VALUES NEVER WRITTEN" : "",
       gaps_written ? ", GAPS WRITTEN" : "", messages ? ", VALIDATION MESSAGES" : "");
    spdrt_fft_pipeline_destroy(ctx, pipe);
    free(spirv);
    free(in);
    free(nans);
    free(out);
    free(ref);
    free(named);
}

static void run_case(const fft_case *c, uint32_t count) { run_strided(c, count, 0, 0); }

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

/* Every E in {2, 4, ..., 64} and every workgroup size 2..1024 (with sizes()), each with
 * subgroups 0, 4 and 8 where they fit; E = 32 and 64 in the default shapes of N = 8192 and
 * 16384 (W = 256) and at W = 4 and 64. */
static void shapes(void)
{
    static const struct { uint32_t n, ept; } s[] = {
        {16, 8}, {64, 16}, {256, 4}, {1024, 8}, {4096, 16}, {16384, 16}, {2048, 2},
        {512, 4}, {8192, 8}, {64, 4}, {8192, 32}, {16384, 64}, {128, 32}, {256, 64},
        {2048, 32}, {4096, 64},
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
        /* --shared-layout paired: every exchange through one float2 array. */
        {.n = 4096, .ept = 16, .wg = 256, .paired = 1},
        {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .real = 1, .paired = 1},
        {.n = 512, .ept = 4, .wg = 128, .real = 1, .inverse = 1, .paired = 1},
        {.n = 2048, .ept = 8, .wg = 256, .f16 = 1, .inverse = 1, .native = 1, .paired = 1},
        {.n = 64, .ept = 2, .wg = 32, .rows = 8, .paired = 1},
        /* E = 32 and 64 with the other options. */
        {.n = 8192, .ept = 32, .wg = 256, .subgroup = 8, .native = 1, .inverse = 1},
        {.n = 2048, .ept = 64, .wg = 32, .subgroup = 4, .real = 1},
        {.n = 1024, .ept = 32, .wg = 32, .real = 1, .inverse = 1, .paired = 1},
        {.n = 4096, .ept = 64, .wg = 64, .f16 = 1, .native = 1},
        {.n = 8192, .ept = 32, .wg = 256, .lut = 1, .inverse = 1},
        {.n = 2048, .ept = 32, .wg = 64, .subgroup = 8, .strided = 1},
        {.n = 16384, .ept = 64, .wg = 256, .paired = 1}, /* the default shapes of 16384, 8192 */
        {.n = 8192, .ept = 32, .wg = 256, .subgroup = 4, .paired = 1, .inverse = 1},
        /* --prefetch-rows: rows in turn, the next one's loads in flight (9 rows: a partial
         * last workgroup, and one that runs a single row). */
        {.n = 4096, .ept = 16, .wg = 256, .prefetch = 2, .paired = 1},
        {.n = 4096, .ept = 16, .wg = 256, .subgroup = 8, .prefetch = 4, .inverse = 1, .native = 1},
        {.n = 1024, .ept = 8, .wg = 128, .subgroup = 4, .prefetch = 8, .f16 = 1},
        {.n = 256, .ept = 8, .wg = 32, .prefetch = 2, .lut = 1, .norm = "unitary"},
        /* Rows in registers up to E x R = 64 values: the default shapes of N = 4096 and 8192
         * (2 rows), 64 and 128 (8/E rows), 4 rows of E = 16 with shuffles and DIT, and 32 rows
         * of E = 2 (9 rows: a partial last workgroup). */
        {.n = 4096, .ept = 16, .wg = 256, .rows = 2, .paired = 1},
        {.n = 8192, .ept = 32, .wg = 256, .rows = 2, .paired = 1},
        {.n = 4096, .ept = 16, .wg = 256, .subgroup = 8, .rows = 4, .inverse = 1, .native = 1},
        {.n = 64, .ept = 2, .wg = 32, .subgroup = 8, .rows = 4},
        {.n = 128, .ept = 4, .wg = 32, .rows = 2, .inverse = 1},
        {.n = 256, .ept = 2, .wg = 128, .subgroup = 4, .rows = 32, .norm = "unitary"},
        /* --twiddles squared: every other register stage squares the twiddle before it (DIF:
         * forward and natural-order inverse), with rows in registers, rows in turn, shuffles
         * after the register stages, real rows, E = 64, and DIT (native inverse: no stage
         * squares, the flag is accepted). */
        {.n = 4096, .ept = 16, .wg = 256, .rows = 4, .paired = 1, .squared = 1},
        {.n = 2048, .ept = 16, .wg = 128, .prefetch = 2, .paired = 1, .squared = 1},
        {.n = 1024, .ept = 16, .wg = 64, .subgroup = 8, .inverse = 1, .squared = 1},
        {.n = 16384, .ept = 64, .wg = 256, .paired = 1, .inverse = 1, .squared = 1},
        {.n = 512, .ept = 16, .wg = 32, .subgroup = 4, .real = 1, .squared = 1},
        {.n = 256, .ept = 8, .wg = 32, .native = 1, .inverse = 1, .squared = 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint32_t count = cases[i].n <= 1024 ? 6 : 2;
        if (cases[i].strided || cases[i].rows || cases[i].prefetch) count = 9; /* a partial last group */
        run_case(&cases[i], count);
    }
}

/* Columns in lanes (--column-layout lanes, the default for --stride up to W = 64): counts
 * that are no multiple of C (1, C - 1, C + 1, 3C + 5: columns past count read zero and are
 * not written; the output is NaN-filled, so a stray or missing store shows), strides longer
 * than count (gaps that must stay unwritten), shuffles across C lanes (--subgroup above C;
 * quad swaps 2 lanes apart at C = 2), DIT (native inverse), f16, the twiddle table, C from 1
 * to 64, and the register layout kept reachable. */
static void columns(void)
{
    static const fft_case cases[] = {
        {.n = 256, .ept = 8, .wg = 32, .strided = 1},                      /* C = 16 (default) */
        {.n = 1024, .ept = 16, .wg = 64, .subgroup = 8, .strided = 1, .inverse = 1},
        {.n = 64, .ept = 2, .wg = 32, .subgroup = 8, .strided = 1, .f16 = 1},
        {.n = 128, .ept = 4, .wg = 32, .subgroup = 8, .strided = 1, .cols = 2},
        {.n = 256, .ept = 4, .wg = 64, .subgroup = 8, .strided = 1, .cols = 4, .native = 1, .inverse = 1},
        {.n = 128, .ept = 4, .wg = 32, .subgroup = 4, .strided = 1, .cols = 2, .native = 1},
        {.n = 512, .ept = 16, .wg = 32, .strided = 1, .cols = 32, .lut = 1, .inverse = 1},
        {.n = 4096, .ept = 16, .wg = 256, .subgroup = 8, .strided = 1, .layout = "lanes"}, /* C = 4 */
        {.n = 512, .ept = 16, .wg = 32, .subgroup = 8, .strided = 1, .cols = 1},
        {.n = 16, .ept = 2, .wg = 8, .subgroup = 4, .strided = 1, .cols = 64, .norm = "unitary"},
        {.n = 256, .ept = 4, .wg = 64, .subgroup = 8, .strided = 1, .layout = "registers"},
        {.n = 256, .ept = 8, .wg = 32, .strided = 1, .paired = 1},          /* C = 16, float2 slots */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const fft_case *c = &cases[i];
        uint32_t C = c->cols ? c->cols : c->layout && !strcmp(c->layout, "registers") ? 4 : 1024 / c->wg < 16 ? 1024 / c->wg : 16;
        uint32_t counts[] = {1, C - 1, C + 1, 3 * C + 5};
        if (list_only) { /* the flags once */
            run_case(c, 1);
            continue;
        }
        for (size_t k = 0; k < 4; k++) {
            if (counts[k] == 0 || (k > 0 && counts[k] == counts[k - 1])) continue;
            if (c->n >= 4096 && k != 2) continue; /* lavapipe: one count at N = 4096 */
            run_case(c, counts[k]);
        }
        /* Strides longer than count: columns c + j * stride with gaps between. */
        run_strided(c, C + 1, C + 1 + 7, C + 1 + 3);
    }
}

int main(int argc, char **argv)
{
    char err[512];
    spdrt_options options_ = {.validation = 1};
    if (argc < 2 || (strcmp(argv[1], "glsl") && strcmp(argv[1], "hlsl") && strcmp(argv[1], "list"))) {
        fprintf(stderr, "usage: matrix glsl|hlsl [sizes|shapes|options|columns] | matrix list\n");
        return 2;
    }
    lang = argv[1];
    const char *part = argc > 2 ? argv[2] : "all";
    if (!strcmp(lang, "list")) {
        list_only = 1;
        sizes();
        shapes();
        options();
        columns();
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
    if (!strcmp(part, "all") || !strcmp(part, "columns")) columns();
    spdrt_destroy(ctx);
    return tap_plan();
}
