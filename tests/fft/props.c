/* tests/fft/props.c: structural properties of spdgen FFTs on the local Vulkan device, each checked
 * against its closed form (not against the reference FFT):
 *   impulse at 0     -> every X[f] is exactly 1 (bit-exact: every twiddle it meets is w^0)
 *   impulse at j0    -> X[f] = exp(-2 pi i j0 f / N), the twiddles themselves
 *   constant c       -> X[0] = N c, every other X[f] = 0
 *   single tone k0   -> X[k0] = N, every other X[f] = 0
 *   real input       -> X[N - f] = conj X[f] (Hermitian), X[0] and X[N/2] real
 *   forward+inverse  -> the input again (natural order, native order as in a convolution,
 *                       and real rows through --real), relative L2 <= 1e-6
 * Bounds: 2e-6 x max|X| absolute for the zeros and the Hermitian pairs (the max-norm bar).
 * usage: props glsl|hlsl...   prints TAP. */
#include "common.h"
#include "tap.h"

static spdrt_context *ctx;
static const char *lang;
static const double TWO_PI = 6.28318530717958647692528676655900577;

/* Builds a pipeline for the case; NULL after a failed TAP line. */
static spdrt_fft_pipeline *make(const fft_case *c, spdrt_fft_config *cfg)
{
    size_t words;
    spdrt_fft_pipeline *pipe = NULL;
    uint32_t *spirv = fft_generate(c, lang, cfg, &words);
    if (!spirv || spdrt_fft_pipeline_create(ctx, spirv, words, cfg, &pipe) != SPDRT_OK) {
        char flags[512];
        fft_case_flags(c, flags, sizeof flags);
        ok(0, "%s %s: pipeline (%s)", lang, flags, spirv ? spdrt_last_error(ctx) : "generation failed");
        pipe = NULL;
    }
    free(spirv);
    return pipe;
}

/* One forward FFT of `in` (N complex) into `out`; 0 on success. */
static int forward(spdrt_fft_pipeline *pipe, const float *in, float *out)
{
    spdrt_fft_params p = {.count = 1};
    if (spdrt_fft_run(ctx, pipe, &p, in, out, NULL) == SPDRT_OK) return 0;
    printf("# %s\n", spdrt_last_error(ctx));
    return -1;
}

static double modulus(double re, double im) { return sqrt(re * re + im * im); }

