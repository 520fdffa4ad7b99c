/* dmap_layout.c: the bins of a render pass, as turnip's tu_calc_tile_config makes them
 * (tu_tile_config.cc): per pipe, every tile's visibility and area, then merging; then the
 * subsampled layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmap_model.h"

static int rects_intersect(spdrt_dmap_rect a, spdrt_dmap_rect b)
{
    return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height &&
           b.y < a.y + a.height;
}

/* tu_calc_bin_visibility: a view is visible where the bin, slid by its bin offset (unless
 * the viewport is shared), meets the render area (here the whole framebuffer). */
static void calc_visibility(const spdrt_dmap_pass *pass, spdrt_dmap_bin *tile)
{
    spdrt_dmap_rect render = {0, 0, (int32_t)pass->framebuffer.width,
                              (int32_t)pass->framebuffer.height};
    tile->visible_views = 0;
    for (uint32_t i = 0; i < pass->views; i++) {
        spdrt_dmap_rect bin = {tile->pos.x * (int32_t)pass->tile.width,
                               tile->pos.y * (int32_t)pass->tile.height,
                               (int32_t)pass->tile.width, (int32_t)pass->tile.height};
        if (pass->has_offset && !pass->shared_viewport) {
            spdrt_dmap_offset bo = spdrt_dmap_bin_offset(pass->offset[i], pass->tile);
            bin.x -= bo.x;
            bin.y -= bo.y;
        }
        if (rects_intersect(bin, render)) tile->visible_views |= 1u << i;
    }
}

/* tu_calc_frag_area: sample each view at the bin centre and derive its area. With an
 * offset the centre is not clamped to the framebuffer (so edge bins do not "pop") and moves
 * by the offset plus the bin offset; without one it is the centre of the bin's part inside
 * the framebuffer. A shared viewport takes the minimum over views. */
static void calc_frag_area(const spdrt_dmap_pass *pass, spdrt_dmap_bin *tile)
{
    const spdrt_dmap_extent t = pass->tile, fb = pass->framebuffer;
    const uint32_t x1 = t.width * (uint32_t)tile->pos.x, y1 = t.height * (uint32_t)tile->pos.y;
    const uint32_t x2 = dmap_min_u(x1 + t.width, SPDRT_DMAP_MAX_VIEWPORT);
    const uint32_t y2 = dmap_min_u(y1 + t.height, SPDRT_DMAP_MAX_VIEWPORT);
    for (uint32_t i = 0; i < pass->views; i++) {
        int32_t sx, sy;
        if (pass->has_offset) {
            spdrt_dmap_offset off = pass->offset[i];
            if (!pass->shared_viewport) {
                spdrt_dmap_offset bo = spdrt_dmap_bin_offset(pass->offset[i], t);
                off.x += bo.x;
                off.y += bo.y;
            }
            sx = (int32_t)((x1 + x2) / 2) - off.x;
            sy = (int32_t)((y1 + y2) / 2) - off.y;
        } else {
            sx = (int32_t)((x1 + dmap_min_u(x2, fb.width)) / 2);
            sy = (int32_t)((y1 + dmap_min_u(y2, fb.height)) / 2);
        }
        tile->raw[i] = spdrt_dmap_sample(pass, sx, sy, i);
        if (spdrt_dmap_frag_area(pass, tile->raw[i], &tile->area[i])) {
            tile->area[i].width = tile->area[i].height = UINT32_MAX;
            tile->visible_views &= ~(1u << i);
        }
    }
    if (pass->shared_viewport) {
        spdrt_dmap_extent m = {UINT32_MAX, UINT32_MAX};
        for (uint32_t i = 0; i < pass->views; i++) {
            m.width = dmap_min_u(m.width, tile->area[i].width);
            m.height = dmap_min_u(m.height, tile->area[i].height);
        }
        for (uint32_t i = 0; i < pass->views; i++) tile->area[i] = m;
    }
}

