/* bloom.c: an image bloomed with a large PSF by an spdgen --conv job on the local Vulkan
 * device, written as a PNG anyone can open.
 *
 *   spdgen --conv --image 384x216 --psf 127x127 --padding mirror --target spirv -o bloom.spv
 *   bloom bloom.convplan [-i IN.png|IN.hdr] [--psf PSF.png] [--intensity T] [--scene S.png] -o OUT.png
 *
 * The input is a PNG (sRGB, made linear) or a Radiance HDR image (linear), at most the size
 * the job serves; without -i, a scene is synthesized (a dark gradient, bright points and
 * bars, values far past 1 as a renderer's HDR output has). The PSF is a PSF image (its
 * channels, made linear, normalized to sum 1) or, by default, a generated one: an Airy-like
 * disk, wider for red than blue, with six diffraction spikes. The result is
 * src + T x (conv - src) (the composite, T = 0.35 by default), tone mapped (x / (1 + x),
 * sRGB) to OUT.png; --scene writes the input the same way. A sample of pixels is checked
 * against the reference; exit 0 when they match and
 * the picture was written. With --spectrum resampled (the default) the sample is checked
 * against the same resampling on the CPU, with --spectrum exact against the direct sum. */
#define _DEFAULT_SOURCE /* j1(), the Bessel function of the Airy pattern */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "radiance.h"
#include "spdrt_conv.h"

#if defined(__has_include) && __has_include(<stb/stb_image_write.h>) && __has_include(<stb/stb_image.h>)
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO_FAILURE_REASON
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop
#define HAVE_STB 1
#else
#define HAVE_STB 0
#endif

typedef struct {
    const char *plan, *input, *psf, *output, *scene;
    float intensity;
} options;

static int usage(const char *why)
{
    fprintf(stderr, "bloom: %s\nusage: bloom PLAN.convplan [-i IN.png|IN.hdr] [--psf PSF.png] [--intensity T] "
                    "[--scene SCENE.png] -o OUT.png\n", why);
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.intensity = 0.35f};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-') {
            o->plan = a;
            continue;
        }
        int known = !strcmp(a, "-i") || !strcmp(a, "--psf") || !strcmp(a, "-o") || !strcmp(a, "--scene") ||
                    !strcmp(a, "--intensity");
        if (!known) return ex_bad("bloom", a, "", "an unknown flag (see the usage line in bloom.c)");
        if (!v) return ex_bad("bloom", a, "", "needs a value");
        if (!strcmp(a, "-i")) o->input = v;
        else if (!strcmp(a, "--psf")) o->psf = v;
        else if (!strcmp(a, "-o")) o->output = v;
        else if (!strcmp(a, "--scene")) o->scene = v;
        else if (ex_float(v, 0.0f, 16.0f, &o->intensity)) return ex_bad("bloom", a, v, "a number 0..16");
        i++;
    }
    if (!o->plan || !o->output) return usage("give the plan and -o OUT.png");
    return 0;
}

static float srgb_to_linear(float c) { return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f); }
static float linear_to_srgb(float c) { return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1 / 2.4f) - 0.055f; }

/* The synthesized scene, RGBA linear: a dark blue-to-amber gradient, a row of bars whose
 * brightness climbs past 1, and bright points (stars and lamps) of a few colours. */
