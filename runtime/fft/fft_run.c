/* fft_run.c: pipelines and runs of spdgen --fft shaders (the contract in spdrt_fft.h).
 *
 * A run records one command buffer: upload the input, fill the output with NaN (so an
 * element the shader never writes shows), the dispatches with the barriers between them,
 * then the copy back. Synchronization validation checks every step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_internal.h"

/* Lengths that are not powers of two (mixed radix, Bluestein): FFTs per workgroup in lanes,
 * each of W invocations that divide the FFT's length (Bluestein's M). */
static int check_mixed(const spdrt_fft_config *c, char *err, size_t size)
{
    uint32_t cols = c->columns ? c->columns : 1;
    uint32_t len = c->bluestein_m ? c->bluestein_m : c->rader_root ? c->n - 1 : c->n;
    if (c->n < 2)
        snprintf(err, size, "fft: N = %u is less than 2", c->n);
    else if (c->rader_root && c->bluestein_m)
        snprintf(err, size, "fft: a shader is Rader's (root %u) or Bluestein's (M = %u), not both",
                 c->rader_root, c->bluestein_m);
    else if (c->rader_root && (c->n < 3 || c->rader_root >= c->n))
        snprintf(err, size, "fft: Rader's root %u is not a residue of N = %u", c->rader_root, c->n);
    else if (c->bluestein_m && c->bluestein_m < 2 * c->n - 1)
        snprintf(err, size, "fft: Bluestein's M = %u is less than 2N - 1 for N = %u", c->bluestein_m, c->n);
    else if (c->wg == 0 || c->wg % cols != 0 || len % (c->wg / cols) != 0 || c->wg / cols > len / 2)
        snprintf(err, size, "fft: workgroup size %u is not %u FFTs per workgroup times invocations that "
                 "divide N = %u into 2 or more values each", c->wg, cols, c->n);
    else if (c->real && (c->strided || c->n < 8 || c->n % 2 || c->bluestein_m))
        snprintf(err, size, "fft: --real needs rows and an even N >= 8 (N = %u)", c->n);
    else if ((c->bluestein_m || c->rader_root) && (c->real || c->strided || c->lut || c->native))
        snprintf(err, size, "fft: %s (N = %u) runs complex rows in natural order",
                 c->rader_root ? "Rader" : "Bluestein", c->n);
    else
        return 0;
    return -1;
}

int spdrt__fft_check_config(const spdrt_fft_config *c, char *err, size_t size)
{
    if (c->bluestein_m || c->rader_root || (c->n >= 2 && (c->n & (c->n - 1))) || c->n == 2)
        return check_mixed(c, err, size);
    if (c->n < 4 || (c->n & (c->n - 1)))
        snprintf(err, size, "fft: N = %u is not a power of two >= 4", c->n);
    else if (c->columns & (c->columns - 1))
        snprintf(err, size, "fft: FFTs per workgroup %u is not a power of two", c->columns);
    /* W <= N/2 invocations per FFT, times the columns when they sit in lanes. */
    else if (c->wg == 0 || (c->wg & (c->wg - 1)) ||
             (uint64_t)c->wg > (uint64_t)c->n / 2 * (c->columns ? c->columns : 1))
        snprintf(err, size, "fft: workgroup size %u is not a power of two <= N/2 x FFTs per "
                 "workgroup", c->wg);
    else if (c->real && (c->strided || c->n < 8))
        snprintf(err, size, "fft: --real needs rows and N >= 8");
    else
        return 0;
    return -1;
}

static spdrt_result check_config(spdrt_context *ctx, const spdrt_fft_config *c)
{
    const VkPhysicalDeviceLimits *lim = &ctx->limits;
    char problem[160];
    if (spdrt__fft_check_config(c, problem, sizeof problem) != 0)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s", problem);
    if (c->wg > lim->maxComputeWorkGroupInvocations || c->wg > lim->maxComputeWorkGroupSize[0])
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the shader's workgroup of %u invocations exceeds \"%s\"'s %u", c->wg,
                            ctx->info.name, lim->maxComputeWorkGroupInvocations);
    if (c->shared_bytes > lim->maxComputeSharedMemorySize)
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED,
                            "the shader needs %u bytes of shared memory; \"%s\" has %u",
                            c->shared_bytes, ctx->info.name, lim->maxComputeSharedMemorySize);
    return SPDRT_OK;
}

