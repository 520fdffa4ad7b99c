/* dmap_bench.c: the speed of spdgen --dmap (issue 25). See bench/README.md, "The density-map
 * benchmark".
 *
 * For every render size (default 1920x1080 and 3840x2160): the floor, a compute copy that
 * reads the bytes the content-adaptive generator reads (the previous frame as RGBA16F and
 * its motion as RG16F, 12 bytes a pixel) and writes the map's; every generator variant
 * (shading-rate attachments at texel 8, 16, 32, density maps at 32 and 64, content alone
 * and with foveation, --subgroup 0 and the device's size, --batch 1, 2 and 4 (loads in
 * flight per invocation), --fence (the next batch's loads wait for a barrier), --ring last
 * (the ring block in a batch of its own), --fetch blocks and strips (rows once), foveation
 * alone; each one's driver statistics, registers among them, to stderr where the driver
 * gives them); and the SPD of the same colour image (rgba16f mean, the whole chain), which
 * reads those colour bytes and writes a mip chain. Timed with bench/gpu.c's harness (heat, a
 * scrub before each repetition, GPU timestamps, medians); every map is checked against the
 * CPU reference in the same run. The tables go to stdout at the end (and to --markdown, the
 * figures to --json), progress to stderr; exit 0 only if every check passed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "dmap/dmap_internal.h"
#include "gpu.h"
#include "kernels.h"
#include "report_cells.h"
#include "run_info.h"
#include "tools.h"

#define MAX_SIZES 8

typedef struct {
    bench_common_options common;
    uint32_t sizes[MAX_SIZES][2];
    uint32_t size_count;
} options;

static void help(void)
{
    printf("usage: dmap_bench [options]\n\n"
           "Times spdgen --dmap (density maps and shading-rate attachments) against a compute\n"
           "copy of the bytes the content-adaptive generator reads, beside the SPD of the same\n"
           "image, on the Vulkan device; checks every map against the CPU reference; prints a\n"
           "markdown table. Exit 0 only if every check passed.\n\n"
           "  --sizes LIST      render sizes WxH, comma-separated (default 1920x1080,3840x2160)\n"
           "  --reps N, --warmup N, --b2b N, --scrub-mib N, --scrub-mode M, --heat-ms N\n"
           "                    as spd_bench (bench/README.md)\n"
           "  --quick           smoke run: 640x360, 3 reps, 1 warm-up, 8 MiB scrub, 10 ms heat\n"
           BENCH_HELP_COMMON);
}

static int add_size(const char *token, void *user)
{
    options *o = user;
    uint32_t w, h;
    if (o->size_count == MAX_SIZES || bench_parse_size(token, 16384, 0, &w, &h)) return -1;
    o->sizes[o->size_count][0] = w, o->sizes[o->size_count][1] = h;
    o->size_count++;
    return 0;
}

static int parse_sizes(const char *list, options *o)
{
    o->size_count = 0;
    return bench_each_item(list, add_size, o);
}

/* 0: run; 1: --help was printed; 2: usage error, printed. */
static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        int common = bench_common_option(&o->common, "dmap_bench", help, argc, argv, &i);
        if (common != BENCH_ARG_OWN) {
            if (common != BENCH_ARG_TAKEN) return common;
        } else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            if (parse_sizes(argv[++i], o))
                return bench_usage("dmap_bench", "--sizes", argv[i], "WxH, 1..16384 a side, at most 8");
        } else {
            return bench_usage("dmap_bench", argv[i], NULL, BENCH_MISSING_VALUE);
        }
    }
    if (!o->size_count) {
        o->size_count = o->common.quick ? 1 : 2;
        o->sizes[0][0] = o->common.quick ? 640 : 1920, o->sizes[0][1] = o->common.quick ? 360 : 1080;
        o->sizes[1][0] = 3840, o->sizes[1][1] = 2160;
    }
    bench_timing_options quick = {1, 3, 2, 10, 8ull << 20, 0, 0}, full = {3, 19, 10, 200, 256ull << 20, 0, 0};
    bench_timing_defaults(&o->common.timing, o->common.quick ? quick : full);
    return 0;
}

