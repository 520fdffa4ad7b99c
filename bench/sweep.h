/* sweep.h: measuring and checking one (size, format): the floor, the SPD-shaped floor and
 * vkCmdCopyBuffer, then for each op every SPD variant and both baselines, then the floor
 * again (bench/README.md, "What is measured"). */
#ifndef BENCH_SWEEP_H
#define BENCH_SWEEP_H

#include "gpu.h"
#include "options.h"
#include "tools.h"
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

#endif