/* How the pipeline meets the shader's --subgroup S. Full subgroups make lanes the
 * consecutive invocations t mod size with every lane present; they can only be demanded
 * when the workgroup is a whole number of subgroups. A workgroup smaller than one subgroup
 * is a single partial subgroup whose lanes are t, which the shuffles (within S <= W lanes)
 * need no more than that. */
static spdrt_result subgroup_needs(spdrt_context *ctx, const spdrt_fft_config *c,
                                   uint32_t *required, int *full)
{
    spdrt_result res = spdrt__subgroup_plan(ctx, c->subgroup, c->wg, required, full);
    if (res != SPDRT_OK) return res;
    uint32_t size = *required ? *required : ctx->info.max_subgroup_size;
    if (*full && c->wg % size != 0) *full = 0;
    return SPDRT_OK;
}

/* The twiddle table of --twiddles lut, exp(-2 pi i k / N) in double rounded to float. */
static spdrt_result create_lut(spdrt_context *ctx, spdrt_fft_pipeline *fp)
{
    uint32_t half = fp->config.n / 2;
    VkDeviceSize bytes = (VkDeviceSize)half * 8;
    spdrt_buffer staging;
    VkCommandBuffer cb;
    VkBufferCopy copy;
    spdrt_result res = spdrt__buffer_create(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &staging);
    if (res != SPDRT_OK) return res;
    float *w = staging.map;
    for (uint32_t k = 0; k < half; k++) {
        double angle = 6.28318530717958647692528676655900577 * (double)k / (double)fp->config.n;
        w[2 * k] = (float)cos(angle);
        w[2 * k + 1] = (float)-sin(angle);
    }
    res = spdrt__buffer_create(ctx, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                               VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &fp->lut);
    if (res == SPDRT_OK) res = spdrt__commands_begin(ctx, &cb);
    if (res == SPDRT_OK) {
        copy.srcOffset = copy.dstOffset = 0;
        copy.size = bytes;
        vkCmdCopyBuffer(cb, staging.buffer, fp->lut.buffer, 1, &copy);
        res = spdrt__commands_submit(ctx, cb);
    }
    if (!ctx->hung) spdrt__buffer_destroy(ctx, &staging);
    return res;
}

/* Rader's kernel spectrum (N - 1 float2, binding 2), device-local. */
static spdrt_result rader_table_create(spdrt_context *ctx, spdrt_fft_pipeline *fp)
{
    const spdrt_fft_config *c = &fp->config;
    VkDeviceSize bytes = (VkDeviceSize)(c->n - 1) * 8;
    spdrt_buffer staging;
    VkCommandBuffer cb;
    spdrt_result res = spdrt__buffer_create(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &staging);
    if (res != SPDRT_OK) return res;
    if (spdrt_fft_rader_tables(c->n, c->rader_root, c->inverse, staging.map) != 0)
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "Rader's table of N = %u: %u is not a primitive root "
                           "of a prime N (or out of memory)", c->n, c->rader_root);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &fp->spectrum);
    if (res == SPDRT_OK) res = spdrt__commands_begin(ctx, &cb);
    if (res == SPDRT_OK) {
        VkBufferCopy copy = {0, 0, bytes};
        vkCmdCopyBuffer(cb, staging.buffer, fp->spectrum.buffer, 1, &copy);
        res = spdrt__commands_submit(ctx, cb);
    }
    if (!ctx->hung) spdrt__buffer_destroy(ctx, &staging);
    return res;
}

