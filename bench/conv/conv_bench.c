/* conv_bench.c: the speed of spdgen --conv (issue 24), for the GPU machine.
 *
 * For each case (default: 1280x720 with a 256x256 PSF and 1920x1080 with a 512x512 PSF, 3
 * channels, rgba16f in and out, fp32 and f16 spectra, the resampled kernel spectrum): spdgen
 * writes the job (build/spdgen, --target spirv), libspdrt loads it, the PSF's spectrum is
 * set once (not timed), then the image runs --reps times; each pass's GPU time and the
 * whole pipeline's (timestamps, medians) are printed with the bytes each pass must move and
 * the time those bytes take at --floor-gbps (a copy's bandwidth measured on the same device,
 * e.g. by spd_bench's floor: the pass's share of it is its "% of floor"). Every case is
 * checked against the CPU reference on a sample of pixels (the resampled pipeline on the
 * CPU, or the direct sum with --spectrum exact). A markdown table goes to stdout; exit 0
 * only if every check passed.
 *
 * usage: conv_bench [--cases WxH:K,...] [--reps N] [--floor-gbps G] [--spectrum S]
 *                   [--spdgen PATH] [--quick] */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spdrt_conv.h"

#define MAX_CASES 8

typedef struct {
    uint32_t w, h, k;
} bench_case;

typedef struct {
    bench_case cases[MAX_CASES];
    int count, reps;
    double floor_gbps;
    const char *spectrum, *spdgen;
} options;

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.cases = {{1280, 720, 256}, {1920, 1080, 512}}, .count = 2, .reps = 21,
                   .spectrum = "resampled", .spdgen = "build/spdgen"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--quick")) {
            o->cases[0] = (bench_case){320, 180, 63};
            o->count = 1, o->reps = 3;
            continue;
        }
        if (!strcmp(a, "--reps")) o->reps = atoi(v);
        else if (!strcmp(a, "--floor-gbps")) o->floor_gbps = atof(v);
        else if (!strcmp(a, "--spectrum")) o->spectrum = v;
        else if (!strcmp(a, "--spdgen")) o->spdgen = v;
        else if (!strcmp(a, "--cases")) {
            char buf[256], *save = NULL;
            snprintf(buf, sizeof buf, "%s", v);
            o->count = 0;
            for (char *t = strtok_r(buf, ",", &save); t && o->count < MAX_CASES; t = strtok_r(NULL, ",", &save)) {
                bench_case c;
                if (sscanf(t, "%ux%u:%u", &c.w, &c.h, &c.k) != 3 || !c.w || !c.h || !c.k) return -1;
                o->cases[o->count++] = c;
            }
        } else {
            return -1;
        }
        i++;
    }
    return o->count > 0 && o->reps > 0 ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The bytes each pass must move at least: every value it reads and writes once. */
static void pass_bytes(const spdrt_conv_info *i, uint32_t w, uint32_t h, double bytes[3])
{
    double cb = i->f16 ? 4 : 8, ch = i->channels, px = (double)w * h;
    double e1 = i->first_axis_y ? h : w, e2 = i->first_axis_y ? w : h;
    double p1 = i->first_axis_y ? i->padded_height : i->padded_width;
    double p2 = i->first_axis_y ? i->padded_width : i->padded_height;
    double in_px = i->input_buffer ? 4 * ch : (i->output_format == SPDRT_RGBA32F ? 16 : 8);
    double out_px = i->output_buffer ? 4 * ch : (i->output_format == SPDRT_RGBA32F ? 16 : 8);
    double z = ch * ceil(e2 / 2) * p1 * cb, y = ch * e2 * (p1 / 2 + 1) * cb;
    double s = i->resampled ? ch * i->spectrum_width * (double)i->spectrum_height * cb : ch * p2 * (p1 / 2 + 1) * cb;
    (void)e1;
    bytes[0] = px * in_px + z;
    bytes[1] = z + s + y;
    bytes[2] = y + px * in_px + px * out_px;
}

