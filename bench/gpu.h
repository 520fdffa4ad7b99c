/* gpu.h: the timing harness and the little Vulkan plumbing the benchmark's own kernels need.
 *
 * Timing: one command buffer per measured thing. Each repetition is
 *     [fill of a scrub buffer]  [before]  full barrier  timestamp  WORK  timestamp  [after]
 * with both timestamps at BOTTOM_OF_PIPE: the first is written once everything before it
 * (the previous repetition, the scrub) has finished, the second once WORK has. The full
 * barrier keeps WORK from starting before that, so repetitions never overlap and each
 * interval is WORK alone, from an idle GPU to its last write. The scrub (a vkCmdFillBuffer
 * larger than the GPU's last-level cache) evicts the previous repetition's data, so no
 * repetition starts with its input already in cache. The first `warmup` repetitions are
 * not timed; the median of the others is reported. */
#ifndef BENCH_GPU_H
#define BENCH_GPU_H

#include "internal.h"
#include "results.h"

typedef void (*bench_record_fn)(VkCommandBuffer cb, void *user);

/* What one repetition records: `work` between the timestamps; `before` and `after`
 * (optional) outside them, for layout transitions that are set-up rather than the work. */
typedef struct {
    bench_record_fn before, work, after;
    void *user;
} bench_work;

typedef struct {
    spdrt_context *ctx;
    uint32_t warmup, reps;
    VkQueryPool queries;      /* 2 * reps timestamps */
    spdrt_buffer scrub;       /* size 0: no scrub */
    uint64_t valid_mask;      /* timestampValidBits as a mask */
} bench_gpu;

spdrt_result bench_gpu_init(bench_gpu *g, spdrt_context *ctx, uint32_t warmup, uint32_t reps,
                            uint64_t scrub_bytes);
void bench_gpu_release(bench_gpu *g);

/* Records warmup + reps repetitions of w, runs them, and fills *out (status OK) or returns
 * the error (out->status FAILED with the message). */
spdrt_result bench_time(bench_gpu *g, const bench_work *w, bench_timing *out);

/* One command buffer: a full barrier, fn, a barrier that makes every write visible to the
 * host; submit and wait. */
spdrt_result bench_submit(spdrt_context *ctx, bench_record_fn fn, void *user);

/* Every earlier command finished and its writes visible to every later command. */
void bench_barrier_all(VkCommandBuffer cb);

/* A compute pipeline with one descriptor set layout (bindings 0..n-1 of the given types,
 * one descriptor each), push constants and `set_count` sets allocated from its own pool. */
typedef struct {
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet *sets;
    uint32_t set_count;
} bench_pipeline;

spdrt_result bench_pipeline_create(spdrt_context *ctx, const uint32_t *spirv, size_t words,
                                   const VkDescriptorType *types, uint32_t binding_count,
                                   uint32_t push_bytes, uint32_t set_count, bench_pipeline *out);
void bench_pipeline_destroy(spdrt_context *ctx, bench_pipeline *p);

#endif
