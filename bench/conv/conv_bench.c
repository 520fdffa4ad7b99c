/* conv_bench.c: the speed of spdgen --conv (issue 24); see conv_bench.h and bench/README.md,
 * "The convolution benchmark". Command line, device, the sweep (every case x spectrum x
 * storage x subgroup), the reports, the exit status: 0 only if every job ran and every
 * check passed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv/conv_bench.h"
#include "report_cells.h"

static void help(void)
{
    printf("usage: conv_bench [options]\n\n"
           "Times spdgen --conv (an image convolved with a PSF through FFTs: 3 channels, rgba16f\n"
           "in and out, the composite) on the Vulkan device: the pipeline and each pass alone,\n"
           "each beside a compute copy of the same bytes; checks every job's output against the\n"
           "CPU reference; prints a markdown table. Exit 0 only if every check passed.\n\n"
           "  --cases LIST      WxH:K (image, K x K PSF), comma-separated, at most 8\n"
           "                    (default 1280x720:256,1920x1080:512)\n"
           "  --spectrum LIST   resampled, exact (default both)\n"
           "  --storage LIST    f32, f16: the spectra between the passes (default both)\n"
           "  --subgroups LIST  spdgen --subgroup values, 0 4 8 16 32 64 or `device` (the\n"
           "                    device's size) (default 0,device)\n"
           "  --reps N, --warmup N, --b2b N, --scrub-mib N, --scrub-mode M, --heat-ms N\n"
           "                    as spd_bench (bench/README.md)\n"
           "  --passes MODE     alone: each pass row times that dispatch alone, reading what\n"
           "                    the pipeline left; after: the passes before it run untimed\n"
           "                    first in each repetition, so it finds the caches as in the\n"
           "                    pipeline (default alone)\n"
           "  --variants LIST   extra spdgen flags per variant, `;`-separated, e.g.\n"
           "                    \"--columns-per-wg 2;--columns-per-wg 4\" (`-` for the\n"
           "                    defaults), at most 8 (default: the defaults only)\n"
           "  --quick           smoke run: 160x90:31, resampled, 3 reps, 1 warm-up, 8 MiB\n"
           "                    scrub, 10 ms heat\n"
           BENCH_HELP_COMMON);
}

static int add_case(const char *token, void *user)
{
    conv_options *o = user;
    conv_case c;
    char size[64];
    const char *colon = strchr(token, ':');
    if (o->case_count == CONV_BENCH_MAX_CASES || !colon || (size_t)(colon - token) >= sizeof size)
        return -1;
    snprintf(size, sizeof size, "%.*s", (int)(colon - token), token);
    if (bench_parse_size(size, 16384, 0, &c.width, &c.height) || bench_parse_u32(colon + 1, 16384, &c.psf) ||
        !c.psf)
        return -1;
    o->cases[o->case_count++] = c;
    return 0;
}

static int add_spectrum(const char *token, void *user)
{
    conv_options *o = user;
    int v = !strcmp(token, "resampled") ? 0 : !strcmp(token, "exact") ? 1 : -1;
    if (v < 0 || o->spectrum_count == 2) return -1;
    o->spectra[o->spectrum_count++] = v;
    return 0;
}

static int add_storage(const char *token, void *user)
{
    conv_options *o = user;
    int v = !strcmp(token, "f32") ? 0 : !strcmp(token, "f16") ? 1 : -1;
    if (v < 0 || o->storage_count == 2) return -1;
    o->storages[o->storage_count++] = v;
    return 0;
}

static int add_subgroup(const char *token, void *user)
{
    conv_options *o = user;
    uint32_t s;
    if (o->subgroup_count == 4) return -1;
    if (!strcmp(token, "device")) s = UINT32_MAX;
    else if (bench_parse_u32(token, 64, &s) || !(s == 0 || s == 4 || (s >= 8 && !(s & (s - 1))))) return -1;
    o->subgroups[o->subgroup_count++] = s;
    return 0;
}

/* A variant: words of spdgen flags (each starting with --, or numbers), or - for none. */
static int add_variant(const char *token, void *user)
{
    conv_options *o = user;
    if (o->variant_count == 8 || strlen(token) >= sizeof o->variants[0]) return -1;
    if (strcmp(token, "-") && strncmp(token, "--", 2)) return -1;
    snprintf(o->variants[o->variant_count++], sizeof o->variants[0], "%s", strcmp(token, "-") ? token : "");
    return 0;
}

