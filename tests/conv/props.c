/* tests/conv/props.c: properties of spdgen --conv jobs on the local Vulkan device (GLSL),
 * each checked without the reference convolution:
 * - a delta PSF (1x1, and a 15x15 one with its 1 at the centre) returns the image;
 * - a PSF summing to 1 keeps the image's sum with zero padding (the image zero near its
 *   edges, so nothing spreads past them);
 * - with mirror padding, a PSF symmetric in x and in y summing to 1 keeps the image's mean
 *   (each mirrored edge gives back what the other loses);
 * - shifting the image shifts the result;
 * - the kernel spectrum the FFTShift sign gives ((-1)^(kx + ky) on the PSF placed at the
 *   padded centre) is the spectrum of the PSF moved to the origin by an explicit circular
 *   shift (spdrt_conv_reference_spectrum), exact and resampled, odd and even PSFs.
 * Bounds: SPDRT_CONV_BOUND_MAX_REL (1e-5) of the largest value involved.
 * Also: a plan file damaged one line at a time never loads, and says which line.
 * usage: props    prints TAP */
#include "common.h"
#include "plan_damage.h"

/* Runs `psf` (kw x kh) on img (w x h) into a new array; NULL after a failed TAP line. */
static float *run(spdrt_conv *conv, const float *img, uint32_t w, uint32_t h, const float *psf, uint32_t kw,
                  uint32_t kh, const char *what)
{
    spdrt_conv_params p = {w, h, 0, 0, 0, 0};
    float *out = malloc((size_t)w * h * spdrt_conv_output_floats(conv) * sizeof *out);
    uint32_t before = spdrt_validation_messages(conv_ctx);
    if (!out || spdrt_conv_set_kernel(conv_ctx, conv, psf, kw, kh, 0) != SPDRT_OK ||
        spdrt_conv_run(conv_ctx, conv, &p, img, out, NULL) != SPDRT_OK) {
        ok(0, "%s: run (%s)", what, spdrt_last_error(conv_ctx));
    } else if (spdrt_validation_messages(conv_ctx) != before) {
        ok(0, "%s: %u validation messages", what, spdrt_validation_messages(conv_ctx) - before);
    } else {
        return out;
    }
    free(out);
    return NULL;
}

static double max_abs(const float *v, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        if (fabs(v[i]) > m) m = fabs(v[i]);
    return m;
}

/* An image of w x h x channels random values in [0.1, 1), zero within `margin` of the edges. */
static float *interior_image(uint32_t w, uint32_t h, uint32_t channels, uint32_t margin, uint64_t seed)
{
    float *img = malloc((size_t)w * h * channels * sizeof *img);
    if (!img) return NULL;
    spdrt_random_floats(img, (size_t)w * h * channels, seed, 0.1f, 1.0f);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            if (x < margin || y < margin || x >= w - margin || y >= h - margin)
                for (uint32_t c = 0; c < channels; c++) img[((size_t)y * w + x) * channels + c] = 0;
    return img;
}

/* The delta PSFs: 1x1, and k x k with 1 at (k/2, k/2). */
static void delta(spdrt_conv *conv, uint32_t w, uint32_t h, uint32_t k, const char *name)
{
    uint32_t ch = spdrt_conv_describe(conv)->channels;
    float *img = conv_image(conv, w, h, 5 + k, -1.0f, 1.0f);
    float *psf = calloc((size_t)k * k * ch, sizeof *psf);
    char what[200];
    snprintf(what, sizeof what, "%s: a %ux%u delta PSF returns the %ux%u image", name, k, k, w, h);
    if (!img || !psf) return;
    for (uint32_t c = 0; c < ch; c++) psf[((size_t)(k / 2) * k + k / 2) * ch + c] = 1.0f;
    float *out = run(conv, img, w, h, psf, k, k, what);
    if (out) {
        size_t n = (size_t)w * h * ch;
        double err = 0;
        for (size_t i = 0; i < n; i++) err = fmax(err, isfinite(out[i]) ? fabs(out[i] - img[i]) : INFINITY);
        double rel = err / max_abs(img, n);
        ok(rel <= SPDRT_CONV_BOUND_MAX_REL, "%s: max|out - image| / max|image| %.3g (<= %g)", what, rel,
           SPDRT_CONV_BOUND_MAX_REL);
    }
    free(img);
    free(psf);
    free(out);
}

/* Zero padding: the sum of each channel kept, the image zero within the PSF's reach of the
 * edges. Then the same image shifted by (dx, dy) gives the result shifted. */
