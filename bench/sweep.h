/* sweep.h: measuring and checking one (size, format): the floor, the SPD-shaped floor and
 * vkCmdCopyBuffer, then for each op every SPD variant and both baselines, then the floor
 * again (bench/README.md, "What is measured"). */
#ifndef BENCH_SWEEP_H
#define BENCH_SWEEP_H

#include <stdio.h>

#include "gpu.h"
#include "options.h"
#include "tools.h"
#include "verify.h"
#include "workload.h"

typedef struct {
    spdrt_context *ctx;
    bench_gpu gpu;
    bench_spdgen spdgen;
    const bench_options *opt;
    const char *exe_dir;
    uint32_t subgroups[BENCH_MAX_VARIANTS];
    uint32_t subgroup_count;
} bench_sweep;

/* Fills *out. Problems are recorded in it (see bench_report_failures), never fatal, except
 * a hung device, after which the context is unusable: returns -1 then. */
int bench_sweep_group(bench_sweep *s, uint32_t width, uint32_t height, spdrt_format format,
                      bench_group *out);

/* One run of copy.comp (read_bytes read, write_bytes written, multiples of 16): poison,
 * time, check that every sampled written byte is the source's. samples: the repetitions'
 * times, or NULL. */
void bench_sweep_floor(bench_sweep *s, bench_workload *wl, uint64_t read_bytes,
                       uint64_t write_bytes, bench_timing *t, double *samples);

/* The workload of one size for the tile and phase sweeps (first --formats, levels levels,
 * shaders of --tile min_tile and up) and the chain its checks compare against. 0, or -1
 * after printing "not run: why" to out (beyond 16384 a side, nothing to reduce, or no
 * memory). */
int bench_sweep_workload(bench_sweep *s, uint32_t w, uint32_t h, uint32_t levels,
                         uint32_t min_tile, bench_workload *wl, bench_chain *chain, FILE *out);

#endif
