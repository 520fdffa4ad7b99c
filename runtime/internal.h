/* internal.h: what the runtime's files share and the public header hides (the Vulkan
 * handles). Not part of the installed interface: spdrt.h deliberately does not include
 * vulkan.h, so a caller of libspdrt needs no Vulkan headers. */
#ifndef SPDRT_INTERNAL_H
#define SPDRT_INTERNAL_H

#include <stdarg.h>
#include "vulkan_loader.h"

#include "spdrt.h"

/* How long a submission may run before the runtime gives up on it. Generous because
 * lavapipe runs large images on a few CPU cores; a stuck shader (a spin on a counter that
 * never arrives) then fails instead of hanging the test suite. */
#define SPDRT_FENCE_TIMEOUT_NS (300ull * 1000000000ull)

#define SPDRT_MAX_PASSES 16 /* a 15-level chain one level per pass */

/* pipeline.c: the SPD contract's layout and a compute pipeline for one shader. */
typedef struct {
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;            /* allocated from pool, freed with it; = pass_sets[0] */
    /* One set per pass of a chain split with --max-mips-per-pass (pass p reads level
     * p x mips_bound); all allocated from pool. */
    VkDescriptorSet pass_sets[SPDRT_MAX_PASSES];
} spdrt_pipeline;

/* A built pipeline kept with a copy of the SPIR-V and the parameters it was built for. */
typedef struct {
    spdrt_pipeline pipe;
    uint32_t *spirv;
    size_t spirv_words;
    uint32_t mips_bound, subgroup;
    int normalized_sampler;
} spdrt_spd_pipeline_cache;

struct spdrt_context {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    uint32_t timestamp_valid_bits;  /* of the compute queue family; 0 = no timestamps */
    VkCommandPool pool;
    VkFence fence;
    VkPhysicalDeviceMemoryProperties memory;
    VkPhysicalDeviceLimits limits;
    uint32_t api_version;           /* min(instance, device): what we may call */
    /* Subgroup facts the pipeline code checks a shader's --subgroup against. */
    VkSubgroupFeatureFlags subgroup_ops;
    VkShaderStageFlags subgroup_stages;
    int size_control;               /* requiredSubgroupSize usable in compute */
    uint32_t max_workgroup_subgroups; /* maxComputeWorkgroupSubgroups, with size control */
    int full_subgroups;             /* computeFullSubgroups enabled */
    /* fp16 features enabled on the device (fp16.c checks shaders against them). */
    int float16, storage16, uniform_storage16, subgroup_f16;
    int hung;                       /* a submission timed out: the device is still busy */
    /* statistics.c: VK_KHR_pipeline_executable_properties, when asked for and offered. */
    int statistics_wanted, statistics_enabled;
    char statistics[1024];          /* of the pipelines created since the last take */
    uint32_t validation_messages;
    /* Binding 4 of --sampler linear shaders, made on first use: [0] unnormalized coordinates
     * (texel units), [1] normalized (--sampler-coords normalized, implied by --array). */
    VkSampler linear_sampler[2];
    /* The last SPD pipeline and what it was built from. Tests and benchmarks run one shader
     * on many sizes, and building a pipeline costs more than a small run. */
    spdrt_spd_pipeline_cache spd_cache;
    spdrt_device_info info;
    char error[1024];
};

/* fp16.c: the features fp16 shaders (spdgen --half) need. At device creation:
 * spdrt__fp16_chain adds the query structs to a VkPhysicalDeviceFeatures2 chain (*next);
 * after the query spdrt__fp16_enable records in ctx what the device has and chains the
 * structs enabling exactly that onto a VkDeviceCreateInfo (*next), adding the extensions
 * a Vulkan 1.1 device needs to exts[*count] (at most 2). */
typedef struct {
    VkPhysicalDevice16BitStorageFeatures storage;
    VkPhysicalDeviceShaderFloat16Int8Features float16;
    VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures subgroup;
    int has_float16, has_subgroup;  /* the struct may be chained (core 1.2 or extension) */
    int float16_ext, subgroup_ext;  /* the extension must be enabled (a 1.1 device) */
} spdrt__fp16_features;
void spdrt__fp16_chain(spdrt_context *ctx, spdrt__fp16_features *f, int f16_ext, int sub_ext,
                       void **next);
void spdrt__fp16_enable(spdrt_context *ctx, spdrt__fp16_features *f, const void **next,
                        const char **exts, uint32_t *count);
/* SPDRT_ERROR_UNSUPPORTED, naming the feature, when the SPIR-V module needs an fp16 feature
 * the device did not enable. */
spdrt_result spdrt__fp16_check(spdrt_context *ctx, const uint32_t *spirv, size_t words);

