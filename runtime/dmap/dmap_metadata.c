/* dmap_metadata.c: how a sampler finds a framebuffer pixel in a subsampled image, as
 * turnip's tu_emit_subsampled_metadata writes it (tu_subsampled_image.cc), in pixels
 * instead of normalized coordinates. */
#include "dmap_model.h"

static const spdrt_dmap_bin_transform IDENTITY = {1.0f, 1.0f, 0.0f, 0.0f};

spdrt_dmap_metadata_header spdrt_dmap_metadata(const spdrt_dmap_pass *pass,
                                               const spdrt_dmap_layout *layout, uint32_t view,
                                               spdrt_dmap_bin_transform *transforms)
{
    spdrt_dmap_metadata_header h = {{0, 0}, pass->tile, 1, 1};
    const uint32_t count = layout->tile_count.width * layout->tile_count.height;
    /* "if (!tiles || tile_count > TU_SUBSAMPLED_MAX_BINS)": one identity bin. */
    if (!layout->subsampled) {
        h.tile = pass->framebuffer;
        transforms[0] = IDENTITY;
        return h;
    }
    /* The metadata of layer i is view MIN2(i, views - 1)'s. */
    uint32_t v = dmap_min_u(view, pass->views - 1);
    const spdrt_dmap_offset *offsets = pass->shared_viewport ? NULL : dmap_offsets(pass);
    if (offsets) h.bin_offset = spdrt_dmap_bin_offset(offsets[v], pass->tile);
    h.stride = layout->tile_count.width;
    h.count = count;
    for (uint32_t j = 0; j < count; j++) {
        const spdrt_dmap_bin *tile = spdrt_dmap_bin_at(layout, j % h.stride, j / h.stride);
        if (!(tile->visible_views & (1u << v)) || !tile->subsampled) {
            transforms[j] = IDENTITY;
            continue;
        }
        /* get_effective_frag_area: an unscaled bin counts as 1x1. */
        spdrt_dmap_extent a = (tile->subsampled_views & (1u << v)) ? tile->area[v]
                                                                   : (spdrt_dmap_extent){1, 1};
        int32_t start_x = dmap_max_i(tile->pos.x * (int32_t)pass->tile.width - h.bin_offset.x, 0);
        int32_t start_y = dmap_max_i(tile->pos.y * (int32_t)pass->tile.height - h.bin_offset.y, 0);
        transforms[j].scale_x = 1.0f / (float)a.width;
        transforms[j].scale_y = 1.0f / (float)a.height;
        transforms[j].offset_x = (float)(tile->subsampled_pos[v].x - start_x / (int32_t)a.width);
        transforms[j].offset_y = (float)(tile->subsampled_pos[v].y - start_y / (int32_t)a.height);
    }
    return h;
}
