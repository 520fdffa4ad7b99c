/* spd_bench.c: the SPD benchmark (issue 5, SPD part). See bench/README.md.
 *
 * For every (size, format): a compute-copy floor of the same bytes and vkCmdCopyBuffer; for
 * every op: each SPD variant spdgen makes (--subgroup 0, 4 and the device's size), the
 * blit chain and the one-dispatch-per-level chain. Everything is timed with GPU timestamps
 * and checked against the CPU reference in the same run; the exit status is 0 only if every
 * check passed. The table goes to stdout, progress to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_cells.h"
#include "sweep.h"
#include "phase_sweep.h"
#include "tile_sweep.h"
#include "verify.h"

/* 0, 4 and the device's own subgroup size where it is a shuffle size spdgen knows. */
static void choose_subgroups(const bench_options *o, const spdrt_device_info *d,
                             bench_sweep *s) {
    uint32_t i;
    if (o->subgroup_count) {
        for (i = 0; i < o->subgroup_count; i++)
            s->subgroups[i] = o->subgroups[i];
        s->subgroup_count = o->subgroup_count;
        return;
    }
    s->subgroups[s->subgroup_count++] = 0;
    s->subgroups[s->subgroup_count++] = 4;
    if (d->subgroup_size >= 8 && d->subgroup_size <= 64 &&
        !(d->subgroup_size & (d->subgroup_size - 1)))
        s->subgroups[s->subgroup_count++] = d->subgroup_size;
}

/* The report's writers as bench_write_file takes them (calling them through a cast to its
 * writer type would be undefined behaviour). */
static void write_markdown(const void *r, FILE *out) { bench_report_markdown(r, out); }
static void write_json(const void *r, FILE *out) { bench_report_json(r, out); }

/* Every (size, format), in order; stops early only if the device hangs. */
static void sweep_all(bench_sweep *s, const bench_options *o, bench_report *r) {
    uint32_t z, f, n = o->size_count * o->format_count;
    double start = bench_now_s();
    for (z = 0; z < o->size_count; z++)
        for (f = 0; f < o->format_count; f++) {
            bench_group *g = &r->groups[r->group_count++];
            double t0 = bench_now_s();
            fprintf(stderr, "spd_bench: [%u/%u] %ux%u %s ...", r->group_count, n,
                    o->sizes[z][0], o->sizes[z][1],
                    o->formats[f] == SPDRT_RGBA8     ? "rgba8"
                    : o->formats[f] == SPDRT_RGBA16F ? "rgba16f"
                    : o->formats[f] == SPDRT_R32F    ? "r32f"
                                                     : "rgba32f");
            fflush(stderr);
            if (bench_sweep_group(s, o->sizes[z][0], o->sizes[z][1], o->formats[f], g) != 0) {
                fprintf(stderr, " device hung\n");
                snprintf(r->error, sizeof r->error, "stopped after %ux%u: the device hung",
                         o->sizes[z][0], o->sizes[z][1]);
                return;
            }
            fprintf(stderr, " %.1f s (total %.1f s)\n", bench_now_s() - t0, bench_now_s() - start);
        }
}

int main(int argc, char **argv) {
    bench_options o;
    bench_report r;
    bench_sweep s;
    spdrt_options ro;
    spdrt_context *ctx = NULL;
    char err[1024], exe_dir[BENCH_PATH_MAX];
    uint32_t failures, tile_failures = 0;
    int rc = bench_options_parse(argc, argv, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    if (bench_exe_dir(argv[0], exe_dir, sizeof exe_dir) != 0) {
        fprintf(stderr, "spd_bench: cannot tell where this program lives\n");
        return 1;
    }
    /* The checks are only as good as the reference: prove it first (a fraction of a second). */
    if (bench_verify_selftest(err, sizeof err) != 0) {
        fprintf(stderr, "spd_bench: self-test of the CPU reference failed: %s\n", err);
        return 1;
    }
    memset(&ro, 0, sizeof ro);
    ro.validation = o.common.validation;
    ro.device = o.common.device;
    ro.capture_statistics = 1;
    if (spdrt_create(&ro, &ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "spd_bench: %s\n", err);
        return 1;
    }
    bench_run_info_fill(&r.run, ctx, &o.common, "spd_bench");
    if (r.run.cpu_device && !o.common.quick && o.size_count > 2)
        fprintf(stderr, "spd_bench: warning: the full sweep on a CPU implementation takes hours; "
                "--quick is the smoke run\n");
    s.ctx = ctx;
    s.opt = &o;
    s.exe_dir = exe_dir;
    choose_subgroups(&o, spdrt_device(ctx), &s);
    r.groups = calloc((size_t)o.size_count * o.format_count, sizeof *r.groups);
    if (!r.groups) {
        snprintf(r.error, sizeof r.error, "out of memory");
    } else if (bench_spdgen_open(&s.spdgen, o.common.spdgen_path, exe_dir, err, sizeof err) != 0) {
        snprintf(r.error, sizeof r.error, "%.250s", err);
    } else {
        bench_gpu_config gc;
        snprintf(r.run.spdgen_version, sizeof r.run.spdgen_version, "%s", s.spdgen.version);
        bench_run_info_gpu_config(&r.run, &gc);
        if (bench_gpu_init(&s.gpu, ctx, &gc, exe_dir) != SPDRT_OK) {
            snprintf(r.error, sizeof r.error, "%s", spdrt_last_error(ctx));
        } else {
            bench_run_info_heat(&r.run, &s.gpu, "spd_bench");
            if (o.tiles)
                tile_failures = bench_tile_sweep(&s, stdout);
            else if (o.phases)
                tile_failures = bench_phase_sweep(&s, stdout);
            else
                sweep_all(&s, &o, &r);
        }
        if (!ctx->hung)
            bench_gpu_release(&s.gpu);
        bench_spdgen_close(&s.spdgen);
    }
    if (o.common.validation && spdrt_validation_messages(ctx) && !r.error[0])
        snprintf(r.error, sizeof r.error, "the validation layer reported %u message(s) "
                 "(printed above)", spdrt_validation_messages(ctx));

    if (o.tiles || o.phases) { /* their tables are printed; the report's groups are empty */
        if (r.error[0])
            fprintf(stderr, "spd_bench: %s\n", r.error);
        free(r.groups);
        spdrt_destroy(ctx);
        failures = tile_failures + (r.error[0] ? 1 : 0);
        if (failures)
            fprintf(stderr, "spd_bench: %u failure(s) in the %s sweep\n", failures,
                    o.tiles ? "tile" : "phase");
        return failures ? 1 : 0;
    }
    bench_report_mark_best(&r);
    bench_report_markdown(&r, stdout);
    failures = bench_report_failures(&r);
    failures += bench_write_file(o.common.markdown_path, &r, write_markdown) != 0;
    failures += bench_write_file(o.common.json_path, &r, write_json) != 0;
    free(r.groups);
    spdrt_destroy(ctx);
    if (failures)
        fprintf(stderr, "spd_bench: %u failure(s); see the notes under the table\n", failures);
    return failures ? 1 : 0;
}
