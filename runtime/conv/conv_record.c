/* conv_record.c: the --conv job's three passes recorded into a command buffer, the one code
 * path of spdrt_conv_run (its own command buffer) and of spdrt_conv_record /
 * spdrt_conv_record_pass (the application's, spdrt_vk.h); and the binding of the input and
 * output both use. */
#include <string.h>

#include "conv_internal.h"
#include "spdrt_vk.h"

static const VkPipelineStageFlags COMPUTE = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
static const VkAccessFlags READ_WRITE = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

void spdrt__conv_dispatch(VkCommandBuffer cb, const conv_shader *s, const conv_push *push, uint32_t groups)
{
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s->pipe.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s->pipe.layout, 0, 1, &s->pipe.sets[0], 0, NULL);
    vkCmdPushConstants(cb, s->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, CONV_PUSH_BYTES, push);
    vkCmdDispatch(cb, groups, 1, 1);
}

int spdrt__conv_stale(const spdrt_conv *conv, const conv_push *push)
{
    return conv->info.resampled && conv->resampled_scale != push->psf_scale;
}

void spdrt__conv_record_resample(VkCommandBuffer cb, spdrt_conv *conv, const conv_push *push)
{
    if (!conv->info.resampled) return;
    /* After spectrum2's writes of s and an earlier pass 2's reads of r; before the next. */
    spdrt__memory_barrier(cb, COMPUTE, READ_WRITE, COMPUTE, READ_WRITE);
    spdrt__conv_dispatch(cb, &conv->shaders[CONV_RESAMPLE], push, spdrt__conv_column_groups(conv, CONV_RESAMPLE));
    spdrt__memory_barrier(cb, COMPUTE, VK_ACCESS_SHADER_WRITE_BIT, COMPUTE, VK_ACCESS_SHADER_READ_BIT);
    conv->resampled_scale = push->psf_scale;
    conv->scale = push->psf_scale;
}

/* One pass's dispatch (0, 1, 2: pass 1, 2, 3), nothing around it. */
static void record_pass(VkCommandBuffer cb, const spdrt_conv *conv, const conv_push *push, uint32_t pass)
{
    uint32_t lines = spdrt__conv_line_groups(spdrt__conv_lines(conv, push->width, push->height));
    if (pass == 1)
        spdrt__conv_dispatch(cb, &conv->shaders[CONV_PASS2], push, spdrt__conv_column_groups(conv, CONV_PASS2));
    else spdrt__conv_dispatch(cb, &conv->shaders[pass ? CONV_PASS3 : CONV_PASS1], push, lines);
}

void spdrt__conv_record_passes(VkCommandBuffer cb, const spdrt_conv *conv, const conv_push *push,
                        const spdrt_vk_use *before, const spdrt_vk_use *after, VkQueryPool pool)
{
    /* The input's last write, the output's last use, and a record before this one on the
     * same queue (its pass 2 and 3 still reading the spectra this one's pass 1 and 2
     * overwrite, its pass 3 writing the output): one barrier covers them all. */
    spdrt__memory_barrier(cb, COMPUTE | before->stage, VK_ACCESS_SHADER_WRITE_BIT | before->access, COMPUTE,
                          READ_WRITE);
    for (uint32_t pass = 0; pass < 3; pass++) {
        if (pass) spdrt__memory_barrier(cb, COMPUTE, READ_WRITE, COMPUTE, READ_WRITE);
        if (pool) vkCmdWriteTimestamp(cb, COMPUTE, pool, pass);
        record_pass(cb, conv, push, pass);
    }
    if (pool) vkCmdWriteTimestamp(cb, COMPUTE, pool, 3);
    if (after->stage) spdrt__memory_barrier(cb, COMPUTE, VK_ACCESS_SHADER_WRITE_BIT, after->stage, after->access);
}

conv_push spdrt__conv_push_of(const spdrt_conv *conv, const spdrt_conv_params *p)
{
    conv_push push = {p->width, p->height, conv->psf_width, conv->psf_height, p->intensity,
                      p->composite ? 1u : 0u, p->sharpen, p->psf_scale > 0 ? p->psf_scale : 1.0f};
    return push;
}

spdrt_result spdrt__conv_check_params(spdrt_context *ctx, const spdrt_conv *conv, const spdrt_conv_params *p,
                               const char *what)
{
    if (!conv || !p) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: conv and params are required", what);
    if (ctx->hung) return spdrt__error(ctx, SPDRT_ERROR_VULKAN, "an earlier submission never finished");
    if (!p->width || !p->height || p->width > conv->info.image_width || p->height > conv->info.image_height)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: a %ux%u image; the plan takes 1x1 to %ux%u", what,
                            p->width, p->height, conv->info.image_width, conv->info.image_height);
    if (!conv->psf_width)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: no PSF set (spdrt_conv_set_kernel)", what);
    return SPDRT_OK;
}

/* ---- binding the input and output ---------------------------------------------------------- */

