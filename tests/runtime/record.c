/* record.c: TAP test of recording the SPD into an application's command buffer
 * (spdrt_vk.h), on a device the test owns as an engine would: a context's device with the
 * validation layer and synchronization validation on. Per configuration: spdgen writes the
 * shader; the test makes the images and buffers spdrt_spd_kernel_requirements asks for,
 * uploads level 0, zeroes the counters, records twice in one command buffer (the levels
 * cleared to a sentinel and the hand-off poisoned in between, so the second record must
 * rewrite everything with counters nobody reset), reads every level back and compares it
 * with the CPU reference. Then no validation message may have been reported. */
#define _POSIX_C_SOURCE 200112L  /* posix_memalign, getpid */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/internal.h"
#include "spdrt_vk.h"

#include "tap.h"

#define SENTINEL -7.0f

typedef struct {
    const char *flags;          /* spdgen's, beside --spd --target spirv */
    spd_op op;
    spdrt_format format;
    spdrt_edge edge;
    uint32_t w, h, layers, mips_bound, mips_total, tile;
    int sampler_linear, array;
    int one_image;              /* level 0 is mip 0 of the levels' image (a colour chain) */
    int depth;                  /* level 0 is a D32 depth image read through its depth aspect */
    int own_loader;             /* pass the loader's vkGetDeviceProcAddr and an allocator */
} rec_case;

static const rec_case cases[] = {
    {"--op max --format r32f --edge conservative", SPD_OP_MAX, SPDRT_R32F, SPDRT_EDGE_CONSERVATIVE,
     333, 200, 1, 12, 0, 64, 0, 0, 0, 1, 0},
    {"--op mean --format rgba16f --mips 12 --max-mips-per-pass 6", SPD_OP_MEAN, SPDRT_RGBA16F,
     SPDRT_EDGE_DROP, 1000, 700, 1, 6, 12, 64, 0, 0, 1, 0, 1},
    {"--op min --format r32f --tile 16", SPD_OP_MIN, SPDRT_R32F, SPDRT_EDGE_DROP, 300, 200, 1, 12,
     0, 16, 0, 0, 0, 0, 0},
    {"--op mean --format rgba32f --sampler linear", SPD_OP_MEAN, SPDRT_RGBA32F, SPDRT_EDGE_DROP,
     256, 128, 1, 12, 0, 64, 1, 0, 0, 0, 0},
    {"--op mean --format rgba8 --array", SPD_OP_MEAN, SPDRT_RGBA8, SPDRT_EDGE_DROP, 128, 64, 6,
     12, 0, 64, 0, 1, 0, 0, 0},
    {"--op mean --format rgba16f --edge weighted", SPD_OP_MEAN, SPDRT_RGBA16F, SPDRT_EDGE_WEIGHTED,
     333, 201, 1, 12, 0, 64, 0, 0, 1, 0, 0},
};

/* An allocator that counts, to show the kernel's objects use it. */
static size_t allocations, frees;
static void *VKAPI_PTR count_alloc(void *user, size_t size, size_t align,
                                   VkSystemAllocationScope s) {
    void *p = NULL;
    (void)user, (void)s;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) != 0)
        return NULL;
    allocations++;
    return p;
}
static void *VKAPI_PTR count_realloc(void *user, void *old, size_t size, size_t align,
                                     VkSystemAllocationScope s) {
    void *p = old ? NULL : count_alloc(user, size, align, s);
    if (old && size) {  /* posix_memalign has no realloc: copy, up to the new size */
        p = count_alloc(user, size, align, s);
        if (p)
            memcpy(p, old, size), free(old), frees++;
    } else if (old) {
        free(old), frees++;
    }
    return p;
}
static void VKAPI_PTR count_free(void *user, void *p) {
    (void)user;
    if (p)
        free(p), frees++;
}
static const VkAllocationCallbacks counting = {NULL,       count_alloc, count_realloc,
                                               count_free, NULL,        NULL};

