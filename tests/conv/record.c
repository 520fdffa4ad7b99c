/* tests/conv/record.c: the --conv job recorded into the application's own command buffer
 * (spdrt_vk.h: spdrt_conv_bind, spdrt_conv_record, spdrt_conv_record_pass), on the images
 * and buffers the application made, under the validation layer with synchronization
 * validation (any message fails):
 * - an image job: the command buffer comes from a pool of the test's own on the context's
 *   device (spdrt_context_vk); it uploads the input (input_before), clears the output to NaN
 *   (output_before), records the convolution, copies the output out, clears it again and
 *   records the composite (other push constants) into the same output, copies it out: both
 *   against the direct convolution on the CPU (spdrt_conv_reference) within
 *   SPDRT_CONV_BOUND_*;
 * - a buffer job (2 channels, mirror padding, y first, resampled spectrum): the three passes
 *   recorded one by one (spdrt_conv_record_pass, what conv_bench times) with the test's own
 *   barriers, the output copied out, refilled with NaN and the composite recorded whole into
 *   it (output_before, output_after) at psf_scale 1.5, then the convolution again at scale 1
 *   (each record resamples the kernel spectrum for its scale first, in the same command
 *   buffer), all against the resampled pipeline on the CPU;
 * - misuse refused: a record before anything is bound, a pass past 2, pass 2 alone at a
 *   psf_scale the spectrum was not resampled for, targets of the wrong kind.
 * usage: record    prints TAP */
#include "common.h"

#include "core/internal.h"
#include "spdrt_vk.h"

static const VkPipelineStageFlags TRANSFER = VK_PIPELINE_STAGE_TRANSFER_BIT;
static const VkPipelineStageFlags COMPUTE = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;

/* The application's command buffer on the context's device: its own pool, its own submit. */
typedef struct {
    spdrt_vk_handles vk;
    VkCommandPool pool;
    VkCommandBuffer cb;
} app_commands;

static int app_begin(app_commands *a)
{
    spdrt_context_vk(conv_ctx, &a->vk);
    VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, a->vk.queue_family};
    VkCommandBufferAllocateInfo ai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, VK_NULL_HANDLE,
                                      VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                   VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL};
    if (!a->vk.device || vkCreateCommandPool(a->vk.device, &pci, NULL, &a->pool) != VK_SUCCESS) return -1;
    ai.commandPool = a->pool;
    if (vkAllocateCommandBuffers(a->vk.device, &ai, &a->cb) != VK_SUCCESS) return -1;
    return vkBeginCommandBuffer(a->cb, &bi) == VK_SUCCESS ? 0 : -1;
}

static int app_submit(app_commands *a)
{
    VkSubmitInfo si;
    memset(&si, 0, sizeof si);
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &a->cb;
    int rc = vkEndCommandBuffer(a->cb) == VK_SUCCESS && vkQueueSubmit(a->vk.queue, 1, &si, VK_NULL_HANDLE) == VK_SUCCESS &&
             vkQueueWaitIdle(a->vk.queue) == VK_SUCCESS ? 0 : -1;
    vkDestroyCommandPool(a->vk.device, a->pool, NULL);
    return rc;
}

/* out (pixels x out_floats) against the reference of p: the bars of fp32 spectra, the copied
 * channels exact, nothing left NaN. */
static void judge(spdrt_conv *conv, const spdrt_conv_params *p, const float *img, const float *psf, uint32_t k,
                  const float *out, const char *what)
{
    const spdrt_conv_info *i = spdrt_conv_describe(conv);
    size_t pixels = (size_t)p->width * p->height;
    double *ref = malloc(pixels * spdrt_conv_output_floats(conv) * sizeof *ref);
    spdrt_conv_ref_config c = conv_ref_config(conv, p, k, k);
    conv_result r;
    memset(&r, 0, sizeof r);
    if (!ref) {
        ok(0, "%s: out of memory", what);
        return;
    }
    int rc = i->resampled ? spdrt_conv_reference_resampled(&c, i->padded_width, i->padded_height, i->spectrum_width,
                                                            i->spectrum_height,
                                                            p->psf_scale > 0 ? p->psf_scale : 1.0, img, psf, ref)
                          : spdrt_conv_reference(&c, img, psf, ref);
    if (rc || conv_measure(conv, out, ref, pixels, &r)) {
        ok(0, "%s: out of memory", what);
    } else {
        ok(r.e.non_finite == 0 && r.copied_err == 0 && r.e.rel_l2 <= SPDRT_CONV_BOUND_REL_L2 &&
               r.e.max_rel <= SPDRT_CONV_BOUND_MAX_REL,
           "%s: relative L2 %.3g (<= %g), max %.3g (<= %g), %zu non-finite, copied channels off by %g", what,
           r.e.rel_l2, SPDRT_CONV_BOUND_REL_L2, r.e.max_rel, SPDRT_CONV_BOUND_MAX_REL, r.e.non_finite, r.copied_err);
    }
    free(ref);
}

