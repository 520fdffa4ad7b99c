/* conv_bench.c: the speed of spdgen --conv (issue 24), on bench/gpu.c's harness. See
 * bench/README.md, "The convolution benchmark".
 *
 * For each case (default 1280x720 with a 256x256 PSF and 1920x1080 with 512x512), each kernel
 * spectrum (resampled, exact) and each storage of the spectra (f32, f16): spdgen writes the
 * job (3 channels, rgba16f input and output image, the composite on), libspdrt loads it on
 * the benchmark's images and sets a random PSF (the kernel spectrum, not timed). Then, each
 * with the harness (heat, a cache scrub and a full barrier before each repetition, all
 * repetitions in one submission, GPU timestamps, medians):
 *   - the whole pipeline, spdrt_conv_record (its three passes and the barriers between);
 *   - each pass alone, spdrt_conv_record_pass, on the spectra the pipeline left;
 *   - each pass's floor: a compute copy (bench/shaders/copy.comp, the SPD benchmark's floor)
 *     moving the pass's bytes, read + written, half each way;
 * and last one more whole run into an output cleared to NaN, checked against the CPU
 * reference on a sample of pixels (the direct sum for the exact spectrum, the resampled
 * pipeline in double otherwise). The table goes to stdout; exit 0 only if every check
 * passed. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "conv/conv_bench.h"
#include "core/internal.h"
#include "gpu.h"
#include "kernels.h"
#include "report_cells.h"
#include "spdrt_conv.h"
#include "spdrt_vk.h"
#include "tools.h"

#define SAMPLES 64u
#define INTENSITY 0.3f /* the composite, as bench/conv_torch.py's */

typedef struct {
    uint32_t w, h, k;
} bench_case;

typedef struct {
    bench_common_options common;
    bench_case cases[CONV_MAX_CASES];
    uint32_t case_count;
    int spectra;  /* bit 0 resampled, bit 1 exact */
    int storages; /* bit 0 f32, bit 1 f16 */
    char extra[256];          /* --spdgen-args: more spdgen --conv arguments for every job */
} options;

static void help(void)
{
    printf("usage: conv_bench [options]\n\n"
           "Times spdgen --conv (FFT convolution, 3 channels, rgba16f in and out) on the Vulkan\n"
           "device: the whole pipeline and each pass, against a compute copy of each pass's\n"
           "bytes; checks every job against the CPU reference on a sample of pixels; prints a\n"
           "markdown table. Exit 0 only if every check passed.\n\n"
           "  --cases LIST      WxH:K image and PSF sizes, comma-separated\n"
           "                    (default 1280x720:256,1920x1080:512)\n"
           "  --spectrum S      resampled, exact or both (default both)\n"
           "  --storage S       f32, f16 or both: the spectra between the passes (default both)\n"
           "  --spdgen-args A   more spdgen --conv arguments for every job, space-separated\n"
           "                    (a variant: e.g. \"--columns-per-wg 2 --subgroup 32\")\n"
           "  --reps N, --warmup N, --b2b N, --scrub-mib N, --scrub-mode M, --heat-ms N\n"
           "                    as spd_bench (bench/README.md)\n"
           "  --quick           smoke run: 160x90:31, 3 reps, 1 warm-up, 2 b2b, 8 MiB scrub,\n"
           "                    10 ms heat\n"
           BENCH_HELP_COMMON);
}

static int add_case(const char *token, void *user)
{
    options *o = user;
    bench_case c;
    char end;
    if (o->case_count == CONV_MAX_CASES || sscanf(token, "%ux%u:%u%c", &c.w, &c.h, &c.k, &end) != 3 || !c.w ||
        !c.h || !c.k || c.w > 16384 || c.h > 16384 || c.k > 4096)
        return -1;
    o->cases[o->case_count++] = c;
    return 0;
}

static int both(const char *v, const char *a, const char *b)
{
    return !strcmp(v, a) ? 1 : !strcmp(v, b) ? 2 : !strcmp(v, "both") ? 3 : 0;
}

