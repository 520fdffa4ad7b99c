/* tests/fft/matrix.c: the per-config FFT test on the local Vulkan device (lavapipe on CI).
 *
 * For each configuration of the matrix (matrix.h) it generates the shader with the real spdgen
 * binary (GLSL, or HLSL compiled through glslang: --target spirv --spirv-from hlsl), runs it
 * through libspdrt under the Khronos validation layer with synchronization validation (any
 * message fails), on random data in [-1, 1] for several FFTs per dispatch, and compares the
 * output with the double-precision reference (runtime/fft/fft_ref.c): relative L2 error
 * <= 4e-7 and max|err| / max|ref| <= 2e-6 (fp16 storage: 1e-3 and 2e-3, the output's rounding
 * to half). The output buffer is filled with NaN first, so an element never written fails.
 * Every TAP line reports the measured errors.
 *
 * usage: matrix glsl|hlsl   prints TAP. */
#include "matrix.h"

static spdrt_context *ctx;
static const char *lang;

/* Runs one case with `count` FFTs and the given strides (0: packed); one TAP line. */
static void run_strided(const fft_case *c, uint32_t count, uint32_t in_stride, uint32_t out_stride)
{
    char flags[512], strides[64] = "";
    spdrt_fft_config cfg;
    spdrt_fft_pipeline *pipe = NULL;
    size_t words;
    fft_case_flags(c, flags, sizeof flags);
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

int main(int argc, char **argv)
{
    char err[512];
    spdrt_options options_ = {.validation = 1};
    if (argc != 2 || (strcmp(argv[1], "glsl") && strcmp(argv[1], "hlsl"))) {
        fprintf(stderr, "usage: matrix glsl|hlsl\n");
        return 2;
    }
    lang = argv[1];
    if (spdrt_create(&options_, &ctx, err, sizeof err) != SPDRT_OK) {
        printf("1..0 # SKIP no Vulkan device with validation: %s\n", err);
        return 0;
    }
    printf("# device: %s (%s), subgroup size %u\n", spdrt_device(ctx)->name, spdrt_device(ctx)->driver,
           spdrt_device(ctx)->subgroup_size);
    sizes();
    shapes();
    options();
    columns();
    spdrt_destroy(ctx);
    return tap_plan();
}
