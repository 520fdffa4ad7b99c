/* spd_record.c: the SPD on an application's device (spdrt_vk.h). The same contract, pass
 * plan and push constants as spd_run.c, with the application's device, allocator, images,
 * buffers and command buffer; nothing here submits or waits. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/device.h"
#include "spd_internal.h"

#define SPIRV_MAGIC 0x07230203u
#define PUSH_BYTES 32u            /* the contract's block: templates/spd/push.lua */
/* Each pass's hand-off range starts on this boundary: the largest
 * minStorageBufferOffsetAlignment Vulkan allows, so no device limit need be asked. */
#define HANDOFF_ALIGN 256u
#define MAX_LEVELS 15u            /* a 16384 source */

struct spdrt_spd_kernel {
    spdrt_device_fns vk;
    spdrt_spd_params shader;
    VkSampler sampler;            /* binding 4 (--sampler linear), immutable */
    spdrt_device_pipeline pipe;
};

struct spdrt_spd_binding {
    const spdrt_spd_kernel *kernel;
    spdrt_spd_params run;         /* the shader with this source's size */
    spdrt_spd_requirements req;
    uint32_t base[SPDRT_SPD_MAX_PASSES + 1];
    VkDeviceSize handoff[SPDRT_SPD_MAX_PASSES + 1]; /* pass p's range: [p] .. [p + 1] */
    VkDescriptorPool pool;
    VkDescriptorSet sets[SPDRT_SPD_MAX_PASSES];
    spdrt_spd_targets targets;    /* level_views is not kept: the sets hold the views */
};

static spdrt_result fail(char *err, size_t size, spdrt_result code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static spdrt_result fail(char *err, size_t size, spdrt_result code, const char *fmt, ...) {
    va_list ap;
    if (err && size) {
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
    }
    return code;
}

static void kernel_release(spdrt_spd_kernel *k) {
    const spdrt_device_fns *vk = &k->vk;
    spdrt__device_pipeline_destroy(vk, &k->pipe);
    if (k->sampler)
        vk->DestroySampler(vk->device, k->sampler, vk->allocator);
    free(k);
}

/* The sampler libspdrt's own layout builds in (spd_pipeline.c): linear, clamp to edge, LOD
 * 0, texel or normalized coordinates as the shader was generated. */
static VkResult create_sampler(spdrt_spd_kernel *k) {
    VkSamplerCreateInfo sci;
    memset(&sci, 0, sizeof sci);
    sci.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
    sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sci.unnormalizedCoordinates = spdrt__spd_normalized_sampler(&k->shader) ? VK_FALSE : VK_TRUE;
    return k->vk.CreateSampler(k->vk.device, &sci, k->vk.allocator, &k->sampler);
}

spdrt_result spdrt_spd_kernel_create(const spdrt_spd_kernel_info *info, spdrt_spd_kernel **out,
                                     char *err, size_t err_size) {
    spdrt_binding bindings[5] = {
        {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, NULL, 0},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 0, NULL, 0},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},
        {VK_DESCRIPTOR_TYPE_SAMPLER, 1, NULL, 0}};
    spdrt_spd_kernel *k;
    char problem[256];
    VkResult r;
    const char *call = NULL;
    if (out)
        *out = NULL;
    if (!info || !out)
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT,
                    "spdrt_spd_kernel_create: info and out are required");
    if (!info->spirv || info->spirv_words < 5 || info->spirv[0] != SPIRV_MAGIC)
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT,
                    "spdrt_spd_kernel_create: not a SPIR-V module (%zu words)", info->spirv_words);
    if (spdrt__spd_check_shader(&info->shader, problem, sizeof problem) != 0)
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT, "spdrt_spd_kernel_create: %s", problem);
    if (info->shader.mips_bound > MAX_LEVELS)
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT,
                    "spdrt_spd_kernel_create: mips_bound %u is more than %u",
                    info->shader.mips_bound, MAX_LEVELS);
    k = calloc(1, sizeof *k);
    if (!k)
        return fail(err, err_size, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    if (spdrt__device_load(info->device, info->allocator, info->get_device_proc_addr, &k->vk,
                           problem, sizeof problem) != 0) {
        free(k);
        return fail(err, err_size, SPDRT_ERROR_NO_DEVICE, "spdrt_spd_kernel_create: %s", problem);
    }
    k->shader = info->shader;
    /* The contract's bindings 0-4, as spdrt__spd_pipeline_create lays them out; quad
     * operations (--subgroup 4) need no size, every subgroup holding whole quads. */
    bindings[1].count = k->shader.mips_bound;
    bindings[1].format = spdrt__format_vk(k->shader.format);
    bindings[4].samplers = &k->sampler;
    if (spdrt__spirv_fits(info->spirv, info->spirv_words, bindings,
                          k->shader.sampler_linear ? 5 : 4, PUSH_BYTES, problem, sizeof problem)) {
        kernel_release(k);
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT, "spdrt_spd_kernel_create: %s", problem);
    }
    if (k->shader.sampler_linear && (r = create_sampler(k)) != VK_SUCCESS)
        call = "vkCreateSampler";
    else
        r = spdrt__device_pipeline_create(&k->vk, info->spirv, info->spirv_words, bindings,
                                          k->shader.sampler_linear ? 5 : 4, PUSH_BYTES,
                                          info->require_subgroup_size && k->shader.subgroup >= 8
                                              ? k->shader.subgroup : 0,
                                          info->require_full_subgroups, &k->pipe, &call);
    if (r != VK_SUCCESS) {
        kernel_release(k);
        return fail(err, err_size, SPDRT_ERROR_VULKAN,
                    "spdrt_spd_kernel_create: %s failed: VkResult %d", call, (int)r);
    }
    *out = k;
    return SPDRT_OK;
}

