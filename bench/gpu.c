/* gpu.c: the timing harness (see gpu.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu.h"
#include "tools.h"

#define CHUNK_ALIGN 65536u          /* a multiple of every minStorageBufferOffsetAlignment */
#define SCRUB_GROUP_ELEMS 1024u     /* scrub.comp: 256 invocations x 4 16-byte elements */
#define SCRUB_NEVER 0xffffffffu     /* scrub.comp's `never`: no sum of its data matches it */
#define HEAT_ONLY_BYTES (256ull << 20) /* the heat buffer when the scrub is off */
#define HEAT_MAX_PASSES 100000u
#define CALIBRATE_MAX_BATCH 65536u

double bench_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_barrier_all(VkCommandBuffer cb) {
    spdrt__memory_barrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
                          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                          VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
}

static void barrier_to_host(VkCommandBuffer cb) {
    spdrt__memory_barrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

void bench_dispatch_linear(VkCommandBuffer cb, const spdrt_context *ctx, uint32_t groups) {
    uint32_t max_x = ctx->limits.maxComputeWorkGroupCount[0];
    uint32_t x = groups < max_x ? groups : max_x;
    if (groups == 0)
        return;
    vkCmdDispatch(cb, x, (groups + x - 1) / x, 1);
}

uint64_t bench_chunk_bytes(const spdrt_context *ctx, uint64_t total) {
    uint64_t range = ctx->limits.maxStorageBufferRange;
    return total <= range ? total : range / CHUNK_ALIGN * CHUNK_ALIGN;
}

/* ---- scrub and heat ------------------------------------------------------------------ */

/* One pass of scrub.comp over the whole scrub buffer, chunk by chunk (no barrier between
 * the chunks: they are disjoint). mode 0 reads, 1 writes. */
static void record_scrub_pass(const bench_gpu *g, VkCommandBuffer cb, uint32_t mode,
                              uint32_t seed) {
    uint32_t c;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, g->scrub_pipe.pipeline);
    for (c = 0; c < g->scrub_pipe.set_count; c++) {
        uint64_t offset = (uint64_t)c * g->scrub_chunk, size = g->scrub.size - offset;
        uint32_t push[4];
        if (size > g->scrub_chunk)
            size = g->scrub_chunk;
        push[0] = (uint32_t)(size / 16), push[1] = mode, push[2] = seed;
        push[3] = SCRUB_NEVER;
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, g->scrub_pipe.layout, 0, 1,
                                &g->scrub_pipe.sets[c], 0, NULL);
        vkCmdPushConstants(cb, g->scrub_pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           sizeof push, push);
        bench_dispatch_linear(cb, g->ctx, (push[0] + SCRUB_GROUP_ELEMS - 1) / SCRUB_GROUP_ELEMS);
    }
}

static void record_scrub_fill(VkCommandBuffer cb, void *user) {
    const bench_gpu *g = user;
    vkCmdFillBuffer(cb, g->scrub.buffer, 0, VK_WHOLE_SIZE, 0x3f000000u);
}

static spdrt_result scrub_pipeline(bench_gpu *g, const char *exe_dir) {
    static const spdrt_binding bindings[1] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0}};
    spdrt_context *ctx = g->ctx;
    char path[BENCH_PATH_MAX + 64], err[512];
    uint32_t *spv, c, chunks;
    size_t words;
    spdrt_result res;
    snprintf(path, sizeof path, "%s/scrub.spv", exe_dir);
    spv = bench_read_spirv(path, &words, err, sizeof err);
    if (!spv)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%.400s (run make bench)", err);
    g->scrub_chunk = bench_chunk_bytes(ctx, g->scrub.size);
    if (g->scrub_chunk == 0) {
        free(spv);
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "maxStorageBufferRange %u is too "
                            "small for the scrub", ctx->limits.maxStorageBufferRange);
    }
    chunks = (uint32_t)((g->scrub.size + g->scrub_chunk - 1) / g->scrub_chunk);
    {
        spdrt_pipeline_desc desc = {.spirv = spv, .spirv_words = words, .bindings = bindings,
                                    .binding_count = 1, .push_bytes = 16, .set_count = chunks};
        res = spdrt__pipeline_create(ctx, &desc, &g->scrub_pipe);
    }
    free(spv);
    for (c = 0; res == SPDRT_OK && c < chunks; c++) {
        VkDescriptorBufferInfo buf;
        VkWriteDescriptorSet w;
        uint64_t offset = (uint64_t)c * g->scrub_chunk;
        buf.buffer = g->scrub.buffer;
        buf.offset = offset;
        buf.range = g->scrub.size - offset < g->scrub_chunk ? g->scrub.size - offset
                                                           : g->scrub_chunk;
        memset(&w, 0, sizeof w);
        w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w.dstSet = g->scrub_pipe.sets[c];
        w.dstBinding = 0;
        w.descriptorCount = 1;
        w.descriptorType = bindings[0].type;
        w.pBufferInfo = &buf;
        vkUpdateDescriptorSets(ctx->device, 1, &w, 0, NULL);
    }
    /* Real data in it once (the read pass must not read never-written memory). */
    if (res == SPDRT_OK)
        res = bench_submit(ctx, record_scrub_fill, g);
    return res;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_sort_samples(double *v, uint32_t n) {
    qsort(v, n, sizeof *v, compare_doubles);
}