static void scene(uint32_t w, uint32_t h, float *rgba)
{
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float u = (float)x / (float)w, v = (float)y / (float)h, *p = rgba + ((size_t)y * w + x) * 4;
            p[0] = 0.02f + 0.10f * v * u;
            p[1] = 0.02f + 0.05f * v;
            p[2] = 0.06f + 0.08f * (1 - v);
            p[3] = 1;
            /* Bars along the bottom: 0.25 to 8. */
            uint32_t bar = x * 8 / w;
            if (v > 0.80f && v < 0.86f && (x * 8) % w > w / 10) {
                float level = 0.25f * powf(2.0f, (float)bar * 5 / 7);
                p[0] = p[1] = p[2] = level;
            }
        }
    static const float lights[][6] = {
        /* x, y (fractions), radius in pixels, r, g, b */
        {0.15f, 0.25f, 1.5f, 60, 60, 60},   {0.30f, 0.15f, 1.0f, 80, 70, 50}, {0.50f, 0.35f, 3.0f, 40, 25, 8},
        {0.70f, 0.20f, 1.0f, 30, 60, 120},  {0.85f, 0.45f, 2.0f, 100, 30, 20}, {0.40f, 0.60f, 1.0f, 20, 90, 40},
        {0.62f, 0.58f, 1.5f, 50, 50, 70},   {0.90f, 0.12f, 1.0f, 70, 70, 70},
    };
    for (size_t l = 0; l < sizeof lights / sizeof *lights; l++) {
        float cx = lights[l][0] * (float)w, cy = lights[l][1] * (float)h, r = lights[l][2];
        for (int dy = -4; dy <= 4; dy++)
            for (int dx = -4; dx <= 4; dx++) {
                int x = (int)cx + dx, y = (int)cy + dy;
                if (x < 0 || y < 0 || x >= (int)w || y >= (int)h || dx * dx + dy * dy > r * r) continue;
                float *p = rgba + ((size_t)y * w + (size_t)x) * 4;
                for (int c = 0; c < 3; c++) p[c] = lights[l][3 + c];
            }
    }
}

/* The generated PSF, `channels` floats a pixel, k x k centred at k / 2: an Airy pattern
 * (2 J1(x) / x)^2 whose first dark ring is wider for longer wavelengths, a faint halo, and
 * six spikes (a hexagonal aperture's), thin and fading with distance. */
static void airy_psf(uint32_t k, uint32_t channels, float *psf)
{
    static const float scale[4] = {1.25f, 1.0f, 0.8f, 1.0f}; /* red, green, blue, alpha */
    float c = (float)(k / 2), ring = (float)k / 24.0f;
    for (uint32_t y = 0; y < k; y++)
        for (uint32_t x = 0; x < k; x++) {
            float dx = (float)x - c, dy = (float)y - c, r = sqrtf(dx * dx + dy * dy);
            float spikes = 0;
            for (int s = 0; s < 6; s++) {
                float a = (float)s * 3.14159265f / 3 + 0.2f;
                float along = dx * cosf(a) + dy * sinf(a), across = -dx * sinf(a) + dy * cosf(a);
                if (along > 0) spikes += expf(-across * across / 0.8f) * 0.02f / (1 + along / 4);
            }
            for (uint32_t ch = 0; ch < channels; ch++) {
                float arg = 3.8317f * r / (ring * scale[ch]);
                float airy = r < 1e-6f ? 1 : powf(2 * (float)j1(arg) / arg, 2);
                float halo = 0.002f * expf(-r / ((float)k / 6));
                psf[((size_t)y * k + x) * channels + ch] = airy + halo + spikes;
            }
        }
}

/* Tone mapped to 8-bit sRGB: x / (1 + x). */
static int write_png(const char *path, const float *rgba, uint32_t w, uint32_t h)
{
#if HAVE_STB
    unsigned char *px = malloc((size_t)w * h * 4);
    if (!px) return 1;
    for (size_t i = 0; i < (size_t)w * h; i++) {
        for (int c = 0; c < 3; c++) {
            float v = fmaxf(rgba[i * 4 + c], 0);
            px[i * 4 + c] = (unsigned char)lrintf(255 * linear_to_srgb(v / (1 + v)));
        }
        px[i * 4 + 3] = 255;
    }
    int len = 0;
    unsigned char *png = stbi_write_png_to_mem(px, (int)w * 4, (int)w, (int)h, 4, &len);
    free(px);
    int rc = png ? ex_write_file("bloom", path, png, (size_t)len) : 1;
    if (!png) fprintf(stderr, "bloom: cannot encode %s\n", path);
    free(png);
    return rc;
#else
    (void)rgba, (void)w, (void)h;
    fprintf(stderr, "bloom: built without stb_image_write.h (libstb-dev): cannot write %s\n", path);
    return 1;
#endif
}