/* What the JSON report holds: per size, the floors, the SPD and every variant's row. */
#define MAX_VARIANTS 32
typedef struct {
    char command[256];
    double us;     /* median; < 0: not timed (null in the JSON) */
    int exact;     /* the map matched the CPU reference */
} variant_row;

typedef struct {
    uint32_t width, height;
    uint64_t read_bytes;
    double floor_us, spd_us, fetch_us[2]; /* < 0: failed (null in the JSON) */
    char spd_command[256];
    variant_row rows[MAX_VARIANTS];
    uint32_t row_count;
} size_record;

typedef struct {
    spdrt_context *ctx;
    bench_gpu gpu;
    bench_spdgen spdgen;
    const char *exe_dir;
    int failures;
    FILE *md;                    /* the markdown report, printed on stdout at the end */
    bench_run_info run;
    size_record sizes[MAX_SIZES];
    uint32_t size_count;
} bench;

/* The variants: a configuration (kind, texel, views, foveation, content, coarser, max_rate,
 * subgroup (UINT32_MAX: the device's), rate_map), --batch (0: foveation alone, none),
 * --fetch, --fence and --ring last. The texel-16 attachment with shared-memory maxima runs
 * at every --batch, with and without --fence and --ring last, and with --fetch strips, so
 * one run picks them; beside it the device's shuffles (unfenced and fenced) and --fetch rows
 * once (an earlier run found rows 46-53% of the floor everywhere and the shuffles 7-10
 * points behind, bench/results: the rest of those rows were dropped). The other
 * configurations run the defaults, texel 8 and 32 and the 64-pixel density map also strips,
 * and --fetch columns (with shuffles in subgroups of at least 8) where it applies (texels of 16
 * and more); --inputs f16 (the bench's images are RGBA16F and RG16F) beside blocks and columns. */
typedef struct {
    spdrt_dmap_gen_config c;
    uint32_t batch;
    const char *fetch;
    int fence;
    int ring_last;
    int half_inputs; /* --inputs f16 */
} variant_config;

#define CONTENT16(subgroup) {SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, subgroup, 0}
static const variant_config VARIANTS[] = {
    {CONTENT16(0), 4, "blocks", 0, 0, 0},
    {CONTENT16(0), 4, "blocks", 0, 1, 0},
    {CONTENT16(0), 4, "blocks", 1, 1, 0},
    {CONTENT16(0), 2, "blocks", 0, 0, 0},
    {CONTENT16(0), 2, "blocks", 1, 0, 0},
    {CONTENT16(0), 1, "blocks", 1, 0, 0},
    {CONTENT16(0), 4, "strips", 0, 0, 0},
    {CONTENT16(0), 4, "strips", 1, 1, 0},
    {CONTENT16(0), 2, "strips", 1, 0, 0},
    {CONTENT16(8), 4, "columns", 0, 0, 0},
    {CONTENT16(0), 4, "blocks", 0, 0, 1},
    {CONTENT16(8), 4, "columns", 0, 0, 1},
    {CONTENT16(UINT32_MAX), 4, "blocks", 0, 0, 0},
    {CONTENT16(UINT32_MAX), 2, "blocks", 1, 0, 0},
    {CONTENT16(0), 4, "rows", 0, 0, 0},
    {{SPDRT_DMAP_FSR, 8, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0}, 4, "blocks", 0, 0, 0},
    {{SPDRT_DMAP_FSR, 8, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0}, 4, "strips", 0, 0, 0},
    {{SPDRT_DMAP_FSR, 32, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0}, 4, "blocks", 0, 0, 0},
    {{SPDRT_DMAP_FSR, 32, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0}, 4, "strips", 0, 0, 0},
    {{SPDRT_DMAP_FSR, 32, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 8, 0}, 4, "columns", 0, 0, 0},
    {{SPDRT_DMAP_FSR, 32, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 8, 0}, 4, "columns", 0, 0, 1},
    {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 4, 0, 0}, 4, "blocks", 0, 0, 0},
    {{SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 16, 0, 0}, 4, "blocks", 0, 0, 0},
    {{SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 16, 8, 0}, 4, "columns", 0, 0, 0},
    {{SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 16, 8, 0}, 4, "columns", 0, 0, 1},
    {{SPDRT_DMAP_FDM, 64, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 16, 0, 0}, 4, "blocks", 0, 0, 0},
    {{SPDRT_DMAP_FDM, 64, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 16, 0, 0}, 4, "strips", 0, 0, 0},
    {{SPDRT_DMAP_FDM, 64, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 16, 8, 0}, 4, "columns", 0, 0, 0},
    {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_GAZE, 0, 0, 4, 0, 0}, 0, NULL, 0, 0, 0},
};
#undef CONTENT16
_Static_assert(sizeof VARIANTS / sizeof *VARIANTS <= MAX_VARIANTS, "a size_record holds every variant's row");