static uint32_t *generate(const rec_case *c, size_t *words) {
    const char *build = getenv("SPDGEN_BUILD");
    char cmd[1024], path[64];
    FILE *f;
    long size;
    uint32_t *code = NULL;
    snprintf(path, sizeof path, "/tmp/spd_record_%d.spv", (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s/spdgen' --spd %s --target spirv -o %s", build ? build : "build",
             c->flags, path);
    if (system(cmd) != 0 || !(f = fopen(path, "rb")))
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (code = malloc((size_t)size)) && fread(code, 1, (size_t)size, f) != (size_t)size) {
        free(code);
        code = NULL;
    }
    fclose(f);
    remove(path);
    *words = code ? (size_t)size / 4 : 0;
    return code;
}

/* What the test owns: the application's side. */
typedef struct {
    spdrt_image source, levels;     /* source.image NULL with one_image */
    VkImageView source_view, views[16];
    spdrt_buffer counters, handoff, upload, readback;
} app_resources;

static void app_release(spdrt_context *ctx, app_resources *a) {
    for (int k = 0; k < 16; k++)
        if (a->views[k])
            vkDestroyImageView(ctx->device, a->views[k], NULL);
    if (a->source_view)
        vkDestroyImageView(ctx->device, a->source_view, NULL);
    spdrt__image_destroy(ctx, &a->source);
    spdrt__image_destroy(ctx, &a->levels);
    spdrt__buffer_destroy(ctx, &a->counters);
    spdrt__buffer_destroy(ctx, &a->handoff);
    spdrt__buffer_destroy(ctx, &a->upload);
    spdrt__buffer_destroy(ctx, &a->readback);
}

static VkImageView view(spdrt_context *ctx, VkImage image, VkFormat format,
                        VkImageAspectFlags aspect, uint32_t mip, uint32_t layers, int array) {
    VkImageViewCreateInfo vci;
    VkImageView v = VK_NULL_HANDLE;
    memset(&vci, 0, sizeof vci);
    vci.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    vci.image = image;
    vci.viewType = array ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = (VkImageSubresourceRange){aspect, mip, 1, 0, layers};
    vkCreateImageView(ctx->device, &vci, NULL, &v);
    return v;
}

static void barrier(VkCommandBuffer cb, VkPipelineStageFlags src, VkAccessFlags src_access,
                    VkPipelineStageFlags dst, VkAccessFlags dst_access) {
    spdrt__memory_barrier(cb, src, src_access, dst, dst_access);
}