static void closed_forms(uint32_t n, uint32_t ept, uint32_t subgroup)
{
    fft_case c = {.n = n, .ept = ept, .wg = n / ept, .subgroup = subgroup};
    spdrt_fft_config cfg;
    spdrt_fft_pipeline *pipe = make(&c, &cfg);
    float *in = calloc(2 * n, sizeof *in), *out = calloc(2 * n, sizeof *out);
    if (!pipe || !in || !out) goto done;

    /* Impulse at 0: all ones, exactly. */
    in[0] = 1.0f;
    uint32_t inexact = 0;
    if (forward(pipe, in, out) == 0)
        for (uint32_t f = 0; f < n; f++) inexact += out[2 * f] != 1.0f || out[2 * f + 1] != 0.0f;
    else
        inexact = n;
    ok(inexact == 0, "%s N=%u impulse at 0: every X[f] is exactly 1 (%u differ)", lang, n, inexact);

    /* Impulse at j0: X[f] = w^(j0 f). */
    uint32_t j0 = 1 + n / 3;
    memset(in, 0, 2 * n * sizeof *in);
    in[2 * j0] = 1.0f;
    double worst = 1;
    if (forward(pipe, in, out) == 0) {
        worst = 0;
        for (uint32_t f = 0; f < n; f++) {
            double a = TWO_PI * (double)(((uint64_t)j0 * f) % n) / n;
            double e = modulus(out[2 * f] - cos(a), out[2 * f + 1] + sin(a));
            if (e > worst) worst = e;
        }
    }
    ok(worst <= FFT_BOUND_MAX_REL, "%s N=%u impulse at %u: X[f] = exp(-2 pi i %u f / N), max error %.2e",
       lang, n, j0, j0, worst);

    /* Constant: X[0] = N c, the rest 0. */
    const float cre = 0.75f, cim = -0.25f;
    for (uint32_t j = 0; j < n; j++) in[2 * j] = cre, in[2 * j + 1] = cim;
    double dc = 1, rest = 1;
    if (forward(pipe, in, out) == 0) {
        dc = modulus(out[0] - (double)n * cre, out[1] - (double)n * cim) / (n * modulus(cre, cim));
        rest = 0;
        for (uint32_t f = 1; f < n; f++) rest = fmax(rest, modulus(out[2 * f], out[2 * f + 1]));
        rest /= n * modulus(cre, cim);
    }
    ok(dc <= FFT_BOUND_MAX_REL && rest <= FFT_BOUND_MAX_REL,
       "%s N=%u constant: X[0] = N c (relative error %.2e), every other |X[f]| <= %.2e x N|c|", lang, n, dc, rest);

    /* Single tone at k0: X[k0] = N, the rest 0. */
    uint32_t k0 = n / 4 + 3;
    for (uint32_t j = 0; j < n; j++) {
        double a = TWO_PI * (double)(((uint64_t)k0 * j) % n) / n;
        in[2 * j] = (float)cos(a);
        in[2 * j + 1] = (float)sin(a);
    }
    double peak = 1;
    rest = 1;
    if (forward(pipe, in, out) == 0) {
        peak = modulus(out[2 * k0] - n, out[2 * k0 + 1]) / n;
        rest = 0;
        for (uint32_t f = 0; f < n; f++)
            if (f != k0) rest = fmax(rest, modulus(out[2 * f], out[2 * f + 1]) / n);
    }
    ok(peak <= FFT_BOUND_MAX_REL && rest <= FFT_BOUND_MAX_REL,
       "%s N=%u tone at %u: X[%u] = N (relative error %.2e), every other |X[f]| <= %.2e x N", lang, n, k0, k0,
       peak, rest);

    /* Real input: the spectrum is Hermitian. */
    fft_random(in, 2 * n, n);
    for (uint32_t j = 0; j < n; j++) in[2 * j + 1] = 0.0f;
    double asym = 1, top = 0;
    if (forward(pipe, in, out) == 0) {
        asym = 0;
        for (uint32_t f = 0; f < n; f++) top = fmax(top, modulus(out[2 * f], out[2 * f + 1]));
        for (uint32_t f = 0; f < n; f++) {
            uint32_t g = (n - f) % n;
            asym = fmax(asym, modulus(out[2 * f] - out[2 * g], out[2 * f + 1] + out[2 * g + 1]));
        }
        asym /= top;
    }
    ok(asym <= FFT_BOUND_MAX_REL, "%s N=%u real input: |X[N-f] - conj X[f]| <= %.2e x max|X| (X[0].im %.1e, "
       "X[N/2].im %.1e)", lang, n, asym, out[1], out[n + 1]);
done:
    spdrt_fft_pipeline_destroy(ctx, pipe);
    free(in);
    free(out);
}

/* Forward then inverse (with its default 1/N) returns the input. */
static void roundtrip(fft_case fwd, uint32_t count, const char *what)
{
    fft_case inv = fwd;
    inv.inverse = 1;
    spdrt_fft_config fcfg, icfg;
    spdrt_fft_pipeline *fp = make(&fwd, &fcfg), *ip = fp ? make(&inv, &icfg) : NULL;
    spdrt_fft_params p = {.count = count};
    size_t in_n = fp ? spdrt_fft_input_floats(&fcfg, &p) : 0, mid_n = fp ? spdrt_fft_output_floats(&fcfg, &p) : 0;
    float *in = malloc(in_n * sizeof *in), *mid = malloc(mid_n * sizeof *mid), *back = malloc(in_n * sizeof *back);
    double *ref = malloc(in_n * sizeof *ref);
    spdrt_fft_error e = {0};
    int ran = 0;
    if (ip && in && mid && back && ref) {
        fft_random(in, in_n, fwd.n ^ 0x5a5a);
        for (size_t i = 0; i < in_n; i++) ref[i] = in[i];
        if (spdrt_fft_run(ctx, fp, &p, in, mid, NULL) == SPDRT_OK &&
            spdrt_fft_run(ctx, ip, &p, mid, back, NULL) == SPDRT_OK) {
            spdrt_fft_compare(back, ref, in_n, !fwd.real, &e);
            ran = 1;
        } else {
            printf("# %s\n", spdrt_last_error(ctx));
        }
    }
    ok(ran && e.non_finite == 0 && e.rel_l2 <= 1e-6,
       "%s N=%u %s: forward then inverse returns the input, rel L2 %.2e (<= 1e-6), max %.2e", lang, fwd.n, what,
       e.rel_l2, e.max_rel);
    spdrt_fft_pipeline_destroy(ctx, fp);
    spdrt_fft_pipeline_destroy(ctx, ip);
    free(in);
    free(mid);
    free(back);
    free(ref);
}

