/* spdrt_vk.h: libspdrt on an application's own Vulkan device. An SPD or FFT shader's
 * pipeline is built on the application's VkDevice (with its allocator, if any), and its
 * barriers and dispatches are recorded into the application's command buffer. libspdrt
 * submits nothing, waits for nothing and allocates no image or buffer: the application owns
 * them, and the requirements functions say what they must be. Unlike spdrt.h this header
 * includes <vulkan/vulkan.h> (only its types are used, so VK_NO_PROTOTYPES builds work).
 *
 * The self-contained API (spdrt_create, spdrt_spd_run) stays for tests and tools. The FFT
 * convolution (last section) is the exception: its job lives on a context, and is recorded
 * into the application's command buffers on that context's device. */
#ifndef SPDRT_VK_H
#define SPDRT_VK_H

#include <vulkan/vulkan.h>

#include "spdrt_conv.h"
#include "spdrt_fft.h"
#include "spdrt_spd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An SPD shader's pipeline on the application's device: the contract's descriptor set
 * layout (binding 4 the immutable linear sampler of --sampler linear), the pipeline layout
 * and the compute pipeline. */
typedef struct spdrt_spd_kernel spdrt_spd_kernel;
/* One source and its levels bound to a kernel: a descriptor set per pass. */
typedef struct spdrt_spd_binding spdrt_spd_binding;

typedef struct {
    VkDevice device;
    /* Optional: host allocations of every object libspdrt creates on the device. */
    const VkAllocationCallbacks *allocator;
    /* Optional: how libspdrt finds the device's functions (an application that loads Vulkan
     * itself, through volk or a bundled loader, passes its own). NULL: libspdrt opens
     * libvulkan.so.1 and uses its vkGetDeviceProcAddr. */
    PFN_vkGetDeviceProcAddr get_device_proc_addr;
    /* The module and the shader as generated: mips_bound, subgroup, tile, hierarchy, format,
     * edge, is_array, sampler_linear, sampler_normalized and tiles_per_workgroup of
     * spdrt_spd_params (its source size, dispatches, sentinel and update fields are not
     * read here). */
    const uint32_t *spirv;
    size_t spirv_words;
    spdrt_spd_params shader;
    /* Set only where the application enabled them on the device (Vulkan 1.3 or
     * VK_EXT_subgroup_size_control): require subgroups of exactly shader.subgroup
     * (subgroupSizeControl) and whole subgroups (computeFullSubgroups). Otherwise the
     * device's subgroup size must be at least the contract's SUBGROUP_SIZE. */
    int require_subgroup_size;
    int require_full_subgroups;
} spdrt_spd_kernel_info;

/* What the application provides for one source size (spdrt_spd_kernel_requirements). */
typedef struct {
    uint32_t mip_count;              /* levels 1..mip_count are written */
    uint32_t passes;                 /* dispatches a record makes */
    VkDeviceSize counter_bytes;      /* the counter buffer: zeroed once (vkCmdFillBuffer)
                                        before the first record; the shader leaves it zeroed */
    VkDeviceSize handoff_bytes;      /* the hand-off buffer, any contents (each pass its range) */
    VkBufferUsageFlags buffer_usage; /* both buffers: storage (and transfer dst to zero them) */
    VkImageUsageFlags source_usage;  /* level 0: sampled */
    VkImageUsageFlags levels_usage;  /* levels 1..mip_count: storage, and sampled where a pass
                                        reads the level the pass before wrote */
    VkImageLayout levels_layout;     /* the layout of the levels during the dispatches */
} spdrt_spd_requirements;