/* Records the whole test into cb; `mips` = the levels the record makes. */
static void record_all(spdrt_context *ctx, VkCommandBuffer cb, const rec_case *c, app_resources *a,
                       const spdrt_spd_binding *binding, const spdrt_spd_targets *t, uint32_t mips,
                       spdrt_result *res) {
    VkImageSubresourceRange levels = {VK_IMAGE_ASPECT_COLOR_BIT, t->levels_base_mip, mips, 0,
                                      c->layers};
    VkClearColorValue sentinel;
    VkBufferImageCopy copy;
    VkImageMemoryBarrier ib;
    VkDeviceSize offset = 0;
    spdrt_spd_sync first, second;
    uint32_t texel = spdrt__format_texel_size(c->format);
    (void)ctx;
    /* Level 0 from the upload buffer, the counters zeroed. */
    memset(&ib, 0, sizeof ib);
    ib.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    ib.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    ib.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.image = t->source_image;
    ib.subresourceRange = t->source_range;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         0, NULL, 0, NULL, 1, &ib);
    memset(&copy, 0, sizeof copy);
    copy.imageSubresource = (VkImageSubresourceLayers){t->source_range.aspectMask, 0, 0, c->layers};
    copy.imageExtent = (VkExtent3D){c->w, c->h, 1};
    vkCmdCopyBufferToImage(cb, a->upload.buffer, t->source_image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    vkCmdFillBuffer(cb, a->counters.buffer, 0, VK_WHOLE_SIZE, 0);

    /* The first record: the source from the transfer, the levels' contents dropped; after
     * it the levels go to a transfer that clears them. */
    memset(&first, 0, sizeof first);
    first.source_before =
        (spdrt_vk_use){VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
    first.levels_after =
        (spdrt_vk_use){VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
    *res = spdrt_spd_record(binding, cb, &first);
    for (int k = 0; k < 4; k++)
        sentinel.float32[k] = SENTINEL;
    vkCmdClearColorImage(cb, t->levels_image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &sentinel, 1,
                         &levels);
    /* The application's own write after the dispatches' use of the hand-off. */
    barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cb, a->handoff.buffer, 0, VK_WHOLE_SIZE, 0x7bff7bffu);

    /* The second: the levels from the clear; after it, to the copies out. */
    memset(&second, 0, sizeof second);
    second.levels_before = first.levels_after;
    second.levels_after =
        (spdrt_vk_use){VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    if (*res == SPDRT_OK)
        *res = spdrt_spd_record(binding, cb, &second);
    for (uint32_t k = 1; k <= mips; k++) {
        uint32_t w = c->w >> k ? c->w >> k : 1, h = c->h >> k ? c->h >> k : 1;
        memset(&copy, 0, sizeof copy);
        copy.bufferOffset = offset;
        copy.imageSubresource = (VkImageSubresourceLayers){
            VK_IMAGE_ASPECT_COLOR_BIT, t->levels_base_mip + k - 1, 0, c->layers};
        copy.imageExtent = (VkExtent3D){w, h, 1};
        vkCmdCopyImageToBuffer(cb, t->levels_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               a->readback.buffer, 1, &copy);
        offset += (VkDeviceSize)w * h * c->layers * texel;
    }
    barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    {
        VkBufferCopy region = {0, offset, a->counters.size};
        vkCmdCopyBuffer(cb, a->counters.buffer, a->readback.buffer, 1, &region);
    }
    barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

/* Compares the levels read back with the reference: returns the wrong values. */
static size_t compare(const rec_case *c, const app_resources *a, uint32_t mips, const float *source,
                      uint32_t *counters_left) {
    spdrt_spd_levels gpu = {0}, ref = {0};
    const unsigned char *bytes = a->readback.map;
    uint32_t texel = spdrt__format_texel_size(c->format),
             per_pass = c->mips_total ? c->mips_bound : 0;
    size_t bad = 0;
    gpu.mip_count = mips;
    gpu.layers = c->layers;
    for (uint32_t k = 0; k <= mips; k++) {
        gpu.width[k] = c->w >> k ? c->w >> k : 1;
        gpu.height[k] = c->h >> k ? c->h >> k : 1;
    }
    for (uint32_t k = 1; k <= mips; k++) {
        size_t n = (size_t)gpu.width[k] * gpu.height[k] * c->layers;
        gpu.level[k] = malloc(n * 4 * sizeof(float));
        for (size_t i = 0; gpu.level[k] && i < n; i++)
            spdrt__texel_unpack(c->format, bytes + i * texel, gpu.level[k] + 4 * i);
        bytes += n * texel;
    }
    *counters_left = 0;
    for (size_t i = 0; i < a->counters.size / 4; i++) {
        uint32_t v;
        memcpy(&v, bytes + 4 * i, 4);
        *counters_left += v != 0;
    }
    if (spd_ref_run_edge(c->op, c->edge, c->format, c->w, c->h, c->layers, mips,
                         c->edge == SPDRT_EDGE_WEIGHTED ? c->mips_bound : per_pass, source,
                         &ref) != 0)
        bad = 1;
    for (uint32_t k = 1; k <= mips && !bad; k++) {
        spd_ref_comparison cmp = {0};
        uint32_t dispatch = spd_ref_dispatch_of_level(c->w, c->h, k, mips, c->mips_bound, c->edge);
        double bound = spd_ref_level_bound(
            c->format, spd_ref_bound_level(c->op, c->format, 0, c->sampler_linear, k), dispatch);
        if (!gpu.level[k]) {
            bad = 1;
            break;
        }
        spd_ref_compare_level(&gpu, &ref, k, spdrt_format_channels(c->format), bound, NULL,
                              SENTINEL, &cmp);
        if (cmp.mismatches + cmp.sentinels)
            printf("# level %u: %zu mismatches, %zu never written; %s\n", k, cmp.mismatches,
                   cmp.sentinels, cmp.first);
        bad += cmp.mismatches + cmp.sentinels;
    }
    spdrt_spd_levels_free(&gpu);
    spdrt_spd_levels_free(&ref);
    return bad;
}

static void run_case(spdrt_context *ctx, const rec_case *c) {
    spdrt_spd_kernel_info info;
    spdrt_spd_kernel *kernel = NULL;
    spdrt_spd_binding *binding = NULL;
    spdrt_spd_requirements req;
    spdrt_spd_targets t;
    app_resources a;
    VkCommandBuffer cb;
    char err[512] = "";
    size_t words, n = (size_t)c->w * c->h * c->layers, bad = 1;
    uint32_t *spirv = generate(c, &words), counters_left = 0,
             texel = spdrt__format_texel_size(c->format);
    uint32_t before = spdrt_validation_messages(ctx);
    float *source = malloc(n * 4 * sizeof(float));
    spdrt_result res = SPDRT_ERROR_ARGUMENT;
    VkFormat format = spdrt__format_vk(c->format);
    memset(&a, 0, sizeof a);
    memset(&t, 0, sizeof t);
    memset(&info, 0, sizeof info);
    if (!spirv || !source) {
        ok(0, "%s: spdgen wrote the shader", c->flags);
        free(spirv), free(source);
        return;
    }
    spdrt_random_floats(source, n * 4, 11, 0.0f, 1.0f);
    info.device = ctx->device;
    info.spirv = spirv;
    info.spirv_words = words;
    info.shader = (spdrt_spd_params){.mips_bound = c->mips_bound, .tile = c->tile,
                                     .hierarchy = c->tile < 64, .format = c->format,
                                     .edge = c->edge, .is_array = c->array,
                                     .sampler_linear = c->sampler_linear};
    if (c->own_loader) {
        info.allocator = &counting;
        info.get_device_proc_addr = vkGetDeviceProcAddr;
    }
    res = spdrt_spd_kernel_create(&info, &kernel, err, sizeof err);
    if (res == SPDRT_OK)
        res = spdrt_spd_kernel_requirements(kernel, c->w, c->h, c->layers, c->mips_total, &req);
    /* The application's images and buffers, as the requirements say. */
    if (res == SPDRT_OK)
        res = spdrt__image_create(ctx, format, c->w, c->h, req.mip_count + (c->one_image ? 1 : 0),
                                  c->layers, req.levels_usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                  VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                  (c->one_image ? req.source_usage : 0), &a.levels);
    if (res == SPDRT_OK && !c->one_image)
        res = spdrt__image_create(ctx, c->depth ? VK_FORMAT_D32_SFLOAT : format, c->w, c->h, 1,
                                  c->layers, req.source_usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                  (c->depth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : 0),
                                  &a.source);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, req.counter_bytes,
                                   req.buffer_usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0,
                                   &a.counters);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, req.handoff_bytes, req.buffer_usage, 0, &a.handoff);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, n * texel, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &a.upload);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(ctx, n * texel * 2 + req.counter_bytes,
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1, &a.readback);
    if (res == SPDRT_OK) {
        for (size_t i = 0; i < n; i++)
            spdrt__texel_pack(c->depth ? SPDRT_R32F : c->format, source + 4 * i,
                              (unsigned char *)a.upload.map + i * texel);
        t.width = c->w, t.height = c->h, t.layers = c->layers, t.mips_total = c->mips_total;
        t.source_image = c->one_image ? a.levels.image : a.source.image;
        t.source_range = (VkImageSubresourceRange){c->depth ? VK_IMAGE_ASPECT_DEPTH_BIT
                                                            : VK_IMAGE_ASPECT_COLOR_BIT,
                                                   0, 1, 0, c->layers};
        t.source_view = view(ctx, t.source_image, c->depth ? VK_FORMAT_D32_SFLOAT : format,
                             t.source_range.aspectMask, 0, c->layers, c->array);
        t.source_layout = c->depth ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL
                                   : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        a.source_view = t.source_view;
        t.levels_image = a.levels.image;
        t.levels_base_mip = c->one_image ? 1 : 0;
        for (uint32_t k = 0; k < req.mip_count; k++)
            a.views[k] = view(ctx, a.levels.image, format, VK_IMAGE_ASPECT_COLOR_BIT,
                              t.levels_base_mip + k, c->layers, c->array);
        t.level_views = a.views;
        t.level_view_count = req.mip_count;
        t.counters = a.counters.buffer;
        t.handoff = a.handoff.buffer;
        res = spdrt_spd_binding_create(kernel, &t, &binding, err, sizeof err);
    }
    if (res == SPDRT_OK)
        res = spdrt__commands_begin(ctx, &cb);
    if (res == SPDRT_OK) {
        spdrt_result recorded;
        record_all(ctx, cb, c, &a, binding, &t, req.mip_count, &recorded);
        res = spdrt__commands_submit(ctx, cb);
        if (res == SPDRT_OK)
            res = recorded;
    }
    if (res == SPDRT_OK)
        bad = compare(c, &a, req.mip_count, source, &counters_left);
    ok(res == SPDRT_OK && bad == 0 && counters_left == 0,
       "%s, %ux%ux%u%s%s: %u levels in %u pass(es), recorded twice on the application's device, "
       "equal the reference; counters back at zero",
       c->flags, c->w, c->h, c->layers, c->depth ? ", a D32 depth source" : "",
       c->one_image ? ", source and levels in one image" : "", res == SPDRT_OK ? req.mip_count : 0,
       res == SPDRT_OK ? req.passes : 0);
    if (res != SPDRT_OK)
        printf("# %s%s\n", err, spdrt_last_error(ctx));
    spdrt_spd_binding_destroy(binding);
    spdrt_spd_kernel_destroy(kernel);
    app_release(ctx, &a);
    ok(spdrt_validation_messages(ctx) == before, "%s: no validation or synchronization message",
       c->flags);
    if (c->own_loader)
        ok(allocations > 0 && allocations == frees,
           "%s: the application's vkGetDeviceProcAddr and allocator were used (%zu allocations, "
           "all freed)", c->flags, allocations);
    free(spirv);
    free(source);
}