/* spdgen --dmap for a variant; the arguments into command. */
static uint32_t *generate(bench *b, const spdrt_dmap_gen_config *c, const variant_config *v, char *command,
                          size_t size, size_t *words)
{
    char texel[16], subgroup[16], batches[16], out[BENCH_PATH_MAX + 16], err[512];
    char *argv[28] = {b->spdgen.path, "--dmap", c->kind == SPDRT_DMAP_FDM ? "fdm" : "fsr", "--texel", texel,
                      "--foveation", c->foveation == SPDRT_DMAP_FOVEATION_GAZE ? "gaze" : "off"};
    int n = 7;
    snprintf(texel, sizeof texel, "%u", c->texel);
    snprintf(subgroup, sizeof subgroup, "%u", c->subgroup);
    snprintf(batches, sizeof batches, "%u", v->batch);
    if (c->content) argv[n++] = "--content", argv[n++] = "--subgroup", argv[n++] = subgroup;
    if (c->content && v->batch) argv[n++] = "--batch", argv[n++] = batches;
    if (c->content) argv[n++] = "--fetch", argv[n++] = (char *)v->fetch;
    if (c->content && v->fence) argv[n++] = "--fence";
    if (c->content && v->ring_last) argv[n++] = "--ring", argv[n++] = "last";
    if (c->content && v->half_inputs) argv[n++] = "--inputs", argv[n++] = "f16";
    command[0] = '\0';
    for (int i = 1; i < n; i++)
        snprintf(command + strlen(command), size - strlen(command), "%s%s", i > 1 ? " " : "", argv[i]);
    snprintf(out, sizeof out, "%s/dmap.spv", b->spdgen.tmpdir);
    argv[n++] = "--target", argv[n++] = "spirv", argv[n++] = "-o", argv[n++] = out, argv[n] = NULL;
    if (bench_run_program(argv, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "dmap_bench: spdgen %s failed %s\n", command, err);
        return NULL;
    }
    uint32_t *code = bench_read_spirv(out, words, err, sizeof err);
    remove(out);
    return code;
}

