/* dmap_merge.c: bin merging, as turnip's try_merge_tiles and tu_merge_tiles are written
 * (tu_tile_config.cc). fdm.rst says groups larger than two tiles merge; the code requires
 * equal heights for tiles of one column and equal widths for tiles of one row, so a bin
 * that has grown to two tiles never takes a third: a uniform map merges into 2x2 bins. The
 * model follows the code. */
#include <strings.h>

#include "dmap_model.h"

/* try_merge_tiles(dst, src): dst is below or to the right of src. */
static int try_merge(const spdrt_dmap_pass *pass, spdrt_dmap_layout *layout, spdrt_dmap_bin *dst,
                     spdrt_dmap_bin *src)
{
    const uint32_t views = pass->views;
    uint32_t slot_mask = dst->slot_mask | src->slot_mask;
    uint32_t visible = dst->visible_views | src->visible_views;
    /* "The fragment areas must be the same for views where both bins are visible." */
    for (uint32_t i = 0; i < views; i++)
        if ((dst->visible_views & src->visible_views & (1u << i)) &&
            (dst->area[i].width != src->area[i].width || dst->area[i].height != src->area[i].height))
            return 0;
    /* "The tiles must be vertically or horizontally adjacent and have the compatible
     * width/height." */
    if (dst->pos.x == src->pos.x) {
        if (dst->tiles.height != src->tiles.height) return 0;
    } else if (dst->pos.y == src->pos.y) {
        if (dst->tiles.width != src->tiles.width) return 0;
    } else {
        return 0;
    }
    if (dst->gmem.width != src->gmem.width || dst->gmem.height != src->gmem.height) return 0;
    /* "The mask of the combined tile has to fit in 16 bits" */
    if (!pass->device.abs_bin_mask) {
        uint32_t hw_mask = slot_mask >> (ffs((int)slot_mask) - 1);
        if ((hw_mask & 0xffff) != hw_mask) return 0;
    }
    spdrt_dmap_extent extent = {dst->tiles.width + (uint32_t)(dst->pos.x - src->pos.x),
                                dst->tiles.height + (uint32_t)(dst->pos.y - src->pos.y)};
    /* "If only the first view is visible in both tiles, we can reuse the GMEM space meant
     * for the rest of the views to multiply the height of the tile." */
    uint32_t height_multiplier = dst->gmem.height;
    if (visible == 1 && views > 1 && dst->gmem.height == 1 && !pass->shared_viewport)
        height_multiplier = views;
    /* "The combined fragment areas must not be smaller than the combined bin extent." */
    for (uint32_t i = 0; i < views; i++) {
        if ((dst->visible_views & (1u << i)) &&
            (dst->area[i].width < extent.width || dst->area[i].height * height_multiplier < extent.height))
            return 0;
        if ((src->visible_views & (1u << i)) &&
            (src->area[i].width < extent.width || src->area[i].height * height_multiplier < extent.height))
            return 0;
    }
    for (uint32_t i = 0; i < views; i++) {
        if (src->visible_views & ~dst->visible_views & (1u << i)) dst->area[i] = src->area[i];
        if (((src->visible_views | dst->visible_views) & (1u << i)) && dst->area[i].height < extent.height)
            dst->gmem.height = height_multiplier;
    }
    dst->tiles = extent;
    dst->visible_views = visible;
    dst->pos = src->pos;
    dst->slot_mask = slot_mask;
    src->merged_into = (int32_t)(dst - layout->bins);
    return 1;
}

/* tu_merge_tiles: left to right, top to bottom within one pipe; a tile joins the one to
 * its left, then the one above unless that one already joined its own left neighbour. */
void spdrt__dmap_merge_tiles(const spdrt_dmap_pass *pass, spdrt_dmap_layout *layout, uint32_t tx1,
                      uint32_t ty1, uint32_t tx2, uint32_t ty2)
{
    const uint32_t w = layout->tile_count.width;
    for (uint32_t y = ty1; y < ty2; y++)
        for (uint32_t x = tx1; x < tx2; x++) {
            spdrt_dmap_bin *tile = &layout->bins[w * y + x];
            if (tile->visible_views == 0) continue;
            if (x > tx1) try_merge(pass, layout, tile, &layout->bins[w * y + x - 1]);
            if (y > ty1) {
                spdrt_dmap_bin *above = &layout->bins[w * (y - 1) + x];
                if (above->merged_into < 0) try_merge(pass, layout, tile, above);
            }
        }
}