/* The images and buffers of one source, all the application's. */
typedef struct {
    uint32_t width, height, layers;  /* the source, level 0 (layers 1 unless an --array shader) */
    uint32_t mips_total;             /* levels to make: more than mips_bound runs passes; 0 =
                                        mips_bound (as spdrt_spd_params) */
    /* Level 0: `source_view` samples it (a depth buffer: a view whose aspectMask is
     * VK_IMAGE_ASPECT_DEPTH_BIT); `source_range` is that subresource of `source_image`, in
     * `source_layout` while the dispatches read it (for example
     * VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL or DEPTH_STENCIL_READ_ONLY_OPTIMAL). */
    VkImage source_image;
    VkImageView source_view;
    VkImageSubresourceRange source_range;
    VkImageLayout source_layout;
    /* Levels 1..mip_count: level k is mip (levels_base_mip + k - 1) of `levels_image` (every
     * layer; colour aspect), and level_views[k - 1] a view of that one mip (2D, or 2D array
     * for an --array shader). A colour chain may use one image for both: the source at mip
     * 0, levels_base_mip 1. */
    VkImage levels_image;
    uint32_t levels_base_mip;
    const VkImageView *level_views;
    uint32_t level_view_count;       /* at least mip_count */
    /* spdrt_spd_kernel_requirements' buffers (offsets: storage-buffer aligned; 256 always is). */
    VkBuffer counters;
    VkDeviceSize counters_offset;
    VkBuffer handoff;
    VkDeviceSize handoff_offset;
} spdrt_spd_targets;

/* One use of an image around a record: its pipeline stages, its accesses, and its layout. */
typedef struct {
    VkPipelineStageFlags stage;
    VkAccessFlags access;
    VkImageLayout layout;
} spdrt_vk_use;

/* How the record meets the application's work on the same queue. A zeroed use means: the
 * source is already in source_layout and visible to compute shaders (before) or stays there
 * (after); the levels' contents are dropped (UNDEFINED, before) or stay in levels_layout,
 * visible to later compute shaders (after). */
typedef struct {
    spdrt_vk_use source_before;   /* e.g. a depth pass: LATE_FRAGMENT_TESTS,
                                     DEPTH_STENCIL_ATTACHMENT_WRITE,
                                     DEPTH_STENCIL_ATTACHMENT_OPTIMAL */
    spdrt_vk_use source_after;    /* e.g. the next depth pass, back to the attachment layout */
    spdrt_vk_use levels_before;   /* the last reader of the pyramid (the culling of the frame
                                     before), or a zeroed use */
    spdrt_vk_use levels_after;    /* its next reader: e.g. COMPUTE_SHADER, SHADER_READ,
                                     SHADER_READ_ONLY_OPTIMAL */
} spdrt_spd_sync;

/* Builds the kernel. Checks the module's header and the shader description; the device's
 * limits (maxPerStageDescriptorStorageImages >= mips_bound, the workgroup count of the
 * grid) are the application's to check. On failure *out is NULL and err (if given) holds
 * the reason. */
spdrt_result spdrt_spd_kernel_create(const spdrt_spd_kernel_info *info, spdrt_spd_kernel **out,
                                     char *err, size_t err_size);
/* Destroys it (after the device finished every command buffer that used it); NULL is a
 * no-op. Destroy its bindings first. */
void spdrt_spd_kernel_destroy(spdrt_spd_kernel *kernel);

/* The buffers, usages and layouts a source of width x height x layers needs, making
 * mips_total levels (0 = mips_bound). SPDRT_ERROR_ARGUMENT for an empty source, a 1x1 one
 * (no level to make) or more than 15 levels. */
spdrt_result spdrt_spd_kernel_requirements(const spdrt_spd_kernel *kernel, uint32_t width,
                                           uint32_t height, uint32_t layers,
                                           uint32_t mips_total, spdrt_spd_requirements *out);

/* Binds one source's images and buffers: a descriptor pool of its own with a set per pass,
 * written now. The views and buffers must outlive the binding. On failure *out is NULL and
 * err (if given) holds the reason. */
spdrt_result spdrt_spd_binding_create(spdrt_spd_kernel *kernel, const spdrt_spd_targets *targets,
                                      spdrt_spd_binding **out, char *err, size_t err_size);
void spdrt_spd_binding_destroy(spdrt_spd_binding *binding);

/* Records into `cmd` (recording, outside a render pass): the barriers from sync's "before"
 * uses (and the counter and hand-off buffers' last transfer or shader writes) to the
 * dispatches, the pipeline, each pass's set, push constants and dispatch with a barrier
 * between passes, then the barriers to the "after" uses. Changes the command buffer's
 * compute pipeline, descriptor set 0 and push constants. SPDRT_ERROR_ARGUMENT for a NULL
 * binding, command buffer or sync. Bindings of one kernel may be recorded from several
 * threads into different command buffers; a record must not run while the same binding is
 * recorded or destroyed on another thread. */
