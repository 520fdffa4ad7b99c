/* gpu.h: the timing harness and the little Vulkan plumbing the benchmark's own kernels need
 * (their pipelines come from the runtime's builder, spdrt__pipeline_create).
 *
 * Timing. Everything one measured thing runs goes into ONE command buffer, submitted once,
 * so the GPU never waits for the host between repetitions:
 *
 *   heat         heat_passes reads of the scrub buffer (~heat_ms of GPU work), so the
 *                clocks are up before the first repetition: a GPU idles between
 *                measurements (read-backs, CPU checks, spdgen) and drops its clocks there
 *   barrier
 *   warmup + reps repetitions, each:
 *     [scrub]    one compute pass over the scrub buffer (larger than the last-level cache):
 *                it evicts the previous repetition's data, so every repetition starts with
 *                cold caches; by default it READS (clean lines, which the timed work evicts
 *                for free; a written buffer would leave dirty lines whose write-back the
 *                timed work would pay for). Compute, not vkCmdFillBuffer, so it runs on the
 *                same units the timed work does and keeps them busy.
 *     [before]   untimed set-up (the blit chain's layout transitions)
 *     barrier    everything above finished and visible
 *     timestamp  BOTTOM_OF_PIPE: written once everything before it has finished
 *     WORK
 *     timestamp  BOTTOM_OF_PIPE: written once WORK has finished
 *     [after]    untimed set-up
 *   back to back (b2b > 0): barrier, 1 untimed run, timestamp, then b2b runs, each
 *                [before] WORK [after] barrier, then a timestamp. No scrub: caches hold
 *                whatever the previous run left (for work larger than the cache, nothing).
 *
 * Each repetition's interval is WORK alone, from an idle GPU (the barrier) to its last
 * write; the first `warmup` are not timed, the median of the others is reported with their
 * fastest and slowest. The back-to-back figure is (last timestamp - first) / b2b: WORK plus
 * one barrier, in a steady stream. */
#ifndef BENCH_GPU_H
#define BENCH_GPU_H

#include "core/internal.h"
#include "results.h"

typedef void (*bench_record_fn)(VkCommandBuffer cb, void *user);

/* What one repetition records: `work` between the timestamps; `before` and `after`
 * (optional) outside them, for layout transitions that are set-up rather than the work. */
typedef struct {
    bench_record_fn before, work, after;
    void *user;
} bench_work;

typedef struct bench_gpu_config {
    uint32_t warmup, reps;
    uint32_t b2b;             /* back-to-back runs timed together; 0 = none */
    uint64_t scrub_bytes;     /* scrub before each repetition; 0 = none */
    int scrub_write;          /* the scrub writes its buffer instead of reading it */
    double heat_ms;           /* GPU work before each measurement; 0 = none */
} bench_gpu_config;

typedef struct bench_gpu {
    spdrt_context *ctx;
    bench_gpu_config cfg;
    VkQueryPool queries;      /* 2 * reps + 2 timestamps */
    spdrt_buffer scrub;       /* the scrub and heat buffer (heat only when the scrub is off) */
    spdrt_pipeline scrub_pipe;/* scrub.spv, set i = chunk i */
    uint64_t scrub_chunk;     /* bytes per chunk (maxStorageBufferRange) */
    uint32_t heat_passes;     /* read passes over `scrub` recorded before each measurement */
    double heat_pass_us;      /* one pass, measured with the GPU busy */
    uint64_t valid_mask;      /* timestampValidBits as a mask */
} bench_gpu;

/* Loads exe_dir/scrub.spv, creates the scrub buffer (cfg->scrub_bytes, or 256 MiB for the
 * heat alone when the scrub is off), then keeps the GPU busy for at least 5 x heat_ms while
 * it measures one read pass, and sets heat_passes from it. */
spdrt_result bench_gpu_init(bench_gpu *g, spdrt_context *ctx, const bench_gpu_config *cfg,
                            const char *exe_dir);
void bench_gpu_release(bench_gpu *g);

/* Records heat, warmup + reps repetitions and the back-to-back runs of w in one command
 * buffer, runs it, and fills *out (status OK) or returns the error (out->status FAILED with
 * the message). samples (optional, cfg.reps entries) receives the timed repetitions in
 * microseconds, sorted. */
spdrt_result bench_time(bench_gpu *g, const bench_work *w, bench_timing *out, double *samples);

/* Median, fastest and slowest of n sorted samples into t. */
void bench_timing_from_samples(bench_timing *t, const double *sorted, uint32_t n);
/* Pools a group's two floor runs (first and last) into one timing. */
void bench_pool_floor(uint32_t reps, const bench_timing *first_run, const bench_timing *last_run,
                      const double *first_samples, const double *last_samples,
                      bench_timing *floor);
void bench_sort_samples(double *v, uint32_t n);

/* Seconds on the monotonic clock: the heat's calibration, the benchmarks' progress lines. */
double bench_now_s(void);

/* One command buffer: a full barrier, fn, a barrier that makes every write visible to the
 * host; submit and wait. */
spdrt_result bench_submit(spdrt_context *ctx, bench_record_fn fn, void *user);

/* Every earlier command finished and its writes visible to every later command. */
void bench_barrier_all(VkCommandBuffer cb);

/* vkCmdDispatch of `groups` workgroups, as a 2D grid where one row cannot hold them all
 * (the shader linearizes gl_WorkGroupID over gl_NumWorkGroups.x). */
void bench_dispatch_linear(VkCommandBuffer cb, const spdrt_context *ctx, uint32_t groups);

/* Chunks of at most maxStorageBufferRange bytes (a multiple of 64 KiB where it must split),
 * for kernels that bind a large buffer piece by piece. 0 if the range is too small. */
uint64_t bench_chunk_bytes(const spdrt_context *ctx, uint64_t total);

/* The driver's statistics of the pipelines created since the last call (spdrt_options
 * capture_statistics; empty where the driver has none) into t->driver_statistics, and
 * printed to stderr after `what`, so a run's log says the registers of every variant. */
void bench_take_statistics(spdrt_context *ctx, const char *what, bench_timing *t);

#endif
