/* dmap_model.h: the constants of the turnip model and what its files share; not installed.
 * The numbers are turnip's (src/freedreno/vulkan), named as it names them. */
#ifndef SPDRT_DMAP_MODEL_H
#define SPDRT_DMAP_MODEL_H

#include "spdrt_dmap.h"

/* tu_image.cc: the map texel sizes the driver reads, 32..1024 pixels. */
#define DMAP_MIN_TEXEL_LOG2 5u
#define DMAP_MAX_TEXEL_LOG2 10u
/* tu_device.h: TU_FDM_OFFSET_GRANULARITY, the offset step and the area cap with an offset. */
#define DMAP_OFFSET_GRANULARITY 8u
/* tu_tile_config.cc caps areas at 4 where views <= MAX_HW_SCALED_VIEWS; that constant equals
 * MAX_VIEWS today, so the cap always applies (read in the current source). */
#define DMAP_MAX_HW_SCALED_VIEWS SPDRT_DMAP_MAX_VIEWS
#define DMAP_HW_SCALE_MAX 4u
/* tu_subsampled_image.h: APRON_SIZE and TU_SUBSAMPLED_MAX_BINS. */
#define DMAP_APRON 2
#define DMAP_SUBSAMPLED_MAX_BINS 512u
/* tu_util.cc: with a density map and bin merging, pipes of 4x8 tiles. */
#define DMAP_PIPE_W 4u
#define DMAP_PIPE_H 8u

static inline uint32_t dmap_min_u(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint32_t dmap_max_u(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline int32_t dmap_min_i(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t dmap_max_i(int32_t a, int32_t b) { return a > b ? a : b; }
static inline uint32_t dmap_div_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
/* util_logbase2: floor(log2(n)), 0 for n <= 1. */
static inline uint32_t dmap_log2(uint32_t n)
{
    uint32_t k = 0;
    while (n > 1) {
        n >>= 1;
        k++;
    }
    return k;
}
/* util_logbase2_ceil: ceil(log2(n)), 0 for n <= 1. */
static inline uint32_t dmap_log2_ceil(uint32_t n) { return n <= 1 ? 0 : 1 + dmap_log2(n - 1); }

static inline spdrt_dmap_extent dmap_tile_align(const spdrt_dmap_pass *p)
{
    spdrt_dmap_extent a = {p->device.tile_align_w, p->device.tile_align_h};
    if (!a.width) a.width = 32;
    if (!a.height) a.height = 32;
    return a;
}
/* The offsets the layout uses: none without an offset, and none with a shared viewport
 * (tu_calc_tile_config passes NULL to the subsampled layout then). */
static inline const spdrt_dmap_offset *dmap_offsets(const spdrt_dmap_pass *p)
{
    return p->has_offset ? p->offset : NULL;
}

/* Bin merging and the subsampled layout (dmap_merge.c, dmap_subsampled.c). */
void spdrt__dmap_merge_tiles(const spdrt_dmap_pass *pass, spdrt_dmap_layout *layout, uint32_t tx1,
                      uint32_t ty1, uint32_t tx2, uint32_t ty2);
int spdrt__dmap_calc_subsampled(const spdrt_dmap_pass *pass, spdrt_dmap_layout *layout,
                         const spdrt_dmap_offset *offsets);
/* Where tile j of the grid lies for a sampler in `view`: its framebuffer start, its origin
 * in the subsampled image and the area it is stored at (1x1 where not subsampled); every
 * field 0 for an invisible or unplaced tile (the identity). tu_emit_subsampled_metadata's
 * rules; bin_offset is the view's. */
typedef struct { spdrt_dmap_offset start, origin; spdrt_dmap_extent area; } dmap_mapping;
dmap_mapping spdrt__dmap_bin_mapping(const spdrt_dmap_pass *pass, const spdrt_dmap_layout *layout,
                              uint32_t view, spdrt_dmap_offset bin_offset, uint32_t j);
/* The view's bin offset as the metadata uses it (none with a shared viewport). */
spdrt_dmap_offset spdrt__dmap_view_bin_offset(const spdrt_dmap_pass *pass, uint32_t view);

/* The bin a tile was merged into (tu_get_merged_tile). */
spdrt_dmap_bin *spdrt__dmap_merged(spdrt_dmap_layout *layout, spdrt_dmap_bin *tile);

#endif
