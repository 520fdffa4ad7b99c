/* spdrt_dmap.h: density maps and shading-rate images (spdgen --dmap) with libspdrt.
 *
 * Two parts. The model (no Vulkan needed): how a tiled driver consumes a
 * VK_EXT_fragment_density_map, written after Mesa's turnip (src/freedreno/vulkan) as its
 * code reads today, each rule with the function it comes from; it gives per-bin fragment
 * areas, the framebuffer-to-rendering transform, viewports, scissors, the FDM offset's
 * sliding bins, bin merging and the subsampled layout with its aprons. And the generator's
 * side (spdrt_dmap_gen_*): the CPU reference of the rules spdgen --dmap emits, and runs of
 * the emitted shaders on a Vulkan device.
 *
 * Rates are written as log2 per axis everywhere: (lw, lh) means a fragment lw = 1 is two
 * pixels wide. A "rate code" packs them as (lw << 3) | lh. */
#ifndef SPDRT_DMAP_H
#define SPDRT_DMAP_H

#include "spdrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- encodings ------------------------------------------------------------------------ */

/* turnip's MAX_VIEWS: views of one multiview render pass, and layers of a map. */
#define SPDRT_DMAP_MAX_VIEWS 6u
/* The largest viewport and framebuffer side turnip handles (MAX_VIEWPORT_SIZE). */
#define SPDRT_DMAP_MAX_VIEWPORT 16384u

/* R8G8_UNORM density byte for a fragment area of `area` pixels along an axis (1..255):
 * floor(255 / area), which the driver's 1 / (byte / 255) floors back to area exactly. A
 * larger area gives 1, the coarsest a byte encodes (0 would mean "not rendered"). */
uint8_t spdrt_dmap_density_byte(uint32_t area);
/* round(255 / area): the encoding trap, kept so a test can show it fails (area 2 gives
 * 128, whose 1 / density is 1.992, floored to 1). */
uint8_t spdrt_dmap_density_byte_rounded(uint32_t area);
/* The area the driver computes from a density byte, 1.0f / (byte * (1.0f / 255)), in
 * float as turnip's unpack and division do; infinity for byte 0. */
float spdrt_dmap_area_of_byte(uint8_t byte);
/* VK_KHR_fragment_shading_rate attachment texel (R8_UINT): (lw << 2) | lh, lw, lh <= 2 (a
 * larger one counts as 2, the coarsest rate: 4 pixels). */
uint8_t spdrt_dmap_fsr_texel(uint32_t lw, uint32_t lh);
static inline uint32_t spdrt_dmap_rate_code(uint32_t lw, uint32_t lh) { return (lw << 3) | lh; }

/* ---- the model: the render pass ------------------------------------------------------- */

typedef struct { uint32_t width, height; } spdrt_dmap_extent;
typedef struct { int32_t x, y; } spdrt_dmap_offset;
typedef struct { int32_t x, y; int32_t width, height; } spdrt_dmap_rect;
typedef struct { float width, height; } spdrt_dmap_area;

/* What the model needs of the device (turnip's fd_dev_info). */
typedef struct {
    uint32_t tile_align_w, tile_align_h; /* tile_align_*: 0 = 32, 32 */
    int bin_merging;                     /* props.has_bin_mask: merge bins */
    int abs_bin_mask;                    /* props.has_abs_bin_mask: no 16-bit mask limit */
} spdrt_dmap_device;

/* One render pass that reads a density map. The tiling (tile0, the pipes) is an input:
 * turnip derives it from GMEM size and attachments (tu_tiling_config_update_tile_layout),
 * which the model does not need to know. */
typedef struct {
    spdrt_dmap_extent framebuffer;  /* also the render area of every view */
    spdrt_dmap_extent tile;         /* tile0: a multiple of the tile alignment, at most
                                       16384 a side */
    spdrt_dmap_extent pipe;         /* tiles per visibility pipe, at most 32; 0 = 4x8,
                                       turnip's choice with a density map and bin merging */
    uint32_t views;                 /* 1..6: multiview views = map layers */
    const uint8_t *map;             /* R8G8 texels: [view][y][x][2] */
    spdrt_dmap_extent map_extent;
    int has_offset;                 /* VK_EXT_fragment_density_map_offset is in use */
    spdrt_dmap_offset offset[SPDRT_DMAP_MAX_VIEWS]; /* per view, multiples of 8 within
                                                       -16384..16384 */
    int shared_viewport;            /* one scale for all views (the shader writes
                                       gl_ViewportIndex): the minimum area over views */
    int subsampled;                 /* attachments created subsampled */
    spdrt_dmap_device device;
} spdrt_dmap_pass;

