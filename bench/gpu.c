/* gpu.c: the timing harness (see gpu.h) and compute pipelines for the benchmark's own
 * kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

void bench_barrier_all(VkCommandBuffer cb) {
    VkMemoryBarrier b;
    memset(&b, 0, sizeof b);
    b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &b, 0, NULL, 0, NULL);
}

static void barrier_to_host(VkCommandBuffer cb) {
    VkMemoryBarrier b;
    memset(&b, 0, sizeof b);
    b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                         1, &b, 0, NULL, 0, NULL);
}

spdrt_result bench_gpu_init(bench_gpu *g, spdrt_context *ctx, uint32_t warmup, uint32_t reps,
                            uint64_t scrub_bytes) {
    VkQueryPoolCreateInfo qci;
    VkResult r;
    spdrt_result res;
    memset(g, 0, sizeof *g);
    g->ctx = ctx;
    g->warmup = warmup;
    g->reps = reps;
    if (reps == 0)
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
    qci.queryCount = 2 * reps;
    r = vkCreateQueryPool(ctx->device, &qci, NULL, &g->queries);
    if (r != VK_SUCCESS) {
        g->queries = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateQueryPool", r);
    }
    if (scrub_bytes) {
        res = spdrt__buffer_create(ctx, scrub_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0,
                                   &g->scrub);
        if (res != SPDRT_OK) {
            bench_gpu_release(g);
            return res;
        }
    }
    return SPDRT_OK;
}

void bench_gpu_release(bench_gpu *g) {
    if (!g->ctx)
        return;
    if (g->queries)
        vkDestroyQueryPool(g->ctx->device, g->queries, NULL);
    spdrt__buffer_destroy(g->ctx, &g->scrub);
    memset(g, 0, sizeof *g);
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static spdrt_result fail(bench_timing *out, spdrt_context *ctx, spdrt_result res) {
    out->status = BENCH_FAILED;
    snprintf(out->note, sizeof out->note, "%s", spdrt_last_error(ctx));
    return res;
}

spdrt_result bench_time(bench_gpu *g, const bench_work *w, bench_timing *out) {
    spdrt_context *ctx = g->ctx;
    VkCommandBuffer cb;
    uint64_t *stamps;
    double *us;
    uint32_t i, total = g->warmup + g->reps;
    spdrt_result res;
    VkResult r;
    memset(out, 0, sizeof *out);
    stamps = calloc(2 * (size_t)g->reps, sizeof *stamps);
    us = calloc(g->reps, sizeof *us);
    if (!stamps || !us) {
        free(stamps), free(us);
        return fail(out, ctx, spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory"));
    }
    res = spdrt__commands_begin(ctx, &cb);
    if (res != SPDRT_OK)
        goto done;
    vkCmdResetQueryPool(cb, g->queries, 0, 2 * g->reps);
    for (i = 0; i < total; i++) {
        int timed = i >= g->warmup;
        uint32_t q = 2 * (i - g->warmup);
        if (g->scrub.buffer)
            vkCmdFillBuffer(cb, g->scrub.buffer, 0, VK_WHOLE_SIZE, 0x3f000000u + i);
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
    bench_barrier_all(cb);
    res = spdrt__commands_submit(ctx, cb);
    if (res != SPDRT_OK)
        goto done;
    r = vkGetQueryPoolResults(ctx->device, g->queries, 0, 2 * g->reps,
                              2 * (size_t)g->reps * sizeof *stamps, stamps, sizeof *stamps,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS) {
        res = spdrt__vk_error(ctx, "vkGetQueryPoolResults", r);
        goto done;
    }
    for (i = 0; i < g->reps; i++)
        us[i] = (double)((stamps[2 * i + 1] - stamps[2 * i]) & g->valid_mask) *
                ctx->info.timestamp_period_ns / 1000.0;
    qsort(us, g->reps, sizeof *us, compare_doubles);
    out->status = BENCH_OK;
    out->samples = g->reps;
    out->min_us = us[0];
    out->max_us = us[g->reps - 1];
    out->median_us = g->reps % 2 ? us[g->reps / 2]
                                 : 0.5 * (us[g->reps / 2 - 1] + us[g->reps / 2]);
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

/* ---- pipelines ----------------------------------------------------------------------- */