void spdrt_spd_kernel_destroy(spdrt_spd_kernel *kernel) {
    if (kernel)
        kernel_release(kernel);
}

/* The requirements, the pass plan, each pass's hand-off range (handoff[p] .. handoff[p + 1])
 * and the run's parameters of one source. */
static spdrt_result plan(const spdrt_spd_kernel *k, uint32_t width, uint32_t height,
                         uint32_t layers, uint32_t mips_total, spdrt_spd_params *run,
                         uint32_t base[SPDRT_SPD_MAX_PASSES + 1],
                         VkDeviceSize handoff[SPDRT_SPD_MAX_PASSES + 1],
                         spdrt_spd_requirements *req, char *err, size_t err_size) {
    uint32_t pass;
    *run = k->shader;
    run->width = width;
    run->height = height;
    run->layers = layers;
    run->mips_total = mips_total;
    memset(req, 0, sizeof *req);
    if (spdrt__spd_check_source(run, err, err_size) != 0)
        return SPDRT_ERROR_ARGUMENT;
    req->mip_count = spdrt_spd_mip_count(width, height, mips_total ? mips_total : run->mips_bound);
    if (req->mip_count == 0 || req->mip_count > MAX_LEVELS) {
        snprintf(err, err_size, "a %ux%u source makes %u levels (1..%u allowed)", width, height,
                 req->mip_count, MAX_LEVELS);
        return SPDRT_ERROR_ARGUMENT;
    }
    req->passes = spdrt__spd_passes(run, req->mip_count, base);
    /* The passes share the counters (each dispatch leaves them zero); each has its own
     * hand-off range, for its source level. */
    req->counter_bytes = 16;
    handoff[0] = 0;
    for (pass = 0; pass < req->passes; pass++) {
        uint64_t counters, bytes;
        uint32_t b = base[pass];
        spdrt_spd_buffer_bytes(spdrt__spd_tile(run), spdrt__spd_hierarchy(run), run->mips_bound,
                               width >> b ? width >> b : 1, height >> b ? height >> b : 1, layers,
                               spdrt_format_channels(run->format), &counters, &bytes);
        if (counters > req->counter_bytes)
            req->counter_bytes = counters;
        bytes = bytes < 16 ? 16 : bytes;
        handoff[pass + 1] =
            handoff[pass] + (bytes + HANDOFF_ALIGN - 1) / HANDOFF_ALIGN * HANDOFF_ALIGN;
    }
    req->handoff_bytes = handoff[req->passes];
    req->buffer_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    req->source_usage = VK_IMAGE_USAGE_SAMPLED_BIT;
    req->levels_usage =
        VK_IMAGE_USAGE_STORAGE_BIT | (req->passes > 1 ? VK_IMAGE_USAGE_SAMPLED_BIT : 0);
    req->levels_layout = VK_IMAGE_LAYOUT_GENERAL;
    return SPDRT_OK;
}

