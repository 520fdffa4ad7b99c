/* phase_sweep.c: spd_bench --phases (see phase_sweep.h). Prefix runs are timed only: the
 * levels past k keep the sentinel, so they are not compared; the full chain (k = levels) of
 * every variant is read back and checked against the CPU reference, as in the main sweep. */
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "phase_sweep.h"
#include "verify.h"

typedef struct {
    const char *name;
    uint32_t tile, wg;    /* spdgen --tile/--wg (0: the default 64x64 shape) */
    int sampler_linear;   /* needs --op mean */
    uint32_t tiles_per_workgroup; /* the push constant (64x64 shape): 0 = one tile */
} phase_variant;

static const phase_variant variants[] = {
    {"texel loads", 0, 0, 0, 0},
    {"texel loads, 2 tiles per workgroup", 0, 0, 0, 2},
    {"texel loads, 4 tiles per workgroup", 0, 0, 0, 4},
    {"--sampler linear", 0, 0, 1, 0},
    {"--sampler linear, 4 tiles per workgroup", 0, 0, 1, 4},
    {"--tile 32 --wg 256", 32, 256, 0, 0},
};
#define VARIANTS (sizeof variants / sizeof variants[0])

static uint64_t round16(uint64_t b) { return (b + 15) / 16 * 16; }

static void print_timing(FILE *out, const bench_timing *t) {
    if (t->status == BENCH_OK)
        fprintf(out, "%.1f", t->median_us);
    else
        fprintf(out, "%s", t->status == BENCH_SKIPPED ? "skipped" : "FAILED");
}

/* One variant at one size: every prefix, then the check of the full chain. */
static uint32_t run_variant(bench_sweep *s, bench_workload *wl, const bench_chain *chain,
                            spd_op op, uint32_t subgroup, const phase_variant *v,
                            const bench_timing *floors, FILE *out) {
    bench_spd_kernel k;
    bench_sample sample;
    const bench_sample *samples[1] = {&sample};
    bench_check check;
    bench_timing t[BENCH_MAX_LEVELS];
    uint32_t *spv = NULL, i, failures = 0;
    size_t words = 0;
    char max_size[32], command[256], err[256];
    spdrt_result res;
    memset(t, 0, sizeof t);
    memset(&check, 0, sizeof check);
    snprintf(max_size, sizeof max_size, "%ux%u", wl->width, wl->height);
    bench_spd_options o = {.subgroup = subgroup, .tile = v->tile, .wg = v->wg,
                           .hierarchy = v->tile != 0, .sampler_linear = v->sampler_linear};
    if (bench_spdgen_spd(&s->spdgen, bench_op_name(op), spdrt__format_name(wl->format), &o,
                         max_size, wl->levels, &spv, &words, command, sizeof command, err,
                         sizeof err) != 0) {
        fprintf(out, "\n%s: not generated: %s\n", v->name, err);
        return 1;
    }
    spdrt_take_statistics(s->ctx, NULL, 0);
    res = bench_spd_kernel_create(wl, spv, words, wl->levels, subgroup, v->tile, 0, &k);
    k.tiles_per_workgroup = v->tiles_per_workgroup;
    bench_take_statistics(s->ctx, command, &t[0]);
    for (i = 1; i <= wl->levels && res == SPDRT_OK; i++) {
        bench_work w = {NULL, bench_spd_kernel_record, NULL, &k};
        k.mip_count = i;
        res = bench_workload_clear(wl);
        if (res == SPDRT_OK)
            res = bench_time(&s->gpu, &w, &t[i], NULL);
    }
    memset(&sample, 0, sizeof sample);
    if (res == SPDRT_OK)
        res = bench_sample_read(wl, &sample); /* the last run made the full chain */
    if (res == SPDRT_OK) {
        bench_check *checks[1] = {&check};
        check.sampler_linear = v->sampler_linear; /* 8/16-bit formats: one unit more */
        bench_verify_spd(chain, op, samples, checks, 1);
        bench_sample_free(&sample);
    }
    fprintf(out, "\n#### %s (`%s`)\n\n", v->name, command);
    if (t[0].driver_statistics[0])
        fprintf(out, "Driver statistics: %s\n\n", t[0].driver_statistics);
    if (res != SPDRT_OK) {
        fprintf(out, "FAILED: %s\n", spdrt_last_error(s->ctx));
        bench_spd_kernel_destroy(&k);
        free(spv);
        return 1;
    }
    fprintf(out, "| levels made | SPD us | this level us | shaped floor us | %% of floor |\n");
    fprintf(out, "|---:|---:|---:|---:|---:|\n");
    for (i = 1; i <= wl->levels; i++) {
        fprintf(out, "| 1..%u | ", i);
        print_timing(out, &t[i]);
        fprintf(out, " | ");
        if (t[i].status == BENCH_OK && (i == 1 || t[i - 1].status == BENCH_OK))
            fprintf(out, "%+.1f", t[i].median_us - (i > 1 ? t[i - 1].median_us : 0.0));
        fprintf(out, " | ");
        print_timing(out, &floors[i]);
        fprintf(out, " | ");
        if (t[i].status == BENCH_OK && floors[i].status == BENCH_OK)
            fprintf(out, "%.1f%%", 100.0 * floors[i].median_us / t[i].median_us);
        fprintf(out, " |\n");
        if (t[i].status != BENCH_OK)
            failures++;
    }
    fprintf(out, "\nFull chain: %s%s%s\n", check.status == BENCH_OK ? "ok" : "MISMATCH",
            check.first[0] ? ": " : "", check.first);
    if (check.status != BENCH_OK)
        failures++;
    bench_spd_kernel_destroy(&k);
    free(spv);
    return failures;
}

uint32_t bench_phase_sweep(bench_sweep *s, FILE *out) {
    const bench_options *o = s->opt;
    spd_op op = o->ops[0];
    uint32_t subgroup = s->subgroups[s->subgroup_count - 1], z, i, failures = 0;
    for (z = 0; z < o->size_count && !s->ctx->hung; z++) {
        uint32_t w = o->sizes[z][0], h = o->sizes[z][1];
        uint32_t levels = spdrt_spd_mip_count(w, h, 14);
        bench_timing floors[BENCH_MAX_LEVELS];
        uint64_t written = 0;
        bench_workload wl;
        bench_chain chain;
        fprintf(out, "\n### Phases: %ux%u %s %s, --subgroup %u, %u levels\n", w, h,
                spdrt__format_name(o->formats[0]), bench_op_name(op), subgroup, levels);
        if (bench_sweep_workload(s, w, h, levels, 32, &wl, &chain, out) != 0) {
            failures++;
            continue;
        }
        memset(floors, 0, sizeof floors);
        for (i = 1; i <= levels && !s->ctx->hung; i++) {
            written += bench_level_bytes(&wl, i);
            bench_sweep_floor(s, &wl, wl.shaped_read_bytes, round16(written), &floors[i], NULL);
        }
        for (i = 0; i < VARIANTS && !s->ctx->hung; i++) {
            if (variants[i].sampler_linear && op != SPD_OP_MEAN)
                continue;
            failures += run_variant(s, &wl, &chain, op, subgroup, &variants[i], floors, out);
        }
        bench_workload_destroy(&wl);
    }
    return failures;
}