/* statistics.c: the driver's statistics of each pipeline (spdrt_options.capture_statistics).
 * At device creation spdrt__statistics_chain adds the feature query to the chain when
 * wanted and offered; spdrt__statistics_enable then enables the feature and the extension
 * (exts[*count], at most 1). Pipelines are created with spdrt__statistics_flags and
 * recorded with spdrt__statistics_record. */
void spdrt__statistics_chain(spdrt_context *ctx, int wanted, int has_ext,
                             VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR *f,
                             void **next);
void spdrt__statistics_enable(spdrt_context *ctx,
                              VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR *f,
                              const void **next, const char **exts, uint32_t *count);
VkPipelineCreateFlags spdrt__statistics_flags(const spdrt_context *ctx);
void spdrt__statistics_record(spdrt_context *ctx, VkPipeline pipeline);

/* context.c */
spdrt_result spdrt__error(spdrt_context *ctx, spdrt_result code, const char *fmt, ...);
spdrt_result spdrt__vk_error(spdrt_context *ctx, const char *call, VkResult r);
const char *spdrt__vk_result_name(VkResult r);

/* memory.c: a buffer or image with its own memory allocation. */
typedef struct {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *map;                      /* host-visible buffers stay mapped */
} spdrt_buffer;

typedef struct {
    VkImage image;
    VkDeviceMemory memory;
    VkFormat format;
    uint32_t width, height, levels, layers;
} spdrt_image;

spdrt_result spdrt__buffer_create(spdrt_context *ctx, VkDeviceSize size,
                                  VkBufferUsageFlags usage, int host_visible,
                                  spdrt_buffer *out);
void spdrt__buffer_destroy(spdrt_context *ctx, spdrt_buffer *b);
spdrt_result spdrt__image_create(spdrt_context *ctx, VkFormat format, uint32_t width,
                                 uint32_t height, uint32_t levels, uint32_t layers,
                                 VkImageUsageFlags usage, spdrt_image *out);
void spdrt__image_destroy(spdrt_context *ctx, spdrt_image *img);
/* A view of one mip level, all layers: 2D_ARRAY when is_array, else 2D (one layer). */
spdrt_result spdrt__image_view(spdrt_context *ctx, const spdrt_image *img, uint32_t level,
                               int is_array, VkImageView *out);
/* One-shot command buffers: begin, record, then submit waits for completion and frees. */
spdrt_result spdrt__commands_begin(spdrt_context *ctx, VkCommandBuffer *out);
spdrt_result spdrt__commands_submit(spdrt_context *ctx, VkCommandBuffer cb);


spdrt_result spdrt__spd_pipeline_create(spdrt_context *ctx, const uint32_t *spirv,
                                        size_t spirv_words, uint32_t mips_bound,
                                        uint32_t subgroup, int normalized_sampler,
                                        spdrt_pipeline *out);
void spdrt__spd_pipeline_destroy(spdrt_context *ctx, spdrt_pipeline *p);
/* How a pipeline meets a shader's minimum subgroup size s at a local size: *required = s
 * where the device can be told to use exactly s, *full when whole subgroups can be
 * demanded. An error when the device cannot run it. */
spdrt_result spdrt__subgroup_plan(spdrt_context *ctx, uint32_t s, uint32_t local_size,
                                  uint32_t *required, int *full);
/* The shader module and compute pipeline of p (p->layout must exist), entry "main". */
spdrt_result spdrt__compute_pipeline_create(spdrt_context *ctx, const uint32_t *spirv,
                                            size_t spirv_words, uint32_t required, int full,
                                            spdrt_pipeline *p);
/* The pipeline for a shader: the cached one when it was built from the same SPIR-V and
 * parameters, else a new one that replaces it. Owned by the context. */
spdrt_result spdrt__spd_pipeline_get(spdrt_context *ctx, const uint32_t *spirv,
                                     size_t spirv_words, uint32_t mips_bound, uint32_t subgroup,
                                     int normalized_sampler, const spdrt_pipeline **out);
void spdrt__spd_pipeline_cache_clear(spdrt_context *ctx);

/* format.c: the one place formats are mapped and texels converted. */
VkFormat spdrt__format_vk(spdrt_format format);
const char *spdrt__format_name(spdrt_format format);
uint32_t spdrt__format_texel_size(spdrt_format format);
int spdrt__format_is_uint(spdrt_format format); /* r32ui: clears take uint32 values */
/* RGBA float -> one texel as stored (r32f keeps R). */
void spdrt__texel_pack(spdrt_format format, const float rgba[4], void *texel);
/* One stored texel -> RGBA float (r32f reads back as (r, 0, 0, 1)). */
void spdrt__texel_unpack(spdrt_format format, const void *texel, float rgba[4]);
uint16_t spdrt__float_to_half(float f);
float spdrt__half_to_float(uint16_t h);
uint8_t spdrt__float_to_unorm8(float f);

#endif