static void messages(uint32_t before, const char *what)
{
    uint32_t n = spdrt_validation_messages(conv_ctx) - before;
    ok(n == 0, "%s: %u validation messages", what, n);
}

/* ---- an image job, two whole records into one command buffer -------------------------------- */

/* The output (GENERAL, pass 3's writes: the record had no output_after, the layout change is
 * the application's) copied to the buffer; left in TRANSFER_SRC_OPTIMAL. */
static void copy_out(VkCommandBuffer cb, spdrt_image *out, VkBuffer buffer, const VkBufferImageCopy *region)
{
    spdrt__image_barrier(cb, out, 0, 1, COMPUTE, VK_ACCESS_SHADER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, TRANSFER,
                         VK_ACCESS_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    vkCmdCopyImageToBuffer(cb, out->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, region);
}

static void image_job(void)
{
    const uint32_t w = 37, h = 29, k = 9;
    const char *what = "image job (40x30, PSF 9x9, exact) recorded twice";
    spdrt_conv *conv = conv_job("--image 40x30 --psf 9x9 --spectrum exact --format rgba32f");
    if (!conv) return;
    spdrt_image in, out;
    VkImageView in_view = VK_NULL_HANDLE, out_view = VK_NULL_HANDLE;
    spdrt_buffer upload, readback;
    memset(&in, 0, sizeof in), memset(&out, 0, sizeof out), memset(&upload, 0, sizeof upload);
    memset(&readback, 0, sizeof readback);
    size_t pixels = (size_t)w * h, bytes = pixels * 16;
    float *img = conv_image(conv, w, h, 31, -1.0f, 1.0f), *psf = conv_psf(k, k, 3, 37);
    float *got = malloc(2 * bytes);
    uint32_t before = spdrt_validation_messages(conv_ctx);
    const VkImageUsageFlags dst = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    spdrt_conv_params p1 = {w, h, 0, 0, 0, 0}, p2 = {w, h, 1, 0.3f, 0.2f, 0};
    spdrt_conv_targets t;
    app_commands a;
    memset(&t, 0, sizeof t);
    memset(&a, 0, sizeof a);
    int good = img && psf && got &&
               spdrt__image_create(conv_ctx, VK_FORMAT_R32G32B32A32_SFLOAT, w, h, 1, 1,
                                   VK_IMAGE_USAGE_SAMPLED_BIT | dst, &in) == SPDRT_OK &&
               spdrt__image_view(conv_ctx, &in, 0, 0, &in_view) == SPDRT_OK &&
               spdrt__image_create(conv_ctx, VK_FORMAT_R32G32B32A32_SFLOAT, w, h, 1, 1,
                                   VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | dst, &out) == SPDRT_OK &&
               spdrt__image_view(conv_ctx, &out, 0, 0, &out_view) == SPDRT_OK &&
               spdrt__buffer_create(conv_ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &upload) == SPDRT_OK &&
               spdrt__buffer_create(conv_ctx, 2 * bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1, &readback) == SPDRT_OK &&
               spdrt_conv_set_kernel(conv_ctx, conv, psf, k, k, 0) == SPDRT_OK;
    if (!good) {
        ok(0, "%s: set-up (%s)", what, spdrt_last_error(conv_ctx));
        goto done;
    }
    if (app_begin(&a) != 0) {
        ok(0, "%s: a command buffer on the context's device", what);
        goto done;
    }
    /* Nothing bound yet: refused, as are targets of the wrong kind. */
    spdrt_result unbound = spdrt_conv_record(conv_ctx, conv, a.cb, &p1, NULL);
    t.input_buffer = upload.buffer, t.output_view = out_view;
    spdrt_result wrong = spdrt_conv_bind(conv_ctx, conv, &t);
    ok(unbound == SPDRT_ERROR_ARGUMENT && wrong == SPDRT_ERROR_ARGUMENT,
       "image job: a record before spdrt_conv_bind and a buffer for an image input are refused (%s)",
       spdrt_last_error(conv_ctx));
    memset(&t, 0, sizeof t);
    t.input_view = in_view, t.output_view = out_view;
    memcpy(upload.map, img, bytes);
    if (spdrt_conv_bind(conv_ctx, conv, &t) != SPDRT_OK) {
        ok(0, "%s: bind (%s)", what, spdrt_last_error(conv_ctx));
        app_submit(&a);
        goto done;
    }
    VkCommandBuffer cb = a.cb;
    VkBufferImageCopy region;
    memset(&region, 0, sizeof region);
    region.imageSubresource = (VkImageSubresourceLayers){VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = (VkExtent3D){w, h, 1};
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkClearColorValue nan;
    for (int c = 0; c < 4; c++) nan.float32[c] = NAN;
    spdrt__image_barrier(cb, &in, 0, 1, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_IMAGE_LAYOUT_UNDEFINED, TRANSFER,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkCmdCopyBufferToImage(cb, upload.buffer, in.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    /* The input's layout change waits for the copy; its use is named in input_before. */
    spdrt__image_barrier(cb, &in, 0, 1, TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         TRANSFER, 0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    spdrt__image_barrier(cb, &out, 0, 1, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_IMAGE_LAYOUT_UNDEFINED, TRANSFER,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL);
    vkCmdClearColorImage(cb, out.image, VK_IMAGE_LAYOUT_GENERAL, &nan, 1, &range);
    spdrt_conv_sync sync;
    memset(&sync, 0, sizeof sync);
    sync.input_before = (spdrt_vk_use){TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    sync.output_before = (spdrt_vk_use){TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL};
    spdrt_result r1 = spdrt_conv_record(conv_ctx, conv, cb, &p1, &sync);
    copy_out(cb, &out, readback.buffer, &region);
    /* The second record overwrites the output the copy read: the clear waits for the copy,
     * the record for the clear (output_before), and its passes for the first record's. */
    spdrt__image_barrier(cb, &out, 0, 1, TRANSFER, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, TRANSFER,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL);
    vkCmdClearColorImage(cb, out.image, VK_IMAGE_LAYOUT_GENERAL, &nan, 1, &range);
    sync.input_before = (spdrt_vk_use){0, 0, 0};
    spdrt_result r2 = spdrt_conv_record(conv_ctx, conv, cb, &p2, &sync);
    region.bufferOffset = bytes;
    copy_out(cb, &out, readback.buffer, &region);
    spdrt__memory_barrier(cb, TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                          VK_ACCESS_HOST_READ_BIT);
    if (app_submit(&a) != 0 || r1 != SPDRT_OK || r2 != SPDRT_OK) {
        ok(0, "%s: record and submit (%s)", what, spdrt_last_error(conv_ctx));
        goto done;
    }
    memcpy(got, readback.map, 2 * bytes);
    judge(conv, &p1, img, psf, k, got, "image job: the first record, the convolution");
    judge(conv, &p2, img, psf, k, got + pixels * 4, "image job: the second record, composite and sharpening");
    messages(before, what);
done:
    if (in_view) vkDestroyImageView(conv_ctx->device, in_view, NULL);
    if (out_view) vkDestroyImageView(conv_ctx->device, out_view, NULL);
    spdrt__image_destroy(conv_ctx, &in);
    spdrt__image_destroy(conv_ctx, &out);
    spdrt__buffer_destroy(conv_ctx, &upload);
    spdrt__buffer_destroy(conv_ctx, &readback);
    free(img), free(psf), free(got);
    spdrt_conv_destroy(conv_ctx, conv);
}

/* ---- a buffer job, pass by pass -------------------------------------------------------------- */

static void buffer_job(void)
{
    const uint32_t w = 24, h = 20, k = 8, ch = 2;
    const char *what = "buffer job (2 channels, mirror, y first, resampled) pass by pass";
    spdrt_conv *conv = conv_job("--image 24x20 --psf 8x8 --channels 2 --input buffer --output buffer "
                                "--padding mirror --first-axis y");
    if (!conv) return;
    size_t bytes = (size_t)w * h * ch * sizeof(float);
    float *img = conv_image(conv, w, h, 41, -1.0f, 1.0f), *psf = conv_psf(k, k, ch, 43);
    spdrt_buffer in, out, host;
    memset(&in, 0, sizeof in), memset(&out, 0, sizeof out), memset(&host, 0, sizeof host);
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    uint32_t before = spdrt_validation_messages(conv_ctx);
    spdrt_conv_params p = {w, h, 0, 0, 0, 0}, p2 = {w, h, 1, 0.7f, 0, 1.5f}, p3 = {w, h, 0, 0, 0, 1.0f};
    spdrt_conv_targets t;
    app_commands a;
    memset(&t, 0, sizeof t);
    memset(&a, 0, sizeof a);
    /* host: the input, then the two results */
    int good = img && psf && spdrt__buffer_create(conv_ctx, bytes, usage, 0, &in) == SPDRT_OK &&
               spdrt__buffer_create(conv_ctx, bytes, usage, 0, &out) == SPDRT_OK &&
               spdrt__buffer_create(conv_ctx, 4 * bytes, usage, 1, &host) == SPDRT_OK &&
               spdrt_conv_set_kernel(conv_ctx, conv, psf, k, k, 0) == SPDRT_OK;
    t.input_buffer = in.buffer, t.output_buffer = out.buffer;
    if (!good || spdrt_conv_bind(conv_ctx, conv, &t) != SPDRT_OK || app_begin(&a) != 0) {
        ok(0, "%s: set-up (%s)", what, spdrt_last_error(conv_ctx));
        goto done;
    }
    memcpy(host.map, img, bytes);
    VkCommandBuffer cb = a.cb;
    VkBufferCopy copy = {0, 0, bytes};
    vkCmdCopyBuffer(cb, host.buffer, in.buffer, 1, &copy);
    vkCmdFillBuffer(cb, out.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu); /* NaN */
    spdrt__memory_barrier(cb, TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, COMPUTE,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    spdrt_result res = SPDRT_OK;
    for (uint32_t pass = 0; pass < 3 && res == SPDRT_OK; pass++) {
        if (pass)
            spdrt__memory_barrier(cb, COMPUTE, VK_ACCESS_SHADER_WRITE_BIT, COMPUTE,
                                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        res = spdrt_conv_record_pass(conv_ctx, conv, cb, &p, pass);
    }
    spdrt_result past = spdrt_conv_record_pass(conv_ctx, conv, cb, &p, 3);
    char past_error[256];
    snprintf(past_error, sizeof past_error, "%s", spdrt_last_error(conv_ctx));
    spdrt_result stale = spdrt_conv_record_pass(conv_ctx, conv, cb, &p2, 1);
    spdrt__memory_barrier(cb, COMPUTE, VK_ACCESS_SHADER_WRITE_BIT, TRANSFER, VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferCopy back = {0, bytes, bytes};
    vkCmdCopyBuffer(cb, out.buffer, host.buffer, 1, &back);
    /* Then the composite as one record into the same output, refilled with NaN after the
     * copy read it: output_before the fill, output_after the copy that reads it back. */
    spdrt__memory_barrier(cb, TRANSFER, 0, TRANSFER, 0);
    vkCmdFillBuffer(cb, out.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
    spdrt_conv_sync sync;
    memset(&sync, 0, sizeof sync);
    sync.output_before = (spdrt_vk_use){TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, 0};
    sync.output_after = (spdrt_vk_use){TRANSFER, VK_ACCESS_TRANSFER_READ_BIT, 0};
    if (res == SPDRT_OK) res = spdrt_conv_record(conv_ctx, conv, cb, &p2, &sync);
    back.dstOffset = 2 * bytes;
    vkCmdCopyBuffer(cb, out.buffer, host.buffer, 1, &back);
    /* Back to scale 1: resampled again before the passes. */
    spdrt__memory_barrier(cb, TRANSFER, 0, TRANSFER, 0);
    vkCmdFillBuffer(cb, out.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
    if (res == SPDRT_OK) res = spdrt_conv_record(conv_ctx, conv, cb, &p3, &sync);
    back.dstOffset = 3 * bytes;
    vkCmdCopyBuffer(cb, out.buffer, host.buffer, 1, &back);
    spdrt__memory_barrier(cb, TRANSFER, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                          VK_ACCESS_HOST_READ_BIT);
    ok(past == SPDRT_ERROR_ARGUMENT, "buffer job: pass 3 (the fourth) is refused (%s)", past_error);
    ok(stale == SPDRT_ERROR_ARGUMENT, "buffer job: pass 2 alone at psf_scale 1.5, resampled for 1, is refused (%s)",
       spdrt_last_error(conv_ctx));
    if (app_submit(&a) != 0 || res != SPDRT_OK) {
        ok(0, "%s: record and submit (%s)", what, spdrt_last_error(conv_ctx));
        goto done;
    }
    judge(conv, &p, img, psf, k, (const float *)host.map + bytes / 4,
          "buffer job: three spdrt_conv_record_pass with the test's barriers");
    judge(conv, &p2, img, psf, k, (const float *)host.map + 2 * bytes / 4,
          "buffer job: then the composite at psf_scale 1.5 as one spdrt_conv_record, output_before and "
          "output_after");
    judge(conv, &p3, img, psf, k, (const float *)host.map + 3 * bytes / 4,
          "buffer job: then the convolution at psf_scale 1 again as one spdrt_conv_record");
    messages(before, what);
done:
    spdrt__buffer_destroy(conv_ctx, &in);
    spdrt__buffer_destroy(conv_ctx, &out);
    spdrt__buffer_destroy(conv_ctx, &host);
    free(img), free(psf);
    spdrt_conv_destroy(conv_ctx, conv);
}

int main(void)
{
    if (conv_open("glsl")) return 0;
    image_job();
    buffer_job();
    spdrt_destroy(conv_ctx);
    return tap_plan();
}