/* One bin (a tile of the grid, or a merged group of tiles) as the driver renders it. */
typedef struct {
    spdrt_dmap_offset pos;          /* first tile (column, row) */
    spdrt_dmap_extent tiles;        /* tiles covered: sysmem_extent */
    spdrt_dmap_extent gmem;         /* gmem_extent: GMEM tiles used */
    int32_t merged_into;            /* index of the bin this tile joined, or -1 */
    uint32_t pipe, slot_mask;
    uint32_t visible_views;         /* bit v: view v has pixels here and density > 0 */
    spdrt_dmap_area raw[SPDRT_DMAP_MAX_VIEWS];     /* 1 / density as sampled */
    spdrt_dmap_extent area[SPDRT_DMAP_MAX_VIEWS];  /* the fragment area the bin renders at */
    int subsampled;                 /* placed in the subsampled layout */
    uint32_t subsampled_views;      /* bit v: stored scaled down in view v */
    int subsampled_border;          /* shifted to touch the framebuffer's right/bottom */
    spdrt_dmap_rect subsampled_pos[SPDRT_DMAP_MAX_VIEWS]; /* where it lies in the image */
} spdrt_dmap_bin;

typedef struct {
    spdrt_dmap_extent tile_count;   /* ceil(fb / tile), one more each way with an offset */
    spdrt_dmap_extent pipe_count;
    spdrt_dmap_bin *bins;           /* tile_count.width * height, row-major */
    int subsampled;                 /* the subsampled layout was made (<= 512 bins) */
} spdrt_dmap_layout;

/* The bins of a pass: areas, visibility, merging and (pass->subsampled) the subsampled
 * layout, as turnip's tu_calc_tile_config makes them. Returns 0, or -1 with a one-line
 * reason in err for a pass the driver would not accept. */
int spdrt_dmap_layout_make(const spdrt_dmap_pass *pass, spdrt_dmap_layout *out, char *err,
                           size_t err_size);
void spdrt_dmap_layout_free(spdrt_dmap_layout *layout);
/* The bin that tile (x, y) ended in (follows merged_into). */
const spdrt_dmap_bin *spdrt_dmap_bin_at(const spdrt_dmap_layout *layout, uint32_t x, uint32_t y);

/* ---- the model: each rule on its own -------------------------------------------------- */

/* log2 of the map texel size the driver reads along an axis of `fb` pixels with a map of
 * `map` texels: clamp(ceil(log2(fb / map)), 5, 10), integer division. */
uint32_t spdrt_dmap_texel_shift(uint32_t fb, uint32_t map);
/* (-a) mod b as a Euclidean remainder (0 <= r < b): turnip's euclid_rem(-a, b). */
int32_t spdrt_dmap_euclid_rem(int32_t a, int32_t b);
/* How far the bins of a view slide left and up for an FDM offset (tu_bin_offset). */
spdrt_dmap_offset spdrt_dmap_bin_offset(spdrt_dmap_offset offset, spdrt_dmap_extent tile);
/* 1 / density of the texel under framebuffer pixel (x, y) of `view`
 * (tu_fragment_density_map_sample). */
spdrt_dmap_area spdrt_dmap_sample(const spdrt_dmap_pass *pass, int32_t x, int32_t y,
                                  uint32_t view);
/* The first step of tu_calc_frag_area: floor each axis of 1 / density, round up the axis
 * with the larger fraction where the area allows it, round down to powers of two. Returns
 * 0, or -1 where the density is 0 (the view is not rendered there). */
int spdrt_dmap_floor_area(spdrt_dmap_area raw, spdrt_dmap_extent *out);
/* The fragment area of a bin from a sampled 1 / density: spdrt_dmap_floor_area, then the
 * caps (8 with an FDM offset, 4 for hardware viewport scaling) and halving until it
 * divides the tile (tu_calc_frag_area's per-view rules). Returns 0, or -1 as above. */
int spdrt_dmap_frag_area(const spdrt_dmap_pass *pass, spdrt_dmap_area raw,
                         spdrt_dmap_extent *out);