spdrt_result spdrt__fft_tables_create(spdrt_context *ctx, uint32_t n, uint32_t m, int inverse,
                                      spdrt_buffer *chirp, spdrt_buffer *spectrum)
{
    VkDeviceSize bytes[2] = {(VkDeviceSize)n * 8, (VkDeviceSize)m * 8};
    spdrt_buffer staging[2], *dst[2] = {chirp, spectrum};
    VkCommandBuffer cb;
    spdrt_result res = SPDRT_OK;
    memset(staging, 0, sizeof staging);
    for (int i = 0; i < 2 && res == SPDRT_OK; i++)
        res = spdrt__buffer_create(ctx, bytes[i], VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &staging[i]);
    if (res == SPDRT_OK && spdrt_fft_bluestein_tables(n, m, inverse, staging[0].map, staging[1].map) != 0)
        res = spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "the Bluestein tables of N = %u, M = %u", n, m);
    for (int i = 0; i < 2 && res == SPDRT_OK; i++)
        res = spdrt__buffer_create(ctx, bytes[i], VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, dst[i]);
    if (res == SPDRT_OK) res = spdrt__commands_begin(ctx, &cb);
    if (res == SPDRT_OK) {
        for (int i = 0; i < 2; i++) {
            VkBufferCopy copy = {0, 0, bytes[i]};
            vkCmdCopyBuffer(cb, staging[i].buffer, dst[i]->buffer, 1, &copy);
        }
        res = spdrt__commands_submit(ctx, cb);
    }
    if (!ctx->hung)
        for (int i = 0; i < 2; i++) spdrt__buffer_destroy(ctx, &staging[i]);
    return res;
}

spdrt_result spdrt__fft_pipeline_create(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                                        const spdrt_fft_config *config, uint32_t bindings,
                                        spdrt_fft_pipeline **out)
{
    uint32_t required;
    int full;
    spdrt_result res;
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    if (!out || !config)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_fft_pipeline_create: config and out are required");
    *out = NULL;
    if ((res = spdrt__spirv_check(ctx, spirv, spirv_words)) != SPDRT_OK) return res;
    if ((res = check_config(ctx, config)) != SPDRT_OK) return res;
    spdrt_fft_pipeline *fp = calloc(1, sizeof *fp);
    if (!fp) return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    fp->config = *config;
    if (!fp->config.columns) fp->config.columns = 1;
    fp->bindings = bindings;
    res = subgroup_needs(ctx, config, &required, &full);
    if (res == SPDRT_OK) {
        /* src, dst and the tables: storage buffers. */
        const spdrt_binding buffers[4] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0}};
        spdrt_pipeline_desc desc = {
            .spirv = spirv, .spirv_words = spirv_words, .bindings = buffers,
            .binding_count = fp->bindings, .push_bytes = FFT_PUSH_BYTES, .set_count = 1,
            .required_subgroup = required, .full_subgroups = full};
        res = spdrt__pipeline_create(ctx, &desc, &fp->pipe);
    }
    if (res != SPDRT_OK) {
        spdrt_fft_pipeline_destroy(ctx, fp);
        return res;
    }
    *out = fp;
    return SPDRT_OK;
}

spdrt_result spdrt_fft_pipeline_create(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                                       const spdrt_fft_config *config, spdrt_fft_pipeline **out)
{
    uint32_t bindings = config ? (config->bluestein_m ? 4 : config->lut || config->rader_root ? 3 : 2) : 0;
    spdrt_result res = spdrt__fft_pipeline_create(ctx, spirv, spirv_words, config, bindings, out);
    if (res != SPDRT_OK) return res;
    spdrt_fft_pipeline *fp = *out;
    if (config->lut) res = create_lut(ctx, fp);
    if (res == SPDRT_OK && config->bluestein_m)
        res = spdrt__fft_tables_create(ctx, config->n, config->bluestein_m, config->inverse, &fp->chirp,
                                       &fp->spectrum);
    if (res == SPDRT_OK && config->rader_root) res = rader_table_create(ctx, fp);
    if (res != SPDRT_OK) {
        spdrt_fft_pipeline_destroy(ctx, fp);
        *out = NULL;
    }
    return res;
}

void spdrt_fft_pipeline_destroy(spdrt_context *ctx, spdrt_fft_pipeline *fp)
{
    if (!ctx || !fp) return;
    if (!ctx->hung) {
        spdrt__buffer_destroy(ctx, &fp->lut);
        spdrt__buffer_destroy(ctx, &fp->chirp);
        spdrt__buffer_destroy(ctx, &fp->spectrum);
        spdrt__pipeline_destroy(ctx, &fp->pipe);
    }
    free(fp);
}

/* ---- one run ------------------------------------------------------------------------------ */

