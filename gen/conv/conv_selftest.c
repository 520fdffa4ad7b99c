/* conv_selftest.c: spdgen --conv ... --selftest [--size WxH] [--seed N].
 *
 * The check the test suite makes, for one user's exact configuration on the user's own
 * device: a random image of --size and a random positive PSF of --psf's size summing to 1
 * per channel, convolved twice (plainly, then composited with a sharpened PSF) into outputs
 * filled with NaN, and compared with runtime/conv's references: the direct sum in double
 * (every pixel where that is cheap, else a sample of pixels with the corners and edges), or
 * for --spectrum resampled the same pipeline on the CPU in double. Bars: spdrt_conv.h's,
 * plus one unit of an rgba16f output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv.h"
#include "job.h"
#include "spdrt_conv.h"

/* The direct sum over every pixel below this many multiply-adds, else a sample. */
#define FULL_REFERENCE_WORK 4e8
#define SAMPLE_PIXELS 1024

typedef struct {
    spdrt_context *ctx;
    spdrt_conv *conv;
    const spdrt_conv_info *info;
    uint32_t w, h, kw, kh;
    float *input, *psf, *output;
    double *ref;
    uint32_t *sample; /* pixel indices compared; NULL: every pixel */
    size_t samples;
} selftest;

static void make_data(selftest *s, uint64_t seed)
{
    uint32_t c = s->info->channels, fin = spdrt_conv_input_floats(s->conv);
    size_t psf_values = (size_t)s->kw * s->kh * c;
    spdrt_random_floats(s->input, (size_t)s->w * s->h * fin, seed, 0.0f, 1.0f);
    spdrt_conv_round_input(s->conv, s->input, (size_t)s->w * s->h);
    spdrt_random_floats(s->psf, psf_values, seed + 1, 0.0f, 1.0f);
    for (uint32_t ch = 0; ch < c; ch++) {
        double sum = 0;
        for (size_t i = ch; i < psf_values; i += c) sum += s->psf[i];
        for (size_t i = ch; i < psf_values; i += c) s->psf[i] = (float)(s->psf[i] / sum);
    }
}

/* Corners, edge middles and random pixels, or every pixel where the direct sum is cheap. */
static int choose_pixels(selftest *s, uint64_t seed)
{
    double work = (double)s->w * s->h * s->kw * s->kh * s->info->channels;
    if (s->info->resampled || work <= FULL_REFERENCE_WORK) return 0;
    s->sample = malloc(SAMPLE_PIXELS * sizeof *s->sample);
    if (!s->sample) return -1;
    uint32_t xs[3] = {0, s->w / 2, s->w - 1}, ys[3] = {0, s->h / 2, s->h - 1};
    for (int i = 0; i < 9; i++) s->sample[s->samples++] = ys[i / 3] * s->w + xs[i % 3];
    while (s->samples < SAMPLE_PIXELS) {
        float r = spdrt_random_float(seed + 7, s->samples, 0.0f, 1.0f);
        s->sample[s->samples++] = (uint32_t)(r * (float)s->w * s->h) % (s->w * s->h);
    }
    return 0;
}

/* The errors of the convolved channels of `pixels` pixels of `f` floats (the channels past
 * them, copied from the source, would dilute the measure: they must match exactly, else
 * *copied is 0). */
static void compare_channels(float *got, double *ref, size_t pixels, uint32_t f, uint32_t channels,
                             spdrt_conv_error *e, int *copied)
{
    size_t k = 0;
    *copied = 1;
    for (size_t i = 0; i < pixels * f; i++) {
        if (i % f < channels) continue;
        if ((double)got[i] != ref[i]) *copied = 0;
    }
    /* Packed in place, the convolved values first: both arrays are this run's scratch. */
    for (size_t i = 0; i < pixels * f; i++)
        if (i % f < channels) got[k] = got[i], ref[k++] = ref[i];
    spdrt_conv_compare(got, ref, k, e);
}

