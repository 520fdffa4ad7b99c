/* internal.h: what the core gives the kernels (runtime/<kernel>/) and the benchmarks, with
 * the Vulkan handles the public headers hide. Not installed: spdrt.h deliberately does not
 * include vulkan.h, so a caller of libspdrt needs no Vulkan headers. */
#ifndef SPDRT_INTERNAL_H
#define SPDRT_INTERNAL_H

#include <stdarg.h>
#include "vulkan_loader.h"

#include "spdrt.h"

/* How long a submission may run before the runtime gives up on it: generous for CPU
 * implementations on a few cores, yet a stuck shader (a spin on a counter that never
 * arrives) fails instead of hanging the test suite. */
#define SPDRT_FENCE_TIMEOUT_NS (300ull * 1000000000ull)

/* A kernel's state kept with a context (its caches, samplers): see spdrt__context_state. */
typedef void (*spdrt__state_release)(spdrt_context *ctx, void *state);
typedef struct spdrt__state {
    const void *key;                /* the kernel's own static address */
    spdrt__state_release release;
    void *data;
    struct spdrt__state *next;
} spdrt__state;

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
    VkDeviceSize max_allocation;    /* maxMemoryAllocationSize (Vulkan 1.1); 0 = unknown */
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
    spdrt__state *states;           /* the kernels' per-context state */
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

/* plan_text.c: the plan-file loaders' strict reading (FFT plans, conv jobs). */
/* The file at path as one NUL-terminated text (NULL: unreadable or past 1 MiB); *nul_line is
 * the line of a NUL byte inside it, 0 if none. */
char *spdrt__plan_text(const char *path, int *nul_line);
/* A SPIR-V module's words (NULL: unreadable, empty or not whole words). */
uint32_t *spdrt__read_words(const char *path, size_t *words);
/* The next line of the text at *cursor, cut in place ("\r\n" ends taken); NULL at the end. */
char *spdrt__plan_line(char **cursor);
/* Splits line in place at spaces and tabs: its word count, max + 1 if it has more. */
int spdrt__plan_words(char *line, char **words, int max);
/* A whole unsigned decimal number (digits only, no overflow): 0, else -1. */
int spdrt__plan_u64(const char *word, uint64_t *out);
int spdrt__plan_u32(const char *word, uint32_t *out);
/* The index of word in names (NULL-terminated), or -1. */
int spdrt__plan_choice(const char *word, const char *const *names);
/* As spdrt__plan_choice for a key, also -1 when *seen already holds it (a key given twice). */
int spdrt__plan_key(const char *word, const char *const *keys, unsigned *seen);

/* context.c */
spdrt_result spdrt__error(spdrt_context *ctx, spdrt_result code, const char *fmt, ...);
spdrt_result spdrt__vk_error(spdrt_context *ctx, const char *call, VkResult r);
const char *spdrt__vk_result_name(VkResult r);
/* The state a kernel keeps with ctx under `key` (the address of one of its statics): `size`
 * zeroed bytes made on first use, handed to `release` by spdrt_destroy before the device
 * goes (not after a timed-out submission: the device may still use what it holds). NULL
 * when out of memory. */
void *spdrt__context_state(spdrt_context *ctx, const void *key, size_t size,
                           spdrt__state_release release);

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

/* commands.c: one-shot command buffers (begin, record, then submit waits for completion
 * and frees), and what every run records. */
spdrt_result spdrt__commands_begin(spdrt_context *ctx, VkCommandBuffer *out);
spdrt_result spdrt__commands_submit(spdrt_context *ctx, VkCommandBuffer cb);
/* A global memory barrier. */
void spdrt__memory_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage,
                           VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                           VkAccessFlags dst_access);