void spdrt__fft_resources_release(spdrt_context *ctx, spdrt__fft_resources *rs)
{
    if (ctx->hung) return; /* the device may still use them */
    if (rs->timestamps) vkDestroyQueryPool(ctx->device, rs->timestamps, NULL);
    spdrt__buffer_destroy(ctx, &rs->upload);
    spdrt__buffer_destroy(ctx, &rs->src);
    spdrt__buffer_destroy(ctx, &rs->scratch);
    spdrt__buffer_destroy(ctx, &rs->scratch2);
    spdrt__buffer_destroy(ctx, &rs->dst);
    spdrt__buffer_destroy(ctx, &rs->readback);
}

spdrt_result spdrt__fft_resources_create(spdrt_context *ctx, VkDeviceSize in_bytes,
                                         VkDeviceSize scratch_bytes, VkDeviceSize out_bytes,
                                         spdrt__fft_resources *rs)
{
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    const VkBufferUsageFlags to_host = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    spdrt_result res = spdrt__buffer_create(ctx, in_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1,
                                            &rs->upload);
    if (res == SPDRT_OK) res = spdrt__buffer_create(ctx, in_bytes, storage, 0, &rs->src);
    if (res == SPDRT_OK && scratch_bytes)
        res = spdrt__buffer_create(ctx, scratch_bytes, storage, 0, &rs->scratch);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, out_bytes, storage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0,
                                   &rs->dst);
    if (res == SPDRT_OK) res = spdrt__buffer_create(ctx, out_bytes, to_host, 1, &rs->readback);
    if (res == SPDRT_OK) res = spdrt__timestamps_create(ctx, &rs->timestamps);
    return res;
}

void spdrt__fft_upload(const spdrt__fft_resources *rs, int f16, const float *input, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (f16) ((uint16_t *)rs->upload.map)[i] = spdrt__float_to_half(input[i]);
        else ((float *)rs->upload.map)[i] = input[i];
    }
}

void spdrt__fft_download(const spdrt__fft_resources *rs, int f16, float *output, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (f16) output[i] = spdrt__half_to_float(((const uint16_t *)rs->readback.map)[i]);
        else output[i] = ((const float *)rs->readback.map)[i];
    }
}

void spdrt__fft_bind(spdrt_context *ctx, const spdrt_fft_pipeline *fp, const spdrt_buffer *src,
                     const spdrt_buffer *dst)
{
    const spdrt_buffer *table2 = fp->config.bluestein_m ? &fp->chirp : fp->config.rader_root ? &fp->spectrum : &fp->lut;
    spdrt__fft_bind_tables(ctx, fp, src, dst, table2, &fp->spectrum);
}

void spdrt__fft_bind_tables(spdrt_context *ctx, const spdrt_fft_pipeline *fp, const spdrt_buffer *src,
                            const spdrt_buffer *dst, const spdrt_buffer *table2, const spdrt_buffer *table3)
{
    VkDescriptorBufferInfo info[4];
    VkWriteDescriptorSet w[4];
    const spdrt_buffer *bufs[4] = {src, dst, table2, table3};
    memset(w, 0, sizeof w);
    for (uint32_t i = 0; i < fp->bindings; i++) {
        info[i].buffer = bufs[i]->buffer;
        info[i].offset = 0;
        info[i].range = VK_WHOLE_SIZE;
        w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w[i].dstSet = fp->pipe.sets[0];
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
        w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[i].pBufferInfo = &info[i];
    }
    vkUpdateDescriptorSets(ctx->device, fp->bindings, w, 0, NULL);
}