void bench_timing_from_samples(bench_timing *t, const double *us, uint32_t n) {
    t->samples = n;
    if (n == 0)
        return;
    t->min_us = us[0];
    t->max_us = us[n - 1];
    t->median_us = n % 2 ? us[n / 2] : 0.5 * (us[n / 2 - 1] + us[n / 2]);
}

static double interval_us(const bench_gpu *g, uint64_t from, uint64_t to) {
    return (double)((to - from) & g->valid_mask) * g->ctx->info.timestamp_period_ns / 1000.0;
}

/* Runs `passes` read passes between two timestamps; *us receives the interval. */
static spdrt_result time_heat_batch(bench_gpu *g, uint32_t passes, double *us) {
    spdrt_context *ctx = g->ctx;
    VkCommandBuffer cb;
    uint64_t stamps[2];
    uint32_t p;
    VkResult r;
    spdrt_result res = spdrt__commands_begin(ctx, &cb);
    if (res != SPDRT_OK)
        return res;
    vkCmdResetQueryPool(cb, g->queries, 0, 2);
    bench_barrier_all(cb);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->queries, 0);
    for (p = 0; p < passes; p++)
        record_scrub_pass(g, cb, 0, p);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->queries, 1);
    res = spdrt__commands_submit(ctx, cb);
    if (res != SPDRT_OK)
        return res;
    r = vkGetQueryPoolResults(ctx->device, g->queries, 0, 2, sizeof stamps, stamps,
                              sizeof stamps[0],
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkGetQueryPoolResults", r);
    *us = interval_us(g, stamps[0], stamps[1]);
    return SPDRT_OK;
}

/* Keeps the GPU busy with read passes for at least 5 x heat_ms of wall time, in batches of
 * about a quarter of heat_ms, and takes one pass's time from the last batch, when the clocks
 * have long been up. The first measurement then also starts on a hot GPU. */
static spdrt_result calibrate_heat(bench_gpu *g) {
    double start = bench_now_s(), busy_s = 5.0 * g->cfg.heat_ms / 1000.0;
    double us = 0.0, pass_us = 0.0;
    uint32_t passes = 2, batch;
    spdrt_result res;
    /* The first batch may include one-time costs (a lazily compiled shader, first touch of
     * the memory): always at least two. */
    for (batch = 0;; batch++) {
        res = time_heat_batch(g, passes, &us);
        if (res != SPDRT_OK)
            return res;
        pass_us = us / passes;
        if ((batch >= 1 && bench_now_s() - start >= busy_s) || pass_us <= 0.0)
            break;
        {
            double want = 0.25 * g->cfg.heat_ms * 1000.0 / pass_us;
            passes = want < 1.0 ? 1u : want > CALIBRATE_MAX_BATCH ? CALIBRATE_MAX_BATCH
                                                                  : (uint32_t)want;
        }
    }
    if (pass_us <= 0.0)
        return spdrt__error(g->ctx, SPDRT_ERROR_VULKAN, "the heat pass took no time: the "
                            "device's timestamps do not advance");
    g->heat_pass_us = pass_us;
    {
        double n = ceil(g->cfg.heat_ms * 1000.0 / pass_us);
        g->heat_passes = n < 1.0 ? 1u : n > HEAT_MAX_PASSES ? HEAT_MAX_PASSES : (uint32_t)n;
    }
    return SPDRT_OK;
}