spdrt_result spdrt_spd_kernel_requirements(const spdrt_spd_kernel *kernel, uint32_t width,
                                           uint32_t height, uint32_t layers,
                                           uint32_t mips_total, spdrt_spd_requirements *out) {
    spdrt_spd_params run;
    uint32_t base[SPDRT_SPD_MAX_PASSES + 1];
    VkDeviceSize handoff[SPDRT_SPD_MAX_PASSES + 1];
    char problem[256];
    if (!kernel || !out)
        return SPDRT_ERROR_ARGUMENT;
    return plan(kernel, width, height, layers, mips_total, &run, base, handoff, out, problem,
                sizeof problem);
}

/* Pass `pass` reads level base[pass] (the source, or the level the pass before wrote) and
 * writes the levels after it; array elements past the last level repeat it, since every
 * element of a statically used array must be valid. */
static void write_set(const spdrt_spd_binding *b, uint32_t pass, VkDescriptorImageInfo *mips) {
    const spdrt_spd_kernel *k = b->kernel;
    const spdrt_spd_targets *t = &b->targets;
    uint32_t base = b->base[pass], last = b->req.mip_count, i;
    VkDescriptorImageInfo src = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL};
    VkDescriptorBufferInfo counters = {t->counters, t->counters_offset, b->req.counter_bytes};
    VkDescriptorBufferInfo handoff = {t->handoff, t->handoff_offset + b->handoff[pass],
                                      b->handoff[pass + 1] - b->handoff[pass]};
    VkWriteDescriptorSet w[4];
    if (base == 0) {
        src.imageView = t->source_view;
        src.imageLayout = t->source_layout;
    } else {
        src.imageView = t->level_views[base - 1];
    }
    for (i = 0; i < k->shader.mips_bound; i++) {
        mips[i].sampler = VK_NULL_HANDLE;
        mips[i].imageView = t->level_views[(base + i < last ? base + i + 1 : last) - 1];
        mips[i].imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    }
    memset(w, 0, sizeof w);
    for (i = 0; i < 4; i++) {
        w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w[i].dstSet = b->sets[pass];
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
    }
    w[0].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    w[0].pImageInfo = &src;
    w[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    w[1].descriptorCount = k->shader.mips_bound;
    w[1].pImageInfo = mips;
    w[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[2].pBufferInfo = &counters;
    w[3].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[3].pBufferInfo = &handoff;
    k->vk.UpdateDescriptorSets(k->vk.device, 4, w, 0, NULL);
}

/* A pool of exactly the binding's sets. */
static VkResult create_sets(spdrt_spd_binding *b) {
    const spdrt_spd_kernel *k = b->kernel;
    uint32_t n = b->req.passes, i;
    VkDescriptorPoolSize sizes[3] = {{VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, n},
                                     {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, n * k->shader.mips_bound},
                                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * n}};
    VkDescriptorSetLayout layouts[SPDRT_SPD_MAX_PASSES];
    VkDescriptorPoolCreateInfo pci;
    VkDescriptorSetAllocateInfo ai;
    VkResult r;
    memset(&pci, 0, sizeof pci);
    pci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pci.maxSets = n;
    pci.poolSizeCount = 3;
    pci.pPoolSizes = sizes;
    r = k->vk.CreateDescriptorPool(k->vk.device, &pci, k->vk.allocator, &b->pool);
    if (r != VK_SUCCESS) {
        b->pool = VK_NULL_HANDLE;
        return r;
    }
    for (i = 0; i < n; i++)
        layouts[i] = k->pipe.set_layout;
    memset(&ai, 0, sizeof ai);
    ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    ai.descriptorPool = b->pool;
    ai.descriptorSetCount = n;
    ai.pSetLayouts = layouts;
    return k->vk.AllocateDescriptorSets(k->vk.device, &ai, b->sets);
}

