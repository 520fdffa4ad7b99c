/* record_fft.c: TAP test of recording an FFT into an application's command buffer
 * (spdrt_vk.h), on a context's device with the validation layer and synchronization
 * validation on, as record.c does for the SPD. Per configuration: spdgen writes the
 * shader and its header (tests/device/fft_common.h); the test makes the buffers
 * spdrt_fft_kernel_requirements asks for, uploads the input, fills the output with NaN,
 * records two runs back to back (the output refilled between them), reads the output back
 * and compares it with the double reference within the stated bars. */
#include "fft/common.h"

#include "core/internal.h"
#include "spdrt_vk.h"

#include "tap.h"

static const fft_case cases[] = {
    {.n = 1024, .ept = 8, .wg = 128},
    {.n = 256, .ept = 4, .wg = 64, .subgroup = 8, .strided = 1},
    {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .real = 1},
    {.n = 512, .ept = 8, .wg = 64, .f16 = 1, .inverse = 1},
    {.n = 256, .ept = 4, .wg = 64, .lut = 1},
};

typedef struct {
    spdrt_buffer input, output, twiddles, upload, readback;
} app_buffers;

static void release(spdrt_context *ctx, app_buffers *a) {
    spdrt__buffer_destroy(ctx, &a->input);
    spdrt__buffer_destroy(ctx, &a->output);
    spdrt__buffer_destroy(ctx, &a->twiddles);
    spdrt__buffer_destroy(ctx, &a->upload);
    spdrt__buffer_destroy(ctx, &a->readback);
}

