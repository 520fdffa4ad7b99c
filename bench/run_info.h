/* run_info.h: what both benchmarks record about their run (the device, spdgen, the date, the
 * timing settings) and the parts of their reports made from that alone: the Method sentences
 * of the markdown header and the opening members of the JSON. Each report embeds one
 * (bench_report in results.h, fft_report in fft_bench.h). */
#ifndef BENCH_RUN_INFO_H
#define BENCH_RUN_INFO_H

#include <stdint.h>
#include <stdio.h>

#include "args.h"
#include "spdrt.h"

/* Defined in gpu.h, which cannot be included here: it includes results.h, which includes
 * this file. */
struct bench_gpu;
struct bench_gpu_config;

typedef struct {
    char device[256], driver[256], api_version[32], spdgen_version[128], date[32];
    uint32_t vendor_id, device_id, subgroup_size;
    double timestamp_period_ns;
    int cpu_device;           /* lavapipe or another CPU implementation: a smoke run */
    uint32_t warmup, reps, b2b_runs;
    uint64_t scrub_bytes;
    int scrub_write;          /* the scrub writes its buffer (default: reads it) */
    double heat_ms;           /* GPU busy time recorded before each measurement */
    uint32_t heat_passes;     /* scrub-buffer read passes that make heat_ms */
    double heat_pass_us;      /* one pass, calibrated at start-up with the GPU busy */
    uint64_t heat_bytes;      /* the scrub/heat buffer's size */
    int quick, validation;
} bench_run_info;

/* The device (from ctx), today's date (UTC), and from the command line the timing settings,
 * --quick and --validate; spdgen_version and the heat figures are the caller's and
 * bench_run_info_heat's. Says the device on stderr as "prog: name (driver), Vulkan V,
 * subgroup S". */
void bench_run_info_fill(bench_run_info *ri, spdrt_context *ctx, const bench_common_options *c,
                         const char *prog);

/* The harness's configuration for these settings, so what runs is what the report says. */
void bench_run_info_gpu_config(const bench_run_info *ri, struct bench_gpu_config *gc);

/* The heat figures bench_gpu_init calibrated; with the heat on, says them on stderr. */
void bench_run_info_heat(bench_run_info *ri, const struct bench_gpu *gpu, const char *prog);

/* The markdown header's Method sentences on how every figure is taken, from "each measured
 * thing is one command buffer" to the back-to-back figure; the caller writes what leads in
 * and what its own figures mean. */
void bench_run_info_method(const bench_run_info *ri, FILE *out);

/* The JSON object's opening members, each line ending ",\n": "benchmark", "date", "device",
 * "smoke_run", "spdgen", "settings". extra_settings (or NULL) is written into "settings"
 * before "quick", as whole members each followed by ", " (fft: "\"batch_mib\": 512, "). */
void bench_run_info_json(const bench_run_info *ri, const char *benchmark,
                         const char *extra_settings, FILE *out);

#endif
