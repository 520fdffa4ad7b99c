/* fft_record.c: one FFT shader on an application's device (spdrt_vk.h). The contract's
 * bindings and push constants as fft_run.c sets them, with the application's device,
 * allocator, buffers and command buffer; nothing here submits or waits. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/device.h"
#include "fft_internal.h"

#define SPIRV_MAGIC 0x07230203u

struct spdrt_fft_kernel {
    spdrt_device_fns vk;
    spdrt_fft_config config;
    spdrt_device_pipeline pipe;
    uint32_t bindings;            /* 2, or 3 with the twiddle table */
};

struct spdrt_fft_binding {
    const spdrt_fft_kernel *kernel;
    spdrt_fft_targets targets;
    spdrt_fft_requirements req;
    uint32_t push[4];             /* count, in_stride, out_stride, unused */
    VkDescriptorPool pool;
    VkDescriptorSet set;
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

spdrt_result spdrt_fft_kernel_create(const spdrt_fft_kernel_info *info, spdrt_fft_kernel **out,
                                     char *err, size_t err_size) {
    const spdrt_binding buffers[3] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},
                                      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},
                                      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0}};
    spdrt_fft_kernel *k;
    char problem[256];
    const char *call = NULL;
    VkResult r;
    if (out)
        *out = NULL;
    if (!info || !out)
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT,
                    "spdrt_fft_kernel_create: info and out are required");
    if (!info->spirv || info->spirv_words < 5 || info->spirv[0] != SPIRV_MAGIC)
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT,
                    "spdrt_fft_kernel_create: not a SPIR-V module (%zu words)", info->spirv_words);
    if (spdrt__fft_check_config(&info->config, problem, sizeof problem) != 0)
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT, "spdrt_fft_kernel_create: %s", problem);
    if (info->config.bluestein_m || info->config.rader_root)
        return fail(err, err_size, SPDRT_ERROR_UNSUPPORTED, "spdrt_fft_kernel_create: a %s "
                    "shader (N = %u) needs its tables bound; record it with libspdrt's own context",
                    info->config.rader_root ? "Rader" : "Bluestein", info->config.n);
    k = calloc(1, sizeof *k);
    if (!k)
        return fail(err, err_size, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    if (spdrt__device_load(info->device, info->allocator, info->get_device_proc_addr, &k->vk,
                           problem, sizeof problem) != 0) {
        free(k);
        return fail(err, err_size, SPDRT_ERROR_NO_DEVICE, "spdrt_fft_kernel_create: %s", problem);
    }
    k->config = info->config;
    if (!k->config.columns)
        k->config.columns = 1;
    k->bindings = k->config.lut ? 3 : 2;
    if (spdrt__spirv_fits(info->spirv, info->spirv_words, buffers, k->bindings, FFT_PUSH_BYTES,
                          problem, sizeof problem)) {
        free(k);
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT, "spdrt_fft_kernel_create: %s", problem);
    }
    r = spdrt__device_pipeline_create(&k->vk, info->spirv, info->spirv_words, buffers,
                                      k->bindings, FFT_PUSH_BYTES,
                                      info->require_subgroup_size && k->config.subgroup >= 8
                                          ? k->config.subgroup : 0,
                                      info->require_full_subgroups, &k->pipe, &call);
    if (r != VK_SUCCESS) {
        free(k);
        return fail(err, err_size, SPDRT_ERROR_VULKAN,
                    "spdrt_fft_kernel_create: %s failed: VkResult %d", call, (int)r);
    }
    *out = k;
    return SPDRT_OK;
}

void spdrt_fft_kernel_destroy(spdrt_fft_kernel *kernel) {
    if (!kernel)
        return;
    spdrt__device_pipeline_destroy(&kernel->vk, &kernel->pipe);
    free(kernel);
}

spdrt_result spdrt_fft_kernel_requirements(const spdrt_fft_kernel *kernel,
                                           const spdrt_fft_params *params,
                                           spdrt_fft_requirements *out) {
    const spdrt_fft_config *c;
    VkDeviceSize scalar;
    if (!kernel || !params || !out || params->count == 0 || !spdrt__fft_strides_fit(&kernel->config, params))
        return SPDRT_ERROR_ARGUMENT;
    c = &kernel->config;
    scalar = c->f16 ? 2 : 4;
    memset(out, 0, sizeof *out);
    out->input_bytes = spdrt_fft_input_floats(c, params) * scalar;
    out->output_bytes = spdrt_fft_output_floats(c, params) * scalar;
    out->twiddle_bytes = c->lut ? (VkDeviceSize)c->n / 2 * 8 : 0;
    out->buffer_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    out->groups = (params->count + c->columns - 1) / c->columns;
    return SPDRT_OK;
}