/* Strides that put one FFT over the next are refused by the run and the reference, which
 * size their arrays for whole rows (or count columns): a stride of 1 or of half a row read
 * and wrote past those arrays and returned SPDRT_OK. 0 and a whole row still run. */
static void short_strides(fft_case c, uint32_t count)
{
    spdrt_fft_config cfg;
    spdrt_fft_pipeline *pipe = make(&c, &cfg);
    const uint32_t row = c.strided ? count : c.n;
    const uint32_t tries[][2] = {{1, 0}, {0, row / 2}, {row - 1, row}, {row, row}, {0, 0}};
    for (size_t t = 0; pipe && t < sizeof tries / sizeof *tries; t++) {
        spdrt_fft_params p = {.count = count, .in_stride = tries[t][0], .out_stride = tries[t][1]};
        int fits = (!p.in_stride || p.in_stride >= row) && (!p.out_stride || p.out_stride >= row);
        size_t in_n = spdrt_fft_input_floats(&cfg, &p), out_n = spdrt_fft_output_floats(&cfg, &p);
        float *in = calloc(in_n, sizeof *in), *out = malloc(out_n * sizeof *out);
        double *ref = malloc(out_n * sizeof *ref);
        spdrt_result r = in && out && ref ? spdrt_fft_run(ctx, pipe, &p, in, out, NULL) : SPDRT_ERROR_OUT_OF_MEMORY;
        int rr = in && out && ref ? spdrt_fft_reference(&cfg, &p, in, ref) : 0;
        if (fits)
            ok(r == SPDRT_OK && rr == 0, "%s N=%u%s strides %u, %u: the run and the reference take them", lang, c.n,
               c.strided ? " --stride" : "", p.in_stride, p.out_stride);
        else
            ok(r == SPDRT_ERROR_ARGUMENT && strstr(spdrt_last_error(ctx), "stride") && rr == -1,
               "%s N=%u%s strides %u, %u: the run refuses them (%s), and the reference", lang, c.n,
               c.strided ? " --stride" : "", p.in_stride, p.out_stride,
               r == SPDRT_OK ? "SPDRT_OK" : spdrt_last_error(ctx));
        free(in);
        free(out);
        free(ref);
    }
    spdrt_fft_pipeline_destroy(ctx, pipe);
}

int main(int argc, char **argv)
{
    char err[512];
    spdrt_options options = {.validation = 1};
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "glsl") && strcmp(argv[i], "hlsl")) argc = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: props glsl|hlsl...\n");
        return 2;
    }
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        printf("1..0 # SKIP no Vulkan device with validation: %s\n", err);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        lang = argv[i];
        closed_forms(1024, 4, 8);
        closed_forms(16384, 16, 8);
        roundtrip((fft_case){.n = 4096, .ept = 4, .wg = 1024, .subgroup = 8}, 3, "natural order");
        roundtrip((fft_case){.n = 16384, .ept = 16, .wg = 1024, .subgroup = 4}, 1, "natural order");
        roundtrip((fft_case){.n = 2048, .ept = 8, .wg = 256, .native = 1}, 3, "native order (convolution)");
        roundtrip((fft_case){.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .real = 1}, 3, "real rows (--real)");
        roundtrip((fft_case){.n = 256, .ept = 4, .wg = 64, .subgroup = 8, .strided = 1}, 5, "columns (--stride)");
        short_strides((fft_case){.n = 64, .ept = 2, .wg = 32}, 8);
        short_strides((fft_case){.n = 64, .ept = 2, .wg = 32, .strided = 1}, 8);
    }
    ok(spdrt_validation_messages(ctx) == 0, "no validation messages (%u)", spdrt_validation_messages(ctx));
    spdrt_destroy(ctx);
    return tap_plan();
}