spdrt_result bench_gpu_init(bench_gpu *g, spdrt_context *ctx, const bench_gpu_config *cfg,
                            const char *exe_dir) {
    VkQueryPoolCreateInfo qci;
    VkResult r;
    spdrt_result res;
    uint64_t size;
    memset(g, 0, sizeof *g);
    g->ctx = ctx;
    g->cfg = *cfg;
    if (cfg->reps == 0)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "at least one timed repetition is needed");
    if (ctx->timestamp_valid_bits == 0 || ctx->info.timestamp_period_ns <= 0.0)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the compute queue of \"%s\" has no timestamps: nothing can be timed",
                            ctx->info.name);
    g->valid_mask = ctx->timestamp_valid_bits >= 64 ? ~0ull
                                                    : (1ull << ctx->timestamp_valid_bits) - 1;
    memset(&qci, 0, sizeof qci);
    qci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 2 * cfg->reps + 2;
    r = vkCreateQueryPool(ctx->device, &qci, NULL, &g->queries);
    if (r != VK_SUCCESS) {
        g->queries = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateQueryPool", r);
    }
    size = cfg->scrub_bytes ? cfg->scrub_bytes : cfg->heat_ms > 0.0 ? HEAT_ONLY_BYTES : 0;
    size = size / 16 * 16;
    if (size == 0)
        return SPDRT_OK;
    res = spdrt__buffer_create(ctx, size,
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &g->scrub);
    if (res == SPDRT_OK)
        res = scrub_pipeline(g, exe_dir);
    if (res == SPDRT_OK && cfg->heat_ms > 0.0)
        res = calibrate_heat(g);
    if (res != SPDRT_OK && !ctx->hung)
        bench_gpu_release(g);
    return res;
}

void bench_gpu_release(bench_gpu *g) {
    if (!g->ctx)
        return;
    if (g->queries)
        vkDestroyQueryPool(g->ctx->device, g->queries, NULL);
    spdrt__pipeline_destroy(g->ctx, &g->scrub_pipe);
    spdrt__buffer_destroy(g->ctx, &g->scrub);
    memset(g, 0, sizeof *g);
}

static spdrt_result fail(bench_timing *out, spdrt_context *ctx, spdrt_result res) {
    out->status = BENCH_FAILED;
    snprintf(out->note, sizeof out->note, "%s", spdrt_last_error(ctx));
    return res;
}

static void record_run(VkCommandBuffer cb, const bench_work *w) {
    if (w->before)
        w->before(cb, w->user);
    w->work(cb, w->user);
    if (w->after)
        w->after(cb, w->user);
}

spdrt_result bench_time(bench_gpu *g, const bench_work *w, bench_timing *out, double *samples) {
    spdrt_context *ctx = g->ctx;
    const bench_gpu_config *cfg = &g->cfg;
    VkCommandBuffer cb;
    uint64_t *stamps;
    double *us;
    uint32_t i, total = cfg->warmup + cfg->reps, queries = 2 * cfg->reps + (cfg->b2b ? 2 : 0);
    spdrt_result res;
    VkResult r;
    char statistics[sizeof out->driver_statistics];
    /* The pipeline's statistics were taken when it was made: keep them. */
    memcpy(statistics, out->driver_statistics, sizeof statistics);
    memset(out, 0, sizeof *out);
    memcpy(out->driver_statistics, statistics, sizeof statistics);
    stamps = calloc(queries, sizeof *stamps);
    us = calloc(cfg->reps, sizeof *us);
    if (!stamps || !us) {
        free(stamps), free(us);
        return fail(out, ctx, spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory"));
    }
    res = spdrt__commands_begin(ctx, &cb);
    if (res != SPDRT_OK)
        goto done;
    vkCmdResetQueryPool(cb, g->queries, 0, queries);
    /* Heat: the GPU was idle while the host checked the last results; bring it back up. */
    for (i = 0; i < g->heat_passes; i++)
        record_scrub_pass(g, cb, 0, i);
    for (i = 0; i < total; i++) {
        int timed = i >= cfg->warmup;
        uint32_t q = 2 * (i - cfg->warmup);
        /* The previous repetition (or the heat) has finished before the scrub starts: a
         * scrub overlapping its tail would slow it down inside its own interval. */
        bench_barrier_all(cb);
        if (cfg->scrub_bytes)
            record_scrub_pass(g, cb, cfg->scrub_write ? 1 : 0, 0x3f000000u + i);
        if (w->before)
            w->before(cb, w->user);
        bench_barrier_all(cb);
        if (timed)
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->queries, q);
        w->work(cb, w->user);
        if (timed)
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->queries, q + 1);
        if (w->after)
            w->after(cb, w->user);
    }
    if (cfg->b2b) {
        /* One untimed run brings the caches to their steady state, then b2b runs. */
        bench_barrier_all(cb);
        record_run(cb, w);
        bench_barrier_all(cb);
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->queries,
                            2 * cfg->reps);
        for (i = 0; i < cfg->b2b; i++) {
            record_run(cb, w);
            bench_barrier_all(cb);
        }
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->queries,
                            2 * cfg->reps + 1);
    }
    bench_barrier_all(cb);
    res = spdrt__commands_submit(ctx, cb);
    if (res != SPDRT_OK)
        goto done;
    r = vkGetQueryPoolResults(ctx->device, g->queries, 0, queries,
                              (size_t)queries * sizeof *stamps, stamps, sizeof *stamps,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS) {
        res = spdrt__vk_error(ctx, "vkGetQueryPoolResults", r);
        goto done;
    }
    for (i = 0; i < cfg->reps; i++)
        us[i] = interval_us(g, stamps[2 * i], stamps[2 * i + 1]);
    bench_sort_samples(us, cfg->reps);
    out->status = BENCH_OK;
    bench_timing_from_samples(out, us, cfg->reps);
    if (cfg->b2b) {
        out->b2b_runs = cfg->b2b;
        out->b2b_us = interval_us(g, stamps[2 * cfg->reps], stamps[2 * cfg->reps + 1]) /
                      cfg->b2b;
    }
    if (samples)
        memcpy(samples, us, cfg->reps * sizeof *us);
