/* tests/conv/matrix.c: spdgen --conv jobs on the local Vulkan device under the validation
 * layer, against runtime/conv's references: the direct sum in double (written from the
 * definition, no FFT) for the exact spectrum, the same pipeline on the CPU in double for the
 * resampled one. Each job serves images and PSFs up to its sizes, so one job runs several:
 * images 1x1, 7x5 up to 160x90, PSFs 1x1 to 63x63 (odd, even, non-square), 1-4 channels, both
 * paddings, both axis orders, images and buffers, with and without the composite and the
 * sharpening lerp, psf_scale, shuffles and quad swaps, f16 spectra, an rgba16f output,
 * padded sides that are not powers of two (--pad-to smooth, --padded). The
 * outputs and the spectra between the passes start as NaN, so a value never written fails;
 * the errors are those of the convolved channels, and the channels past --channels must be
 * the source's exactly. Bounds: SPDRT_CONV_BOUND_* (fp32 spectra: rel L2 2e-6, max 1e-5).
 * usage: matrix glsl|hlsl    prints TAP (hlsl: the jobs marked `both`) */
#include "common.h"

/* The cases leave the fields they do not use out (0: no composite, no sharpening, scale 1). */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

typedef struct {
    uint32_t w, h, kw, kh;
    int composite;
    float intensity, sharpen, scale;
} run_case;

typedef struct {
    const char *args;
    int f16, half_output, both;
    run_case runs[6];
} job_case;

/* The largest image here is 160x90 and the largest PSF 63x63 (the direct sum in double costs
 * width x height x PSF area per channel, so the 63x63 PSFs run on the smaller images), but for
 * 64x800 with a 9x225 PSF, the smallest job whose pass 2 runs 1024 points. Each
 * job costs a pipeline compile, so a job gathers several features; HLSL runs the jobs marked
 * `both`, which hold every construct the dialects spell differently (shuffles, quad swaps,
 * halves, images and buffers, the resampled product, an rgba16f output). 3 channels (the
 * line passes skip the fourth register slot) run with shared memory, quad swaps and
 * shuffles with halves. The jobs that test shuffles, quad swaps, --ept and --columns-per-wg
 * pad to powers of two (--pad-to pow2: the mixed-radix passes use shared memory only); the
 * others take the default smooth sides. */
static const job_case JOBS[] = {
    {"--image 160x90 --psf 63x63 --channels 3 --spectrum exact --padding zero --first-axis x --format rgba32f", 0, 0,
     0, {{1, 1, 1, 1}, {7, 5, 3, 3}, {61, 17, 63, 63}, {160, 90, 33, 33, 1, 0.6f}, {120, 70, 16, 9}}},
    {"--image 48x40 --psf 63x63 --channels 4 --spectrum exact --padding mirror --first-axis y --input buffer "
     "--output buffer --subgroup 8 --pad-to pow2", 0, 0, 1,
     {{1, 1, 5, 5}, {7, 5, 63, 63}, {48, 40, 63, 40, 1, 1.5f}, {33, 40, 2, 2}, {47, 39, 30, 1}, {1, 40, 31, 20}}},
    {"--image 64x48 --psf 17x17 --channels 2 --spectrum exact --padding mirror --ept 4 --max-wg 64 "
     "--columns-per-wg 2 --format rgba32f --pad-to pow2", 0, 0, 0,
     {{64, 48, 17, 17}, {63, 47, 16, 17, 1, 0.8f, 0.3f}, {3, 47, 11, 12}}},
    {"--image 64x48 --psf 25x25 --channels 2 --spectrum exact --storage f16 --input buffer --output buffer", 1, 0, 1,
     {{64, 48, 25, 25}, {64, 48, 1, 1}, {60, 40, 3, 3, 1, 0.5f}}},
    {"--image 96x64 --psf 33x21 --channels 3 --spectrum resampled --padding mirror --subgroup 4 --pad-to pow2", 0,
     1, 1,
     {{96, 64, 33, 21}, {96, 64, 33, 21, 0, 0, 0.5f, 0.75f}, {90, 50, 17, 9, 1, 0.7f, 0, 1.5f}}},
    {"--image 96x50 --psf 40x16 --channels 3 --spectrum resampled --first-axis x --input buffer --output buffer "
     "--subgroup 8 --storage f16 --pad-to pow2", 1, 0, 0, {{96, 50, 40, 16}, {5, 7, 3, 16, 0, 0, 0, 0.6f}}},
    {"--image 50x30 --psf 9x9 --padded 128x64 --channels 1 --spectrum exact --format rgba32f", 0, 0, 0,
     {{50, 30, 9, 9, 1, 0.5f}, {50, 30, 4, 9}}},
    {"--image 1x1 --psf 1x1 --channels 1 --input buffer --output buffer --spectrum exact", 0, 0, 0, {{1, 1, 1, 1}}},
    /* --pad-to smooth: mixed-radix passes along both axes (180 = 2^2 3^2 5, 96 = 2^5 3), every
     * channel count of the line passes' register sets, both spectra, both paddings; --padded
     * with one side a power of two, so mixed line passes meet power-of-two column passes
     * (120 x 64) and the other way round (64 x 96, 96 = 2^5 3, the resample in natural
     * order). */
    {"--image 150x70 --psf 31x25 --channels 3 --pad-to smooth --padding mirror --format rgba32f --pass2-ept 24", 0,
     0, 1,
     {{150, 70, 31, 25}, {149, 69, 30, 24, 1, 0.6f, 0.4f, 0.8f}, {7, 5, 3, 3}}},
    {"--image 150x70 --psf 31x25 --channels 4 --pad-to smooth --spectrum exact --first-axis y --input buffer "
     "--output buffer", 0, 0, 1, {{150, 70, 31, 25}, {100, 61, 31, 1, 1, 0.5f, 0.2f}}},
    {"--image 100x60 --psf 21x5 --channels 1 --pad-to smooth --spectrum exact --padding mirror --storage f16 "
     "--format rgba32f", 1, 0, 0, {{100, 60, 21, 5}, {99, 59, 2, 4}}},
    {"--image 100x50 --psf 21x15 --padded 120x64 --channels 2 --spectrum exact --format rgba32f --pass2-ept 8", 0,
     0, 0,
     {{100, 50, 21, 15}, {90, 33, 9, 15, 1, 0.7f}}},
    {"--image 50x70 --psf 15x21 --padded 64x96 --channels 2 --first-axis x --input buffer --output buffer", 0, 0,
     0, {{50, 70, 15, 21}, {33, 70, 15, 3, 0, 0, 0.3f, 1.25f}}},
    /* A pass 2 of 1024 points takes its own default, E 8 in 2 columns, and the resample spans
     * 8 of its workgroups (19 a channel: the last span holds 3). */
    {"--image 64x800 --psf 9x225 --channels 2 --format rgba32f", 0, 0, 0,
     {{64, 800, 9, 225}, {50, 777, 9, 100, 0, 0, 0.2f, 1.3f}}},
    {"--image 64x800 --psf 9x225 --channels 3 --spectrum exact --storage f16 --format rgba32f", 1, 0, 0,
     {{64, 800, 9, 225, 1, 0.6f}}},
};

