/* spdrt.h: the tiny spdgen Vulkan runtime (libspdrt).
 *
 * C11 over Vulkan 1.1. Picks a device, creates the images and buffers an spdgen shader
 * binds, builds compute pipelines from SPIR-V, records dispatches with the barriers they
 * need, reads results back and times them with timestamp queries. Every call returns an
 * spdrt_result; on failure the context's last error says what went wrong. Nothing aborts.
 * The runtime knows nothing of the generator or of Lua: it consumes SPIR-V and the
 * dispatch contract only. */
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

/* Tiles one SPD workgroup reduces (spdrt_spd_params.tiles_per_workgroup): at most, and
 * what 0 means for --tile 64 --tail loop shaders. 2: on an H100 2-6% faster than one at every
 * size from 1920x1080 to 16384x16384 (bench/PHASES.md), on the H200 10-14% faster at 8192^2
 * and up but 3-6% slower at 2560x1440 and 2048x2048 rgba16f (bench/RESULTS.md); 4 is no
 * faster. */
#define SPDRT_MAX_TILES_PER_WORKGROUP 64u
#define SPDRT_DEFAULT_TILES_PER_WORKGROUP 2u
/* What 0 means for --tile 64 --tail hierarchy shaders: on the H200 4 was the fastest of 2, 4,
 * 8 and 16 at 8192^2 and 16384^2 (rgba8 and r32f, --sampler linear --fetch-ahead 2; one tile
 * was not timed there), and with one tile --fetch-ahead has no next tile to fetch. */
#define SPDRT_DEFAULT_HIERARCHY_TILES_PER_WORKGROUP 4u

typedef struct {
    /* Enable VK_LAYER_KHRONOS_validation with synchronization validation. Every message
     * the layer reports is printed to stderr and counted (spdrt_validation_messages). */
    int validation;
    /* Device choice: NULL = env SPDGEN_DEVICE (index or case-insensitive name substring),
     * and if that is unset the first discrete GPU, else any GPU, else any device
     * (lavapipe). */
    const char *device;
    /* Ask the driver for each pipeline's statistics (VK_KHR_pipeline_executable_properties:
     * registers, shared memory, ... as the driver names them), for spdrt_take_statistics.
     * Off by default: capturing may change how a driver caches pipelines. */
    int capture_statistics;
} spdrt_options;