static void sum_and_shift(spdrt_conv *conv, uint32_t w, uint32_t h, uint32_t k, const char *name)
{
    uint32_t ch = spdrt_conv_describe(conv)->channels, dx = 3, dy = 2;
    size_t n = (size_t)w * h * ch;
    float *img = interior_image(w, h, ch, k / 2 + 4, 11);
    float *psf = conv_psf(k, k, ch, 12);
    float *moved = calloc(n, sizeof *moved);
    char what[200];
    if (!img || !psf || !moved) return;
    snprintf(what, sizeof what, "%s: a %ux%u PSF summing to 1 keeps the sum of the %ux%u image", name, k, k, w, h);
    float *out = run(conv, img, w, h, psf, k, k, what);
    if (out) {
        double worst = 0;
        for (uint32_t c = 0; c < ch; c++) {
            double a = 0, b = 0;
            for (size_t i = c; i < n; i += ch) a += img[i], b += out[i];
            worst = fmax(worst, isfinite(b) ? fabs(a - b) / a : INFINITY);
        }
        ok(worst <= SPDRT_CONV_BOUND_MAX_REL, "%s: |sum out - sum image| / sum image %.3g (<= %g)", what, worst,
           SPDRT_CONV_BOUND_MAX_REL);
    }
    for (uint32_t y = dy; y < h; y++)
        for (uint32_t x = dx; x < w; x++)
            for (uint32_t c = 0; c < ch; c++)
                moved[((size_t)y * w + x) * ch + c] = img[((size_t)(y - dy) * w + x - dx) * ch + c];
    snprintf(what, sizeof what, "%s: the %ux%u image shifted by (%u, %u) gives the result shifted", name, w, h, dx,
             dy);
    float *out2 = out ? run(conv, moved, w, h, psf, k, k, what) : NULL;
    if (out2) {
        double err = 0;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                for (uint32_t c = 0; c < ch; c++) {
                    double want = x >= dx && y >= dy ? out[((size_t)(y - dy) * w + x - dx) * ch + c] : 0.0;
                    double got = out2[((size_t)y * w + x) * ch + c];
                    err = fmax(err, isfinite(got) ? fabs(got - want) : INFINITY);
                }
        double rel = err / max_abs(out, n);
        ok(rel <= SPDRT_CONV_BOUND_MAX_REL, "%s: max|difference| / max|result| %.3g (<= %g)", what, rel,
           SPDRT_CONV_BOUND_MAX_REL);
    }
    free(img);
    free(psf);
    free(moved);
    free(out);
    free(out2);
}

/* Mirror padding: a PSF symmetric in x and y (odd, summing to 1) keeps each channel's mean. */
static void mirror_mean(spdrt_conv *conv, uint32_t w, uint32_t h, uint32_t k, const char *name)
{
    uint32_t ch = spdrt_conv_describe(conv)->channels;
    size_t n = (size_t)w * h * ch;
    float *img = conv_image(conv, w, h, 21, 0.0f, 1.0f);
    float *psf = malloc((size_t)k * k * ch * sizeof *psf);
    char what[200];
    if (!img || !psf) return;
    for (uint32_t c = 0; c < ch; c++) {
        double sum = 0;
        for (uint32_t j = 0; j < k; j++)
            for (uint32_t i = 0; i < k; i++) {
                double dx = (double)i - k / 2, dy = (double)j - k / 2;
                double v = exp(-(dx * dx) / (2.0 + c) - (dy * dy) / 5.0) + (dx == 0 ? 0.3 : 0.0);
                psf[((size_t)j * k + i) * ch + c] = (float)v;
                sum += (float)v;
            }
        for (uint32_t j = 0; j < k * k; j++) psf[(size_t)j * ch + c] = (float)(psf[(size_t)j * ch + c] / sum);
    }
    snprintf(what, sizeof what, "%s: a %ux%u PSF symmetric in x and y keeps the mean of the %ux%u image", name, k, k,
             w, h);
    float *out = run(conv, img, w, h, psf, k, k, what);
    if (out) {
        double worst = 0;
        for (uint32_t c = 0; c < ch; c++) {
            double a = 0, b = 0;
            for (size_t i = c; i < n; i += ch) a += img[i], b += out[i];
            worst = fmax(worst, isfinite(b) ? fabs(a - b) / a : INFINITY);
        }
        ok(worst <= SPDRT_CONV_BOUND_MAX_REL, "%s: |mean out - mean image| / mean image %.3g (<= %g)", what, worst,
           SPDRT_CONV_BOUND_MAX_REL);
    }
    free(img);
    free(psf);
    free(out);
}