/* The worst errors of each kind, reported at the end. */
static double worst[2][2];

static void run_job(const job_case *j, uint64_t seed)
{
    spdrt_conv *conv = conv_job(j->args);
    if (!conv) return;
    const spdrt_conv_info *info = spdrt_conv_describe(conv);
    /* An rgba16f output stores each value as a half, which Vulkan lets round toward zero:
     * |err| < 2^-10 |value| more. */
    const double half = 1.0 / 1024;
    double l2 = (j->f16 ? SPDRT_CONV_BOUND_F16_REL_L2 : SPDRT_CONV_BOUND_REL_L2) + (j->half_output ? half : 0);
    double mx = (j->f16 ? SPDRT_CONV_BOUND_F16_MAX_REL : SPDRT_CONV_BOUND_MAX_REL) + (j->half_output ? half : 0);
    for (int r = 0; r < 6 && j->runs[r].w; r++) {
        const run_case *c = &j->runs[r];
        spdrt_conv_params p = {c->w, c->h, c->composite, c->intensity, c->sharpen, c->scale};
        float *img = conv_image(conv, c->w, c->h, seed + (uint64_t)r, -1.0f, 1.0f);
        float *psf = conv_psf(c->kw, c->kh, info->channels, seed + 100 + (uint64_t)r);
        char what[512];
        snprintf(what, sizeof what, "%s %s: image %ux%u, PSF %ux%u%s%s", conv_lang, j->args, c->w, c->h, c->kw,
                 c->kh, c->composite ? ", composite" : "", c->sharpen ? ", sharpen" : "");
        conv_result res;
        if (img && psf && conv_check(conv, &p, img, psf, c->kw, c->kh, &res, what) == 0) {
            const spdrt_conv_error *e = &res.e;
            ok(e->non_finite == 0 && e->rel_l2 <= l2 && e->max_rel <= mx && res.copied_err == 0 && res.messages == 0,
               "%s%s: rel L2 %.3g (<= %g), max %.3g (<= %g)%s%s%s", what, c->scale ? " scale" : "", e->rel_l2, l2,
               e->max_rel, mx, e->non_finite ? ", NaN values" : "", res.copied_err ? ", COPIED CHANNELS DIFFER" : "",
               res.messages ? ", VALIDATION MESSAGES" : "");
            if (!j->half_output) {
                if (e->rel_l2 > worst[j->f16][0]) worst[j->f16][0] = e->rel_l2;
                if (e->max_rel > worst[j->f16][1]) worst[j->f16][1] = e->max_rel;
            }
        }
        free(img);
        free(psf);
    }
    spdrt_conv_destroy(conv_ctx, conv);
}

int main(int argc, char **argv)
{
    if (conv_open(argc > 1 ? argv[1] : "glsl")) return 0;
    for (size_t i = 0; i < sizeof JOBS / sizeof *JOBS; i++)
        if (JOBS[i].both || strcmp(conv_lang, "hlsl")) run_job(&JOBS[i], 17 + i * 1000);
    printf("# worst errors: fp32 spectra rel L2 %.3g, max %.3g; f16 spectra rel L2 %.3g, max %.3g\n", worst[0][0],
           worst[0][1], worst[1][0], worst[1][1]);
    spdrt_destroy(conv_ctx);
    return tap_plan();
}