static int check_pass(const spdrt_dmap_pass *p, char *err, size_t size)
{
    spdrt_dmap_extent align = dmap_tile_align(p);
    const char *why = NULL;
    if (!p->framebuffer.width || !p->framebuffer.height ||
        p->framebuffer.width > SPDRT_DMAP_MAX_VIEWPORT || p->framebuffer.height > SPDRT_DMAP_MAX_VIEWPORT)
        why = "the framebuffer must be 1..16384 pixels a side";
    else if (!p->views || p->views > SPDRT_DMAP_MAX_VIEWS)
        why = "views must be 1..6";
    else if (!p->tile.width || !p->tile.height || p->tile.width % align.width || p->tile.height % align.height)
        why = "the tile must be a non-zero multiple of the tile alignment";
    else if (p->tile.width > SPDRT_DMAP_MAX_VIEWPORT || p->tile.height > SPDRT_DMAP_MAX_VIEWPORT)
        why = "the tile must be at most 16384 pixels a side";
    else if ((uint64_t)p->pipe.width * p->pipe.height > 32)
        why = "a pipe holds at most 32 tiles (its bins' slot masks are 32 bits)";
    else if (!p->map || !p->map_extent.width || !p->map_extent.height)
        why = "the pass needs a map";
    for (uint32_t i = 0; !why && p->has_offset && i < p->views; i++)
        if (p->offset[i].x % (int32_t)DMAP_OFFSET_GRANULARITY || p->offset[i].y % (int32_t)DMAP_OFFSET_GRANULARITY)
            why = "FDM offsets must be multiples of 8 (fragmentDensityOffsetGranularity)";
        else if (labs((long)p->offset[i].x) > (long)SPDRT_DMAP_MAX_VIEWPORT ||
                 labs((long)p->offset[i].y) > (long)SPDRT_DMAP_MAX_VIEWPORT)
            why = "FDM offsets must lie within -16384..16384 (the largest framebuffer)";
    if (why) snprintf(err, size, "%s", why);
    return why ? -1 : 0;
}

int spdrt_dmap_layout_make(const spdrt_dmap_pass *pass, spdrt_dmap_layout *out, char *err,
                           size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (check_pass(pass, err, err_size)) return -1;
    /* tu_util.cc: the offset layout has one more tile each way (fdm_offset_vsc). */
    uint32_t extra = pass->has_offset ? 1 : 0;
    out->tile_count.width = dmap_div_up(pass->framebuffer.width, pass->tile.width) + extra;
    out->tile_count.height = dmap_div_up(pass->framebuffer.height, pass->tile.height) + extra;
    spdrt_dmap_extent pipe0 = pass->pipe;
    if (!pipe0.width || !pipe0.height) pipe0 = (spdrt_dmap_extent){DMAP_PIPE_W, DMAP_PIPE_H};
    out->pipe_count.width = dmap_div_up(out->tile_count.width, pipe0.width);
    out->pipe_count.height = dmap_div_up(out->tile_count.height, pipe0.height);
    const uint32_t w = out->tile_count.width, count = w * out->tile_count.height;
    out->bins = calloc(count, sizeof *out->bins);
    if (!out->bins) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    for (uint32_t py = 0; py < out->pipe_count.height; py++) {
        uint32_t ty1 = py * pipe0.height, ty2 = dmap_min_u(ty1 + pipe0.height, out->tile_count.height);
        for (uint32_t px = 0; px < out->pipe_count.width; px++) {
            uint32_t tx1 = px * pipe0.width, tx2 = dmap_min_u(tx1 + pipe0.width, w);
            for (uint32_t y = ty1; y < ty2; y++)
                for (uint32_t x = tx1; x < tx2; x++) {
                    spdrt_dmap_bin *tile = &out->bins[w * y + x];
                    tile->pos = (spdrt_dmap_offset){(int32_t)x, (int32_t)y};
                    tile->tiles = tile->gmem = (spdrt_dmap_extent){1, 1};
                    tile->pipe = py * out->pipe_count.width + px;
                    tile->slot_mask = 1u << ((tx2 - tx1) * (y - ty1) + (x - tx1));
                    tile->merged_into = -1;
                    calc_visibility(pass, tile);
                    calc_frag_area(pass, tile);
                }
            if (pass->device.bin_merging) spdrt__dmap_merge_tiles(pass, out, tx1, ty1, tx2, ty2);
        }
    }
    if (pass->subsampled && count <= DMAP_SUBSAMPLED_MAX_BINS) {
        out->subsampled = 1;
        if (spdrt__dmap_calc_subsampled(pass, out, pass->shared_viewport ? NULL : dmap_offsets(pass))) {
            spdrt_dmap_layout_free(out);
            snprintf(err, err_size, "out of memory");
            return -1;
        }
    }
    return 0;
}

void spdrt_dmap_layout_free(spdrt_dmap_layout *layout)
{
    free(layout->bins);
    layout->bins = NULL;
}

spdrt_dmap_bin *spdrt__dmap_merged(spdrt_dmap_layout *layout, spdrt_dmap_bin *tile)
{
    while (tile->merged_into >= 0) tile = &layout->bins[tile->merged_into];
    return tile;
}

const spdrt_dmap_bin *spdrt_dmap_bin_at(const spdrt_dmap_layout *layout, uint32_t x, uint32_t y)
{
    return spdrt__dmap_merged((spdrt_dmap_layout *)layout, &layout->bins[y * layout->tile_count.width + x]);
}