spdrt_result spdrt_spd_binding_create(spdrt_spd_kernel *kernel, const spdrt_spd_targets *targets,
                                      spdrt_spd_binding **out, char *err, size_t err_size) {
    spdrt_spd_binding *b;
    VkDescriptorImageInfo mips[MAX_LEVELS];
    const spdrt_spd_targets *t = targets;
    char problem[256];
    spdrt_result res;
    VkResult r;
    uint32_t pass;
    if (out)
        *out = NULL;
    if (!kernel || !t || !out)
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT,
                    "spdrt_spd_binding_create: kernel, targets and out are required");
    b = calloc(1, sizeof *b);
    if (!b)
        return fail(err, err_size, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    b->kernel = kernel;
    b->targets = *t;
    b->targets.level_views = NULL;
    res = plan(kernel, t->width, t->height, t->layers, t->mips_total, &b->run, b->base,
               b->handoff, &b->req, problem, sizeof problem);
    if (res == SPDRT_OK && (!t->source_image || !t->source_view || !t->levels_image ||
                            !t->level_views || !t->counters || !t->handoff)) {
        snprintf(problem, sizeof problem, "the source, the levels, their views, the counter and "
                 "the hand-off buffers are required");
        res = SPDRT_ERROR_ARGUMENT;
    }
    if (res == SPDRT_OK && t->level_view_count < b->req.mip_count) {
        snprintf(problem, sizeof problem, "%u level views for %u levels", t->level_view_count,
                 b->req.mip_count);
        res = SPDRT_ERROR_ARGUMENT;
    }
    if (res != SPDRT_OK) {
        free(b);
        return fail(err, err_size, res, "spdrt_spd_binding_create: %s", problem);
    }
    r = create_sets(b);
    if (r != VK_SUCCESS) {
        spdrt_spd_binding_destroy(b);
        return fail(err, err_size, SPDRT_ERROR_VULKAN,
                    "spdrt_spd_binding_create: "
                    "vkCreateDescriptorPool or vkAllocateDescriptorSets failed: VkResult %d",
                    (int)r);
    }
    b->targets.level_views = t->level_views;  /* read by write_set only, now */
    for (pass = 0; pass < b->req.passes; pass++)
        write_set(b, pass, mips);
    b->targets.level_views = NULL;
    *out = b;
    return SPDRT_OK;
}

void spdrt_spd_binding_destroy(spdrt_spd_binding *binding) {
    if (!binding)
        return;
    if (binding->pool)  /* frees the sets with it */
        binding->kernel->vk.DestroyDescriptorPool(binding->kernel->vk.device, binding->pool,
                                                  binding->kernel->vk.allocator);
    free(binding);
}

/* A use given as zeroes: no dependency (the top or the bottom of the pipe) and no access. */
static VkPipelineStageFlags stage_or(VkPipelineStageFlags stage, VkPipelineStageFlags none) {
    return stage ? stage : none;
}

static void image_barrier(VkImageMemoryBarrier *m, VkImage image, VkImageSubresourceRange range,
                          VkAccessFlags src, VkImageLayout from, VkAccessFlags dst,
                          VkImageLayout to) {
    memset(m, 0, sizeof *m);
    m->sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    m->srcAccessMask = src;
    m->dstAccessMask = dst;
    m->oldLayout = from;
    m->newLayout = to;
    m->srcQueueFamilyIndex = m->dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    m->image = image;
    m->subresourceRange = range;
}

/* Before the dispatches: the source from its last use to source_layout, the levels from
 * theirs to GENERAL, and the counters and hand-off from the last dispatch or the
 * application's zeroing (transfer) to the shader's reads and writes. */