/* 0: run; 1: --help was printed; 2: usage error, printed. */
static int parse(int argc, char **argv, conv_options *o)
{
    static const struct {
        const char *flag, *allowed;
        int (*item)(const char *, void *);
    } lists[] = {
        {"--cases", "WxH:K, each 1..16384, at most 8", add_case},
        {"--spectrum", "resampled, exact", add_spectrum},
        {"--storage", "f32, f16", add_storage},
        {"--subgroups", "0, 4, 8, 16, 32, 64 or device, at most 4", add_subgroup},
    };
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        int common = bench_common_option(&o->common, "conv_bench", help, argc, argv, &i), own = 0;
        if (common != BENCH_ARG_OWN) {
            if (common != BENCH_ARG_TAKEN) return common;
            continue;
        }
        if (!strcmp(argv[i], "--passes") && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "alone") && strcmp(argv[i], "after"))
                return bench_usage("conv_bench", "--passes", argv[i], "alone, after");
            o->passes_after = !strcmp(argv[i], "after");
            continue;
        }
        if (!strcmp(argv[i], "--variants") && i + 1 < argc) {
            char list[8 * 160], *save = NULL;
            snprintf(list, sizeof list, "%s", argv[++i]);
            for (char *t = strtok_r(list, ";", &save); t; t = strtok_r(NULL, ";", &save))
                if (add_variant(t, o))
                    return bench_usage("conv_bench", "--variants", argv[i],
                                       "spdgen flags per variant (--...), or -, `;`-separated, at most 8");
            if (!o->variant_count)
                return bench_usage("conv_bench", "--variants", argv[i], "at least one variant");
            continue;
        }
        for (size_t l = 0; l < sizeof lists / sizeof *lists && !own; l++) {
            if (strcmp(argv[i], lists[l].flag) || i + 1 >= argc) continue;
            own = 1;
            if (bench_each_item(argv[++i], lists[l].item, o))
                return bench_usage("conv_bench", lists[l].flag, argv[i], lists[l].allowed);
        }
        if (!own) return bench_usage("conv_bench", argv[i], NULL, BENCH_MISSING_VALUE);
    }
    int quick = o->common.quick;
    if (!o->case_count) {
        o->cases[0] = quick ? (conv_case){160, 90, 31} : (conv_case){1280, 720, 256};
        o->cases[1] = (conv_case){1920, 1080, 512};
        o->case_count = quick ? 1 : 2;
    }
    if (!o->spectrum_count) o->spectra[0] = 0, o->spectra[1] = 1, o->spectrum_count = quick ? 1 : 2;
    if (!o->storage_count) o->storages[0] = 0, o->storages[1] = 1, o->storage_count = 2;
    if (!o->subgroup_count) o->subgroups[0] = 0, o->subgroups[1] = UINT32_MAX, o->subgroup_count = quick ? 1 : 2;
    if (!o->variant_count) o->variant_count = 1; /* variants[0] = "": the defaults */
    bench_timing_options q = {1, 3, 2, 10, 8ull << 20, 0, 0}, full = {3, 21, 10, 200, 256ull << 20, 0, 0};
    bench_timing_defaults(&o->common.timing, quick ? q : full);
    return 0;
}

/* The jobs in the order they run: per case, spectrum, storage, subgroup (the device's size
 * once, where it is also listed as a number or is not 4..64), variant. */
