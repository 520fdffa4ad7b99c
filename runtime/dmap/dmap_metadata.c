/* dmap_metadata.c: how a sampler finds a framebuffer pixel in a subsampled image, as
 * turnip's tu_emit_subsampled_metadata writes it (tu_subsampled_image.cc), in pixels
 * instead of normalized coordinates. */
#include "dmap_model.h"

static const spdrt_dmap_bin_transform IDENTITY = {1.0f, 1.0f, 0.0f, 0.0f};

spdrt_dmap_offset spdrt__dmap_view_bin_offset(const spdrt_dmap_pass *pass, uint32_t view)
{
    spdrt_dmap_offset bo = {0, 0};
    if (pass->has_offset && !pass->shared_viewport) bo = spdrt_dmap_bin_offset(pass->offset[view], pass->tile);
    return bo;
}

dmap_mapping spdrt__dmap_bin_mapping(const spdrt_dmap_pass *pass, const spdrt_dmap_layout *layout,
                              uint32_t view, spdrt_dmap_offset bin_offset, uint32_t j)
{
    dmap_mapping m = {{0, 0}, {0, 0}, {1, 1}};
    const uint32_t stride = layout->tile_count.width;
    const spdrt_dmap_bin *tile = spdrt_dmap_bin_at(layout, j % stride, j / stride);
    if (!(tile->visible_views & (1u << view)) || !tile->subsampled) return m;
    /* get_effective_frag_area: an unscaled bin counts as 1x1. */
    if (tile->subsampled_views & (1u << view)) m.area = tile->area[view];
    m.start.x = dmap_max_i(tile->pos.x * (int32_t)pass->tile.width - bin_offset.x, 0);
    m.start.y = dmap_max_i(tile->pos.y * (int32_t)pass->tile.height - bin_offset.y, 0);
    m.origin.x = tile->subsampled_pos[view].x;
    m.origin.y = tile->subsampled_pos[view].y;
    return m;
}

spdrt_dmap_metadata_header spdrt_dmap_metadata(const spdrt_dmap_pass *pass,
                                               const spdrt_dmap_layout *layout, uint32_t view,
                                               spdrt_dmap_bin_transform *transforms)
{
    spdrt_dmap_metadata_header h = {{0, 0}, pass->tile, 1, 1};
    /* "if (!tiles || tile_count > TU_SUBSAMPLED_MAX_BINS)": one identity bin. */
    if (!layout->subsampled) {
        h.tile = pass->framebuffer;
        transforms[0] = IDENTITY;
        return h;
    }
    /* The metadata of layer i is view MIN2(i, views - 1)'s. */
    uint32_t v = dmap_min_u(view, pass->views - 1);
    h.bin_offset = spdrt__dmap_view_bin_offset(pass, v);
    h.stride = layout->tile_count.width;
    h.count = layout->tile_count.width * layout->tile_count.height;
    for (uint32_t j = 0; j < h.count; j++) {
        dmap_mapping m = spdrt__dmap_bin_mapping(pass, layout, v, h.bin_offset, j);
        transforms[j].scale_x = 1.0f / (float)m.area.width;
        transforms[j].scale_y = 1.0f / (float)m.area.height;
        transforms[j].offset_x = (float)(m.origin.x - m.start.x / (int32_t)m.area.width);
        transforms[j].offset_y = (float)(m.origin.y - m.start.y / (int32_t)m.area.height);
    }
    return h;
}