static spdrt_result create_layouts(spdrt_context *ctx, const VkDescriptorType *types,
                                   uint32_t n, uint32_t push_bytes, bench_pipeline *p) {
    VkDescriptorSetLayoutBinding b[8];
    VkDescriptorSetLayoutCreateInfo lci;
    VkPushConstantRange pc;
    VkPipelineLayoutCreateInfo plci;
    VkResult r;
    uint32_t i;
    if (n > 8)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "too many bindings (%u)", n);
    memset(b, 0, sizeof b);
    for (i = 0; i < n; i++) {
        b[i].binding = i;
        b[i].descriptorType = types[i];
        b[i].descriptorCount = 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    memset(&lci, 0, sizeof lci);
    lci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    lci.bindingCount = n;
    lci.pBindings = b;
    r = vkCreateDescriptorSetLayout(ctx->device, &lci, NULL, &p->set_layout);
    if (r != VK_SUCCESS) {
        p->set_layout = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateDescriptorSetLayout", r);
    }
    pc.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    pc.offset = 0;
    pc.size = push_bytes;
    memset(&plci, 0, sizeof plci);
    plci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &p->set_layout;
    plci.pushConstantRangeCount = push_bytes ? 1 : 0;
    plci.pPushConstantRanges = push_bytes ? &pc : NULL;
    r = vkCreatePipelineLayout(ctx->device, &plci, NULL, &p->layout);
    if (r != VK_SUCCESS) {
        p->layout = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreatePipelineLayout", r);
    }
    return SPDRT_OK;
}

static spdrt_result create_sets(spdrt_context *ctx, const VkDescriptorType *types, uint32_t n,
                                uint32_t set_count, bench_pipeline *p) {
    VkDescriptorPoolSize sizes[8];
    VkDescriptorPoolCreateInfo pci;
    VkDescriptorSetAllocateInfo ai;
    VkDescriptorSetLayout *layouts;
    VkResult r;
    uint32_t i;
    for (i = 0; i < n; i++) {
        sizes[i].type = types[i];
        sizes[i].descriptorCount = set_count;
    }
    memset(&pci, 0, sizeof pci);
    pci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pci.maxSets = set_count;
    pci.poolSizeCount = n;
    pci.pPoolSizes = sizes;
    r = vkCreateDescriptorPool(ctx->device, &pci, NULL, &p->pool);
    if (r != VK_SUCCESS) {
        p->pool = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateDescriptorPool", r);
    }
    p->sets = calloc(set_count, sizeof *p->sets);
    layouts = calloc(set_count, sizeof *layouts);
    if (!p->sets || !layouts) {
        free(layouts);
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (i = 0; i < set_count; i++)
        layouts[i] = p->set_layout;
    memset(&ai, 0, sizeof ai);
    ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    ai.descriptorPool = p->pool;
    ai.descriptorSetCount = set_count;
    ai.pSetLayouts = layouts;
    r = vkAllocateDescriptorSets(ctx->device, &ai, p->sets);
    free(layouts);
    if (r != VK_SUCCESS)
        return spdrt__vk_error(ctx, "vkAllocateDescriptorSets", r);
    p->set_count = set_count;
    return SPDRT_OK;
}

spdrt_result bench_pipeline_create(spdrt_context *ctx, const uint32_t *spirv, size_t words,
                                   const VkDescriptorType *types, uint32_t binding_count,
                                   uint32_t push_bytes, uint32_t set_count, bench_pipeline *out) {
    VkShaderModuleCreateInfo mci;
    VkComputePipelineCreateInfo cci;
    spdrt_result res;
    VkResult r;
    memset(out, 0, sizeof *out);
    if (set_count == 0)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "a pipeline needs at least one set");
    memset(&mci, 0, sizeof mci);
    mci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    mci.codeSize = words * sizeof(uint32_t);
    mci.pCode = spirv;
    r = vkCreateShaderModule(ctx->device, &mci, NULL, &out->module);
    if (r != VK_SUCCESS) {
        out->module = VK_NULL_HANDLE;
        return spdrt__vk_error(ctx, "vkCreateShaderModule", r);
    }
    res = create_layouts(ctx, types, binding_count, push_bytes, out);
    if (res == SPDRT_OK)
        res = create_sets(ctx, types, binding_count, set_count, out);
    if (res == SPDRT_OK) {
        memset(&cci, 0, sizeof cci);
        cci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
        cci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        cci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        cci.stage.module = out->module;
        cci.stage.pName = "main";
        cci.layout = out->layout;
        cci.basePipelineIndex = -1;
        r = vkCreateComputePipelines(ctx->device, VK_NULL_HANDLE, 1, &cci, NULL, &out->pipeline);
        if (r != VK_SUCCESS) {
            out->pipeline = VK_NULL_HANDLE;
            res = spdrt__vk_error(ctx, "vkCreateComputePipelines", r);
        }
    }
    if (res != SPDRT_OK)
        bench_pipeline_destroy(ctx, out);
    return res;
}

void bench_pipeline_destroy(spdrt_context *ctx, bench_pipeline *p) {
    if (p->pipeline)
        vkDestroyPipeline(ctx->device, p->pipeline, NULL);
    if (p->layout)
        vkDestroyPipelineLayout(ctx->device, p->layout, NULL);
    if (p->pool) /* frees the sets */
        vkDestroyDescriptorPool(ctx->device, p->pool, NULL);
    if (p->set_layout)
        vkDestroyDescriptorSetLayout(ctx->device, p->set_layout, NULL);
    if (p->module)
        vkDestroyShaderModule(ctx->device, p->module, NULL);
    free(p->sets);
    memset(p, 0, sizeof *p);
}
