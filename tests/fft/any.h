/* tests/fft/any.h: what the tests of lengths beyond powers of two share (mixed.c): generating
 * a configuration from spdgen flags with the real binary, its runtime config read from the
 * contract header, one accuracy run against libspdrt's double reference, and a round trip.
 * Header-only so each tests/fft/NAME.c stays one program. */
#ifndef SPDGEN_FFT_ANY_H
#define SPDGEN_FFT_ANY_H

#include "common.h"
#include "tap.h"

/* The bars: smooth N as the power-of-two path; Bluestein 1.5e-6 relative L2 (issue 27); the
 * round trip 1e-6 as tests/fft/props.c. f16 storage: the output's rounding to half. */
#define ANY_BOUND_BLUESTEIN_REL_L2 SPDRT_FFT_BOUND_BLUESTEIN_REL_L2
#define ANY_BOUND_ROUNDTRIP 1e-6

static spdrt_context *any_ctx;

/* Generates `flags` (an spdgen --fft command line without target or outputs) through lang
 * (glsl|hlsl) into SPIR-V and fills cfg from the contract header. NULL after printing why. */
static uint32_t *any_generate(const char *flags, const char *lang, spdrt_fft_config *cfg, size_t *words)
{
    const char *build = getenv("SPDGEN_BUILD");
    char spv[128], header[128], cmd[1200];
    snprintf(spv, sizeof spv, "/tmp/fft_any_%d.spv", (int)getpid());
    snprintf(header, sizeof header, "/tmp/fft_any_%d.h", (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s/spdgen' %s --target spirv --spirv-from %s -o %s --name fft --emit-header %s",
             build ? build : "build", flags, lang, spv, header);
    if (system(cmd) != 0) {
        printf("# spdgen failed: %s\n", cmd);
        return NULL;
    }
    uint32_t *code = read_words(spv, words);
    memset(cfg, 0, sizeof *cfg);
    cfg->n = (uint32_t)header_define(header, "FFT_N");
    cfg->wg = (uint32_t)header_define(header, "FFT_WORKGROUP_SIZE_X");
    cfg->subgroup = (uint32_t)header_define(header, "FFT_SUBGROUP_SIZE");
    cfg->columns = (uint32_t)header_define(header, "FFT_COLUMNS_PER_WORKGROUP");
    cfg->shared_bytes = (uint32_t)header_define(header, "FFT_SHARED_MEMORY_BYTES");
    cfg->inverse = header_define(header, "FFT_INVERSE") == 1;
    cfg->real = header_define(header, "FFT_REAL") == 1;
    cfg->strided = header_define(header, "FFT_STRIDED") == 1;
    cfg->f16 = header_define(header, "FFT_F16") == 1;
    long m = header_define(header, "FFT_BLUESTEIN_M");
    cfg->bluestein_m = m > 0 ? (uint32_t)m : 0;
    long g = header_define(header, "FFT_RADER_ROOT");
    cfg->rader_root = g > 0 ? (uint32_t)g : 0;
    cfg->norm = strstr(flags, "--norm none") ? SPDRT_FFT_NORM_NONE
              : strstr(flags, "--norm unitary") ? SPDRT_FFT_NORM_UNITARY : SPDRT_FFT_NORM_INVERSE;
    unlink(spv);
    unlink(header);
    if (!code || (long)cfg->n < 2 || (long)cfg->columns < 1 || (long)cfg->wg < 1) {
        printf("# cannot read the SPIR-V or the contract header of: %s\n", cmd);
        free(code);
        return NULL;
    }
    return code;
}

typedef struct {
    spdrt_fft_error e;
    int ran;
    uint32_t messages;
} any_result;

/* Runs cfg's shader on `count` FFTs of random data and compares with the reference. */
static any_result any_run(const spdrt_fft_config *cfg, const uint32_t *spirv, size_t words, uint32_t count,
                          uint32_t seed)
{
    any_result r;
    spdrt_fft_pipeline *pipe = NULL;
    spdrt_fft_params p = {.count = count, .dispatches = 1};
    size_t in_n = spdrt_fft_input_floats(cfg, &p), out_n = spdrt_fft_output_floats(cfg, &p);
    float *in = malloc(in_n * sizeof *in), *out = malloc(out_n * sizeof *out);
    double *ref = malloc(out_n * sizeof *ref);
    uint32_t before = spdrt_validation_messages(any_ctx);
    memset(&r, 0, sizeof r);
    if (in && out && ref) {
        fft_random(in, in_n, seed);
        if (spdrt_fft_pipeline_create(any_ctx, spirv, words, cfg, &pipe) == SPDRT_OK &&
            spdrt_fft_run(any_ctx, pipe, &p, in, out, NULL) == SPDRT_OK && spdrt_fft_reference(cfg, &p, in, ref) == 0) {
            spdrt_fft_compare(out, ref, out_n, !(cfg->real && cfg->inverse), &r.e);
            r.ran = 1;
        } else {
            printf("# %s\n", spdrt_last_error(any_ctx));
        }
    }
    r.messages = spdrt_validation_messages(any_ctx) - before;
    spdrt_fft_pipeline_destroy(any_ctx, pipe);
    free(in);
    free(out);
    free(ref);
    return r;
}

/* The bars of cfg: f16, Bluestein, or the power-of-two path's. */
static void any_bounds(const spdrt_fft_config *cfg, double *l2, double *max)
{
    *l2 = cfg->f16 ? SPDRT_FFT_BOUND_F16_REL_L2
        : cfg->bluestein_m || cfg->rader_root ? ANY_BOUND_BLUESTEIN_REL_L2 : SPDRT_FFT_BOUND_REL_L2;
    *max = cfg->f16 ? SPDRT_FFT_BOUND_F16_MAX_REL : SPDRT_FFT_BOUND_MAX_REL;
}

/* One TAP line: `flags` through lang on `count` FFTs against the reference. */
static void any_accuracy(const char *lang, const char *flags, uint32_t count)
{
    spdrt_fft_config cfg;
    size_t words;
    double l2, max;
    uint32_t *spirv = any_generate(flags, lang, &cfg, &words);
    if (!spirv) {
        ok(0, "%s %s: generated", lang, flags);
        return;
    }
    any_bounds(&cfg, &l2, &max);
    any_result r = any_run(&cfg, spirv, words, count, cfg.n * 3 + count);
    ok(r.ran && r.e.non_finite == 0 && r.e.rel_l2 <= l2 && r.e.max_rel <= max && r.messages == 0,
       "%s %s x %u: rel L2 %.2e (<= %.1e), max %.2e (<= %.1e)%s%s", lang, flags, count, r.e.rel_l2, l2,
       r.e.max_rel, max, r.e.non_finite ? ", VALUES NEVER WRITTEN" : "", r.messages ? ", VALIDATION MESSAGES" : "");
    free(spirv);
}

/* Forward then inverse (--norm inverse) returns the input: rows of complex values. */
static inline void any_roundtrip(const char *lang, const char *flags)
{
    char fwd[600], inv[600];
    spdrt_fft_config fc, ic;
    size_t fw, iw;
    snprintf(fwd, sizeof fwd, "%s --direction forward", flags);
    snprintf(inv, sizeof inv, "%s --direction inverse", flags);
    uint32_t *fs = any_generate(fwd, lang, &fc, &fw), *is = any_generate(inv, lang, &ic, &iw);
    spdrt_fft_pipeline *fp = NULL, *ip = NULL;
    spdrt_fft_params p = {.count = 3, .dispatches = 1};
    size_t n = spdrt_fft_input_floats(&fc, &p);
    float *in = malloc(n * sizeof *in), *mid = malloc(n * sizeof *mid), *back = malloc(n * sizeof *back);
    double *ref = malloc(n * sizeof *ref);
    spdrt_fft_error e = {0};
    int ran = 0;
    if (fs && is && in && mid && back && ref && spdrt_fft_pipeline_create(any_ctx, fs, fw, &fc, &fp) == SPDRT_OK &&
        spdrt_fft_pipeline_create(any_ctx, is, iw, &ic, &ip) == SPDRT_OK) {
        fft_random(in, n, fc.n + 17);
        if (spdrt_fft_run(any_ctx, fp, &p, in, mid, NULL) == SPDRT_OK &&
            spdrt_fft_run(any_ctx, ip, &p, mid, back, NULL) == SPDRT_OK) {
            for (size_t i = 0; i < n; i++) ref[i] = in[i];
            spdrt_fft_compare(back, ref, n, !fc.real, &e);
            ran = 1;
        }
    }
    ok(ran && e.non_finite == 0 && e.rel_l2 <= ANY_BOUND_ROUNDTRIP,
       "%s %s: forward then inverse returns the input, rel L2 %.2e (<= %.0e), max %.2e", lang, flags, e.rel_l2,
       ANY_BOUND_ROUNDTRIP, e.max_rel);
    spdrt_fft_pipeline_destroy(any_ctx, fp);
    spdrt_fft_pipeline_destroy(any_ctx, ip);
    free(fs);
    free(is);
    free(in);
    free(mid);
    free(back);
    free(ref);
}

/* The context under the validation layer, or a TAP skip (returns 0). */
static int any_open(void)
{
    char err[512];
    spdrt_options options = {.validation = 1};
    if (spdrt_create(&options, &any_ctx, err, sizeof err) != SPDRT_OK) {
        printf("1..0 # SKIP no Vulkan device with validation: %s\n", err);
        return 0;
    }
    printf("# device: %s (%s)\n", spdrt_device(any_ctx)->name, spdrt_device(any_ctx)->driver);
    return 1;
}

#endif