/* The floor: a copy reading read_bytes and writing write_bytes (both rounded up to 16). */
static double floor_us(bench *b, uint64_t read_bytes, uint64_t write_bytes)
{
    char err[512], path[BENCH_PATH_MAX + 16];
    size_t words;
    bench_workload wl;
    bench_copy_kernel ck;
    bench_timing t;
    memset(&wl, 0, sizeof wl);
    memset(&t, 0, sizeof t);
    read_bytes = (read_bytes + 15) / 16 * 16, write_bytes = (write_bytes + 15) / 16 * 16;
    wl.ctx = b->ctx;
    snprintf(path, sizeof path, "%s/copy.spv", b->exe_dir);
    uint32_t *spv = bench_read_spirv(path, &words, err, sizeof err);
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    int good = spv && spdrt__buffer_create(b->ctx, read_bytes, usage, 0, &wl.copy_src) == SPDRT_OK &&
               spdrt__buffer_create(b->ctx, write_bytes, usage, 0, &wl.copy_dst) == SPDRT_OK &&
               bench_copy_kernel_create(&wl, spv, words, read_bytes, write_bytes, &ck) == SPDRT_OK;
    if (good) {
        bench_work w = {NULL, bench_copy_kernel_record, NULL, &ck};
        good = bench_time(&b->gpu, &w, &t, NULL) == SPDRT_OK;
        bench_copy_kernel_destroy(&ck);
    }
    if (!good) fprintf(stderr, "dmap_bench: the floor failed: %s\n", spv ? spdrt_last_error(b->ctx) : err);
    spdrt__buffer_destroy(b->ctx, &wl.copy_src);
    spdrt__buffer_destroy(b->ctx, &wl.copy_dst);
    free(spv);
    return good ? t.median_us : -1.0;
}

/* A texel-load floor (bench/shaders/dmap_fetch.comp, `name`.spv) on the generator's images,
 * run as spdgen --dmap fsr --texel 16 --content would be (its grid and bindings): timed only,
 * its map is no map. */
static double fetch_us(bench *b, const char *name, uint32_t w, uint32_t h, const float *colour,
                       const float *motion)
{
    char err[512], path[BENCH_PATH_MAX + 32];
    size_t words;
    const spdrt_dmap_gen_config c = {SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0};
    spdrt_dmap_gen_params p;
    spdrt_dmap_gen_defaults(&c, w, h, &p);
    dmap_gen_job *job = NULL;
    bench_timing t;
    memset(&t, 0, sizeof t);
    snprintf(path, sizeof path, "%s/%s.spv", b->exe_dir, name);
    uint32_t *spv = bench_read_spirv(path, &words, err, sizeof err);
    spdrt_take_statistics(b->ctx, NULL, 0);
    int good = spv && spdrt__dmap_gen_prepare(b->ctx, spv, words, &c, &p, colour, motion, &job) == SPDRT_OK;
    bench_take_statistics(b->ctx, name, &t);
    if (good) {
        bench_work work = {NULL, spdrt__dmap_gen_record, NULL, job};
        good = bench_time(&b->gpu, &work, &t, NULL) == SPDRT_OK;
    }
    if (!good) fprintf(stderr, "dmap_bench: %s failed: %s\n", name, spv ? spdrt_last_error(b->ctx) : err);
    spdrt__dmap_gen_release(b->ctx, job);
    free(spv);
    return good ? t.median_us : -1.0;
}

/* The SPD of the colour image: rgba16f mean, the whole chain (up to 12 levels). */
static double spd_us(bench *b, uint32_t w, uint32_t h, uint32_t subgroup, char *command, size_t size)
{
    uint32_t levels = 0, longest = w > h ? w : h;
    while ((2u << levels) <= longest && levels < 12) levels++;
    bench_workload wl;
    bench_spd_kernel k;
    bench_timing t;
    bench_spd_options so;
    char err[512];
    size_t words;
    uint32_t *spv = NULL;
    memset(&so, 0, sizeof so);
    memset(&t, 0, sizeof t);
    so.subgroup = subgroup;
    int good = levels > 0 && bench_workload_create(b->ctx, w, h, SPDRT_RGBA16F, levels, 64, 1, &wl) == SPDRT_OK;
    good = good && bench_spdgen_spd(&b->spdgen, "mean", "rgba16f", &so, "4096x4096", levels, &spv, &words, command,
                                    size, err, sizeof err) == 0;
    if (good && bench_spd_kernel_create(&wl, spv, words, levels, subgroup, 64, 0, &k) == SPDRT_OK) {
        bench_work work = {NULL, bench_spd_kernel_record, NULL, &k};
        good = bench_workload_clear(&wl) == SPDRT_OK && bench_time(&b->gpu, &work, &t, NULL) == SPDRT_OK;
        bench_spd_kernel_destroy(&k);
    } else {
        good = 0;
    }
    if (levels > 0) bench_workload_destroy(&wl);
    free(spv);
    return good ? t.median_us : -1.0;
}