/* The rectangle bin `b` covers in `view`, in framebuffer pixels: b_s and its extent (the
 * bins[] of tu6_emit_tile_select); empty where the view is not visible. */
spdrt_dmap_rect spdrt_dmap_view_bin(const spdrt_dmap_pass *pass, const spdrt_dmap_bin *b,
                                    uint32_t view);
/* The common bin start b_cs (the window offset, the same for every view). */
spdrt_dmap_offset spdrt_dmap_common_start(const spdrt_dmap_pass *pass, const spdrt_dmap_bin *b);
/* o of x' = x / area + o, mapping the view's bin start b_s to b_cs (tu_fdm_per_bin_offset). */
spdrt_dmap_offset spdrt_dmap_transform_offset(spdrt_dmap_extent area, spdrt_dmap_rect view_bin,
                                              spdrt_dmap_offset common_start);

typedef struct { float x, y, width, height; } spdrt_dmap_viewport;
/* A framebuffer-space viewport as the driver patches it for one bin and view
 * (fdm_apply_viewports). */
spdrt_dmap_viewport spdrt_dmap_bin_viewport(const spdrt_dmap_pass *pass, const spdrt_dmap_bin *b,
                                            uint32_t view, spdrt_dmap_viewport in);
/* A framebuffer-space scissor as the driver patches it: scaled, rounded outward and
 * intersected with the scaled bin (fdm_apply_scissors). */
spdrt_dmap_rect spdrt_dmap_bin_scissor(const spdrt_dmap_pass *pass, const spdrt_dmap_bin *b,
                                       uint32_t view, spdrt_dmap_rect in);

/* ---- the model: sampling a subsampled image ------------------------------------------- */

/* Each bin's transform from framebuffer pixels to the subsampled image (turnip's
 * tu_subsampled_metadata, in pixels): bin index = floor((p + bin_offset) / tile) per axis,
 * then s = p * scale + offset. */
typedef struct {
    float scale_x, scale_y, offset_x, offset_y;
} spdrt_dmap_bin_transform;
typedef struct {
    spdrt_dmap_offset bin_offset;   /* of the view */
    spdrt_dmap_extent tile;
    uint32_t stride;                /* bins per row */
    uint32_t count;                 /* transforms: every bin, or 1 (identity) without a layout */
} spdrt_dmap_metadata_header;
/* Fills transforms (room for every bin) for `view`; returns the header. */
spdrt_dmap_metadata_header spdrt_dmap_metadata(const spdrt_dmap_pass *pass,
                                               const spdrt_dmap_layout *layout, uint32_t view,
                                               spdrt_dmap_bin_transform *transforms);

/* ---- the model: a picture ------------------------------------------------------------- */

/* The framebuffer of `view` as the driver renders it: each pixel coloured by the area of
 * its bin (1x1 .. 4x4 and beyond), bins outlined, invisible bins dark. rgba: width x height
 * x 4 bytes. */
void spdrt_dmap_preview(const spdrt_dmap_pass *pass, const spdrt_dmap_layout *layout,
                        uint32_t view, uint8_t *rgba);


/* ---- the generator: spdgen --dmap fdm|fsr ---------------------------------------------- */

/* The binding contract every spdgen --dmap fdm|fsr shader follows (all targets, set 0):
 *   binding 0  dst_map, a storage image array of one element: R8G8_UNORM (fdm) or R8_UINT
 *              (fsr), ceil(width / TEXEL) x ceil(height / TEXEL), a layer per view
 *              (2D array with --views > 1), write-only
 *   binding 1  src_colour, sampled image read by texel loads: the previous frame (RGB used)
 *   binding 2  src_motion, sampled image: motion vectors in pixels (RG), pixel p came from
 *              p - motion          (bindings 1 and 2 only with --content)
 *   binding 3  rate_axes, storage buffer of uints (--rate-map): per view map_width +
 *              map_height entries, each column's then each row's finest log2 rate along that
 *              axis (atomic minima: fill with 0xffffffff before the dispatch)
 *   push constants, 32-bit fields in this order, each only where the shader has it:
 *              width, height, rate_mask, [foveation: ring_rates, radii01, radii23, aspect],
 *              [--content: cutoff, cutoff4, motion_factor (floats)], [gaze: gaze0..gazeN-1]
 *   local size 64 (foveation alone: 8x8 texels per workgroup) or 256 (--content: a 64x64
 *   pixel region; TEXEL > 64: one texel); grid per the contract header, z = views. */

