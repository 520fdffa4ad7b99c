/* spdrt.h: the tiny spdgen Vulkan runtime (libspdrt), its core.
 *
 * C11 over Vulkan 1.1. Picks a device, creates the images and buffers an spdgen shader
 * binds, builds compute pipelines from SPIR-V, records dispatches with the barriers they
 * need, reads results back and times them with timestamp queries. Every call returns an
 * spdrt_result; on failure the context's last error says what went wrong. Nothing aborts.
 * The runtime knows nothing of the generator or of Lua: it consumes SPIR-V and the
 * dispatch contract only.
 *
 * This header is the core (contexts, devices, formats, test data); each kernel's API is in
 * its own header (spdrt_spd.h, spdrt_fft.h), which this one includes at its end. */
#ifndef SPDRT_H
#define SPDRT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SPDRT_OK = 0,
    SPDRT_ERROR_NO_DEVICE = -1,    /* no Vulkan device, or SPDGEN_DEVICE matched none */
    SPDRT_ERROR_VULKAN = -2,       /* a Vulkan call failed; message has the call and VkResult */
    SPDRT_ERROR_UNSUPPORTED = -3,  /* the device lacks a feature the shader requires */
    SPDRT_ERROR_ARGUMENT = -4,     /* the caller passed something inconsistent */
    SPDRT_ERROR_OUT_OF_MEMORY = -5
} spdrt_result;

typedef struct spdrt_context spdrt_context;

typedef struct {
    /* Enable VK_LAYER_KHRONOS_validation with synchronization validation. Every message
     * the layer reports is printed to stderr and counted (spdrt_validation_messages). */
    int validation;
    /* Device choice: NULL = env SPDGEN_DEVICE (index or case-insensitive name substring),
     * and if that is unset the first discrete GPU, else any GPU, else any device (a CPU
     * implementation). */
    const char *device;
    /* Ask the driver for each pipeline's statistics (VK_KHR_pipeline_executable_properties:
     * registers, shared memory, ... as the driver names them), for spdrt_take_statistics.
     * Off by default: capturing may change how a driver caches pipelines. */
    int capture_statistics;
} spdrt_options;

typedef struct {
    char name[256];
    char driver[256];                 /* driver name and info */
    uint32_t vendor_id, device_id;
    uint32_t api_version;
    uint32_t subgroup_size;           /* default subgroup size */
    uint32_t min_subgroup_size, max_subgroup_size; /* equal to subgroup_size without size control */
    int subgroup_size_control;        /* requiredSubgroupSize + full subgroups usable in compute */
    uint32_t max_shared_memory;       /* maxComputeSharedMemorySize */
    double timestamp_period_ns;       /* 0 when timestamps are not supported on the queue */
    uint64_t max_storage_buffer_range; /* maxStorageBufferRange: libspdrt refuses a larger
                                          storage buffer (it binds each whole) */
} spdrt_device_info;

/* Creates a context. On failure *out is NULL and, if err is given, err holds the reason. */
spdrt_result spdrt_create(const spdrt_options *options, spdrt_context **out, char *err,
                          size_t err_size);
void spdrt_destroy(spdrt_context *ctx);
const char *spdrt_last_error(const spdrt_context *ctx);
const spdrt_device_info *spdrt_device(const spdrt_context *ctx);
/* Number of validation-layer messages (warnings and errors) seen so far. */
uint32_t spdrt_validation_messages(const spdrt_context *ctx);
/* The driver's statistics of the pipelines created since the last call, as "name=value; ..."
 * (pipelines separated by " | "), into out (always terminated), and forgets them. Empty when
 * capture_statistics was off or the device does not offer them. */
void spdrt_take_statistics(spdrt_context *ctx, char *out, size_t size);

/* Storage formats. r32ui holds integers: pass them as floats (exact below 2^24). */
typedef enum {
    SPDRT_R32F, SPDRT_RGBA32F, SPDRT_RGBA16F, SPDRT_RGBA8,
    SPDRT_R16F, SPDRT_RG16F, SPDRT_RG32F, SPDRT_R32UI
} spdrt_format;

/* The format spdgen's --format NAME names; returns 0, or -1 for an unknown name. */
int spdrt_format_by_name(const char *name, spdrt_format *out);

/* Channels the shader computes with for a format (r: 1, rg: 2, rgba: 4). */
uint32_t spdrt_format_channels(spdrt_format format);

/* Test data: the one generator the self-tests, the tests and the benchmarks share. Value i
 * of a seed's stream is a hash of (seed, i) alone, so any part of it can be made again
 * without the rest, in any order. Each value holds 24 random bits, exact in a float. */

/* count values uniform in [lo, hi): values 0 .. count-1 of the seed's stream. */
void spdrt_random_floats(float *out, size_t count, uint64_t seed, float lo, float hi);
/* Value `index` of the stream spdrt_random_floats(..., seed, lo, hi) writes. */
float spdrt_random_float(uint64_t seed, uint64_t index, float lo, float hi);
/* count whole numbers in [0, 2^24) as floats (exact; r32ui data): value i is value i of
 * spdrt_random_floats(..., seed, 0, 1) times 2^24. */
void spdrt_random_integers(float *out, size_t count, uint64_t seed);

#ifdef __cplusplus
}
#endif

/* Every kernel's API too, so that code written when this header held the SPD API (engines
 * include spdrt.h alone) keeps building; a kernel's header alone brings the core and that
 * kernel. Included after the core's declarations, which the kernel headers use. */
#include "spdrt_spd.h"
#include "spdrt_fft.h"
#endif