/* One variant: generated, prepared, timed, checked. Prints its table row. */
static void variant(bench *b, const variant_config *v, uint32_t w, uint32_t h, const float *colour,
                    const float *motion, double floor)
{
    spdrt_dmap_gen_config c = v->c;
    char command[256];
    size_t words;
    if (c.subgroup == UINT32_MAX) c.subgroup = spdrt_device(b->ctx)->subgroup_size;
    if (c.subgroup > 64) c.subgroup = 0;
    uint32_t *spv = generate(b, &c, v, command, sizeof command, &words);
    spdrt_dmap_gen_params p;
    spdrt_dmap_gen_defaults(&c, w, h, &p);
    dmap_gen_job *job = NULL;
    bench_timing t;
    memset(&t, 0, sizeof t);
    spdrt_dmap_extent e = spdrt_dmap_gen_extent(&c, w, h);
    size_t bytes = (size_t)e.width * e.height * spdrt_dmap_gen_texel_bytes(&c);
    uint8_t *gpu = malloc(bytes), *ref = malloc(bytes);
    spdrt_take_statistics(b->ctx, NULL, 0);
    int timed = spv && gpu && ref &&
                spdrt__dmap_gen_prepare(b->ctx, spv, words, &c, &p, colour, motion, &job) == SPDRT_OK;
    bench_take_statistics(b->ctx, command, &t); /* registers per invocation: workgroups per SM */
    if (timed) {
        bench_work work = {NULL, spdrt__dmap_gen_record, NULL, job};
        timed = bench_time(&b->gpu, &work, &t, NULL) == SPDRT_OK;
    }
    int checked = timed && spdrt__dmap_gen_read(b->ctx, job, 1, gpu, NULL) == SPDRT_OK &&
                  spdrt_dmap_gen_reference(&c, &p, colour, motion, ref) == 0 && !memcmp(gpu, ref, bytes);
    if (!checked) {
        b->failures++;
        fprintf(stderr, "dmap_bench: %s at %ux%u: %s\n", command, w, h,
                timed ? "the map differs from the CPU reference" : spdrt_last_error(b->ctx));
    }
    double read = (double)w * h * dmap_gen_read_bytes_per_pixel(&c);
    char share[32] = "-";
    if (c.content && floor > 0) snprintf(share, sizeof share, "%.1f%%", 100.0 * floor / t.median_us);
    if (timed)
        fprintf(b->md, "| %s | %.2f | %.2f | %s | %s |\n", command, t.median_us, read / t.median_us / 1e3, share,
                checked ? "exact" : "FAILED");
    size_record *r = &b->sizes[b->size_count - 1];
    if (r->row_count < MAX_VARIANTS) {
        variant_row *row = &r->rows[r->row_count++];
        snprintf(row->command, sizeof row->command, "%s", command);
        row->us = timed ? t.median_us : -1.0;
        row->exact = checked;
    }
    spdrt__dmap_gen_release(b->ctx, job);
    free(spv);
    free(gpu);
    free(ref);
}