/* The kernel spectrum against the explicit shift's: every value the spectrum holds. */
static void fftshift(spdrt_conv *conv, uint32_t kw, uint32_t kh, const char *name)
{
    const spdrt_conv_info *i = spdrt_conv_describe(conv);
    uint32_t ch = i->channels, nx = i->spectrum_width, ny = i->spectrum_height;
    float *psf = conv_psf(kw, kh, ch, 31 + kw);
    float *got = malloc(spdrt_conv_spectrum_values(conv) * 2 * sizeof *got);
    double *want = malloc((size_t)nx * ny * ch * 2 * sizeof *want);
    if (!psf || !got || !want) return;
    uint32_t before = spdrt_validation_messages(conv_ctx);
    if (spdrt_conv_set_kernel(conv_ctx, conv, psf, kw, kh, 0) != SPDRT_OK ||
        spdrt_conv_read_spectrum(conv_ctx, conv, got) != SPDRT_OK ||
        spdrt_validation_messages(conv_ctx) != before) {
        ok(0, "%s: the %ux%u PSF's spectrum (%s)", name, kw, kh, spdrt_last_error(conv_ctx));
    } else {
        spdrt_conv_reference_spectrum(psf, kw, kh, ch, nx, ny, want);
        double err = 0, max_ref = 0;
        size_t held = 0;
        for (uint32_t c = 0; c < ch; c++)
            for (uint32_t ky = 0; ky < ny; ky++)
                for (uint32_t kx = 0; kx < nx; kx++) {
                    size_t at = spdrt_conv_spectrum_at(conv, c, kx, ky);
                    const double *w = want + (((size_t)c * ny + ky) * nx + kx) * 2;
                    max_ref = fmax(max_ref, hypot(w[0], w[1]));
                    if (at == (size_t)-1) continue;
                    held++;
                    double d = hypot(got[2 * at] - w[0], got[2 * at + 1] - w[1]);
                    err = fmax(err, isfinite(d) ? d : INFINITY);
                }
        double rel = err / max_ref;
        ok(held >= (size_t)ch * nx * ny / 2 && rel <= SPDRT_CONV_BOUND_MAX_REL,
           "%s: the %ux%u PSF's spectrum by the FFTShift sign is its explicit shift's (%zu values): max|err| / "
           "max|H| %.3g (<= %g)", name, kw, kh, held, rel, SPDRT_CONV_BOUND_MAX_REL);
    }
    free(psf);
    free(got);
    free(want);
}

/* A damaged plan never loads: copies of a good plan with one line changed (or added) fail
 * with the line in the message; the copy left alone loads. */
