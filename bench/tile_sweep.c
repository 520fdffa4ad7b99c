/* tile_sweep.c: spd_bench --tiles (see tile_sweep.h). One workload per size, sized for the
 * smallest tile's hand-off buffers; per (T, N): spdgen, pipeline, time (median of --reps with
 * cold caches, as every SPD variant), read back and check against the CPU reference. */
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "tile_sweep.h"
#include "verify.h"

/* The (--tile, --wg) pairs spdgen admits (gen/cli.c: N = (T/B)^2, B = 2 or 4, N <= 256),
 * whether the chain continues by --tail hierarchy (always below 64; a choice at 64, where the
 * loop is the default), and whether level 1 is read by --sampler linear (mean only; skipped
 * for other ops). The last row, the default shader, is the
 * reference. */
static const uint32_t shapes[][4] = {
    {2, 1, 1, 0},    {4, 4, 1, 0},    {4, 1, 1, 0},    {8, 16, 1, 0},  {8, 4, 1, 0},
    {16, 64, 1, 0},  {16, 16, 1, 0},  {32, 256, 1, 0}, {32, 64, 1, 0}, {32, 256, 1, 1},
    {32, 64, 1, 1},  {64, 256, 0, 1}, {64, 256, 1, 0}, {64, 256, 0, 0},
};
#define SHAPES (sizeof shapes / sizeof shapes[0])

typedef struct {
    bench_timing time;
    bench_check check;
    char note[256];
} tile_result;

static void run_shape(bench_sweep *s, bench_workload *wl, const bench_chain *chain, spd_op op,
                      uint32_t subgroup, const uint32_t shape[4], tile_result *r) {
    bench_spd_kernel k;
    bench_sample sample;
    const bench_sample *samples[1] = {&sample};
    bench_check *checks[1] = {&r->check};
    uint32_t *spv = NULL;
    size_t words = 0;
    char max_size[32], command[256];
    spdrt_result res;
    snprintf(max_size, sizeof max_size, "%ux%u", wl->width, wl->height);
    if (shape[3] && op != SPD_OP_MEAN) {
        r->time.status = BENCH_SKIPPED;
        snprintf(r->note, sizeof r->note, "--sampler linear: mean only");
        return;
    }
    bench_spd_options o = {.subgroup = subgroup, .tile = shape[0], .wg = shape[1],
                           .hierarchy = shape[0] == 64 && shape[2], .sampler_linear = (int)shape[3]};
    if (bench_spdgen_spd(&s->spdgen, bench_op_name(op), spdrt__format_name(wl->format), &o,
                         max_size, wl->levels, &spv, &words, command, sizeof command, r->note,
                         sizeof r->note) != 0) {
        r->time.status = BENCH_FAILED;
        return;
    }
    memset(&sample, 0, sizeof sample);
    spdrt_take_statistics(s->ctx, NULL, 0);
    res = bench_spd_kernel_create(wl, spv, words, wl->levels, subgroup, shape[0], 0, &k);
    bench_take_statistics(s->ctx, command, &r->time);
    if (res == SPDRT_OK)
        res = bench_workload_clear(wl);
    if (res == SPDRT_OK) {
        bench_work w = {NULL, bench_spd_kernel_record, NULL, &k};
        res = bench_time(&s->gpu, &w, &r->time, NULL);
    }
    if (res == SPDRT_OK)
        res = bench_sample_read(wl, &sample);
    if (res == SPDRT_OK) {
        r->check.sampler_linear = (int)shape[3]; /* 8/16-bit formats: one unit more */
        bench_verify_spd(chain, op, samples, checks, 1);
        bench_sample_free(&sample);
    } else {
        r->time.status = res == SPDRT_ERROR_UNSUPPORTED ? BENCH_SKIPPED : BENCH_FAILED;
        snprintf(r->note, sizeof r->note, "%.250s", spdrt_last_error(s->ctx));
    }
    bench_spd_kernel_destroy(&k);
    free(spv);
}

uint32_t bench_tile_sweep(bench_sweep *s, FILE *out) {
    const bench_options *o = s->opt;
    spd_op op = o->ops[0];
    uint32_t subgroup = s->subgroups[s->subgroup_count - 1], z, i, failures = 0;
    for (z = 0; z < o->size_count && !s->ctx->hung; z++) {
        uint32_t w = o->sizes[z][0], h = o->sizes[z][1], best = SHAPES;
        uint32_t levels = spdrt_spd_mip_count(w, h, 14);
        tile_result r[SHAPES];
        bench_workload wl;
        bench_chain chain;
        memset(r, 0, sizeof r);
        fprintf(out, "\n### Tiles: %ux%u %s %s, --subgroup %u, %u levels\n\n", w, h,
                spdrt__format_name(o->formats[0]), bench_op_name(op), subgroup, levels);
        if (bench_sweep_workload(s, w, h, levels, 2, &wl, &chain, out) != 0) {
            failures++;
            continue;
        }
        for (i = 0; i < SHAPES && !s->ctx->hung; i++) {
            run_shape(s, &wl, &chain, op, subgroup, shapes[i], &r[i]);
            if (r[i].time.status == BENCH_OK && r[i].check.status == BENCH_OK &&
                (best == SHAPES || r[i].time.median_us < r[best].time.median_us))
                best = i;
        }
        fprintf(out, "| --tile | --wg | --tail | level 1 | median us | min us | vs --tile 64 | check |\n");
        fprintf(out, "|---|---|---|---|---|---|---|---|\n");
        for (i = 0; i < SHAPES; i++) {
            const tile_result *x = &r[i];
            int ok = x->time.status == BENCH_OK && x->check.status == BENCH_OK;
            const char *tail = shapes[i][2] ? "hierarchy" : "loop";
            const char *level1 = shapes[i][3] ? "--sampler linear" : "texel loads";
            if (!ok && x->time.status != BENCH_SKIPPED)
                failures++;
            if (x->time.status != BENCH_OK) {
                fprintf(out, "| %u | %u | %s | %s | %s | | | %s |\n", shapes[i][0], shapes[i][1], tail, level1,
                        x->time.status == BENCH_SKIPPED ? "skipped" : "FAILED", x->note);
                continue;
            }
            fprintf(out, "| %u | %u | %s | %s | %s%.1f%s | %.1f | %.2fx | %s%s%s |\n", shapes[i][0],
                    shapes[i][1], tail, level1, i == best ? "**" : "", x->time.median_us,
                    i == best ? "**" : "", x->time.min_us,
                    r[SHAPES - 1].time.status == BENCH_OK
                        ? r[SHAPES - 1].time.median_us / x->time.median_us : 0.0,
                    x->check.status == BENCH_OK ? "ok" : "MISMATCH", x->check.first[0] ? ": " : "",
                    x->check.first);
        }
        bench_workload_destroy(&wl);
    }
    return failures;
}