typedef enum { SPDRT_DMAP_FDM, SPDRT_DMAP_FSR } spdrt_dmap_kind;
typedef enum {
    SPDRT_DMAP_FOVEATION_OFF, SPDRT_DMAP_FOVEATION_FIXED, SPDRT_DMAP_FOVEATION_GAZE
} spdrt_dmap_foveation;

/* What a shader was generated with. */
typedef struct {
    spdrt_dmap_kind kind;           /* --dmap fdm | fsr */
    uint32_t texel;                 /* --texel */
    uint32_t views;                 /* --views */
    spdrt_dmap_foveation foveation; /* --foveation */
    int content;                    /* --content */
    int combine_coarser;            /* --combine coarser */
    uint32_t max_rate;              /* --max-rate (pixels) */
    uint32_t subgroup;              /* --subgroup */
    int rate_map;                   /* --rate-map: binding 3, each column's and row's finest rate */
} spdrt_dmap_gen_config;

/* The push constants, unpacked. Rates are codes (lw << 3) | lh. */
typedef struct {
    uint32_t width, height;         /* render size */
    uint32_t rate_mask;             /* bit lw * 5 + lh: supported (1x1 always) */
    uint32_t ring_rates[5];         /* inside radius 0, 1, 2, 3, outside */
    uint32_t radii[4];              /* pixels, at most 32768, increasing */
    uint32_t aspect[2];             /* x and y distance weights in 1/256, at most 256 */
    uint32_t gaze[SPDRT_DMAP_MAX_VIEWS][2]; /* pixels; --foveation gaze */
    float cutoff, cutoff4, motion_factor;
} spdrt_dmap_gen_params;

/* Reasonable parameters for a width x height render: every rate supported by the kind,
 * rings at 1/8, 1/5, 1/3 and 1/2 of the smaller side around the centre (1x1, 1x2, 2x2, 2x4,
 * 4x4), FidelityFX's default cutoff 0.025, no 4x4 by content, motion factor 0.01. */
void spdrt_dmap_gen_defaults(const spdrt_dmap_gen_config *c, uint32_t width, uint32_t height,
                             spdrt_dmap_gen_params *p);
/* The push-constant words of a configuration, in the contract's order; returns how many. */
uint32_t spdrt_dmap_gen_push(const spdrt_dmap_gen_config *c, const spdrt_dmap_gen_params *p,
                             uint32_t words[16]);
/* Map texels per row and rows; bytes per texel (2 for fdm, 1 for fsr). */
spdrt_dmap_extent spdrt_dmap_gen_extent(const spdrt_dmap_gen_config *c, uint32_t width,
                                        uint32_t height);
uint32_t spdrt_dmap_gen_texel_bytes(const spdrt_dmap_gen_config *c);

/* The CPU reference of the shader's rules (runtime/dmap/dmap_ref.c): colour RGBA and motion
 * RG floats per pixel, [view][y][x], read as the shader reads them from 16-bit float images
 * (rounded to half here); map: [view][y][x] texels as stored (fdm: 2 density bytes, fsr: one
 * byte). colour and motion may be NULL without --content. Returns 0, or -1 out of memory. */
int spdrt_dmap_gen_reference(const spdrt_dmap_gen_config *c, const spdrt_dmap_gen_params *p,
                             const float *colour, const float *motion, uint8_t *map);
/* The rate code a map texel stores (fdm: the densities' log2 areas; fsr: the texel). */
uint32_t spdrt_dmap_gen_texel_rate(const spdrt_dmap_gen_config *c, const uint8_t *texel);

/* A synthetic previous frame for tests and benchmarks: blocks of 149x107 pixels that are flat
 * dark, flat bright, a smooth ramp, one-pixel columns, one-pixel rows or noise, under
 * 211x163-pixel blocks of motion: none, a constant drift, random vectors up to 6 pixels, or
 * fast (40 pixels). colour: RGBA per pixel, motion: RG, [view][y][x]; the seed and the view
 * choose the blocks. */
void spdrt_dmap_scene(uint32_t width, uint32_t height, uint32_t views, uint64_t seed, float *colour,
                      float *motion);

/* --rate-map: the uints of binding 3 (views x (map width + height)), and their reference
 * from a map: per view, each column's smallest log2 width, then each row's smallest height. */