done:
    free(stamps);
    free(us);
    return res == SPDRT_OK ? res : fail(out, ctx, res);
}

spdrt_result bench_submit(spdrt_context *ctx, bench_record_fn fn, void *user) {
    VkCommandBuffer cb;
    spdrt_result res = spdrt__commands_begin(ctx, &cb);
    if (res != SPDRT_OK)
        return res;
    bench_barrier_all(cb);
    fn(cb, user);
    barrier_to_host(cb);
    return spdrt__commands_submit(ctx, cb);
}

void bench_take_statistics(spdrt_context *ctx, const char *what, bench_timing *t) {
    spdrt_take_statistics(ctx, t->driver_statistics, sizeof t->driver_statistics);
    if (t->driver_statistics[0])
        fprintf(stderr, "  %s: %s\n", what, t->driver_statistics);
}

/* The floor's two runs, first and last in a group, pooled into *floor: the median of all
 * their repetitions (first_samples / last_samples, `reps` each), the mean of their
 * back-to-back figures. A failed run fails the floor. */
void bench_pool_floor(uint32_t reps, const bench_timing *first_run, const bench_timing *last_run,
                      const double *first_samples, const double *last_samples,
                      bench_timing *floor) {
    const bench_timing *runs[2] = {first_run, last_run};
    uint32_t n = 0, i, b2b = 0;
    double *all = malloc(2 * (size_t)reps * sizeof *all), b2b_sum = 0.0;
    memset(floor, 0, sizeof *floor);
    for (i = 0; i < 2; i++)
        if (runs[i]->status == BENCH_FAILED && floor->status != BENCH_FAILED) {
            floor->status = BENCH_FAILED;
            snprintf(floor->note, sizeof floor->note, "%s run: %.200s",
                     i ? "last" : "first", runs[i]->note);
        }
    if (floor->status == BENCH_FAILED || !all) {
        if (!all) {
            floor->status = BENCH_FAILED;
            snprintf(floor->note, sizeof floor->note, "out of memory");
        }
        free(all);
        return;
    }
    for (i = 0; i < 2; i++) {
        if (runs[i]->status != BENCH_OK)
            continue;
        memcpy(all + n, i ? last_samples : first_samples, reps * sizeof *all);
        n += reps;
        if (runs[i]->b2b_runs) {
            b2b_sum += runs[i]->b2b_us;
            b2b++;
        }
    }
    if (n) {
        floor->status = BENCH_OK;
        bench_sort_samples(all, n);
        bench_timing_from_samples(floor, all, n);
        if (b2b) {
            floor->b2b_us = b2b_sum / b2b;
            floor->b2b_runs = first_run->b2b_runs;
        }
    } else {
        floor->status = first_run->status;
        snprintf(floor->note, sizeof floor->note, "%s", first_run->note);
    }
    free(all);
}