static void damaged_plans(void)
{
    static const plan_damage DAMAGE[] = {
        {"padding ", "padding zer0", "a misspelt padding", NULL},
        {"spectrum ", "spectrum resampld", "a misspelt spectrum", NULL},
        {"first-axis ", "first-axis z", "an axis outside x | y", NULL},
        {"input ", "input texture", "an input outside image | buffer", NULL},
        {"storage ", "storage f32 f16", "a value with a tail", NULL},
        {"channels ", "channels 3x", "a number with a tail", NULL},
        {"image ", "image 96", "one number where two belong", NULL},
        {"storage ", "storage f32\nfrobnicate 1", "an unknown key", NULL},
        {"spdgen-conv-plan ", "spdgen-conv-plan 2junk", "a version with a tail", NULL},
        {"spectrum-tiles ", "spectrum-tiles 8x", "a tile width with a tail", NULL},
        {"buffers ", NULL, "a buffers line with a word after it", " junk"},
        {"shader pass3 ", NULL, "a shader line with a word after it", " junk"},
        {"image ", "image 4294967392 64", "a width past 32 bits", NULL},
        {"channels ", "channels 4294967297", "a channel count past 32 bits", NULL},
        {"image ", "image 96 0", "an image height of 0", NULL},
        {"psf ", "psf 17 0", "a PSF height of 0", NULL},
        {"buffers ", "buffers 9 9 9 9 9", "buffers smaller than its sizes give", NULL},
        {"image ", "image 96 64\nimage 5000 5000", "a key given twice", NULL},
        {"spectrum-tiles ", "", "no spectrum-tiles line", NULL},
    };
    const size_t count = sizeof DAMAGE / sizeof *DAMAGE;
    const char *build = getenv("SPDGEN_BUILD");
    char dir[256], cmd[1024], path[300], copy[320], text[8192];
    snprintf(dir, sizeof dir, "/tmp/conv_damaged_%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "mkdir -p %s && '%s/spdgen' --conv --image 96x64 --psf 17x17 --target spirv -o %s/job.spv",
             dir, build ? build : "build", dir);
    snprintf(path, sizeof path, "%s/job.convplan", dir);
    snprintf(copy, sizeof copy, "%s/copy.convplan", dir);
    size_t len = system(cmd) == 0 ? plan_read(path, text, sizeof text) : 0;
    for (size_t i = 0; i <= count; i++) { /* i == count: the copy unchanged */
        if (!len || plan_write_damaged(text, i < count ? &DAMAGE[i] : NULL, copy)) {
            ok(0, "damaged conv plan %zu: written", i);
            continue;
        }
        spdrt_conv *conv = NULL;
        spdrt_result r = spdrt_conv_load(conv_ctx, copy, &conv);
        const char *msg = spdrt_last_error(conv_ctx);
        if (i == count)
            ok(r == SPDRT_OK, "the conv plan copied unchanged loads");
        else
            ok(r != SPDRT_OK && (strstr(msg, "(line ") || strstr(msg, "(no ")),
               "a conv plan with %s fails to load, naming the line: %s", DAMAGE[i].why,
               r != SPDRT_OK ? msg : "loaded");
        if (conv) spdrt_conv_destroy(conv_ctx, conv);
    }
    /* A NUL byte, which would end the text early and hide the lines after it. */
    const char *at = len ? strstr(text, "\nbuffers ") : NULL;
    FILE *f = at ? fopen(copy, "wb") : NULL;
    if (f) {
        fwrite(text, 1, (size_t)(at + 1 - text), f);
        fputc('\0', f);
        fputs(at + 1, f);
        fclose(f);
    }
    spdrt_conv *conv = NULL;
    spdrt_result r = f ? spdrt_conv_load(conv_ctx, copy, &conv) : SPDRT_OK;
    ok(r != SPDRT_OK && strstr(spdrt_last_error(conv_ctx), "(line "),
       "a conv plan with a NUL byte fails to load, naming the line: %s",
       r != SPDRT_OK ? spdrt_last_error(conv_ctx) : "loaded");
    if (conv) spdrt_conv_destroy(conv_ctx, conv);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("# could not remove %s\n", dir);
}

int main(void)
{
    if (conv_open("glsl")) return 0;
    damaged_plans();
    const char *zero = "--image 64x48 --psf 15x15 --channels 2 --spectrum exact --input buffer --output buffer";
    spdrt_conv *conv = conv_job(zero);
    if (conv) {
        delta(conv, 64, 48, 1, "zero, exact");
        delta(conv, 63, 47, 15, "zero, exact");
        sum_and_shift(conv, 64, 48, 15, "zero, exact");
        fftshift(conv, 15, 15, "zero, exact");
        fftshift(conv, 10, 7, "zero, exact");
        spdrt_conv_destroy(conv_ctx, conv);
    }
    const char *mirror = "--image 40x30 --psf 9x9 --channels 2 --padding mirror --spectrum exact "
                         "--input buffer --output buffer";
    conv = conv_job(mirror);
    if (conv) {
        mirror_mean(conv, 40, 30, 9, "mirror, exact");
        mirror_mean(conv, 33, 21, 5, "mirror, exact");
        /* Padded 48x40: the spectrum along A2 in natural order (40 is not a power of two). */
        fftshift(conv, 9, 9, "mirror, exact");
        spdrt_conv_destroy(conv_ctx, conv);
    }
    /* The resampled spectrum: a delta PSF's is 1 at every frequency, whatever the sampling. */
    const char *resampled = "--image 40x30 --psf 12x10 --channels 1 --padding mirror --spectrum resampled "
                            "--input buffer --output buffer";
    conv = conv_job(resampled);
    if (conv) {
        delta(conv, 40, 30, 1, "mirror, resampled");
        delta(conv, 37, 29, 9, "mirror, resampled");
        fftshift(conv, 12, 10, "mirror, resampled");
        fftshift(conv, 7, 9, "mirror, resampled");
        spdrt_conv_destroy(conv_ctx, conv);
    }
    spdrt_destroy(conv_ctx);
    return tap_plan();
}