/* An image file as linear RGBA floats (PNG: sRGB; HDR: linear); NULL after a message. */
static float *read_image(const char *path, uint32_t *w, uint32_t *h)
{
#if HAVE_STB
    int iw, ih, n;
    int hdr = stbi_is_hdr(path);
    char why[600];
    if (hdr && radiance_whole(path, why, sizeof why) != 0) {
        fprintf(stderr, "bloom: %s\n", why);
        return NULL;
    }
    float *f = stbi_loadf(path, &iw, &ih, &n, 4);
    if (!f) {
        fprintf(stderr, "bloom: cannot read %s: %s\n", path, stbi_failure_reason());
        return NULL;
    }
    /* stbi_loadf undoes a gamma of 2.2 on an 8-bit file; redo it as sRGB. */
    if (!hdr)
        for (size_t i = 0; i < (size_t)iw * ih * 4; i++)
            if (i % 4 != 3) f[i] = srgb_to_linear(powf(f[i], 1 / 2.2f));
    *w = (uint32_t)iw, *h = (uint32_t)ih;
    return f;
#else
    (void)w, (void)h;
    fprintf(stderr, "bloom: built without stb_image.h (libstb-dev): cannot read %s\n", path);
    return NULL;
#endif
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    char err[512];
    spdrt_context *ctx = NULL;
    spdrt_conv *conv = NULL;
    spdrt_options copt = {0};
    if (spdrt_create(&copt, &ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "bloom: no Vulkan device: %s\n", err);
        return 1;
    }
    if (spdrt_conv_load(ctx, o.plan, &conv) != SPDRT_OK) {
        fprintf(stderr, "bloom: %s: %s\n", o.plan, spdrt_last_error(ctx));
        spdrt_destroy(ctx);
        return 1;
    }
    const spdrt_conv_info *info = spdrt_conv_describe(conv);
    uint32_t w = info->image_width, h = info->image_height, fi = spdrt_conv_input_floats(conv);
    uint32_t fo = spdrt_conv_output_floats(conv), ch = info->channels;
    float *rgba = NULL, *psf = NULL, *in = NULL, *out = NULL;
    uint32_t kw = 0, kh = 0;
    rc = 1;

    if (o.input) {
        rgba = read_image(o.input, &w, &h);
        if (!rgba) goto done;
        if (w > info->image_width || h > info->image_height) {
            fprintf(stderr, "bloom: %s is %ux%u, past the job's %ux%u (spdgen --conv --image)\n", o.input, w, h,
                    info->image_width, info->image_height);
            goto done;
        }
    } else {
        rgba = malloc((size_t)w * h * 4 * sizeof *rgba);
        if (!rgba) goto done;
        scene(w, h, rgba);
    }
    if (o.psf) {
        float *p = read_image(o.psf, &kw, &kh);
        if (!p) goto done;
        if (kw > info->psf_width || kh > info->psf_height) {
            fprintf(stderr, "bloom: %s is %ux%u, past the job's PSF %ux%u (spdgen --conv --psf)\n", o.psf, kw, kh,
                    info->psf_width, info->psf_height);
            free(p);
            goto done;
        }
        psf = malloc((size_t)kw * kh * ch * sizeof *psf);
        for (size_t i = 0; psf && i < (size_t)kw * kh; i++)
            for (uint32_t c = 0; c < ch; c++) psf[i * ch + c] = p[i * 4 + c];
        free(p);
    } else {
        /* The largest odd square the job takes. */
        kw = kh = (info->psf_width < info->psf_height ? info->psf_width : info->psf_height) | 1;
        if (kw > info->psf_width || kw > info->psf_height) kw = kh = kw - 2;
        psf = malloc((size_t)kw * kh * ch * sizeof *psf);
        if (psf) airy_psf(kw, ch, psf);
    }
    in = malloc((size_t)w * h * fi * sizeof *in);
    out = malloc((size_t)w * h * fo * sizeof *out);
    if (!psf || !in || !out) goto done;
    for (size_t i = 0; i < (size_t)w * h; i++)
        for (uint32_t c = 0; c < fi; c++) in[i * fi + c] = rgba[i * 4 + c];
    spdrt_conv_round_input(conv, in, (size_t)w * h);

    spdrt_conv_params p = {w, h, 1, o.intensity, 0, 0};
    spdrt_conv_times t;
    if (spdrt_conv_set_kernel(ctx, conv, psf, kw, kh, 1) != SPDRT_OK ||
        spdrt_conv_run(ctx, conv, &p, in, out, &t) != SPDRT_OK) {
        fprintf(stderr, "bloom: %s\n", spdrt_last_error(ctx));
        goto done;
    }
    printf("bloom: %ux%u image, %ux%u PSF, %u channels, padded %ux%u; passes %.3f %.3f %.3f ms on %s\n", w, h, kw,
           kh, ch, info->padded_width, info->padded_height, t.pass_ms[0], t.pass_ms[1], t.pass_ms[2],
           spdrt_device(ctx)->name);

    /* A sample of pixels against the reference (the PSF normalized as set_kernel did): the
     * direct sum, or with --spectrum resampled the same resampling on the CPU (the whole
     * image: its FFTs in double). */
    for (uint32_t c = 0; c < ch; c++) {
        double sum = 0;
        for (size_t i = 0; i < (size_t)kw * kh; i++) sum += psf[i * ch + c];
        for (size_t i = 0; i < (size_t)kw * kh; i++) psf[i * ch + c] = (float)(psf[i * ch + c] / sum);
    }
    spdrt_conv_ref_config rc_cfg = {w, h, kw, kh, ch, info->mirror, 1, o.intensity, 0, fi, fo};
    double *whole = NULL;
    if (info->resampled) {
        whole = malloc((size_t)w * h * fo * sizeof *whole);
        if (!whole || spdrt_conv_reference_resampled(&rc_cfg, info->padded_width, info->padded_height,
                                                     info->spectrum_width, info->spectrum_height, 1.0, in, psf,
                                                     whole) != 0) {
            fprintf(stderr, "bloom: out of memory\n");
            free(whole);
            goto done;
        }
    }
    double max_err = 0, max_ref = 0;
    for (uint32_t s = 0; s < 64; s++) {
        uint32_t x = (s * 7919u + 13u) % w, y = (s * 104729u + 7u) % h;
        if (s < 8) x = (uint32_t)(w * (s + 1) / 9), y = (uint32_t)(h * (s % 3 + 1) / 4); /* near the lights */
        double ref[4];
        if (whole) memcpy(ref, whole + ((size_t)y * w + x) * fo, fo * sizeof *ref);
        else spdrt_conv_reference_pixel(&rc_cfg, in, psf, x, y, ref);
        for (uint32_t c = 0; c < ch; c++) {
            double e = fabs(out[((size_t)y * w + x) * fo + c] - ref[c]);
            if (!(e <= max_err)) max_err = e; /* NaN too */
            if (fabs(ref[c]) > max_ref) max_ref = fabs(ref[c]);
        }
    }
    free(whole);
    /* The bound of an rgba16f output (a half rounds within 2^-10) plus the fp32 spectra's. */
    double bound = (info->output_buffer || info->output_format == SPDRT_RGBA32F ? 0 : 1.0 / 1024) +
                   (info->f16 ? SPDRT_CONV_BOUND_F16_MAX_REL : SPDRT_CONV_BOUND_MAX_REL);
    int matched = max_err <= bound * max_ref;
    printf("bloom: 64 pixels against the %s: max|err| / max|ref| %.3g (bound %.3g): %s\n",
           info->resampled ? "resampled pipeline on the CPU" : "direct convolution",
           max_ref > 0 ? max_err / max_ref : max_err, bound, matched ? "match" : "MISMATCH");

    /* A picture that failed its check is not written: a file left from an earlier run stays. */
    if (!matched) {
        rc = 1;
        goto done;
    }
    float *rgb_out = malloc((size_t)w * h * 4 * sizeof *rgb_out);
    if (!rgb_out) goto done;
    for (size_t i = 0; i < (size_t)w * h; i++)
        for (uint32_t c = 0; c < 4; c++) rgb_out[i * 4 + c] = c < fo ? out[i * fo + c] : rgba[i * 4 + c];
    rc = write_png(o.output, rgb_out, w, h);
    if (!rc && o.scene) rc = write_png(o.scene, rgba, w, h);
    free(rgb_out);
    if (!rc) printf("bloom: wrote %s%s%s\n", o.output, o.scene ? " and " : "", o.scene ? o.scene : "");

done:
    free(rgba);
    free(psf);
    free(in);
    free(out);
    spdrt_conv_destroy(ctx, conv);
    spdrt_destroy(ctx);
    return rc;
}