spdrt_result spdrt_spd_record(const spdrt_spd_binding *binding, VkCommandBuffer cmd,
                              const spdrt_spd_sync *sync);

/* ---- the FFT ---------------------------------------------------------------------------
 * One shader's dispatch (a four-step plan's two passes: their contract header's PASSp_
 * macros, or spdrt_fft_plan_run). */
typedef struct spdrt_fft_kernel spdrt_fft_kernel;
typedef struct spdrt_fft_binding spdrt_fft_binding;

typedef struct {
    VkDevice device;
    const VkAllocationCallbacks *allocator;       /* optional, as spdrt_spd_kernel_info's */
    PFN_vkGetDeviceProcAddr get_device_proc_addr; /* optional, as spdrt_spd_kernel_info's */
    const uint32_t *spirv;
    size_t spirv_words;
    spdrt_fft_config config;        /* the shader's contract, as spdrt_fft_pipeline_create's */
    int require_subgroup_size;      /* as spdrt_spd_kernel_info's, for config.subgroup */
    int require_full_subgroups;
} spdrt_fft_kernel_info;

/* What one run of `params` needs (spdrt_fft_kernel_requirements). */
typedef struct {
    VkDeviceSize input_bytes;        /* binding 0: spdrt_fft_input_floats, 2 bytes each with f16 */
    VkDeviceSize output_bytes;       /* binding 1 */
    VkDeviceSize twiddle_bytes;      /* binding 2 (--twiddles lut; else 0): N/2 (cos, -sin) float
                                        pairs, as the header's name_fill_twiddles() writes them */
    VkBufferUsageFlags buffer_usage; /* storage */
    uint32_t groups;                 /* the workgroups of one dispatch */
} spdrt_fft_requirements;

typedef struct {
    spdrt_fft_params params;         /* count, strides; dispatches back to back (0 counts as 1) */
    VkBuffer input;
    VkDeviceSize input_offset;
    VkBuffer output;
    VkDeviceSize output_offset;
    VkBuffer twiddles;               /* --twiddles lut only */
    VkDeviceSize twiddles_offset;
} spdrt_fft_targets;

/* The buffers around a record (layouts are not read): the input's last write, the output's
 * last use before and its next use after. A zeroed use: no dependency on that side. */
typedef struct {
    spdrt_vk_use input_before;
    spdrt_vk_use output_before;
    spdrt_vk_use output_after;
} spdrt_fft_sync;

/* As spdrt_spd_kernel_create, for an FFT shader (SPDRT_ERROR_ARGUMENT for a configuration
 * the contract does not allow; the device's limits are the application's to check). */
spdrt_result spdrt_fft_kernel_create(const spdrt_fft_kernel_info *info, spdrt_fft_kernel **out,
                                     char *err, size_t err_size);
void spdrt_fft_kernel_destroy(spdrt_fft_kernel *kernel);
/* SPDRT_ERROR_ARGUMENT for a count of 0. */
spdrt_result spdrt_fft_kernel_requirements(const spdrt_fft_kernel *kernel,
                                           const spdrt_fft_params *params,
                                           spdrt_fft_requirements *out);
/* Binds one run's buffers (a descriptor pool of its own); they must outlive the binding. */
spdrt_result spdrt_fft_binding_create(spdrt_fft_kernel *kernel, const spdrt_fft_targets *targets,
                                      spdrt_fft_binding **out, char *err, size_t err_size);
void spdrt_fft_binding_destroy(spdrt_fft_binding *binding);
/* Records the barriers from sync's "before" uses, the pipeline, set, push constants and
 * params.dispatches dispatches (a barrier between them), and the barrier to output_after.
 * The same rules as spdrt_spd_record. */
spdrt_result spdrt_fft_record(const spdrt_fft_binding *binding, VkCommandBuffer cmd,
                              const spdrt_fft_sync *sync);