static void size_group(bench *b, uint32_t w, uint32_t h)
{
    size_t pixels = (size_t)w * h;
    float *colour = malloc(pixels * 4 * sizeof *colour), *motion = malloc(pixels * 2 * sizeof *motion);
    if (!colour || !motion) {
        b->failures++;
        free(colour);
        free(motion);
        return;
    }
    spdrt_dmap_scene(w, h, 1, 1, colour, motion);
    double t0 = bench_now_s();
    fprintf(stderr, "dmap_bench: %ux%u ...\n", w, h);
    uint64_t read = (uint64_t)pixels * 12, write = (uint64_t)((w + 7) / 8) * ((h + 7) / 8);
    double floor = floor_us(b, read, write);
    char spd_command[256] = "";
    uint32_t sg = spdrt_device(b->ctx)->subgroup_size;
    double spd = spd_us(b, w, h, sg >= 8 && sg <= 64 ? sg : 0, spd_command, sizeof spd_command);
    size_record *r = &b->sizes[b->size_count++];
    r->width = w, r->height = h, r->read_bytes = read, r->floor_us = floor, r->spd_us = spd;
    snprintf(r->spd_command, sizeof r->spd_command, "%s", spd_command);
    fprintf(b->md, "\n### %ux%u: %.1f MB read (RGBA16F colour + RG16F motion)\n\n", w, h, (double)read / 1e6);
    fprintf(b->md, "| what | median us | GB/s read | of the floor | map |\n|---|---|---|---|---|\n");
    if (floor > 0)
        fprintf(b->md, "| floor: compute copy of the bytes read | %.2f | %.2f | 100%% | |\n", floor,
                read / floor / 1e3);
    else b->failures++;
    if (spd > 0)
        fprintf(b->md, "| SPD of the colour image: %s | %.2f | %.2f | %.1f%% | (spd_bench checks it) |\n",
                spd_command, spd, (double)pixels * 8 / spd / 1e3, floor > 0 ? 100.0 * floor * 8.0 / 12.0 / spd : 0.0);
    static const char *const fetches[][2] = {
        {"dmap_fetch", "texel-load floor: every colour and motion texel read once, all loads in flight"},
        {"dmap_gather", "texel-load floor, gathered: the colour read where the motion points"}};
    for (int i = 0; i < 2; i++) {
        double us = r->fetch_us[i] = fetch_us(b, fetches[i][0], w, h, colour, motion);
        if (us > 0)
            fprintf(b->md, "| %s (bench/shaders/dmap_fetch.comp) | %.2f | %.2f | %.1f%% | (not a map) |\n",
                    fetches[i][1], us, read / us / 1e3, floor > 0 ? 100.0 * floor / us : 0.0);
        else b->failures++;
    }
    for (size_t i = 0; i < sizeof VARIANTS / sizeof *VARIANTS; i++)
        variant(b, &VARIANTS[i], w, h, colour, motion, floor);
    fprintf(stderr, "dmap_bench: %ux%u took %.1f s\n", w, h, bench_now_s() - t0);
    free(colour);
    free(motion);
}

/* The markdown report: the text size_group and variant wrote into b->md. */
static void write_markdown(const void *text, FILE *out)
{
    fputs(text, out);
}

/* A time in microseconds, or null where it failed (< 0). */
static void json_us(FILE *out, double us)
{
    if (us < 0) fputs("null", out);
    else fprintf(out, "%.3f", us);
}

/* The JSON report: the run, then per size its floors, the SPD and every variant. */
static void write_json(const void *report, FILE *out)
{
    const bench *b = report;
    bench_run_info_json(&b->run, "dmap_bench", NULL, out);
    fprintf(out, "  \"failures\": %d,\n  \"sizes\": [", b->failures);
    for (uint32_t i = 0; i < b->size_count; i++) {
        const size_record *r = &b->sizes[i];
        fprintf(out, "%s\n    {\"width\": %u, \"height\": %u, \"read_bytes\": %llu, \"floor_us\": ",
                i ? "," : "", r->width, r->height, (unsigned long long)r->read_bytes);
        json_us(out, r->floor_us);
        fprintf(out, ", \"spd\": {\"command\": ");
        bench_json_string(out, r->spd_command);
        fprintf(out, ", \"us\": ");
        json_us(out, r->spd_us);
        fprintf(out, "}, \"fetch_us\": ");
        json_us(out, r->fetch_us[0]);
        fprintf(out, ", \"gather_us\": ");
        json_us(out, r->fetch_us[1]);
        fprintf(out, ",\n     \"variants\": [");
        for (uint32_t k = 0; k < r->row_count; k++) {
            const variant_row *v = &r->rows[k];
            fprintf(out, "%s\n      {\"command\": ", k ? "," : "");
            bench_json_string(out, v->command);
            fprintf(out, ", \"median_us\": ");
            json_us(out, v->us);
            fprintf(out, ", \"map\": \"%s\"}", v->us < 0 ? "not run" : v->exact ? "exact" : "failed");
        }
        fprintf(out, "]}");
    }
    fprintf(out, "\n  ]\n}\n");
}

