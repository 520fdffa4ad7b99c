/* dmap_subsampled.c: where each bin lies in a subsampled image, as turnip's
 * tu_calc_subsampled places it (tu_tile_config.cc). Each bin starts at its default place;
 * neighbours whose 2-pixel aprons would meet are then separated, first by shifting the
 * right (lower) one over by max(2 x apron, tile alignment) where its unscaled rectangle has
 * room, else by storing both unscaled. A worklist revisits every bin that moved, so one
 * conflict can cascade along a row. */
#include <stdlib.h>

#include "dmap_model.h"

/* get_default_tile_pos: the bin's rectangle in subsampled space at `area`. Bins touching
 * the right/bottom framebuffer edge stick to it (so border sampling works); the first
 * row/column start at 0; the others at their start less the bin offset aligned down to
 * the tile alignment. */
static spdrt_dmap_rect default_pos(const spdrt_dmap_pass *pass, spdrt_dmap_bin *tile,
                                   uint32_t view, const spdrt_dmap_offset *offsets,
                                   spdrt_dmap_extent area)
{
    const spdrt_dmap_extent t = pass->tile, fb = pass->framebuffer, align = dmap_tile_align(pass);
    spdrt_dmap_offset offset = {0, 0}, aligned = {0, 0};
    if (offsets) offset = spdrt_dmap_bin_offset(offsets[view], t);
    aligned.x = offset.x / (int32_t)align.width * (int32_t)align.width;
    aligned.y = offset.y / (int32_t)align.height * (int32_t)align.height;
    int32_t fb_start_x = dmap_max_i(tile->pos.x * (int32_t)t.width - offset.x, 0);
    int32_t fb_end_x = (tile->pos.x + (int32_t)tile->tiles.width) * (int32_t)t.width - offset.x;
    int32_t fb_start_y = dmap_max_i(tile->pos.y * (int32_t)t.height - offset.y, 0);
    int32_t fb_end_y = (tile->pos.y + (int32_t)tile->tiles.height) * (int32_t)t.height - offset.y;
    int stick_x = fb_end_x >= (int32_t)fb.width, stick_y = fb_end_y >= (int32_t)fb.height;
    int32_t slop_x = offsets ? (int32_t)align.width : 0, slop_y = offsets ? (int32_t)align.height : 0;
    int32_t sx, ex, sy, ey;
    if (stick_x) {
        ex = (int32_t)fb.width + slop_x;
        sx = ex - (int32_t)dmap_div_up(fb.width - (uint32_t)fb_start_x, area.width);
    } else if (tile->pos.x == 0) {
        sx = 0;
        ex = fb_end_x / (int32_t)area.width;
    } else {
        sx = tile->pos.x * (int32_t)t.width - aligned.x;
        ex = sx + (int32_t)(tile->tiles.width * t.width / area.width);
    }
    if (stick_y) {
        ey = (int32_t)fb.height + slop_y;
        sy = ey - (int32_t)dmap_div_up(fb.height - (uint32_t)fb_start_y, area.height);
    } else if (tile->pos.y == 0) {
        sy = 0;
        ey = fb_end_y / (int32_t)area.height;
    } else {
        sy = tile->pos.y * (int32_t)t.height - aligned.y;
        ey = sy + (int32_t)(tile->tiles.height * t.height / area.height);
    }
    if (stick_x || stick_y) tile->subsampled_border = 1;
    spdrt_dmap_rect r = {sx, sy, ex - sx, ey - sy};
    return r;
}

static const spdrt_dmap_extent ONE = {1, 1};

/* make_non_subsampled: stored at full size. */
static void make_non_subsampled(const spdrt_dmap_pass *pass, spdrt_dmap_bin *tile, uint32_t view,
                                const spdrt_dmap_offset *offsets)
{
    tile->subsampled_views &= ~(1u << view);
    tile->subsampled_pos[view] = default_pos(pass, tile, view, offsets, ONE);
}

/* aprons_intersect: closer than two aprons along both axes. */
static int aprons_intersect(const spdrt_dmap_bin *a, const spdrt_dmap_bin *b, uint32_t view)
{
    const spdrt_dmap_rect ra = a->subsampled_pos[view], rb = b->subsampled_pos[view];
    if (ra.x + ra.width + DMAP_APRON * 2 <= rb.x) return 0;
    if (rb.x + rb.width + DMAP_APRON * 2 <= ra.x) return 0;
    if (ra.y + ra.height + DMAP_APRON * 2 <= rb.y) return 0;
    if (rb.y + rb.height + DMAP_APRON * 2 <= ra.y) return 0;
    return 1;
}

/* u_worklist: a FIFO of bins in which a bin is at most once. */
typedef struct {
    uint32_t *items;
    unsigned char *present;
    uint32_t head, count, capacity;
} worklist;

static void push(worklist *w, uint32_t index)
{
    if (w->present[index]) return;
    w->present[index] = 1;
    w->items[(w->head + w->count++) % w->capacity] = index;
}

static uint32_t pop(worklist *w)
{
    uint32_t index = w->items[w->head];
    w->head = (w->head + 1) % w->capacity;
    w->count--;
    w->present[index] = 0;
    return index;
}

/* One pair of neighbours in one view: shift `later` (right of or below `earlier`) by
 * `shift` along the axis, or un-subsample both. */