/* One run against its reference; prints the errors, returns 1 within the bars. */
static int check_run(selftest *s, const sg_conv_params *c, const spdrt_conv_params *p, const char *what)
{
    const spdrt_conv_info *i = s->info;
    uint32_t fout = spdrt_conv_output_floats(s->conv);
    spdrt_conv_ref_config rc = {s->w, s->h, s->kw, s->kh, i->channels, i->mirror, p->composite, p->intensity,
                                p->sharpen, spdrt_conv_input_floats(s->conv), fout};
    if (spdrt_conv_run(s->ctx, s->conv, p, s->input, s->output, NULL) != SPDRT_OK) {
        fprintf(stderr, "spdgen: error: --selftest: %s\n", spdrt_last_error(s->ctx));
        return 0;
    }
    size_t pixels = (size_t)s->w * s->h;
    spdrt_conv_error e;
    int copied = 1;
    if (i->resampled) {
        if (spdrt_conv_reference_resampled(&rc, i->padded_width, i->padded_height, i->spectrum_width,
                                           i->spectrum_height, 1.0, s->input, s->psf, s->ref)) {
            fprintf(stderr, "spdgen: error: --selftest: the reference ran out of memory\n");
            return 0;
        }
        compare_channels(s->output, s->ref, pixels, fout, i->channels, &e, &copied);
    } else if (!s->sample) {
        spdrt_conv_reference(&rc, s->input, s->psf, s->ref);
        compare_channels(s->output, s->ref, pixels, fout, i->channels, &e, &copied);
    } else {
        float *got = malloc(s->samples * fout * sizeof *got);
        if (!got) return 0;
        for (size_t k = 0; k < s->samples; k++) {
            uint32_t px = s->sample[k];
            spdrt_conv_reference_pixel(&rc, s->input, s->psf, px % s->w, px / s->w, s->ref + k * fout);
            memcpy(got + k * fout, s->output + (size_t)px * fout, fout * sizeof *got);
        }
        compare_channels(got, s->ref, s->samples, fout, i->channels, &e, &copied);
        free(got);
    }
    int half_out = !i->output_buffer && i->output_format == SPDRT_RGBA16F;
    /* An rgba16f output stores halves, which Vulkan lets round toward zero: within 2^-10. */
    double half = half_out ? 1.0 / 1024 : 0;
    double l2 = (c->storage == SG_CONV_F16 ? SPDRT_CONV_BOUND_F16_REL_L2 : SPDRT_CONV_BOUND_REL_L2) + half;
    double mx = (c->storage == SG_CONV_F16 ? SPDRT_CONV_BOUND_F16_MAX_REL : SPDRT_CONV_BOUND_MAX_REL) + half;
    printf("%s: relative L2 %.3g (bound %g), max|err| / max|ref| %.3g (bound %g)%s\n", what, e.rel_l2, l2,
           e.max_rel, mx, s->sample ? ", sampled pixels" : "");
    if (e.non_finite) printf("values never written (NaN) %zu\n", e.non_finite);
    if (!copied) printf("the channels past --channels differ from the source's\n");
    return e.non_finite == 0 && copied && e.rel_l2 <= l2 && e.max_rel <= mx;
}

static int prepare(selftest *s, const sg_run *run, const sg_job *job)
{
    const sg_conv_params *c = run->params;
    const uint32_t *spirv[SG_CONV_SHADERS];
    size_t words[SG_CONV_SHADERS];
    char err[512];
    spdrt_options options = {0};
    if (spdrt_create(&options, &s->ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "spdgen: error: --selftest: no usable Vulkan device: %s\n", err);
        return -1;
    }
    for (int i = 0; i < job->count; i++) spirv[i] = job->shaders[i].module.words, words[i] = job->shaders[i].module.count;
    char *plan = sg_conv_manifest(run, job);
    spdrt_result res = plan ? spdrt_conv_create(s->ctx, plan, spirv, words, &s->conv) : SPDRT_ERROR_OUT_OF_MEMORY;
    free(plan);
    if (res != SPDRT_OK) {
        fprintf(stderr, "spdgen: error: --selftest: %s\n", spdrt_last_error(s->ctx));
        return -1;
    }
    s->info = spdrt_conv_describe(s->conv);
    s->w = (uint32_t)c->size[0], s->h = (uint32_t)c->size[1], s->kw = (uint32_t)c->psf[0], s->kh = (uint32_t)c->psf[1];
    size_t pixels = (size_t)s->w * s->h;
    s->input = malloc(pixels * 4 * sizeof *s->input);
    s->output = malloc(pixels * 4 * sizeof *s->output);
    s->ref = malloc((pixels > SAMPLE_PIXELS ? pixels : SAMPLE_PIXELS) * 4 * sizeof *s->ref);
    s->psf = malloc((size_t)s->kw * s->kh * 4 * sizeof *s->psf);
    if (!s->input || !s->output || !s->ref || !s->psf || choose_pixels(s, (uint64_t)run->common.seed)) {
        fprintf(stderr, "spdgen: error: --selftest: out of memory\n");
        return -1;
    }
    make_data(s, (uint64_t)run->common.seed);
    if (spdrt_conv_set_kernel(s->ctx, s->conv, s->psf, s->kw, s->kh, 0) != SPDRT_OK) {
        fprintf(stderr, "spdgen: error: --selftest: %s\n", spdrt_last_error(s->ctx));
        return -1;
    }
    return 0;
}

int sg_conv_selftest(const sg_run *run, const sg_job *job)
{
    selftest s;
    memset(&s, 0, sizeof s);
    int rc = SG_EXIT_FAILURE;
    if (prepare(&s, run, job) == 0) {
        const spdrt_device_info *dev = spdrt_device(s.ctx);
        printf("spdgen selftest: %s\n", run->command);
        if (run->common.target == SG_TARGET_MSL) printf("  MSL cannot run here: running its GLSL twin\n");
        printf("  image %ux%u, PSF %ux%u, %u channel(s), padded %ux%u, seed %ld, on %s (%s)\n", s.w, s.h, s.kw,
               s.kh, s.info->channels, s.info->padded_width, s.info->padded_height, run->common.seed, dev->name,
               dev->driver);
        spdrt_conv_params plain = {s.w, s.h, 0, 1.0f, 0.0f, 1.0f};
        spdrt_conv_params mixed = {s.w, s.h, 1, 0.75f, 0.25f, 1.0f};
        int ok = check_run(&s, run->params, &plain, "convolution");
        ok = check_run(&s, run->params, &mixed, "composite, intensity 0.75, sharpen 0.25") && ok;
        printf("selftest %s\n", ok ? "passed" : "FAILED");
        rc = ok ? SG_EXIT_OK : SG_EXIT_FAILURE;
    }
    free(s.input);
    free(s.output);
    free(s.ref);
    free(s.psf);
    free(s.sample);
    spdrt_conv_destroy(s.ctx, s.conv);
    spdrt_destroy(s.ctx);
    return rc;
}