static void plan(const conv_options *o, uint32_t device_subgroup, conv_report *r)
{
    for (uint32_t c = 0; c < o->case_count; c++)
        for (int sp = 0; sp < o->spectrum_count; sp++)
            for (int st = 0; st < o->storage_count; st++)
                for (uint32_t s = 0; s < o->subgroup_count; s++) {
                    uint32_t sg = o->subgroups[s] == UINT32_MAX ? device_subgroup : o->subgroups[s];
                    int seen = 0;
                    if (o->subgroups[s] == UINT32_MAX && (sg < 4 || sg > 64)) continue;
                    for (uint32_t t = 0; t < s; t++)
                        seen |= (o->subgroups[t] == UINT32_MAX ? device_subgroup : o->subgroups[t]) == sg;
                    for (uint32_t v = 0; v < o->variant_count && !seen; v++) {
                        if (r->job_count == CONV_BENCH_MAX_JOBS) break;
                        conv_job_result *j = &r->jobs[r->job_count++];
                        j->c = o->cases[c], j->exact = o->spectra[sp], j->f16 = o->storages[st];
                        j->subgroup = sg, j->variant = o->variants[v];
                    }
                }
}

int main(int argc, char **argv)
{
    conv_options o;
    char err[1024], exe_dir[BENCH_PATH_MAX], path[BENCH_PATH_MAX + 16];
    int rc = parse(argc, argv, &o);
    if (rc) return rc == 1 ? 0 : 2;
    if (bench_exe_dir(argv[0], exe_dir, sizeof exe_dir) != 0) {
        fprintf(stderr, "conv_bench: cannot tell where this program lives\n");
        return 1;
    }
    conv_report *r = calloc(1, sizeof *r);
    conv_bench b;
    memset(&b, 0, sizeof b);
    b.passes_after = o.passes_after;
    spdrt_options ro = {.validation = o.common.validation, .device = o.common.device, .capture_statistics = 1};
    if (!r || spdrt_create(&ro, &b.ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "conv_bench: %s\n", r ? err : "out of memory");
        free(r);
        return 1;
    }
    r->passes_after = o.passes_after;
    bench_gpu_config gc;
    bench_run_info_fill(&r->run, b.ctx, &o.common, "conv_bench");
    bench_run_info_gpu_config(&r->run, &gc);
    snprintf(path, sizeof path, "%s/copy.spv", exe_dir);
    int failed = 0;
    if (bench_spdgen_open(&b.spdgen, o.common.spdgen_path, exe_dir, err, sizeof err) != 0 ||
        !(b.copy_spv = bench_read_spirv(path, &b.copy_words, err, sizeof err))) {
        fprintf(stderr, "conv_bench: %s\n", err);
        failed = 1;
    } else if (bench_gpu_init(&b.gpu, b.ctx, &gc, exe_dir) != SPDRT_OK) {
        fprintf(stderr, "conv_bench: %s\n", spdrt_last_error(b.ctx));
        failed = 1;
    } else {
        double t0 = bench_now_s();
        snprintf(r->run.spdgen_version, sizeof r->run.spdgen_version, "%s", b.spdgen.version);
        bench_run_info_heat(&r->run, &b.gpu, "conv_bench");
        plan(&o, spdrt_device(b.ctx)->subgroup_size, r);
        for (uint32_t i = 0; i < r->job_count && !b.ctx->hung; i++) {
            double t1 = bench_now_s();
            conv_job_result *j = &r->jobs[i];
            if (conv_bench_job(&b, j) != 0) fprintf(stderr, "conv_bench: %s: %s\n", j->command, j->error);
            fprintf(stderr, "conv_bench: [%u/%u] %s: %.1f s\n", i + 1, r->job_count, j->command,
                    bench_now_s() - t1);
        }
        r->seconds = bench_now_s() - t0;
        if (!b.ctx->hung) bench_gpu_release(&b.gpu);
        conv_report_markdown(r, stdout);
        failed = conv_report_failures(r) != 0;
        failed |= bench_write_file(o.common.markdown_path, r, conv_report_markdown) != 0;
        failed |= bench_write_file(o.common.json_path, r, conv_report_json) != 0;
    }
    if (o.common.validation && spdrt_validation_messages(b.ctx)) {
        fprintf(stderr, "conv_bench: the validation layer reported messages\n");
        failed = 1;
    }
    free(b.copy_spv);
    bench_spdgen_close(&b.spdgen);
    spdrt_destroy(b.ctx);
    free(r);
    return failed;
}