spdrt_result spdrt_conv_bind(spdrt_context *ctx, spdrt_conv *conv, const spdrt_conv_targets *t)
{
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    if (!conv || !t) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_bind: conv and targets are required");
    const spdrt_conv_info *i = &conv->info;
    if (i->input_buffer ? !t->input_buffer : !t->input_view)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_bind: the job reads %s; targets has no %s",
                            i->input_buffer ? "a buffer" : "an image", i->input_buffer ? "input_buffer" : "input_view");
    if (i->output_buffer ? !t->output_buffer : !t->output_view)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_bind: the job writes %s; targets has no %s",
                            i->output_buffer ? "a buffer" : "an image",
                            i->output_buffer ? "output_buffer" : "output_view");
    VkImageLayout in_layout = t->input_layout ? t->input_layout : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    VkDescriptorSet pass1 = conv->shaders[CONV_PASS1].pipe.sets[0], pass3 = conv->shaders[CONV_PASS3].pipe.sets[0];
    for (int k = 0; k < 2; k++) {
        VkDescriptorSet set = k ? pass3 : pass1;
        uint32_t binding = k ? 1 : 0; /* pass 3 reads the source for the composite */
        if (i->input_buffer) spdrt__write_buffer(ctx, set, binding, t->input_buffer, t->input_offset, VK_WHOLE_SIZE);
        else spdrt__write_image(ctx, set, binding, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, t->input_view, in_layout);
    }
    if (i->output_buffer) spdrt__write_buffer(ctx, pass3, 2, t->output_buffer, t->output_offset, VK_WHOLE_SIZE);
    else spdrt__write_image(ctx, pass3, 2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, t->output_view, VK_IMAGE_LAYOUT_GENERAL);
    conv->bound = 1;
    return SPDRT_OK;
}

/* ---- recording into the application's command buffer --------------------------------------- */

static spdrt_result check_record(spdrt_context *ctx, const spdrt_conv *conv, VkCommandBuffer cmd,
                                 const spdrt_conv_params *p, const char *what)
{
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    spdrt_result res = spdrt__conv_check_params(ctx, conv, p, what);
    if (res != SPDRT_OK) return res;
    if (!cmd) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: no command buffer", what);
    if (!conv->bound) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: no input and output bound (spdrt_conv_bind)", what);
    return SPDRT_OK;
}

spdrt_result spdrt_conv_record_resample(spdrt_context *ctx, spdrt_conv *conv, VkCommandBuffer cmd,
                                        const spdrt_conv_params *params)
{
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    spdrt_result res = spdrt__conv_check_params(ctx, conv, params, "spdrt_conv_record_resample");
    if (res != SPDRT_OK) return res;
    if (!cmd) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_record_resample: no command buffer");
    conv_push push = spdrt__conv_push_of(conv, params);
    spdrt__conv_record_resample(cmd, conv, &push);
    return SPDRT_OK;
}

spdrt_result spdrt_conv_record(spdrt_context *ctx, spdrt_conv *conv, VkCommandBuffer cmd,
                               const spdrt_conv_params *params, const spdrt_conv_sync *sync)
{
    spdrt_conv_sync none;
    spdrt_result res = check_record(ctx, conv, cmd, params, "spdrt_conv_record");
    if (res != SPDRT_OK) return res;
    if (!sync) {
        memset(&none, 0, sizeof none);
        sync = &none;
    }
    spdrt_vk_use before = sync->input_before;
    before.stage |= sync->output_before.stage;
    before.access |= sync->output_before.access;
    conv_push push = spdrt__conv_push_of(conv, params);
    if (spdrt__conv_stale(conv, &push)) spdrt__conv_record_resample(cmd, conv, &push);
    spdrt__conv_record_passes(cmd, conv, &push, &before, &sync->output_after, VK_NULL_HANDLE);
    return SPDRT_OK;
}

spdrt_result spdrt_conv_record_pass(spdrt_context *ctx, const spdrt_conv *conv, VkCommandBuffer cmd,
                                    const spdrt_conv_params *params, uint32_t pass)
{
    spdrt_result res = check_record(ctx, conv, cmd, params, "spdrt_conv_record_pass");
    if (res != SPDRT_OK) return res;
    if (pass > 2) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_record_pass: pass %u; 0, 1 or 2", pass);
    conv_push push = spdrt__conv_push_of(conv, params);
    if (pass == 1 && spdrt__conv_stale(conv, &push))
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_conv_record_pass: the spectrum is resampled for "
                            "psf_scale %g, not %g (spdrt_conv_record_resample first)",
                            (double)conv->resampled_scale, (double)push.psf_scale);
    record_pass(cmd, conv, &push, pass);
    return SPDRT_OK;
}

void spdrt_context_vk(const spdrt_context *ctx, spdrt_vk_handles *out)
{
    memset(out, 0, sizeof *out);
    if (!ctx) return;
    out->instance = ctx->instance;
    out->physical_device = ctx->physical;
    out->device = ctx->device;
    out->queue = ctx->queue;
    out->queue_family = ctx->queue_family;
}
