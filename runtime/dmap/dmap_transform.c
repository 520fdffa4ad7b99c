/* dmap_transform.c: from framebuffer space to rendering space for one bin and view, as
 * turnip patches viewports and scissors per bin (tu_cmd_buffer.cc's tu6_emit_tile_select
 * for the bins, tu_pipeline.cc's fdm_apply_viewports and fdm_apply_scissors). The model
 * takes the path without hardware bin scaling: the hardware viewport offset is 0 (with
 * the hardware bin-scaling registers (GRAS_BIN_FOVEAT) the offset moves into them; the
 * pixels land the same). */
#include "dmap_model.h"

/* tu6_emit_tile_select: bins[i], the view's framebuffer rectangle of the bin. With an
 * offset (and a viewport per view) it slides left and up by the bin offset, the first
 * row and column shrink instead of moving below 0; an invisible view gets an empty bin. */
spdrt_dmap_rect spdrt_dmap_view_bin(const spdrt_dmap_pass *pass, const spdrt_dmap_bin *b,
                                    uint32_t view)
{
    const spdrt_dmap_extent t = pass->tile;
    const int32_t x1 = b->pos.x * (int32_t)t.width, y1 = b->pos.y * (int32_t)t.height;
    spdrt_dmap_rect bin = {x1, y1, (int32_t)(t.width * b->tiles.width),
                           (int32_t)(t.height * b->tiles.height)};
    if (!(b->visible_views & (1u << view))) return (spdrt_dmap_rect){0, 0, 0, 0};
    if (!pass->has_offset || pass->shared_viewport) return bin;
    spdrt_dmap_offset bo = spdrt_dmap_bin_offset(pass->offset[view], t);
    const int32_t max = (int32_t)SPDRT_DMAP_MAX_VIEWPORT;
    spdrt_dmap_rect r;
    r.x = dmap_max_i(0, x1 - bo.x);
    r.y = dmap_max_i(0, y1 - bo.y);
    r.width = dmap_max_i(dmap_min_i(x1 + bin.width - bo.x, max) - r.x, 0);
    r.height = dmap_max_i(dmap_min_i(y1 + bin.height - bo.y, max) - r.y, 0);
    return r;
}

/* The window offset: the tile's unslid start, one for all views. */
spdrt_dmap_offset spdrt_dmap_common_start(const spdrt_dmap_pass *pass, const spdrt_dmap_bin *b)
{
    spdrt_dmap_offset o = {b->pos.x * (int32_t)pass->tile.width, b->pos.y * (int32_t)pass->tile.height};
    return o;
}

/* tu_fdm_per_bin_offset: o = b_cs - b_s / area, exact because b_s is a multiple of the
 * area (the areas divide the tile and the offset granularity). */
spdrt_dmap_offset spdrt_dmap_transform_offset(spdrt_dmap_extent area, spdrt_dmap_rect view_bin,
                                              spdrt_dmap_offset common_start)
{
    spdrt_dmap_offset o = {common_start.x - view_bin.x / (int32_t)area.width,
                           common_start.y - view_bin.y / (int32_t)area.height};
    return o;
}

/* The view's area and o for a bin; a shared viewport uses view 0's (the same for all). */
static spdrt_dmap_offset bin_transform(const spdrt_dmap_pass *pass, const spdrt_dmap_bin *b,
                                       uint32_t view, spdrt_dmap_extent *area, spdrt_dmap_rect *bin)
{
    uint32_t v = pass->shared_viewport || pass->views == 1 ? 0 : view;
    *area = b->area[v];
    *bin = spdrt_dmap_view_bin(pass, b, v);
    return spdrt_dmap_transform_offset(*area, *bin, spdrt_dmap_common_start(pass, b));
}

/* fdm_apply_viewports: x' = x / area + o, the size scaled; unchanged where the area is 1x1
 * and the bin did not slide. */
spdrt_dmap_viewport spdrt_dmap_bin_viewport(const spdrt_dmap_pass *pass, const spdrt_dmap_bin *b,
                                            uint32_t view, spdrt_dmap_viewport in)
{
    spdrt_dmap_extent area;
    spdrt_dmap_rect bin;
    spdrt_dmap_offset o = bin_transform(pass, b, view, &area, &bin);
    spdrt_dmap_offset cs = spdrt_dmap_common_start(pass, b);
    if (area.width == 1 && area.height == 1 && cs.x == bin.x && cs.y == bin.y) return in;
    float sx = 1.0f / (float)area.width, sy = 1.0f / (float)area.height;
    spdrt_dmap_viewport out = {sx * in.x + (float)o.x, sy * in.y + (float)o.y, in.width * sx,
                               in.height * sy};
    return out;
}

/* fdm_apply_scissors: min = floor(min / area) + o, max = ceil(max / area) + o ("we round
 * outwards"), then intersected with the scaled bin at b_cs, which replaces the window
 * scissor. */
spdrt_dmap_rect spdrt_dmap_bin_scissor(const spdrt_dmap_pass *pass, const spdrt_dmap_bin *b,
                                       uint32_t view, spdrt_dmap_rect in)
{
    spdrt_dmap_extent area;
    spdrt_dmap_rect bin;
    spdrt_dmap_offset o = bin_transform(pass, b, view, &area, &bin);
    spdrt_dmap_offset cs = spdrt_dmap_common_start(pass, b);
    int32_t min_x = (int32_t)((uint32_t)in.x / area.width) + o.x;
    int32_t min_y = (int32_t)((uint32_t)in.y / area.height) + o.y;
    int32_t max_x = (int32_t)dmap_div_up((uint32_t)(in.x + in.width), area.width) + o.x;
    int32_t max_y = (int32_t)dmap_div_up((uint32_t)(in.y + in.height), area.height) + o.y;
    int32_t scaled_w = bin.width / (int32_t)area.width, scaled_h = bin.height / (int32_t)area.height;
    spdrt_dmap_rect r;
    r.x = dmap_max_i(min_x, cs.x);
    r.y = dmap_max_i(min_y, cs.y);
    r.width = dmap_min_i(max_x, cs.x + scaled_w) - r.x;
    r.height = dmap_min_i(max_y, cs.y + scaled_h) - r.y;
    return r;
}