static void test_refusals(spdrt_context *ctx) {
    uint32_t not_spirv[5] = {1, 2, 3, 4, 5};
    spdrt_spd_kernel_info info;
    spdrt_spd_kernel *kernel = (spdrt_spd_kernel *)&info;
    spdrt_spd_sync sync;
    char err[256] = "";
    memset(&info, 0, sizeof info);
    memset(&sync, 0, sizeof sync);
    info.device = ctx->device;
    info.spirv = not_spirv;
    info.spirv_words = 5;
    info.shader.mips_bound = 12;
    ok(spdrt_spd_kernel_create(&info, &kernel, err, sizeof err) == SPDRT_ERROR_ARGUMENT &&
           !kernel && strstr(err, "not a SPIR-V module"),
       "spdrt_spd_kernel_create refuses a module that is not SPIR-V, naming it (%s)", err);
    ok(spdrt_spd_record(NULL, VK_NULL_HANDLE, &sync) == SPDRT_ERROR_ARGUMENT,
       "spdrt_spd_record refuses a NULL binding");
    ok(spdrt_spd_kernel_requirements(NULL, 64, 64, 1, 0, NULL) == SPDRT_ERROR_ARGUMENT,
       "spdrt_spd_kernel_requirements refuses a NULL kernel");
}

int main(void) {
    spdrt_options options = {1, NULL, 0};
    spdrt_context *ctx;
    char err[512];
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        ok(0, "a validated context for the application's device: %s", err);
        return tap_plan();
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(ctx, &cases[i]);
    test_refusals(ctx);
    spdrt_destroy(ctx);
    return tap_plan();
}