int main(int argc, char **argv)
{
    options o;
    bench b;
    char err[1024], exe_dir[BENCH_PATH_MAX];
    int rc = parse(argc, argv, &o);
    if (rc) return rc == 1 ? 0 : 2;
    memset(&b, 0, sizeof b);
    if (bench_exe_dir(argv[0], exe_dir, sizeof exe_dir) != 0) {
        fprintf(stderr, "dmap_bench: cannot tell where this program lives\n");
        return 1;
    }
    b.exe_dir = exe_dir;
    spdrt_options ro = {.validation = o.common.validation, .device = o.common.device, .capture_statistics = 1};
    if (spdrt_create(&ro, &b.ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "dmap_bench: %s\n", err);
        return 1;
    }
    bench_run_info *run = &b.run;
    bench_gpu_config gc;
    char *text = NULL;
    size_t text_size = 0;
    bench_run_info_fill(run, b.ctx, &o.common, "dmap_bench");
    bench_run_info_gpu_config(run, &gc);
    b.md = open_memstream(&text, &text_size);
    if (!b.md) {
        fprintf(stderr, "dmap_bench: out of memory\n");
        spdrt_destroy(b.ctx);
        return 1;
    }
    if (bench_spdgen_open(&b.spdgen, o.common.spdgen_path, exe_dir, err, sizeof err) != 0) {
        fprintf(stderr, "dmap_bench: %s\n", err);
        spdrt_destroy(b.ctx);
        return 1;
    }
    if (bench_gpu_init(&b.gpu, b.ctx, &gc, exe_dir) != SPDRT_OK) {
        fprintf(stderr, "dmap_bench: %s\n", spdrt_last_error(b.ctx));
        b.failures++;
    } else {
        bench_run_info_heat(run, &b.gpu, "dmap_bench");
        snprintf(run->spdgen_version, sizeof run->spdgen_version, "%s", b.spdgen.version);
        fprintf(b.md, "# spdgen --dmap on %s (%s), %s\n\n", run->device, run->driver, b.spdgen.version);
        bench_run_info_method(run, b.md);
        fprintf(b.md, "\nGB/s read: the colour and motion bytes the content-adaptive generator reads, over "
                "its median time (foveation alone reads nothing). The floor reads the same bytes and "
                "writes the map's; the SPD's share is of the floor scaled to the colour bytes it "
                "reads.\n");
        for (uint32_t i = 0; i < o.size_count; i++) size_group(&b, o.sizes[i][0], o.sizes[i][1]);
        if (!b.ctx->hung) bench_gpu_release(&b.gpu);
    }
    if (o.common.validation && spdrt_validation_messages(b.ctx)) b.failures++;
    fclose(b.md);
    fputs(text, stdout);
    if (bench_write_file(o.common.markdown_path, text, write_markdown) != 0) b.failures++;
    if (bench_write_file(o.common.json_path, &b, write_json) != 0) b.failures++;
    free(text);
    bench_spdgen_close(&b.spdgen);
    spdrt_destroy(b.ctx);
    if (b.failures) fprintf(stderr, "dmap_bench: %d failure(s)\n", b.failures);
    return b.failures ? 1 : 0;
}