size_t spdrt_dmap_gen_axes_count(const spdrt_dmap_gen_config *c, uint32_t width, uint32_t height);
void spdrt_dmap_gen_axes(const spdrt_dmap_gen_config *c, uint32_t width, uint32_t height,
                         const uint8_t *map, uint32_t *axes);

/* Runs a generated shader: uploads colour and motion as RGBA16F and RG16F images (with
 * --content), fills the map with a sentinel (and --rate-map's buffer with all ones),
 * dispatches `dispatches` times (0 = 1) and reads the map back into `map` (the reference's
 * layout) and, with --rate-map, binding 3 into `axes` (else NULL). */
spdrt_result spdrt_dmap_gen_run(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                                const spdrt_dmap_gen_config *c, const spdrt_dmap_gen_params *p,
                                const float *colour, const float *motion, uint32_t dispatches,
                                uint8_t *map, uint32_t *axes);


/* ---- the resolve: spdgen --dmap resolve ---------------------------------------------- */

/* The binding contract of spdgen --dmap resolve shaders (all targets, set 0):
 *   binding 0  dst, a storage image array of one element: the full-resolution image
 *              (--format), a layer per view with --views > 1, write-only
 *   binding 1  src, sampled image read by texel loads: the subsampled render
 *   binding 2  bins, read-only storage buffer of uints (spdrt_dmap_resolve_bins)
 *   push constants: the 8 uints of spdrt_dmap_resolve_params, in order
 *   local size 64 (8x8 pixels), grid (ceil(width / 8), ceil(height / 8), views) */
typedef struct {
    uint32_t width, height;            /* the framebuffer */
    uint32_t tile_width, tile_height;  /* tile0 */
    uint32_t stride, bins;             /* bins per row, per view */
    uint32_t src_width, src_height;    /* the subsampled image */
} spdrt_dmap_resolve_params;

/* The bins buffer of a pass for the resolve: per view 4 uints (its bin offset x, y, 0, 0),
 * then per bin 4 uints (framebuffer start x | y << 16, subsampled origin x | y << 16,
 * log2 area w | h << 8 as stored, 0), the same rules as spdrt_dmap_metadata. Returns the
 * number of uints; out may be NULL to size it. Fills *params. */
size_t spdrt_dmap_resolve_bins(const spdrt_dmap_pass *pass, const spdrt_dmap_layout *layout,
                               uint32_t *out, spdrt_dmap_resolve_params *params);
/* The subsampled image a pass renders into: the framebuffer, with an FDM offset one tile
 * alignment larger each way (the slop fdm.rst describes). */
spdrt_dmap_extent spdrt_dmap_subsampled_extent(const spdrt_dmap_pass *pass);

/* The colour of the scene at framebuffer point (x, y) of a view. */
typedef void (*spdrt_dmap_scene_fn)(float x, float y, uint32_t view, float rgba[4], void *user);
/* A subsampled render as the driver leaves it: each bin rendered at its fragment area (a
 * fragment is the scene at its centre), stored at its place in the layout (scaled down, or
 * expanded where it is not subsampled), and the 2-pixel aprons around scaled bins filled
 * from the neighbouring fragments (turnip blits them; the model takes the fragment whose
 * area holds the apron texel's point). Without a subsampled layout, the expanded
 * framebuffer. rgba: [view][y][x] RGBA of spdrt_dmap_subsampled_extent, zero elsewhere. */
void spdrt_dmap_subsampled_render(const spdrt_dmap_pass *pass, const spdrt_dmap_layout *layout,
                                  spdrt_dmap_scene_fn scene, void *user, float *rgba);
/* The resolve's CPU reference (the same arithmetic): src [view][src_height][src_width]
 * RGBA, out [view][height][width] RGBA. */
void spdrt_dmap_resolve_reference(const spdrt_dmap_resolve_params *p, uint32_t views, int linear,
                                  const uint32_t *bins, const float *src, float *out);
/* Runs a resolve shader: src uploaded as RGBA32F, dst of `format` (rgba16f, rgba32f or
 * rgba8) read back as RGBA floats into out. */
spdrt_result spdrt_dmap_resolve_run(spdrt_context *ctx, const uint32_t *spirv, size_t spirv_words,
                                    uint32_t views, spdrt_format format,
                                    const spdrt_dmap_resolve_params *p, const uint32_t *bins,
                                    size_t bin_words, const float *src, float *out);

#ifdef __cplusplus
}
#endif
#endif