static void separate(const spdrt_dmap_pass *pass, spdrt_dmap_layout *layout, worklist *w,
                     spdrt_dmap_bin *tile, spdrt_dmap_bin *other, spdrt_dmap_bin *later,
                     uint32_t view, int vertical_edge, const spdrt_dmap_offset *offsets)
{
    const spdrt_dmap_extent align = dmap_tile_align(pass);
    if (later->subsampled_views & (1u << view)) {
        spdrt_dmap_rect full = default_pos(pass, later, view, offsets, ONE);
        spdrt_dmap_rect *pos = &later->subsampled_pos[view];
        if (vertical_edge) {
            int32_t shift = dmap_max_i(DMAP_APRON * 2, (int32_t)align.width);
            if (pos->x + pos->width + shift <= full.x + full.width) {
                pos->x += shift;
                push(w, (uint32_t)(later - layout->bins));
                return;
            }
        } else {
            int32_t shift = dmap_max_i(DMAP_APRON * 2, (int32_t)align.height);
            if (pos->y + pos->height + shift <= full.y + full.height) {
                pos->y += shift;
                push(w, (uint32_t)(later - layout->bins));
                return;
            }
        }
    }
    if (tile->subsampled_views & (1u << view)) {
        make_non_subsampled(pass, tile, view, offsets);
        push(w, (uint32_t)(tile - layout->bins));
    }
    if (other->subsampled_views & (1u << view)) {
        make_non_subsampled(pass, other, view, offsets);
        push(w, (uint32_t)(other - layout->bins));
    }
}

/* The neighbours of `tile` across one of its edges: vertical (left i = 0, right i = 1) or
 * horizontal (above, below), swept along the edge one (merged) bin at a time. */
static void check_edge(const spdrt_dmap_pass *pass, spdrt_dmap_layout *layout, worklist *w,
                       spdrt_dmap_bin *tile, int vertical_edge, int i,
                       const spdrt_dmap_offset *offsets)
{
    const int32_t tw = (int32_t)layout->tile_count.width, th = (int32_t)layout->tile_count.height;
    int32_t across, start, end;
    if (vertical_edge) {
        across = tile->pos.x + (i == 0 ? -1 : (int32_t)tile->tiles.width);
        if (across < 0 || across >= tw) return;
        start = dmap_max_i(tile->pos.y - 1, 0);
        end = dmap_min_i(tile->pos.y + (int32_t)tile->tiles.height, th - 1);
    } else {
        across = tile->pos.y + (i == 0 ? -1 : (int32_t)tile->tiles.height);
        if (across < 0 || across >= th) return;
        start = dmap_max_i(tile->pos.x - 1, 0);
        end = dmap_min_i(tile->pos.x + (int32_t)tile->tiles.width, tw - 1);
    }
    spdrt_dmap_bin *other = NULL;
    for (int32_t k = start; k <= end;
         k = vertical_edge ? other->pos.y + (int32_t)other->tiles.height
                           : other->pos.x + (int32_t)other->tiles.width) {
        other = spdrt__dmap_merged(layout, vertical_edge ? &layout->bins[k * tw + across]
                                                  : &layout->bins[across * tw + k]);
        uint32_t common = tile->visible_views & other->visible_views;
        if (common == 0 || ((tile->subsampled_views | other->subsampled_views) & common) == 0)
            continue;
        spdrt_dmap_bin *first = i == 0 ? other : tile, *later = i == 0 ? tile : other;
        /* "Due to bin merging, the right tile may not actually be to the right of the left
         * tile": the other sweep handles that pair. */
        if (vertical_edge ? later->pos.x < first->pos.x + (int32_t)first->tiles.width
                          : later->pos.y < first->pos.y + (int32_t)first->tiles.height)
            continue;
        for (uint32_t view = 0; view < pass->views; view++) {
            if (!(common & (1u << view))) continue;
            if (!((tile->subsampled_views | other->subsampled_views) & (1u << view))) continue;
            if (!aprons_intersect(tile, other, view)) continue;
            separate(pass, layout, w, tile, other, later, view, vertical_edge, offsets);
        }
    }
}

int spdrt__dmap_calc_subsampled(const spdrt_dmap_pass *pass, spdrt_dmap_layout *layout,
                         const spdrt_dmap_offset *offsets)
{
    const uint32_t count = layout->tile_count.width * layout->tile_count.height;
    worklist w = {malloc(count * sizeof *w.items), calloc(count, 1), 0, 0, count};
    if (!w.items || !w.present) {
        free(w.items);
        free(w.present);
        return -1;
    }
    for (uint32_t index = 0; index < count; index++) {
        spdrt_dmap_bin *tile = &layout->bins[index];
        if (!tile->visible_views || tile->merged_into >= 0) continue;
        for (uint32_t view = 0; view < pass->views; view++) {
            if (!(tile->visible_views & (1u << view))) continue;
            tile->subsampled_pos[view] = default_pos(pass, tile, view, offsets, tile->area[view]);
            if (tile->area[view].width != 1 || tile->area[view].height != 1)
                tile->subsampled_views |= 1u << view;
        }
        tile->subsampled = 1;
        push(&w, index);
    }
    while (w.count) {
        spdrt_dmap_bin *tile = &layout->bins[pop(&w)];
        for (int i = 0; i < 2; i++) check_edge(pass, layout, &w, tile, 1, i, offsets);
        for (int i = 0; i < 2; i++) check_edge(pass, layout, &w, tile, 0, i, offsets);
    }
    free(w.items);
    free(w.present);
    return 0;
}