static int run_case(const options *o, spdrt_context *ctx, const bench_case *c, const char *storage)
{
    char dir[] = "/tmp/conv_bench_XXXXXX", cmd[1024], plan[300];
    if (!mkdtemp(dir)) return -1;
    snprintf(cmd, sizeof cmd, "'%s' --conv --image %ux%u --psf %ux%u --channels 3 --spectrum %s --storage %s "
             "--format rgba16f --target spirv -o %s/job.spv", o->spdgen, c->w, c->h, c->k, c->k, o->spectrum, storage,
             dir);
    snprintf(plan, sizeof plan, "%s/job.convplan", dir);
    spdrt_conv *conv = NULL;
    int rc = system(cmd) == 0 && spdrt_conv_load(ctx, plan, &conv) == SPDRT_OK ? 0 : -1;
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "conv_bench: could not remove %s\n", dir);
    if (rc) {
        fprintf(stderr, "conv_bench: %ux%u, %ux%u: %s\n", c->w, c->h, c->k, c->k, spdrt_last_error(ctx));
        return -1;
    }
    const spdrt_conv_info *info = spdrt_conv_describe(conv);
    size_t px = (size_t)c->w * c->h;
    uint32_t fi = spdrt_conv_input_floats(conv), fo = spdrt_conv_output_floats(conv);
    float *in = malloc(px * fi * sizeof *in), *out = malloc(px * fo * sizeof *out);
    float *psf = malloc((size_t)c->k * c->k * 3 * sizeof *psf);
    double *t[4];
    for (int p = 0; p < 4; p++) t[p] = malloc((size_t)o->reps * sizeof **t);
    if (!in || !out || !psf || !t[0] || !t[1] || !t[2] || !t[3]) return -1;
    spdrt_random_floats(in, px * fi, 7, 0.0f, 4.0f);
    spdrt_conv_round_input(conv, in, px);
    spdrt_random_floats(psf, (size_t)c->k * c->k * 3, 9, 0.0f, 1.0f);
    spdrt_conv_params p = {c->w, c->h, 1, 0.3f, 0, 0};
    if (spdrt_conv_set_kernel(ctx, conv, psf, c->k, c->k, 1) != SPDRT_OK) rc = -1;
    for (int r = 0; !rc && r < o->reps; r++) {
        spdrt_conv_times times;
        if (spdrt_conv_run(ctx, conv, &p, in, out, &times) != SPDRT_OK) rc = -1;
        for (int q = 0; q < 3; q++) t[q][r] = times.pass_ms[q];
        t[3][r] = times.total_ms;
    }
    /* The check: 32 pixels against the reference, the PSF normalized as set_kernel did. */
    for (uint32_t ch = 0; ch < 3; ch++) {
        double sum = 0;
        for (size_t i = ch; i < (size_t)c->k * c->k * 3; i += 3) sum += psf[i];
        for (size_t i = ch; i < (size_t)c->k * c->k * 3; i += 3) psf[i] = (float)(psf[i] / sum);
    }
    spdrt_conv_ref_config rcfg = {c->w, c->h, c->k, c->k, 3, info->mirror, 1, 0.3, 0, fi, fo};
    double *whole = info->resampled ? malloc(px * fo * sizeof *whole) : NULL;
    if (whole && spdrt_conv_reference_resampled(&rcfg, info->padded_width, info->padded_height, info->spectrum_width,
                                                info->spectrum_height, 1.0, in, psf, whole) != 0)
        rc = -1;
    double max_err = 0, max_ref = 0;
    for (uint32_t s = 0; !rc && s < 32; s++) {
        uint32_t x = (s * 7919u + 3u) % c->w, y = (s * 104729u + 5u) % c->h;
        double ref[4];
        if (whole) memcpy(ref, whole + ((size_t)y * c->w + x) * fo, fo * sizeof *ref);
        else spdrt_conv_reference_pixel(&rcfg, in, psf, x, y, ref);
        for (uint32_t ch = 0; ch < 3; ch++) {
            double e = fabs(out[((size_t)y * c->w + x) * fo + ch] - ref[ch]);
            if (!(e <= max_err)) max_err = e;
            if (fabs(ref[ch]) > max_ref) max_ref = fabs(ref[ch]);
        }
    }
    double bound = 1.0 / 1024 + (info->f16 ? SPDRT_CONV_BOUND_F16_MAX_REL : SPDRT_CONV_BOUND_MAX_REL);
    int checked = !rc && max_err <= bound * max_ref;
    double bytes[3], ms[4];
    pass_bytes(info, c->w, c->h, bytes);
    for (int q = 0; q < 4; q++) ms[q] = rc ? -1 : median(t[q], o->reps);
    printf("| %ux%u, PSF %ux%u, %s | ", c->w, c->h, c->k, c->k, storage);
    for (int q = 0; q < 3; q++) {
        printf("%.1f us, %.1f MB", ms[q] * 1e3, bytes[q] / 1e6);
        if (o->floor_gbps > 0) printf(", %.0f%% of floor", 100 * (bytes[q] / (o->floor_gbps * 1e9)) / (ms[q] / 1e3));
        printf(" | ");
    }
    printf("%.1f us | %.2g %s |\n", ms[3] * 1e3, max_ref > 0 ? max_err / max_ref : max_err,
           checked ? "ok" : "MISMATCH");
    free(whole);
    free(in);
    free(out);
    free(psf);
    for (int q = 0; q < 4; q++) free(t[q]);
    spdrt_conv_destroy(ctx, conv);
    return checked ? 0 : -1;
}

int main(int argc, char **argv)
{
    options o;
    if (parse(argc, argv, &o)) {
        fprintf(stderr, "usage: conv_bench [--cases WxH:K,...] [--reps N] [--floor-gbps G] [--spectrum S] "
                        "[--spdgen PATH] [--quick]\n");
        return 2;
    }
    char err[512];
    spdrt_context *ctx;
    spdrt_options copt = {0};
    if (spdrt_create(&copt, &ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "conv_bench: no Vulkan device: %s\n", err);
        return 1;
    }
    printf("spdgen --conv on %s, --spectrum %s, 3 channels, rgba16f in and out, composite; medians of %d runs\n\n",
           spdrt_device(ctx)->name, o.spectrum, o.reps);
    printf("| case | pass 1 | pass 2 | pass 3 | pipeline | check (max err / max ref) |\n|---|---|---|---|---|---|\n");
    int failed = 0;
    for (int i = 0; i < o.count; i++)
        for (int s = 0; s < 2; s++) failed |= run_case(&o, ctx, &o.cases[i], s ? "f16" : "f32") != 0;
    spdrt_destroy(ctx);
    return failed;
}