static void record(VkCommandBuffer cb, const spdrt_fft_pipeline *fp, const uint32_t push[4],
                   uint32_t groups, uint32_t dispatches, VkDeviceSize in_bytes,
                   VkDeviceSize out_bytes, const spdrt__fft_resources *rs)
{
    VkBufferCopy copy;
    const VkPipelineStageFlags compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
    if (rs->timestamps) vkCmdResetQueryPool(cb, rs->timestamps, 0, 2);
    memset(&copy, 0, sizeof copy);
    copy.size = in_bytes;
    vkCmdCopyBuffer(cb, rs->upload.buffer, rs->src.buffer, 1, &copy);
    vkCmdFillBuffer(cb, rs->dst.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu); /* NaN (float and half) */
    spdrt__memory_barrier(cb, transfer, VK_ACCESS_TRANSFER_WRITE_BIT, compute,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, fp->pipe.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, fp->pipe.layout, 0, 1,
                            &fp->pipe.sets[0], 0, NULL);
    vkCmdPushConstants(cb, fp->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, FFT_PUSH_BYTES, push);
    for (uint32_t d = 0; d < dispatches; d++) {
        int last = d + 1 == dispatches;
        /* Each dispatch rewrites what the previous one wrote. */
        if (d > 0)
            spdrt__memory_barrier(cb, compute, VK_ACCESS_SHADER_WRITE_BIT, compute,
                                  VK_ACCESS_SHADER_WRITE_BIT);
        if (last && rs->timestamps) vkCmdWriteTimestamp(cb, compute, rs->timestamps, 0);
        vkCmdDispatch(cb, groups, 1, 1);
        if (last && rs->timestamps) vkCmdWriteTimestamp(cb, compute, rs->timestamps, 1);
    }
    spdrt__memory_barrier(cb, compute, VK_ACCESS_SHADER_WRITE_BIT, transfer,
                          VK_ACCESS_TRANSFER_READ_BIT);
    copy.size = out_bytes;
    vkCmdCopyBuffer(cb, rs->dst.buffer, rs->readback.buffer, 1, &copy);
    spdrt__memory_barrier(cb, transfer, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                          VK_ACCESS_HOST_READ_BIT);
}

spdrt_result spdrt_fft_run(spdrt_context *ctx, spdrt_fft_pipeline *fp, const spdrt_fft_params *params,
                           const float *input, float *output, double *gpu_ms)
{
    const spdrt_fft_config *c;
    spdrt__fft_resources rs;
    VkCommandBuffer cb;
    spdrt_result res;
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    if (gpu_ms) *gpu_ms = -1.0;
    if (!fp || !params || !input || !output)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_fft_run: pipeline, params, input and output are required");
    if (ctx->hung)
        return spdrt__error(ctx, SPDRT_ERROR_VULKAN, "an earlier submission never finished; the context is unusable");
    c = &fp->config;
    if (params->count == 0)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_fft_run: count must be at least 1");
    if (!spdrt__fft_strides_fit(c, params))
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_fft_run: in_stride %u and out_stride %u must be 0 or "
                            "at least %s", params->in_stride, params->out_stride,
                            c->strided ? "count" : "a row");
    uint32_t groups = (params->count + c->columns - 1) / c->columns;
    if (groups > ctx->limits.maxComputeWorkGroupCount[0])
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "%u workgroups exceed the device's %u per dispatch",
                            groups, ctx->limits.maxComputeWorkGroupCount[0]);
    size_t in_floats = spdrt_fft_input_floats(c, params), out_floats = spdrt_fft_output_floats(c, params);
    size_t scalar = c->f16 ? 2 : 4;
    VkDeviceSize in_bytes = in_floats * scalar, out_bytes = out_floats * scalar;
    uint32_t push[4] = {params->count, 0, 0, 0};
    spdrt_fft_strides(c, params, &push[1], &push[2]);

    memset(&rs, 0, sizeof rs);
    res = spdrt__fft_resources_create(ctx, in_bytes, 0, out_bytes, &rs);
    if (res != SPDRT_OK) goto done;
    spdrt__fft_upload(&rs, c->f16, input, in_floats);
    spdrt__fft_bind(ctx, fp, &rs.src, &rs.dst);
    res = spdrt__commands_begin(ctx, &cb);
    if (res != SPDRT_OK) goto done;
    record(cb, fp, push, groups, params->dispatches ? params->dispatches : 1, in_bytes, out_bytes, &rs);
    res = spdrt__commands_submit(ctx, cb);
    if (res != SPDRT_OK) goto done;
    spdrt__fft_download(&rs, c->f16, output, out_floats);
    if (gpu_ms) spdrt__timestamps_ms(ctx, rs.timestamps, gpu_ms); /* -1 when it fails */
done:
    spdrt__fft_resources_release(ctx, &rs);
    return res;
}