spdrt_result spdrt_fft_binding_create(spdrt_fft_kernel *kernel, const spdrt_fft_targets *targets,
                                      spdrt_fft_binding **out, char *err, size_t err_size) {
    const spdrt_fft_kernel *k = kernel;
    const spdrt_fft_targets *t = targets;
    spdrt_fft_binding *b;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0};
    VkDescriptorPoolCreateInfo pci;
    VkDescriptorSetAllocateInfo ai;
    VkDescriptorBufferInfo info[3];
    VkWriteDescriptorSet w[3];
    VkResult r;
    uint32_t i;
    if (out)
        *out = NULL;
    if (!k || !t || !out)
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT,
                    "spdrt_fft_binding_create: kernel, targets and out are required");
    if (!t->input || !t->output || (k->config.lut && !t->twiddles))
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT, "spdrt_fft_binding_create: the input, "
                    "the output%s buffers are required", k->config.lut ? " and the twiddle" : "");
    b = calloc(1, sizeof *b);
    if (!b)
        return fail(err, err_size, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    b->kernel = k;
    b->targets = *t;
    if (spdrt_fft_kernel_requirements(k, &t->params, &b->req) != SPDRT_OK) {
        free(b);
        return fail(err, err_size, SPDRT_ERROR_ARGUMENT,
                    "spdrt_fft_binding_create: count must be at least 1, and each stride 0 or at least "
                    "a row (--stride: count)");
    }
    b->push[0] = t->params.count;
    spdrt_fft_strides(&k->config, &t->params, &b->push[1], &b->push[2]);
    size.descriptorCount = k->bindings;
    memset(&pci, 0, sizeof pci);
    pci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pci.maxSets = 1;
    pci.poolSizeCount = 1;
    pci.pPoolSizes = &size;
    r = k->vk.CreateDescriptorPool(k->vk.device, &pci, k->vk.allocator, &b->pool);
    if (r == VK_SUCCESS) {
        memset(&ai, 0, sizeof ai);
        ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
        ai.descriptorPool = b->pool;
        ai.descriptorSetCount = 1;
        ai.pSetLayouts = &k->pipe.set_layout;
        r = k->vk.AllocateDescriptorSets(k->vk.device, &ai, &b->set);
    } else {
        b->pool = VK_NULL_HANDLE;
    }
    if (r != VK_SUCCESS) {
        spdrt_fft_binding_destroy(b);
        return fail(err, err_size, SPDRT_ERROR_VULKAN,
                    "spdrt_fft_binding_create: "
                    "vkCreateDescriptorPool or vkAllocateDescriptorSets failed: VkResult %d",
                    (int)r);
    }
    info[0] = (VkDescriptorBufferInfo){t->input, t->input_offset, b->req.input_bytes};
    info[1] = (VkDescriptorBufferInfo){t->output, t->output_offset, b->req.output_bytes};
    info[2] = (VkDescriptorBufferInfo){t->twiddles, t->twiddles_offset, b->req.twiddle_bytes};
    memset(w, 0, sizeof w);
    for (i = 0; i < k->bindings; i++) {
        w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w[i].dstSet = b->set;
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
        w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[i].pBufferInfo = &info[i];
    }
    k->vk.UpdateDescriptorSets(k->vk.device, k->bindings, w, 0, NULL);
    *out = b;
    return SPDRT_OK;
}

void spdrt_fft_binding_destroy(spdrt_fft_binding *binding) {
    if (!binding)
        return;
    if (binding->pool)  /* frees the set with it */
        binding->kernel->vk.DestroyDescriptorPool(binding->kernel->vk.device, binding->pool,
                                                  binding->kernel->vk.allocator);
    free(binding);
}

static void buffer_barrier(VkBufferMemoryBarrier *m, VkBuffer buffer, VkDeviceSize offset,
                           VkDeviceSize size, VkAccessFlags src, VkAccessFlags dst) {
    memset(m, 0, sizeof *m);
    m->sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
    m->srcAccessMask = src;
    m->dstAccessMask = dst;
    m->srcQueueFamilyIndex = m->dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    m->buffer = buffer;
    m->offset = offset;
    m->size = size;
}

spdrt_result spdrt_fft_record(const spdrt_fft_binding *binding, VkCommandBuffer cmd,
                              const spdrt_fft_sync *sync) {
    const spdrt_fft_binding *b = binding;
    const spdrt_device_fns *vk;
    const spdrt_fft_targets *t;
    const VkPipelineStageFlags compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkBufferMemoryBarrier m[2];
    VkPipelineStageFlags src = 0;
    uint32_t n = 0, d, dispatches;
    if (!b || !cmd || !sync)
        return SPDRT_ERROR_ARGUMENT;
    vk = &b->kernel->vk;
    t = &b->targets;
    /* The input from its last write; the output from its last use (a write after a read or a
     * write needs the earlier use finished). */
    if (sync->input_before.stage) {
        buffer_barrier(&m[n++], t->input, t->input_offset, b->req.input_bytes,
                       sync->input_before.access, VK_ACCESS_SHADER_READ_BIT);
        src |= sync->input_before.stage;
    }
    if (sync->output_before.stage) {
        buffer_barrier(&m[n++], t->output, t->output_offset, b->req.output_bytes,
                       sync->output_before.access, VK_ACCESS_SHADER_WRITE_BIT);
        src |= sync->output_before.stage;
    }
    if (n)
        vk->CmdPipelineBarrier(cmd, src, compute, 0, 0, NULL, n, m, 0, NULL);
    vk->CmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->kernel->pipe.pipeline);
    vk->CmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->kernel->pipe.layout, 0, 1,
                              &b->set, 0, NULL);
    vk->CmdPushConstants(cmd, b->kernel->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                         FFT_PUSH_BYTES, b->push);
    dispatches = t->params.dispatches ? t->params.dispatches : 1;
    for (d = 0; d < dispatches; d++) {
        if (d > 0) {  /* each dispatch rewrites what the one before wrote */
            buffer_barrier(&m[0], t->output, t->output_offset, b->req.output_bytes,
                           VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_SHADER_WRITE_BIT);
            vk->CmdPipelineBarrier(cmd, compute, compute, 0, 0, NULL, 1, m, 0, NULL);
        }
        vk->CmdDispatch(cmd, b->req.groups, 1, 1);
    }
    if (sync->output_after.stage) {
        buffer_barrier(&m[0], t->output, t->output_offset, b->req.output_bytes,
                       VK_ACCESS_SHADER_WRITE_BIT, sync->output_after.access);
        vk->CmdPipelineBarrier(cmd, compute, sync->output_after.stage, 0, 0, NULL, 1, m, 0, NULL);
    }
    return SPDRT_OK;
}