/* ---- the FFT convolution (spdrt_conv.h) --------------------------------------------------
 * A --conv job lives on a context (spdrt_conv_load); its three passes are recorded into the
 * application's command buffer on that context's device (spdrt_context_vk gives the
 * handles), on images or buffers the application owns. libspdrt keeps the spectra between
 * the passes and the kernel spectrum (spdrt_conv_set_kernel, which submits on its own). */

/* The context's Vulkan objects, for command buffers of the application's own on its device
 * and queue family (the context keeps owning them). */
typedef struct {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
} spdrt_vk_handles;
void spdrt_context_vk(const spdrt_context *ctx, spdrt_vk_handles *out);

/* The job's input and output: views for --input image (sampled, any float format) and
 * --output image (storage, the plan's format, VK_IMAGE_LAYOUT_GENERAL), buffers (offsets
 * storage-buffer aligned) for --input / --output buffer. At least the run's image size. */
typedef struct {
    VkImageView input_view;
    VkImageLayout input_layout;    /* while the passes read it; 0 = SHADER_READ_ONLY_OPTIMAL */
    VkBuffer input_buffer;
    VkDeviceSize input_offset;
    VkImageView output_view;
    VkBuffer output_buffer;
    VkDeviceSize output_offset;
} spdrt_conv_targets;

/* Points the passes' descriptor sets at the targets (they must outlive every record that
 * uses them). Not while a command buffer that recorded the job is pending: the sets are the
 * job's own, updated in place. spdrt_conv_run binds its own images, so bind again after it. */
spdrt_result spdrt_conv_bind(spdrt_context *ctx, spdrt_conv *conv, const spdrt_conv_targets *targets);

/* The uses around a record (layouts are not read: the images stay in theirs): the input's
 * last write, the output's last use before, its next use after. A zeroed use: none (the
 * input already visible to compute shaders; no barrier after the output's writes). */
typedef struct {
    spdrt_vk_use input_before;
    spdrt_vk_use output_before;
    spdrt_vk_use output_after;
} spdrt_conv_sync;

/* Records pass 1, 2 and 3 for `params` with a barrier before (from sync's "before" uses and
 * any earlier record of the job on the queue), between the passes, and to output_after.
 * sync may be NULL (all zeroed). Changes the command buffer's compute pipeline, descriptor
 * set 0 and push constants, which hold the size of the PSF set last: a command buffer
 * recorded before spdrt_conv_set_kernel of another size must be recorded again (the
 * spectrum's values themselves are read when it runs). A resampled job (--spectrum
 * resampled) keeps its kernel spectrum resampled for one psf_scale: where params's differs
 * from the one last resampled for (by spdrt_conv_set_kernel, spdrt_conv_run or a record),
 * the resample is recorded first, and later records take it as done, so command buffers
 * must run in the order they were recorded; one that is submitted again after a record for
 * another scale records spdrt_conv_record_resample itself. SPDRT_ERROR_ARGUMENT for bad
 * params, no PSF set or nothing bound. */
spdrt_result spdrt_conv_record(spdrt_context *ctx, spdrt_conv *conv, VkCommandBuffer cmd,
                               const spdrt_conv_params *params, const spdrt_conv_sync *sync);
/* Records the resample of a resampled job's kernel spectrum for params->psf_scale (nothing
 * for an exact job), with barriers from any earlier record and to the next one's passes:
 * a small dispatch, one value per spectrum value pass 2 reads. */
spdrt_result spdrt_conv_record_resample(spdrt_context *ctx, spdrt_conv *conv, VkCommandBuffer cmd,
                                        const spdrt_conv_params *params);
/* One pass alone (0, 1, 2: pass 1, 2, 3), no barrier at all: the caller orders it after
 * what it reads (pass 1 the input, pass 2 pass 1's spectra, pass 3 pass 2's and the input)
 * with compute-to-compute barriers. For timing the passes apart. Pass 2 of a resampled job
 * whose spectrum is resampled for another psf_scale is SPDRT_ERROR_ARGUMENT (record
 * spdrt_conv_record_resample first). */
spdrt_result spdrt_conv_record_pass(spdrt_context *ctx, const spdrt_conv *conv, VkCommandBuffer cmd,
                                    const spdrt_conv_params *params, uint32_t pass);

#ifdef __cplusplus
}
#endif
#endif