typedef struct {
    char name[256];
    char driver[256];                 /* driver name and info, e.g. "llvmpipe ..." */
    uint32_t vendor_id, device_id;
    uint32_t api_version;
    uint32_t subgroup_size;           /* default subgroup size */
    uint32_t min_subgroup_size, max_subgroup_size; /* equal to subgroup_size without size control */
    int subgroup_size_control;        /* requiredSubgroupSize + full subgroups usable in compute */
    uint32_t max_shared_memory;       /* maxComputeSharedMemorySize */
    double timestamp_period_ns;       /* 0 when timestamps are not supported on the queue */
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

/* ---- SPD (single-pass downsampler) ------------------------------------------------------
 * The binding contract every spdgen --spd shader follows (all targets, set 0):
 *   binding 0  source level 0, sampled image read with texelFetch (no sampler);
 *              2D, or 2D array with --array
 *   binding 1  array of `mips_bound` storage images, element i = mip level i+1 (one level,
 *              all layers), write-only, format = --format
 *   binding 2  storage buffer uint counters[layers], zeroed once at creation; the shader
 *              resets its slice's counter, so back-to-back dispatches need no host reset
 *   binding 3  storage buffer, the level-6 hand-off: channels x float per 64x64 tile,
 *              [layer][tile_y][tile_x], read by the last workgroup of each layer
 *   (--tile T < 64: a counter per block of each stage and the results of each stage,
 *   sized by spdrt_spd_buffer_bytes)
 *   binding 4  --sampler linear only: an immutable sampler, linear, clamp to edge, with
 *              unnormalized coordinates, or normalized ones (--sampler-coords normalized,
 *              implied by --array)
 *   push constants (32 bytes): uint src_width, src_height, mip_count, tile_count,
 *              tile_offset_x, tile_offset_y, tiles_per_workgroup, unused
 *   local size 256x1x1 (--tile 64; else --wg); grid (ceil(w/T), ceil(h/T), layers),
 *   tile_count = 0 and tile_offset = 0; with --tile 64 an update of a changed rectangle
 *   dispatches only the tiles over it (spdrt_spd_update_tiles) with tile_offset its first
 *   tile and tile_count their number (smaller tiles: no updates, every dispatch is whole)
 *   mip_count = min(mips_bound, floor(log2(max(w, h)))); 0 means there is nothing to do. */

/* A rectangle of texels (or of tiles): first column x, first row y, width x height. */
typedef struct {
    uint32_t x, y, width, height;
} spdrt_rect;

/* Storage formats. r32ui holds integers: pass them as floats (exact below 2^24). */
typedef enum {
    SPDRT_R32F, SPDRT_RGBA32F, SPDRT_RGBA16F, SPDRT_RGBA8,
    SPDRT_R16F, SPDRT_RG16F, SPDRT_RG32F, SPDRT_R32UI
} spdrt_format;

/* The format spdgen's --format NAME names; returns 0, or -1 for an unknown name. */
int spdrt_format_by_name(const char *name, spdrt_format *out);

/* Channels the shader computes with for a format (r: 1, rg: 2, rgba: 4). */
uint32_t spdrt_format_channels(spdrt_format format);

/* --edge: what happens to the last row/column of a level with an odd size. */
typedef enum {
    SPDRT_EDGE_DROP = 0,      /* left out (FidelityFX SPD's rule; the default) */
    SPDRT_EDGE_CONSERVATIVE,  /* min/max: the last texel also reduces it (up to 3x3) */
    SPDRT_EDGE_WEIGHTED       /* mean: nvpro_pyramid's 3-tap weights; may split dispatches
                                 (spd_passes.h) */
} spdrt_edge;

typedef struct {
    uint32_t width, height, layers; /* source size; layers = 1 without --array */
    int is_array;                   /* the shader was generated with --array */
    uint32_t mips_bound;            /* the shader's --mips: storage images it binds */
    uint32_t mips_total;            /* levels to make; more than mips_bound runs the chain in
                                       passes of mips_bound levels, pass p reading level
                                       p x mips_bound as its source (--max-mips-per-pass);
                                       0 = mips_bound, one pass */
    uint32_t subgroup;              /* the shader's --subgroup (0, 4, 8, ...): minimum size */
    uint32_t tile;                  /* the shader's --tile (2..64; 0 = 64): the grid is
                                       ceil(w/tile) x ceil(h/tile) x layers */
    int hierarchy;                  /* the shader was generated with --tail hierarchy: its
                                       chain continues through a hierarchy of counters (the
                                       buffers of spdrt_spd_buffer_bytes; no updates). Implied
                                       below --tile 64; 0 at 64 = --tail loop */
    spdrt_format format;            /* the shader's --format */
    uint32_t tiles_per_workgroup;   /* tiles each workgroup of a whole-image dispatch
                                       reduces, consecutive along its row (push constant
                                       tiles_per_workgroup; the grid's x is ceil(tiles x /
                                       it)), so the hand-off runs once per workgroup. 0 =
                                       SPDRT_DEFAULT_TILES_PER_WORKGROUP for --tile 64 --tail
                                       loop, SPDRT_DEFAULT_HIERARCHY_TILES_PER_WORKGROUP for
                                       --tile 64 --tail hierarchy, one for smaller tiles
                                       (all: one when a dispatch makes at most 6 levels);
                                       1 = one tile each (the
                                       grid of the contract). --tail hierarchy: a power of two
                                       up to --tile. Update dispatches always run one tile per
                                       workgroup */
    uint32_t dispatches;            /* back-to-back dispatches to record (>= 1) */
    float sentinel;                 /* every level is filled with this before dispatching */
    int sampler_linear;             /* the shader was generated with --sampler linear */
    int sampler_normalized;         /* ... with --sampler-coords normalized (implied by
                                       --array): the source must be a power of two in both
                                       sides; else texel coordinates, any size */
    spdrt_edge edge;                /* the shader's --edge (weighted plans its dispatches by
                                       spd_pass_end in spd_passes.h) */
    int refill_between_dispatches;  /* fill the levels with the sentinel (and the hand-off
                                       buffer with a large value) again before every dispatch
                                       after the first: each must rewrite every texel, its
                                       tail must run with no host counter reset, and must not
                                       start before every value it reads is published */
    /* Sub-rectangle update (optional). When update_source is not NULL, after the
     * `dispatches` full runs the texels of level 0 inside `update` (every layer) are
     * replaced by update_source's (laid out as source; only the rectangle is read), and one
     * more dispatch per pass covers only the tiles over it (spdrt_spd_update_tiles); the
     * levels read back are then those of the changed source. The other tiles' texels and
     * level-6 hand-off values are the full runs'. --tile 64 --tail loop shaders only:
     * spdrt_spd_run refuses an update otherwise (the hierarchy counts every tile of a block). */
    const float *update_source;
    spdrt_rect update;
    int refill_before_update;       /* fill the levels with the sentinel before the update:
                                       only the tiles it covers are rewritten (a test of the
                                       footprint; the result is then not the full chain) */
} spdrt_spd_params;

/* Levels read back after an SPD run, all converted to RGBA float. */
typedef struct {
    uint32_t mip_count;           /* levels 1..mip_count were produced */
    uint32_t width[16], height[16]; /* per level, [0] = source */
    float *level[16];             /* [k] = width[k] * height[k] * layers * 4 floats,
                                     layer-major then row-major; [0] = NULL */
    uint32_t layers;
    double gpu_ms;                /* GPU time of the last dispatch (timestamps), or < 0 */
    uint32_t counters_left;       /* counters not zero after the run: each tail resets the
                                     counter that elected it, so any other value means a
                                     tail ran early, twice or not at all */
} spdrt_spd_levels;

/* Runs an SPD shader: uploads `source` (width*height*layers RGBA floats, layer-major,
 * converted to `format`), fills levels 1..mip_count with the sentinel, records
 * `dispatches` dispatches with the barriers between them, waits, and reads every level
 * back into *out (free with spdrt_spd_levels_free). */
spdrt_result spdrt_spd_run(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                           const spdrt_spd_params *params, const float *source,
                           spdrt_spd_levels *out);
void spdrt_spd_levels_free(spdrt_spd_levels *levels);

/* mip_count for a source size and a shader's --mips (the contract above); with passes, the
 * levels of the whole chain for mips_total. */
uint32_t spdrt_spd_mip_count(uint32_t width, uint32_t height, uint32_t mips_bound);

/* The one mapping from a changed rectangle of level 0 to the workgroups an update dispatches,
 * for the pass that reads level `base` (p x mips_bound for pass p; 0 for one pass). Level
 * `base` texel (i, j) reduces exactly the 2^base x 2^base block of level 0 at (i, j) x
 * 2^base (the last odd row/column of a level is dropped, a one-texel edge repeats itself),
 * so the texels over the rectangle are its corners shifted right by `base`, clamped to the
 * level; the update dispatches the 64x64 tiles over those (--tile 64 only: the
 * hierarchy of smaller tiles counts every unit of a block). Writes the first tile and the
 * tile counts to *tiles (grid = tiles->width x tiles->height x layers, tile_offset =
 * (tiles->x, tiles->y), tile_count = width x height). The edge modes widen it: with
 * --edge conservative a workgroup near the right/bottom edge also reads the next tile's
 * source, so one more tile to the left and above; with --edge weighted a level-`base` texel
 * of an odd chain reaches one texel further left/up than the block, and a pass's first level
 * reads the first column/row of the next tile, so one more texel. Returns 0, or -1 for an
 * empty rectangle or one not inside the width x height source. */
int spdrt_spd_update_tiles(uint32_t width, uint32_t height, spdrt_rect rect, uint32_t base,
                           spdrt_edge edge, spdrt_rect *tiles);

/* Bytes of the counter buffer (binding 2) and the hand-off buffer (binding 3) an SPD shader
 * of --tile `tile` (0 = 64), --tail (`hierarchy` nonzero: --tail hierarchy, implied below 64)
 * and --mips `mips_bound` needs for a source: --tail loop, a counter per slice and one value
 * per 64x64 tile; the hierarchy, per slice the results of every stage but the last and a
 * counter per unit of every stage but the first (see the emitted contract). `channels` =
 * spdrt_format_channels of the format. */
void spdrt_spd_buffer_bytes(uint32_t tile, int hierarchy, uint32_t mips_bound, uint32_t width,
                            uint32_t height,
                            uint32_t layers, uint32_t channels, uint64_t *counter_bytes,
                            uint64_t *handoff_bytes);

#ifdef __cplusplus
}
#endif
#endif