/* 0: run; 1: --help was printed; 2: usage error, printed. */
static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->spectra = o->storages = 3;
    for (int i = 1; i < argc; i++) {
        int common = bench_common_option(&o->common, "conv_bench", help, argc, argv, &i);
        if (common != BENCH_ARG_OWN) {
            if (common != BENCH_ARG_TAKEN) return common;
        } else if (!strcmp(argv[i], "--cases") && i + 1 < argc) {
            o->case_count = 0;
            if (bench_each_item(argv[++i], add_case, o))
                return bench_usage("conv_bench", "--cases", argv[i], "WxH:K, at most 8");
        } else if (!strcmp(argv[i], "--spectrum") && i + 1 < argc) {
            if (!(o->spectra = both(argv[++i], "resampled", "exact")))
                return bench_usage("conv_bench", "--spectrum", argv[i], "resampled, exact or both");
        } else if (!strcmp(argv[i], "--spdgen-args") && i + 1 < argc) {
            if (strlen(argv[++i]) >= sizeof o->extra)
                return bench_usage("conv_bench", "--spdgen-args", argv[i], "at most 255 characters");
            snprintf(o->extra, sizeof o->extra, "%s", argv[i]);
        } else if (!strcmp(argv[i], "--storage") && i + 1 < argc) {
            if (!(o->storages = both(argv[++i], "f32", "f16")))
                return bench_usage("conv_bench", "--storage", argv[i], "f32, f16 or both");
        } else {
            return bench_usage("conv_bench", argv[i], NULL, BENCH_MISSING_VALUE);
        }
    }
    if (!o->case_count) {
        bench_case quick = {160, 90, 31}, full[2] = {{1280, 720, 256}, {1920, 1080, 512}};
        o->case_count = o->common.quick ? 1 : 2;
        memcpy(o->cases, o->common.quick ? &quick : full, o->case_count * sizeof *o->cases);
    }
    bench_timing_options quick = {1, 3, 2, 10, 8ull << 20, 0, 0}, full = {3, 21, 10, 200, 256ull << 20, 0, 0};
    bench_timing_defaults(&o->common.timing, o->common.quick ? quick : full);
    return 0;
}

/* ---- one job ---------------------------------------------------------------------------------- */

typedef struct {
    spdrt_context *ctx;
    bench_gpu gpu;
    bench_spdgen spdgen;
    uint32_t *copy_spv;
    size_t copy_words;
    const char *extra;        /* --spdgen-args */
} bench;

/* A job on the benchmark's own images: what the record callbacks need. */
typedef struct {
    spdrt_context *ctx;
    spdrt_conv *conv;
    spdrt_conv_params params;
    uint32_t pass;
    spdrt_image in, out;
    VkImageView in_view, out_view;
    spdrt_buffer upload, readback;
    spdrt_result recorded; /* the first failure of a record callback */
} job;

static void record_pipeline(VkCommandBuffer cb, void *user)
{
    job *j = user;
    spdrt_result r = spdrt_conv_record(j->ctx, j->conv, cb, &j->params, NULL);
    if (j->recorded == SPDRT_OK) j->recorded = r;
}

static void record_pass(VkCommandBuffer cb, void *user)
{
    job *j = user;
    spdrt_result r = spdrt_conv_record_pass(j->ctx, j->conv, cb, &j->params, j->pass);
    if (j->recorded == SPDRT_OK) j->recorded = r;
}