/* A layout transition of levels base .. base + count - 1 of every layer of img. */
void spdrt__image_barrier(VkCommandBuffer cb, const spdrt_image *img, uint32_t base,
                          uint32_t count, VkPipelineStageFlags src_stage,
                          VkAccessFlags src_access, VkImageLayout from,
                          VkPipelineStageFlags dst_stage, VkAccessFlags dst_access,
                          VkImageLayout to);
/* A pool of the two timestamps that bracket a run, where the queue has timestamps (else
 * *out stays VK_NULL_HANDLE). */
spdrt_result spdrt__timestamps_create(spdrt_context *ctx, VkQueryPool *out);
/* *ms = the milliseconds between the pool's two timestamps; -1 without a pool, or when the
 * query fails (its result is returned). */
VkResult spdrt__timestamps_ms(const spdrt_context *ctx, VkQueryPool pool, double *ms);

/* pipeline.c: a compute pipeline from SPIR-V and a binding list (set 0, binding i =
 * bindings[i]), with its own pool of descriptor sets. */
typedef struct {
    VkDescriptorType type;
    uint32_t count;                 /* descriptors of the binding (an array); 0 counts as 1 */
    const VkSampler *samplers;      /* immutable samplers (count of them), or NULL */
    VkFormat format;                /* a storage image's view format, which the shader must
                                       declare (or leave unknown); UNDEFINED: not checked */
} spdrt_binding;

typedef struct {
    const uint32_t *spirv;
    size_t spirv_words;
    const spdrt_binding *bindings;
    uint32_t binding_count;
    uint32_t push_bytes;            /* one push-constant range at offset 0; 0 = none */
    uint32_t set_count;             /* descriptor sets to allocate (at least 1) */
    uint32_t required_subgroup;     /* spdrt__subgroup_plan's answer: 0 = the device picks */
    int full_subgroups;
} spdrt_pipeline_desc;

typedef struct {
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet *sets;          /* set_count sets from pool, freed with it */
    uint32_t set_count;
} spdrt_pipeline;

/* Checks the SPIR-V against the layout (spirv_interface.c) and the device's fp16 features
 * (fp16.c), then builds everything above, entry point "main". On failure nothing is left to
 * destroy. */
spdrt_result spdrt__pipeline_create(spdrt_context *ctx, const spdrt_pipeline_desc *desc,
                                    spdrt_pipeline *out);
void spdrt__pipeline_destroy(spdrt_context *ctx, spdrt_pipeline *p);
/* One descriptor write: a storage buffer's range at `binding`, or one image (element 0). */
void spdrt__write_buffer(spdrt_context *ctx, VkDescriptorSet set, uint32_t binding, VkBuffer buffer,
                         VkDeviceSize offset, VkDeviceSize range);
void spdrt__write_image(spdrt_context *ctx, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                        VkImageView view, VkImageLayout layout);
/* SPDRT_ERROR_ARGUMENT unless spirv holds at least a SPIR-V header. */
spdrt_result spdrt__spirv_check(spdrt_context *ctx, const uint32_t *spirv, size_t words);
/* 0 when the module fits the layout of `bindings` (set 0) and a push-constant range of
 * push_bytes, and has a compute entry point "main"; else -1 (-2: out of memory) with why it
 * does not, naming the binding, in `why` (spirv_interface.c). */
int spdrt__spirv_fits(const uint32_t *spirv, size_t words, const spdrt_binding *bindings,
                      uint32_t binding_count, uint32_t push_bytes, char *why, size_t size);
/* The LocalSize x of the module's entry point, or `otherwise` when it states none. */
uint32_t spdrt__spirv_local_size_x(const uint32_t *spirv, size_t words, uint32_t otherwise);
/* How a pipeline meets a shader's minimum subgroup size s at a local size: *required = s
 * where the device can be told to use exactly s, *full when whole subgroups can be
 * demanded. An error when the device cannot run it. */
spdrt_result spdrt__subgroup_plan(spdrt_context *ctx, uint32_t s, uint32_t local_size,
                                  uint32_t *required, int *full);

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
