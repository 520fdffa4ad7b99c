/* conv_job.c: a --conv run kept on the device for the benchmark (conv_internal.h,
 * conv_job_*): spdrt_conv_run uploads, runs and reads back in one submission per image, so
 * the GPU waits on the host between runs; a job uploads once and records the passes through
 * the public recording API (spdrt_vk.h) as often as the harness likes. */
#include <string.h>

#include "conv_internal.h"

spdrt_result spdrt__conv_job_prepare(spdrt_context *ctx, spdrt_conv *conv, const spdrt_conv_params *p,
                              const float *input, conv_job *job)
{
    VkCommandBuffer cb;
    spdrt_conv_targets targets;
    memset(job, 0, sizeof *job);
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    spdrt_result res = spdrt__conv_check_params(ctx, conv, p, "spdrt__conv_job_prepare");
    if (res != SPDRT_OK) return res;
    job->ctx = ctx, job->conv = conv, job->params = *p;
    res = spdrt__conv_run_create(ctx, conv, p->width, p->height, input, &job->rs);
    if (res == SPDRT_OK) {
        spdrt__conv_run_targets(conv, &job->rs, &targets);
        res = spdrt_conv_bind(ctx, conv, &targets);
    }
    if (res == SPDRT_OK) res = spdrt__commands_begin(ctx, &cb);
    if (res == SPDRT_OK) {
        spdrt__conv_record_setup(cb, conv, &job->rs, p->width, p->height);
        /* Resampled once here, so every record times the passes alone. */
        conv_push push = spdrt__conv_push_of(conv, p);
        if (spdrt__conv_stale(conv, &push)) spdrt__conv_record_resample(cb, conv, &push);
        res = spdrt__commands_submit(ctx, cb);
        if (res != SPDRT_OK) conv->resampled_scale = 0.0f;
    }
    if (res != SPDRT_OK) spdrt__conv_job_release(job);
    return res;
}

void spdrt__conv_job_record(VkCommandBuffer cb, void *user)
{
    const conv_job *job = user;
    if (job->alone == 4) {
        conv_push push = spdrt__conv_push_of(job->conv, &job->params);
        spdrt__conv_record_resample(cb, job->conv, &push);
    } else if (job->alone) spdrt_conv_record_pass(job->ctx, job->conv, cb, &job->params, (uint32_t)job->alone - 1);
    else spdrt_conv_record(job->ctx, job->conv, cb, &job->params, NULL);
}

spdrt_result spdrt__conv_job_read(conv_job *job, float *output)
{
    VkCommandBuffer cb;
    spdrt_context *ctx = job->ctx;
    spdrt_result res = spdrt__commands_begin(ctx, &cb);
    if (res != SPDRT_OK) return res;
    spdrt__conv_record_readback(cb, job->conv, &job->rs, job->params.width, job->params.height);
    if (!job->conv->info.output_buffer)
        spdrt__image_barrier(cb, &job->rs.out_image, 0, 1, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_ACCESS_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                             VK_IMAGE_LAYOUT_GENERAL);
    res = spdrt__commands_submit(ctx, cb);
    if (res == SPDRT_OK)
        spdrt__conv_unpack_output(job->conv, &job->rs, (size_t)job->params.width * job->params.height, output);
    return res;
}

void spdrt__conv_job_release(conv_job *job)
{
    if (job->ctx) {
        spdrt__conv_run_release(job->ctx, &job->rs);
        job->conv->bound = 0; /* its images are gone */
    }
    memset(job, 0, sizeof *job);
}