static VkBufferImageCopy whole(uint32_t w, uint32_t h)
{
    VkBufferImageCopy c;
    memset(&c, 0, sizeof c);
    c.imageSubresource = (VkImageSubresourceLayers){VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    c.imageExtent = (VkExtent3D){w, h, 1};
    return c;
}

/* The input uploaded and left SHADER_READ_ONLY; the output left GENERAL. */
static void record_setup(VkCommandBuffer cb, void *user)
{
    job *j = user;
    VkBufferImageCopy c = whole(j->params.width, j->params.height);
    const VkPipelineStageFlags tr = VK_PIPELINE_STAGE_TRANSFER_BIT;
    spdrt__image_barrier(cb, &j->in, 0, 1, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_IMAGE_LAYOUT_UNDEFINED, tr,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkCmdCopyBufferToImage(cb, j->upload.buffer, j->in.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &c);
    spdrt__image_barrier(cb, &j->in, 0, 1, tr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT,
                         VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    spdrt__image_barrier(cb, &j->out, 0, 1, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_IMAGE_LAYOUT_UNDEFINED,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL);
}

/* The check's run: the output cleared to NaN, the pipeline, the output read back. */
static void record_check(VkCommandBuffer cb, void *user)
{
    job *j = user;
    VkBufferImageCopy c = whole(j->params.width, j->params.height);
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkClearColorValue nan;
    const VkPipelineStageFlags tr = VK_PIPELINE_STAGE_TRANSFER_BIT;
    for (int k = 0; k < 4; k++) nan.float32[k] = NAN;
    vkCmdClearColorImage(cb, j->out.image, VK_IMAGE_LAYOUT_GENERAL, &nan, 1, &range);
    spdrt_conv_sync sync;
    memset(&sync, 0, sizeof sync);
    sync.output_before = (spdrt_vk_use){tr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL};
    spdrt_result r = spdrt_conv_record(j->ctx, j->conv, cb, &j->params, &sync);
    if (j->recorded == SPDRT_OK) j->recorded = r;
    spdrt__image_barrier(cb, &j->out, 0, 1, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_IMAGE_LAYOUT_GENERAL, tr, VK_ACCESS_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    vkCmdCopyImageToBuffer(cb, j->out.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, j->readback.buffer, 1, &c);
    spdrt__image_barrier(cb, &j->out, 0, 1, tr, VK_ACCESS_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL);
}

/* The bytes each pass must move at least: every value it reads and writes once (the rgba16f
 * images 8 bytes a pixel; the spectra as the plan sizes them). */
static void pass_bytes(const spdrt_conv *conv, uint32_t w, uint32_t h, uint64_t bytes[3])
{
    const spdrt_conv_info *i = spdrt_conv_describe(conv);
    uint64_t cb = i->f16 ? 4 : 8, ch = i->channels, px = (uint64_t)w * h;
    uint64_t e2 = i->first_axis_y ? w : h, p1 = i->first_axis_y ? i->padded_height : i->padded_width;
    uint64_t z = ch * ((e2 + 1) / 2) * p1 * cb;      /* pass 1: two real lines per complex line */
    uint64_t y = ch * e2 * (p1 / 2 + 1) * cb;        /* pass 2: the image's lines, P1/2+1 frequencies */
    uint64_t s = (uint64_t)spdrt_conv_spectrum_values(conv) * cb;
    bytes[0] = px * 8 + z;
    bytes[1] = z + s + y;
    bytes[2] = y + px * 8 + px * 8; /* the spectra, the source (the composite), the output */
}

/* The floor of `bytes` (read + written): copy.comp reading and writing half each, in whole
 * 16-byte elements, on two buffers of its own; its copy checked. */
static void floor_time(bench *b, uint64_t bytes, uint64_t *moved, bench_timing *t)
{
    uint64_t half = (bytes / 2 + 15) / 16 * 16;
    bench_workload wl;
    bench_copy_kernel ck;
    char err[512];
    memset(&wl, 0, sizeof wl);
    memset(&ck, 0, sizeof ck);
    memset(t, 0, sizeof *t);
    *moved = 2 * half;
    wl.ctx = b->ctx;
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    spdrt_result res = spdrt__buffer_create(b->ctx, half, usage, 0, &wl.copy_src);
    if (res == SPDRT_OK) res = spdrt__buffer_create(b->ctx, half, usage, 0, &wl.copy_dst);
    wl.copy_bytes = half;
    if (res == SPDRT_OK) res = bench_copy_kernel_create(&wl, b->copy_spv, b->copy_words, half, half, &ck);
    if (res == SPDRT_OK) {
        bench_work w = {NULL, bench_copy_kernel_record, NULL, &ck};
        res = bench_time(&b->gpu, &w, t, NULL);
        if (res == SPDRT_OK && bench_copy_kernel_check(&ck, err, sizeof err) != 0) {
            t->status = BENCH_FAILED;
            snprintf(t->note, sizeof t->note, "floor: %.240s", err);
        }
        bench_copy_kernel_destroy(&ck);
    }
    if (res != SPDRT_OK) {
        t->status = BENCH_FAILED;
        snprintf(t->note, sizeof t->note, "floor: %.240s", spdrt_last_error(b->ctx));
    }
    if (!b->ctx->hung) {
        spdrt__buffer_destroy(b->ctx, &wl.copy_src);
        spdrt__buffer_destroy(b->ctx, &wl.copy_dst);
    }
}

/* spdgen writes the job into its private folder; libspdrt loads it. */
static spdrt_conv *generate(bench *b, const bench_case *c, int exact, int f16, conv_row *row)
{
    char image[32], psf[32], out[BENCH_PATH_MAX + 16], plan[BENCH_PATH_MAX + 16], err[512];
    snprintf(image, sizeof image, "%ux%u", c->w, c->h);
    snprintf(psf, sizeof psf, "%ux%u", c->k, c->k);
    char extra[256], *save = NULL;
    char *argv[48] = {b->spdgen.path, "--conv", "--image", image, "--psf", psf, "--channels", "3", "--spectrum",
                      exact ? "exact" : "resampled", "--storage", f16 ? "f16" : "f32", "--format", "rgba16f"};
    int n = 14;
    snprintf(extra, sizeof extra, "%s", b->extra ? b->extra : "");
    for (char *a = strtok_r(extra, " ", &save); a && n < 42; a = strtok_r(NULL, " ", &save)) argv[n++] = a;
    argv[n++] = "--target", argv[n++] = "spirv", argv[n++] = "-o", argv[n++] = out, argv[n] = NULL;
    row->command[0] = '\0';
    for (int i = 1; argv[i] && strcmp(argv[i], "--target"); i++)
        snprintf(row->command + strlen(row->command), sizeof row->command - strlen(row->command), "%s%s",
                 i > 1 ? " " : "", argv[i]);
    snprintf(out, sizeof out, "%s/job.spv", b->spdgen.tmpdir);
    snprintf(plan, sizeof plan, "%s/job.convplan", b->spdgen.tmpdir);
    spdrt_conv *conv = NULL;
    spdrt_take_statistics(b->ctx, row->statistics, sizeof row->statistics); /* the floor's: not this job's */
    row->statistics[0] = '\0';
    if (bench_run_program(argv, NULL, err, sizeof err) != 0)
        snprintf(row->note, sizeof row->note, "spdgen failed %.200s", err);
    else if (spdrt_conv_load(b->ctx, plan, &conv) != SPDRT_OK)
        snprintf(row->note, sizeof row->note, "load: %.240s", spdrt_last_error(b->ctx)), conv = NULL;
    /* The registers (and spills) of each pass, where the driver says them. */
    spdrt_take_statistics(b->ctx, row->statistics, sizeof row->statistics);
    if (row->statistics[0]) fprintf(stderr, "  %s: %s\n", row->command, row->statistics);
    return conv;
}

/* The resampled pipeline on the CPU in double takes seconds at 1080p (a 4096x2048 FFT per
 * channel); the f32 and f16 jobs of a case share their input, PSF and so their reference:
 * the last one is kept. */
static struct {
    uint32_t key[8];
    double *values;
} last_reference;

static const double *resampled_reference(const spdrt_conv_info *i, const spdrt_conv_ref_config *rc, const float *in,
                                         const float *psf)
{
    uint32_t key[8] = {rc->width, rc->height, rc->psf_width, i->padded_width, i->padded_height, i->spectrum_width,
                       i->spectrum_height, (uint32_t)i->mirror};
    if (last_reference.values && !memcmp(key, last_reference.key, sizeof key)) return last_reference.values;
    free(last_reference.values);
    last_reference.values = malloc((size_t)rc->width * rc->height * 4 * sizeof(double));
    if (last_reference.values &&
        spdrt_conv_reference_resampled(rc, i->padded_width, i->padded_height, i->spectrum_width, i->spectrum_height,
                                       1.0, in, psf, last_reference.values) != 0) {
        free(last_reference.values);
        last_reference.values = NULL;
    }
    memcpy(last_reference.key, key, sizeof key);
    return last_reference.values;
}

/* The pipeline's output (RGBA, width x height) against the reference on SAMPLES pixels:
 * fills row's check figures. */
static void check(const spdrt_conv *conv, const bench_case *c, const float *in, const float *psf, const float *got,
                  conv_row *row)
{
    const spdrt_conv_info *i = spdrt_conv_describe(conv);
    spdrt_conv_ref_config rc = {c->w, c->h, c->k, c->k, 3, i->mirror, 1, INTENSITY, 0, 4, 4};
    const double *all = i->resampled ? resampled_reference(i, &rc, in, psf) : NULL;
    if (i->resampled && !all) {
        snprintf(row->note, sizeof row->note, "the reference: out of memory");
        return;
    }
    row->samples = SAMPLES;
    row->max_err = row->max_ref = 0;
    for (uint32_t s = 0; s < SAMPLES; s++) {
        /* Spread over the image, its corners and edges among them (where padding shows). */
        uint32_t x = s < 4 ? (s & 1) * (c->w - 1) : (s * 7919u + 3u) % c->w;
        uint32_t y = s < 4 ? (s >> 1) * (c->h - 1) : (s * 104729u + 5u) % c->h;
        double ref[4];
        if (all) memcpy(ref, all + ((size_t)y * c->w + x) * 4, sizeof ref);
        else spdrt_conv_reference_pixel(&rc, in, psf, x, y, ref);
        for (uint32_t ch = 0; ch < 4; ch++) {
            double v = got[((size_t)y * c->w + x) * 4 + ch];
            double e = isfinite(v) ? fabs(v - ref[ch]) : INFINITY;
            if (e > row->max_err) row->max_err = e;
            if (fabs(ref[ch]) > row->max_ref) row->max_ref = fabs(ref[ch]);
        }
    }
    /* docs/conv.md's bars, plus the rgba16f output's rounding (2^-10). */
    row->bound = (i->f16 ? SPDRT_CONV_BOUND_F16_MAX_REL : SPDRT_CONV_BOUND_MAX_REL) + 1.0 / 1024;
    row->checked = row->max_err <= row->bound * row->max_ref;
    if (!row->checked)
        snprintf(row->note, sizeof row->note, "check: max|err| / max|ref| %.3g over %u pixels, bound %.3g",
                 row->max_ref > 0 ? row->max_err / row->max_ref : row->max_err, SAMPLES, row->bound);
}

static spdrt_result job_create(bench *b, job *j, const bench_case *c)
{
    const spdrt_conv_info *i = spdrt_conv_describe(j->conv);
    VkFormat f = spdrt__format_vk(i->output_format);
    VkDeviceSize bytes = (VkDeviceSize)c->w * c->h * 8;
    const VkImageUsageFlags tr = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    spdrt_result res = spdrt__image_create(b->ctx, f, c->w, c->h, 1, 1, VK_IMAGE_USAGE_SAMPLED_BIT | tr, &j->in);
    if (res == SPDRT_OK) res = spdrt__image_view(b->ctx, &j->in, 0, 0, &j->in_view);
    if (res == SPDRT_OK) res = spdrt__image_create(b->ctx, f, c->w, c->h, 1, 1, VK_IMAGE_USAGE_STORAGE_BIT | tr, &j->out);
    if (res == SPDRT_OK) res = spdrt__image_view(b->ctx, &j->out, 0, 0, &j->out_view);
    if (res == SPDRT_OK) res = spdrt__buffer_create(b->ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &j->upload);
    if (res == SPDRT_OK) res = spdrt__buffer_create(b->ctx, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1, &j->readback);
    if (res == SPDRT_OK) {
        spdrt_conv_targets t;
        memset(&t, 0, sizeof t);
        t.input_view = j->in_view, t.output_view = j->out_view;
        res = spdrt_conv_bind(b->ctx, j->conv, &t);
    }
    return res;
}

static void job_release(spdrt_context *ctx, job *j)
{
    if (ctx->hung) return;
    if (j->in_view) vkDestroyImageView(ctx->device, j->in_view, NULL);
    if (j->out_view) vkDestroyImageView(ctx->device, j->out_view, NULL);
    spdrt__image_destroy(ctx, &j->in);
    spdrt__image_destroy(ctx, &j->out);
    spdrt__buffer_destroy(ctx, &j->upload);
    spdrt__buffer_destroy(ctx, &j->readback);
    spdrt_conv_destroy(ctx, j->conv);
}

static const char *const PASS_NAMES[3] = {"pass 1", "pass 2", "pass 3"};

static void run_job(bench *b, const bench_case *c, int exact, int f16, conv_row *row)
{
    job j;
    memset(&j, 0, sizeof j);
    memset(row, 0, sizeof *row);
    row->width = c->w, row->height = c->h, row->psf = c->k, row->exact = exact, row->f16 = f16;
    fprintf(stderr, "conv_bench: %ux%u, PSF %u, %s, %s\n", c->w, c->h, c->k, exact ? "exact" : "resampled",
            f16 ? "f16" : "f32");
    if (!(j.conv = generate(b, c, exact, f16, row))) return;
    const spdrt_conv_info *i = spdrt_conv_describe(j.conv);
    row->padded_width = i->padded_width, row->padded_height = i->padded_height;
    row->spectrum_width = i->spectrum_width, row->spectrum_height = i->spectrum_height;
    row->first_axis_y = i->first_axis_y;
    j.ctx = b->ctx;
    j.params = (spdrt_conv_params){c->w, c->h, 1, INTENSITY, 0, 0};
    size_t px = (size_t)c->w * c->h, kk = (size_t)c->k * c->k;
    float *in = malloc(px * 4 * sizeof *in), *got = malloc(px * 4 * sizeof *got), *psf = malloc(kk * 3 * sizeof *psf);
    spdrt_result res = in && got && psf ? job_create(b, &j, c) : SPDRT_ERROR_OUT_OF_MEMORY;
    if (res == SPDRT_OK) {
        /* HDR-like values in [0, 4), rounded to the rgba16f input's halves; a positive PSF,
         * normalized here so the reference sees what set_kernel used. */
        spdrt_random_floats(in, px * 4, 7, 0.0f, 4.0f);
        spdrt_conv_round_input(j.conv, in, px);
        for (size_t p = 0; p < px; p++) spdrt__texel_pack(SPDRT_RGBA16F, in + p * 4, (char *)j.upload.map + p * 8);
        spdrt_random_floats(psf, kk * 3, 9, 0.0f, 1.0f);
        for (uint32_t ch = 0; ch < 3; ch++) {
            double sum = 0;
            for (size_t k = ch; k < kk * 3; k += 3) sum += psf[k];
            for (size_t k = ch; k < kk * 3; k += 3) psf[k] = (float)(psf[k] / sum);
        }
        res = spdrt_conv_set_kernel(b->ctx, j.conv, psf, c->k, c->k, 0);
    }
    if (res == SPDRT_OK) res = bench_submit(b->ctx, record_setup, &j);
    if (res != SPDRT_OK) snprintf(row->note, sizeof row->note, "set-up: %.240s", spdrt_last_error(b->ctx));
    /* The pipeline first: it leaves the spectra each pass alone reads. */
    if (res == SPDRT_OK) {
        bench_work w = {NULL, record_pipeline, NULL, &j};
        res = bench_time(&b->gpu, &w, &row->pipeline, NULL);
    }
    pass_bytes(j.conv, c->w, c->h, row->bytes);
    for (uint32_t p = 0; p < 3 && res == SPDRT_OK; p++) {
        bench_work w = {NULL, record_pass, NULL, &j};
        j.pass = p;
        res = bench_time(&b->gpu, &w, &row->pass[p], NULL);
        if (res == SPDRT_OK) floor_time(b, row->bytes[p], &row->floor_bytes[p], &row->floor[p]);
    }
    if (res == SPDRT_OK) res = j.recorded;
    if (res == SPDRT_OK) res = bench_submit(b->ctx, record_check, &j);
    if (res == SPDRT_OK) res = j.recorded;
    if (res == SPDRT_OK) {
        for (size_t p = 0; p < px; p++) spdrt__texel_unpack(SPDRT_RGBA16F, (const char *)j.readback.map + p * 8, got + p * 4);
        check(j.conv, c, in, psf, got, row);
    } else if (!row->note[0]) {
        snprintf(row->note, sizeof row->note, "%.250s", spdrt_last_error(b->ctx));
    }
    for (uint32_t p = 0; p < 3; p++)
        if (row->pass[p].status == BENCH_FAILED && !row->note[0])
            snprintf(row->note, sizeof row->note, "%s: %.240s", PASS_NAMES[p], row->pass[p].note);
    job_release(b->ctx, &j);
    free(in), free(got), free(psf);
}

int main(int argc, char **argv)
{
    options o;
    bench b;
    static conv_report r;
    char err[1024], exe_dir[BENCH_PATH_MAX], path[BENCH_PATH_MAX + 16];
    int rc = parse(argc, argv, &o);
    if (rc) return rc == 1 ? 0 : 2;
    memset(&b, 0, sizeof b);
    if (bench_exe_dir(argv[0], exe_dir, sizeof exe_dir) != 0) {
        fprintf(stderr, "conv_bench: cannot tell where this program lives\n");
        return 1;
    }
    spdrt_options ro = {.validation = o.common.validation, .device = o.common.device, .capture_statistics = 1};
    if (spdrt_create(&ro, &b.ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "conv_bench: %s\n", err);
        return 1;
    }
    bench_gpu_config gc;
    bench_run_info_fill(&r.run, b.ctx, &o.common, "conv_bench");
    bench_run_info_gpu_config(&r.run, &gc);
    snprintf(path, sizeof path, "%s/copy.spv", exe_dir);
    if (!(b.copy_spv = bench_read_spirv(path, &b.copy_words, err, sizeof err))) {
        snprintf(r.error, sizeof r.error, "%.400s (run make bench)", err);
    } else if (bench_spdgen_open(&b.spdgen, o.common.spdgen_path, exe_dir, err, sizeof err) != 0) {
        snprintf(r.error, sizeof r.error, "%.500s", err);
    } else {
        snprintf(r.run.spdgen_version, sizeof r.run.spdgen_version, "%s", b.spdgen.version);
        if (bench_gpu_init(&b.gpu, b.ctx, &gc, exe_dir) != SPDRT_OK) {
            snprintf(r.error, sizeof r.error, "%.500s", spdrt_last_error(b.ctx));
        } else {
            bench_run_info_heat(&r.run, &b.gpu, "conv_bench");
            b.extra = o.extra;
            snprintf(r.extra, sizeof r.extra, "%s", o.extra);
            for (uint32_t c = 0; c < o.case_count && !b.ctx->hung; c++)
                for (int e = 0; e < 2; e++)
                    for (int h = 0; h < 2; h++)
                        if ((o.spectra >> e & 1) && (o.storages >> h & 1))
                            run_job(&b, &o.cases[c], e, h, &r.rows[r.row_count++]);
            if (!b.ctx->hung) bench_gpu_release(&b.gpu);
        }
        bench_spdgen_close(&b.spdgen);
    }
    free(b.copy_spv);
    if (o.common.validation && spdrt_validation_messages(b.ctx) && !r.error[0])
        snprintf(r.error, sizeof r.error, "the validation layer reported %u message(s) (printed above)",
                 spdrt_validation_messages(b.ctx));
    conv_report_markdown(&r, stdout);
    int failures = r.error[0] != 0;
    for (uint32_t k = 0; k < r.row_count; k++) failures += !r.rows[k].checked;
    failures += bench_write_file(o.common.markdown_path, &r, conv_report_markdown) != 0;
    failures += bench_write_file(o.common.json_path, &r, conv_report_json) != 0;
    spdrt_destroy(b.ctx);
    free(last_reference.values);
    if (failures) fprintf(stderr, "conv_bench: %d failure(s); see the notes under the table\n", failures);
    return failures ? 1 : 0;
}
