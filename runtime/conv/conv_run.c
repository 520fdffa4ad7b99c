/* conv_run.c: the --conv job's runs: the kernel spectrum (spdrt_conv_set_kernel) and the
 * three passes over an image (spdrt_conv_run: its own images, uploaded and read back around
 * conv_record.c's passes), each one command buffer, checked by synchronization validation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"

static const VkPipelineStageFlags COMPUTE = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
static const VkPipelineStageFlags TRANSFER = VK_PIPELINE_STAGE_TRANSFER_BIT;

uint32_t spdrt__conv_line_groups(uint32_t lines) { return (lines + 1) / 2; }

uint32_t spdrt__conv_column_groups(const spdrt_conv *conv, int shader)
{
    return conv->info.channels * conv->shaders[shader].groups_per_channel;
}

uint32_t spdrt__conv_lines(const spdrt_conv *conv, uint32_t width, uint32_t height)
{
    return conv->info.first_axis_y ? width : height;
}

uint32_t spdrt_conv_input_floats(const spdrt_conv *conv) { return conv->info.input_buffer ? conv->info.channels : 4; }
uint32_t spdrt_conv_output_floats(const spdrt_conv *conv) { return conv->info.output_buffer ? conv->info.channels : 4; }

/* A pass's writes before the next pass's reads (and its reads before the next writes). */
static void between_passes(VkCommandBuffer cb)
{
    spdrt__memory_barrier(cb, COMPUTE, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT, COMPUTE,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

static void nan_fill(VkCommandBuffer cb, const spdrt_buffer *b)
{
    vkCmdFillBuffer(cb, b->buffer, 0, VK_WHOLE_SIZE, 0xffffffffu); /* NaN as floats and as halves */
}

/* ---- the kernel spectrum ------------------------------------------------------------------ */

static spdrt_result copy_psf(spdrt_context *ctx, spdrt_conv *conv, const float *psf, uint32_t w, uint32_t h,
                             int normalize)
{
    uint32_t channels = conv->info.channels;
    double sum[4] = {0, 0, 0, 0};
    size_t pixels = (size_t)w * h;
    for (size_t i = 0; i < pixels; i++)
        for (uint32_t c = 0; c < channels; c++) sum[c] += psf[i * channels + c];
    for (uint32_t c = 0; normalize && c < channels; c++)
        if (sum[c] == 0.0 || !isfinite(sum[c]))
            return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_set_kernel: channel %u of the PSF sums to "
                                "%g, so it cannot be normalized", c, sum[c]);
    float *dst = conv->psf.map;
    for (size_t i = 0; i < pixels; i++)
        for (uint32_t c = 0; c < channels; c++)
            dst[i * channels + c] = normalize ? (float)(psf[i * channels + c] / sum[c]) : psf[i * channels + c];
    return SPDRT_OK;
}

spdrt_result spdrt_conv_set_kernel(spdrt_context *ctx, spdrt_conv *conv, const float *psf, uint32_t width,
                                   uint32_t height, int normalize)
{
    VkCommandBuffer cb;
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    if (!conv || !psf) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_set_kernel: conv and psf are required");
    if (ctx->hung) return spdrt__error(ctx, SPDRT_ERROR_VULKAN, "an earlier submission never finished");
    if (!width || !height || width > conv->info.psf_width || height > conv->info.psf_height)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_set_kernel: a %ux%u PSF; the plan takes 1x1 "
                            "to %ux%u", width, height, conv->info.psf_width, conv->info.psf_height);
    spdrt_result res = copy_psf(ctx, conv, psf, width, height, normalize);
    if (res == SPDRT_OK) res = spdrt__commands_begin(ctx, &cb);
    if (res != SPDRT_OK) return res;
    conv_push push = {.width = 1, .height = 1, .psf_width = width, .psf_height = height, .psf_scale = 1.0f};
    nan_fill(cb, &conv->zk);
    nan_fill(cb, &conv->s);
    spdrt__memory_barrier(cb, TRANSFER | COMPUTE, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT, COMPUTE,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    spdrt__conv_dispatch(cb, &conv->shaders[CONV_SPECTRUM1], &push,
                         spdrt__conv_line_groups(spdrt__conv_lines(conv, width, height)));
    between_passes(cb);
    spdrt__conv_dispatch(cb, &conv->shaders[CONV_SPECTRUM2], &push, spdrt__conv_column_groups(conv, CONV_SPECTRUM2));
    /* The spectrum for every later run's pass 2 (resampled: for the resample, at the scale
     * of the last run, which the next run most likely keeps), and for a read-back. */
    spdrt__memory_barrier(cb, COMPUTE, VK_ACCESS_SHADER_WRITE_BIT, COMPUTE | TRANSFER,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    push.psf_scale = conv->scale;
    spdrt__conv_record_resample(cb, conv, &push);
    res = spdrt__commands_submit(ctx, cb);
    if (res == SPDRT_OK) conv->psf_width = width, conv->psf_height = height;
    else conv->resampled_scale = 0.0f;
    return res;
}

size_t spdrt_conv_spectrum_values(const spdrt_conv *conv) { return (size_t)conv->values[2]; }

size_t spdrt_conv_spectrum_at(const spdrt_conv *conv, uint32_t c, uint32_t kx, uint32_t ky)
{
    const spdrt_conv_info *i = &conv->info;
    uint32_t k1 = i->first_axis_y ? ky : kx, k2 = i->first_axis_y ? kx : ky;
    uint32_t q2 = i->first_axis_y ? i->spectrum_width : i->spectrum_height;
    if (i->resampled) return ((size_t)c * q2 + k2) * conv->q1 + k1;
    if (k1 > conv->p1 / 2 || !conv->s_tile) return (size_t)-1; /* !s_tile: a plan without spectrum-tiles */
    /* Row j2 of pass 2's tile of column k1 (templates/conv/tiles.lua, the plan's spectrum-tiles):
     * j2 the position pass 2 holds frequency k2 at, bit-reversed where q2 is a power of two,
     * else natural. */
    uint32_t j2 = k2;
    if ((q2 & (q2 - 1)) == 0) {
        uint32_t bits = 0;
        while ((1u << bits) < q2) bits++;
        j2 = 0;
        for (uint32_t b = 0; b < bits; b++) j2 |= ((k2 >> b) & 1u) << (bits - 1 - b);
    }
    uint32_t t = conv->s_tile, tiles = (conv->p1 / 2 + t) / t; /* P1/2 + 1 columns in tiles of t */
    return (((size_t)c * tiles + k1 / t) * q2 + j2) * t + k1 % t;
}

spdrt_result spdrt_conv_read_spectrum(spdrt_context *ctx, spdrt_conv *conv, float *out)
{
    spdrt_buffer readback;
    VkCommandBuffer cb;
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    if (!conv || !out) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_read_spectrum: conv and out are required");
    if (!conv->psf_width) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_read_spectrum: no PSF set");
    spdrt_result res = spdrt__buffer_create(ctx, conv->s.size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1, &readback);
    if (res == SPDRT_OK) res = spdrt__commands_begin(ctx, &cb);
    if (res == SPDRT_OK) {
        VkBufferCopy copy = {0, 0, conv->s.size};
        vkCmdCopyBuffer(cb, conv->s.buffer, readback.buffer, 1, &copy);
        spdrt__memory_barrier(cb, TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                              VK_ACCESS_HOST_READ_BIT);
        res = spdrt__commands_submit(ctx, cb);
    }
    if (res == SPDRT_OK) {
        size_t floats = spdrt_conv_spectrum_values(conv) * 2;
        for (size_t k = 0; k < floats; k++)
            out[k] = conv->info.f16 ? spdrt__half_to_float(((const uint16_t *)readback.map)[k])
                                    : ((const float *)readback.map)[k];
    }
    if (!ctx->hung) spdrt__buffer_destroy(ctx, &readback);
    return res;
}

void spdrt_conv_round_input(const spdrt_conv *conv, float *input, size_t pixels)
{
    if (conv->info.input_buffer || conv->info.output_buffer || conv->info.output_format != SPDRT_RGBA16F) return;
    for (size_t k = 0; k < pixels * 4; k++) input[k] = spdrt__half_to_float(spdrt__float_to_half(input[k]));
}

/* ---- a run -------------------------------------------------------------------------------- */

static spdrt_format image_format(const spdrt_conv *conv)
{
    return conv->info.output_buffer ? SPDRT_RGBA32F : conv->info.output_format;
}

spdrt_result spdrt__conv_run_create(spdrt_context *ctx, const spdrt_conv *conv, uint32_t width, uint32_t height,
                             const float *input, conv_run_resources *rs)
{
    const spdrt_conv_info *i = &conv->info;
    spdrt_format format = image_format(conv);
    VkFormat vk = spdrt__format_vk(format);
    size_t pixels = (size_t)width * height;
    VkDeviceSize in_bytes = i->input_buffer ? pixels * i->channels * 4 : pixels * spdrt__format_texel_size(format);
    VkDeviceSize out_bytes = i->output_buffer ? pixels * i->channels * 4 : pixels * spdrt__format_texel_size(format);
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    memset(rs, 0, sizeof *rs);
    spdrt_result res = spdrt__buffer_create(ctx, in_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &rs->upload);
    if (res == SPDRT_OK) res = spdrt__buffer_create(ctx, out_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1, &rs->readback);
    if (res == SPDRT_OK && i->input_buffer) res = spdrt__buffer_create(ctx, in_bytes, storage, 0, &rs->in_buffer);
    if (res == SPDRT_OK && !i->input_buffer) {
        res = spdrt__image_create(ctx, vk, width, height, 1, 1, VK_IMAGE_USAGE_SAMPLED_BIT |
                                  VK_IMAGE_USAGE_TRANSFER_DST_BIT, &rs->in_image);
        if (res == SPDRT_OK) res = spdrt__image_view(ctx, &rs->in_image, 0, 0, &rs->in_view);
    }
    if (res == SPDRT_OK && i->output_buffer) res = spdrt__buffer_create(ctx, out_bytes, storage, 0, &rs->out_buffer);
    if (res == SPDRT_OK && !i->output_buffer) {
        res = spdrt__image_create(ctx, vk, width, height, 1, 1, VK_IMAGE_USAGE_STORAGE_BIT |
                                  VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &rs->out_image);
        if (res == SPDRT_OK) res = spdrt__image_view(ctx, &rs->out_image, 0, 0, &rs->out_view);
    }
    if (res == SPDRT_OK && ctx->timestamp_valid_bits) {
        VkQueryPoolCreateInfo qci;
        memset(&qci, 0, sizeof qci);
        qci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
        qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qci.queryCount = 4;
        VkResult r = vkCreateQueryPool(ctx->device, &qci, NULL, &rs->timestamps);
        if (r != VK_SUCCESS) {
            rs->timestamps = VK_NULL_HANDLE;
            res = spdrt__vk_error(ctx, "vkCreateQueryPool", r);
        }
    }
    if (res == SPDRT_OK && input) {
        uint32_t f = spdrt_conv_input_floats(conv), texel = spdrt__format_texel_size(format);
        for (size_t p = 0; p < pixels; p++) {
            if (i->input_buffer) memcpy((float *)rs->upload.map + p * f, input + p * f, f * sizeof(float));
            else spdrt__texel_pack(format, input + p * 4, (char *)rs->upload.map + p * texel);
        }
    }
    return res;
}

void spdrt__conv_run_release(spdrt_context *ctx, conv_run_resources *rs)
{
    if (ctx->hung) return;
    if (rs->timestamps) vkDestroyQueryPool(ctx->device, rs->timestamps, NULL);
    if (rs->in_view) vkDestroyImageView(ctx->device, rs->in_view, NULL);
    if (rs->out_view) vkDestroyImageView(ctx->device, rs->out_view, NULL);
    spdrt__image_destroy(ctx, &rs->in_image);
    spdrt__image_destroy(ctx, &rs->out_image);
    spdrt__buffer_destroy(ctx, &rs->in_buffer);
    spdrt__buffer_destroy(ctx, &rs->out_buffer);
    spdrt__buffer_destroy(ctx, &rs->upload);
    spdrt__buffer_destroy(ctx, &rs->readback);
}

void spdrt__conv_run_targets(const spdrt_conv *conv, const conv_run_resources *rs, spdrt_conv_targets *t)
{
    memset(t, 0, sizeof *t);
    if (conv->info.input_buffer) t->input_buffer = rs->in_buffer.buffer;
    else t->input_view = rs->in_view;
    if (conv->info.output_buffer) t->output_buffer = rs->out_buffer.buffer;
    else t->output_view = rs->out_view;
}

static VkBufferImageCopy whole_image(uint32_t width, uint32_t height)
{
    VkBufferImageCopy copy;
    memset(&copy, 0, sizeof copy);
    copy.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    copy.imageSubresource.layerCount = 1;
    copy.imageExtent.width = width;
    copy.imageExtent.height = height;
    copy.imageExtent.depth = 1;
    return copy;
}

void spdrt__conv_record_setup(VkCommandBuffer cb, const spdrt_conv *conv, const conv_run_resources *rs, uint32_t w,
                       uint32_t h)
{
    VkBufferImageCopy copy = whole_image(w, h);
    if (conv->info.input_buffer) {
        VkBufferCopy bc = {0, 0, rs->upload.size};
        vkCmdCopyBuffer(cb, rs->upload.buffer, rs->in_buffer.buffer, 1, &bc);
    } else {
        spdrt__image_barrier(cb, &rs->in_image, 0, 1, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_IMAGE_LAYOUT_UNDEFINED,
                             TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        vkCmdCopyBufferToImage(cb, rs->upload.buffer, rs->in_image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                               &copy);
        spdrt__image_barrier(cb, &rs->in_image, 0, 1, TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT,
                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, COMPUTE, VK_ACCESS_SHADER_READ_BIT,
                             VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    }
    if (conv->info.output_buffer) {
        nan_fill(cb, &rs->out_buffer);
    } else {
        VkClearColorValue nan;
        VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        for (int k = 0; k < 4; k++) nan.float32[k] = NAN;
        spdrt__image_barrier(cb, &rs->out_image, 0, 1, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_IMAGE_LAYOUT_UNDEFINED,
                             TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        vkCmdClearColorImage(cb, rs->out_image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &nan, 1, &range);
        spdrt__image_barrier(cb, &rs->out_image, 0, 1, TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT,
                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, COMPUTE, VK_ACCESS_SHADER_WRITE_BIT,
                             VK_IMAGE_LAYOUT_GENERAL);
    }
    nan_fill(cb, &conv->z);
    nan_fill(cb, &conv->y);
    spdrt__memory_barrier(cb, TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, COMPUTE,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void spdrt__conv_record_readback(VkCommandBuffer cb, const spdrt_conv *conv, const conv_run_resources *rs, uint32_t w,
                          uint32_t h)
{
    if (conv->info.output_buffer) {
        spdrt__memory_barrier(cb, COMPUTE, VK_ACCESS_SHADER_WRITE_BIT, TRANSFER, VK_ACCESS_TRANSFER_READ_BIT);
        VkBufferCopy bc = {0, 0, rs->readback.size};
        vkCmdCopyBuffer(cb, rs->out_buffer.buffer, rs->readback.buffer, 1, &bc);
    } else {
        VkBufferImageCopy copy = whole_image(w, h);
        spdrt__image_barrier(cb, &rs->out_image, 0, 1, COMPUTE, VK_ACCESS_SHADER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
                             TRANSFER, VK_ACCESS_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        vkCmdCopyImageToBuffer(cb, rs->out_image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rs->readback.buffer, 1,
                               &copy);
    }
    spdrt__memory_barrier(cb, TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                          VK_ACCESS_HOST_READ_BIT);
}

void spdrt__conv_unpack_output(const spdrt_conv *conv, const conv_run_resources *rs, size_t pixels, float *output)
{
    spdrt_format format = image_format(conv);
    uint32_t texel = spdrt__format_texel_size(format), f = spdrt_conv_output_floats(conv);
    for (size_t k = 0; k < pixels; k++) {
        if (conv->info.output_buffer) memcpy(output + k * f, (const float *)rs->readback.map + k * f, f * sizeof(float));
        else spdrt__texel_unpack(format, (const char *)rs->readback.map + k * texel, output + k * 4);
    }
}

static void read_times(spdrt_context *ctx, VkQueryPool pool, spdrt_conv_times *times)
{
    uint64_t t[4];
    times->pass_ms[0] = times->pass_ms[1] = times->pass_ms[2] = times->total_ms = -1.0;
    if (!pool || vkGetQueryPoolResults(ctx->device, pool, 0, 4, sizeof t, t, sizeof t[0],
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        return;
    uint64_t mask = ctx->timestamp_valid_bits >= 64 ? ~0ull : (1ull << ctx->timestamp_valid_bits) - 1;
    double ns = ctx->info.timestamp_period_ns;
    for (int k = 0; k < 3; k++) times->pass_ms[k] = (double)((t[k + 1] - t[k]) & mask) * ns / 1e6;
    times->total_ms = (double)((t[3] - t[0]) & mask) * ns / 1e6;
}

spdrt_result spdrt_conv_run(spdrt_context *ctx, spdrt_conv *conv, const spdrt_conv_params *p, const float *input,
                            float *output, spdrt_conv_times *times)
{
    conv_run_resources rs;
    spdrt_conv_targets targets;
    VkCommandBuffer cb;
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    spdrt_result res = spdrt__conv_check_params(ctx, conv, p, "spdrt_conv_run");
    if (res == SPDRT_OK && (!input || !output))
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_run: input and output are required");
    if (res != SPDRT_OK) return res;
    res = spdrt__conv_run_create(ctx, conv, p->width, p->height, input, &rs);
    if (res == SPDRT_OK) {
        spdrt__conv_run_targets(conv, &rs, &targets);
        res = spdrt_conv_bind(ctx, conv, &targets);
    }
    if (res == SPDRT_OK) res = spdrt__commands_begin(ctx, &cb);
    if (res == SPDRT_OK) {
        conv_push push = spdrt__conv_push_of(conv, p);
        /* spdrt__conv_record_setup leaves the input and output visible to the passes;
         * spdrt__conv_record_readback has its own barriers (the output image's layout changes). */
        spdrt_vk_use none = {0, 0, VK_IMAGE_LAYOUT_UNDEFINED};
        if (rs.timestamps) vkCmdResetQueryPool(cb, rs.timestamps, 0, 4);
        if (spdrt__conv_stale(conv, &push)) spdrt__conv_record_resample(cb, conv, &push);
        spdrt__conv_record_setup(cb, conv, &rs, p->width, p->height);
        spdrt__conv_record_passes(cb, conv, &push, &none, &none, rs.timestamps);
        spdrt__conv_record_readback(cb, conv, &rs, p->width, p->height);
        res = spdrt__commands_submit(ctx, cb);
        if (res != SPDRT_OK) conv->resampled_scale = 0.0f;
    }
    /* Its images go now: nothing is bound until the next spdrt_conv_bind or run. */
    conv->bound = 0;
    if (res == SPDRT_OK) {
        spdrt__conv_unpack_output(conv, &rs, (size_t)p->width * p->height, output);
        if (times) read_times(ctx, rs.timestamps, times);
    }
    spdrt__conv_run_release(ctx, &rs);
    return res;
}