/* Upload, NaN fill, run, refill, run, read back: the application's side around two records. */
static spdrt_result record_all(VkCommandBuffer cb, const app_buffers *a,
                               const spdrt_fft_binding *b, const spdrt_fft_requirements *req) {
    const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
    spdrt_fft_sync first, second;
    VkBufferCopy copy = {0, 0, req->input_bytes};
    spdrt_result res;
    vkCmdCopyBuffer(cb, a->upload.buffer, a->input.buffer, 1, &copy);
    if (req->twiddle_bytes) {
        copy = (VkBufferCopy){req->input_bytes, 0, req->twiddle_bytes};
        vkCmdCopyBuffer(cb, a->upload.buffer, a->twiddles.buffer, 1, &copy);
        /* The table is the application's to make visible, once. */
        spdrt__memory_barrier(cb, transfer, VK_ACCESS_TRANSFER_WRITE_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    }
    vkCmdFillBuffer(cb, a->output.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu); /* NaN */
    memset(&first, 0, sizeof first);
    first.input_before = (spdrt_vk_use){transfer, VK_ACCESS_TRANSFER_WRITE_BIT, 0};
    first.output_before = first.input_before;
    first.output_after = (spdrt_vk_use){transfer, VK_ACCESS_TRANSFER_WRITE_BIT, 0};
    res = spdrt_fft_record(b, cb, &first);
    vkCmdFillBuffer(cb, a->output.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
    memset(&second, 0, sizeof second);
    second.output_before = first.output_after;
    second.output_after = (spdrt_vk_use){transfer, VK_ACCESS_TRANSFER_READ_BIT, 0};
    if (res == SPDRT_OK)
        res = spdrt_fft_record(b, cb, &second);
    copy = (VkBufferCopy){0, 0, req->output_bytes};
    vkCmdCopyBuffer(cb, a->output.buffer, a->readback.buffer, 1, &copy);
    spdrt__memory_barrier(cb, transfer, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                          VK_ACCESS_HOST_READ_BIT);
    return res;
}

static void run_case(spdrt_context *ctx, const fft_case *c) {
    char flags[512], err[512] = "";
    spdrt_fft_kernel_info info;
    spdrt_fft_kernel *kernel = NULL;
    spdrt_fft_binding *binding = NULL;
    spdrt_fft_requirements req;
    spdrt_fft_targets t;
    spdrt_fft_error e = {0};
    app_buffers a;
    VkCommandBuffer cb;
    size_t words = 0, in_n = 0, out_n = 0;
    float *in = NULL, *out = NULL;
    double *ref = NULL;
    uint32_t before = spdrt_validation_messages(ctx);
    spdrt_result res = SPDRT_ERROR_ARGUMENT;
    fft_case_flags(c, flags, sizeof flags);
    memset(&info, 0, sizeof info);
    memset(&t, 0, sizeof t);
    memset(&a, 0, sizeof a);
    info.spirv = fft_generate(c, "glsl", &info.config, &words);
    info.spirv_words = words;
    info.device = ctx->device;
    t.params = (spdrt_fft_params){.count = 6};
    if (info.spirv)
        res = spdrt_fft_kernel_create(&info, &kernel, err, sizeof err);
    if (res == SPDRT_OK)
        res = spdrt_fft_kernel_requirements(kernel, &t.params, &req);
    if (res == SPDRT_OK) {
        in_n = spdrt_fft_input_floats(&info.config, &t.params);
        out_n = spdrt_fft_output_floats(&info.config, &t.params);
        in = malloc(in_n * sizeof *in);
        out = malloc(out_n * sizeof *out);
        ref = malloc(out_n * sizeof *ref);
        res = in && out && ref ? SPDRT_OK : SPDRT_ERROR_OUT_OF_MEMORY;
    }
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(
            ctx, req.input_bytes, req.buffer_usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &a.input);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, req.output_bytes,
                                   req.buffer_usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                   0, &a.output);
    if (res == SPDRT_OK && req.twiddle_bytes)
        res = spdrt__buffer_create(ctx, req.twiddle_bytes, req.buffer_usage |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &a.twiddles);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, req.input_bytes + req.twiddle_bytes,
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &a.upload);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, req.output_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1,
                                   &a.readback);
    if (res == SPDRT_OK) {
        fft_random(in, in_n, c->n + 5);
        for (size_t i = 0; i < in_n; i++) {
            if (c->f16) ((uint16_t *)a.upload.map)[i] = spdrt__float_to_half(in[i]);
            else ((float *)a.upload.map)[i] = in[i];
        }
        for (uint32_t k = 0; k < req.twiddle_bytes / 8; k++) {  /* as fft_fill_twiddles() */
            double angle = 6.283185307179586476925 * (double)k / (double)c->n;
            float *w = (float *)((char *)a.upload.map + req.input_bytes);
            w[2 * k] = (float)cos(angle);
            w[2 * k + 1] = (float)-sin(angle);
        }
        t.input = a.input.buffer;
        t.output = a.output.buffer;
        t.twiddles = a.twiddles.buffer;
        res = spdrt_fft_binding_create(kernel, &t, &binding, err, sizeof err);
    }
    if (res == SPDRT_OK)
        res = spdrt__commands_begin(ctx, &cb);
    if (res == SPDRT_OK) {
        spdrt_result recorded = record_all(cb, &a, binding, &req);
        res = spdrt__commands_submit(ctx, cb);
        if (res == SPDRT_OK)
            res = recorded;
    }
    if (res == SPDRT_OK && spdrt_fft_reference(&info.config, &t.params, in, ref) == 0) {
        for (size_t i = 0; i < out_n; i++)
            out[i] = c->f16 ? spdrt__half_to_float(((const uint16_t *)a.readback.map)[i])
                            : ((const float *)a.readback.map)[i];
        spdrt_fft_compare(out, ref, out_n, !(c->real && c->inverse), &e);
    } else {
        e.non_finite = 1;
    }
    double l2 = c->f16 ? FFT_BOUND_F16_REL_L2 : FFT_BOUND_REL_L2;
    double max = c->f16 ? FFT_BOUND_F16_MAX_REL : FFT_BOUND_MAX_REL;
    ok(res == SPDRT_OK && e.non_finite == 0 && e.rel_l2 <= l2 && e.max_rel <= max,
       "%s x 6, recorded twice on the application's device: rel L2 %.2e (<= %.0e), max %.2e "
       "(<= %.0e)", flags, e.rel_l2, l2, e.max_rel, max);
    if (res != SPDRT_OK)
        printf("# %s%s\n", err, spdrt_last_error(ctx));
    spdrt_fft_binding_destroy(binding);
    spdrt_fft_kernel_destroy(kernel);
    release(ctx, &a);
    ok(spdrt_validation_messages(ctx) == before, "%s: no validation or synchronization message",
       flags);
    free((void *)info.spirv);
    free(in);
    free(out);
    free(ref);
}

int main(void) {
    spdrt_options options = {1, NULL, 0};
    spdrt_context *ctx;
    char err[512];
    spdrt_fft_kernel *kernel = NULL;
    spdrt_fft_kernel_info bad;
    uint32_t words[5] = {0x07230203u, 0, 0, 0, 0};
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        ok(0, "a validated context for the application's device: %s", err);
        return tap_plan();
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(ctx, &cases[i]);
    memset(&bad, 0, sizeof bad);
    bad.device = ctx->device;
    bad.spirv = words;
    bad.spirv_words = 5;
    bad.config = (spdrt_fft_config){.n = 1000, .wg = 64};
    ok(spdrt_fft_kernel_create(&bad, &kernel, err, sizeof err) == SPDRT_ERROR_ARGUMENT && !kernel &&
           strstr(err, "N = 1000"),
       "spdrt_fft_kernel_create refuses N = 1000, naming it (%s)", err);
    spdrt_destroy(ctx);
    return tap_plan();
}
