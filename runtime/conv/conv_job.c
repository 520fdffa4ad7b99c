/* conv_job.c: a --conv run kept on the device for the benchmark (conv_internal.h,
 * conv_job_*): spdrt_conv_run uploads, runs and reads back in one submission per image, so
 * the GPU waits on the host between runs; a job does the upload once and lets the harness
 * record the passes as often as it likes. */
#include <string.h>

#include "conv_internal.h"

spdrt_result conv_job_prepare(spdrt_context *ctx, spdrt_conv *conv, const spdrt_conv_params *p,
                              const float *input, conv_job *job)
{
    VkCommandBuffer cb;
    memset(job, 0, sizeof *job);
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    spdrt_result res = conv_check_run(ctx, conv, p, input, input);
    if (res != SPDRT_OK) return res;
    job->ctx = ctx, job->conv = conv, job->width = p->width, job->height = p->height;
    job->push = conv_push_of(conv, p);
    res = conv_run_create(ctx, conv, p->width, p->height, input, &job->rs);
    if (res == SPDRT_OK) res = spdrt__commands_begin(ctx, &cb);
    if (res == SPDRT_OK) {
        conv_bind_run(ctx, conv, &job->rs);
        conv_record_setup(cb, conv, &job->rs, p->width, p->height);
        res = spdrt__commands_submit(ctx, cb);
    }
    if (res != SPDRT_OK) conv_job_release(job);
    return res;
}

void conv_job_record(VkCommandBuffer cb, void *user)
{
    const conv_job *job = user;
    if (job->alone) conv_record_pass(cb, job->conv, &job->push, job->alone);
    else conv_record_passes(cb, job->conv, &job->push, VK_NULL_HANDLE);
}

spdrt_result conv_job_read(conv_job *job, float *output)
{
    VkCommandBuffer cb;
    spdrt_context *ctx = job->ctx;
    spdrt_result res = spdrt__commands_begin(ctx, &cb);
    if (res != SPDRT_OK) return res;
    conv_record_readback(cb, job->conv, &job->rs, job->width, job->height);
    if (!job->conv->info.output_buffer)
        spdrt__image_barrier(cb, &job->rs.out_image, 0, 1, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_ACCESS_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                             VK_IMAGE_LAYOUT_GENERAL);
    res = spdrt__commands_submit(ctx, cb);
    if (res == SPDRT_OK) conv_unpack_output(job->conv, &job->rs, (size_t)job->width * job->height, output);
    return res;
}

void conv_job_release(conv_job *job)
{
    if (job->ctx) conv_run_release(job->ctx, &job->rs);
    memset(job, 0, sizeof *job);
}