static void barriers_before(const spdrt_spd_binding *b, VkCommandBuffer cmd,
                            const spdrt_spd_sync *s, VkImageSubresourceRange levels) {
    const spdrt_device_fns *vk = &b->kernel->vk;
    const spdrt_spd_targets *t = &b->targets;
    const VkAccessFlags rw = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    VkImageMemoryBarrier images[2];
    VkBufferMemoryBarrier buffers[2];
    uint32_t n = 0, i;
    VkPipelineStageFlags src =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    if (s->source_before.stage || s->source_before.layout) {
        image_barrier(&images[n++], t->source_image, t->source_range, s->source_before.access,
                      s->source_before.layout, VK_ACCESS_SHADER_READ_BIT, t->source_layout);
        src |= stage_or(s->source_before.stage, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
    }
    image_barrier(&images[n++], t->levels_image, levels, s->levels_before.access,
                  s->levels_before.layout, rw, VK_IMAGE_LAYOUT_GENERAL);
    src |= stage_or(s->levels_before.stage, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
    memset(buffers, 0, sizeof buffers);
    for (i = 0; i < 2; i++) {
        buffers[i].sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
        buffers[i].srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        buffers[i].dstAccessMask = rw;
        buffers[i].srcQueueFamilyIndex = buffers[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    }
    buffers[0].buffer = t->counters;
    buffers[0].offset = t->counters_offset;
    buffers[0].size = b->req.counter_bytes;
    buffers[1].buffer = t->handoff;
    buffers[1].offset = t->handoff_offset;
    buffers[1].size = b->req.handoff_bytes;
    vk->CmdPipelineBarrier(cmd, src, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 2, buffers,
                           n, images);
}

/* After them: each image to its next use, where one was given. */
static void barriers_after(const spdrt_spd_binding *b, VkCommandBuffer cmd,
                           const spdrt_spd_sync *s, VkImageSubresourceRange levels) {
    const spdrt_device_fns *vk = &b->kernel->vk;
    const spdrt_spd_targets *t = &b->targets;
    VkImageMemoryBarrier images[2];
    VkPipelineStageFlags dst = 0;
    uint32_t n = 0;
    if (s->source_after.stage || s->source_after.layout) {
        image_barrier(&images[n++], t->source_image, t->source_range, 0, t->source_layout,
                      s->source_after.access, s->source_after.layout ? s->source_after.layout
                                                                     : t->source_layout);
        dst |= stage_or(s->source_after.stage, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    }
    if (s->levels_after.stage || s->levels_after.layout) {
        image_barrier(&images[n++], t->levels_image, levels, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_IMAGE_LAYOUT_GENERAL, s->levels_after.access,
                      s->levels_after.layout ? s->levels_after.layout : VK_IMAGE_LAYOUT_GENERAL);
        dst |= stage_or(s->levels_after.stage, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    }
    if (n)
        vk->CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst, 0, 0, NULL, 0, NULL,
                               n, images);
}

spdrt_result spdrt_spd_record(const spdrt_spd_binding *binding, VkCommandBuffer cmd,
                              const spdrt_spd_sync *sync) {
    const spdrt_spd_binding *b = binding;
    const spdrt_spd_kernel *k;
    const spdrt_device_fns *vk;
    VkImageSubresourceRange levels;
    VkMemoryBarrier between;
    uint32_t pass, tile;
    if (!b || !cmd || !sync)
        return SPDRT_ERROR_ARGUMENT;
    k = b->kernel;
    vk = &k->vk;
    tile = spdrt__spd_tile(&b->run);
    memset(&levels, 0, sizeof levels);
    levels.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    levels.baseMipLevel = b->targets.levels_base_mip;
    levels.levelCount = b->req.mip_count;
    levels.layerCount = b->run.layers;
    barriers_before(b, cmd, sync, levels);
    vk->CmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipe.pipeline);
    memset(&between, 0, sizeof between);
    between.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    between.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    between.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    for (pass = 0; pass < b->req.passes; pass++) {
        uint32_t base = b->base[pass], k_tiles = spdrt__spd_tiles_per_workgroup(&b->run);
        /* src_width, src_height, mip_count, tile_count, tile_offset_x/y, tiles_per_workgroup,
         * unused: a whole-image dispatch */
        uint32_t push[8] = {b->run.width >> base ? b->run.width >> base : 1u,
                            b->run.height >> base ? b->run.height >> base : 1u,
                            b->base[pass + 1] - base, 0, 0, 0, k_tiles > 1 ? k_tiles : 0, 0};
        uint32_t grid_x = (push[0] + tile - 1) / tile, grid_y = (push[1] + tile - 1) / tile;
        if (k_tiles > 1)
            grid_x = (grid_x + k_tiles - 1) / k_tiles;
        if (pass > 0)  /* this pass reads the levels the one before wrote */
            vk->CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &between, 0, NULL,
                                   0, NULL);
        vk->CmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipe.layout, 0, 1,
                                  &b->sets[pass], 0, NULL);
        vk->CmdPushConstants(cmd, k->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push,
                             push);
        vk->CmdDispatch(cmd, grid_x, grid_y, b->run.layers);
    }
    barriers_after(b, cmd, sync, levels);
    return SPDRT_OK;
}
