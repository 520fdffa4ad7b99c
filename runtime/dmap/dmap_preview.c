/* dmap_preview.c: a picture of the framebuffer as the modelled driver renders it. Each
 * pixel takes its bin's colour by fragment area, fragments alternate in brightness so
 * their shape shows (a 2x1 area is a brick twice as wide as high), and bin edges are
 * drawn dark. */
#include <string.h>

#include "dmap_model.h"

/* By log2 of the area: 1, 2, 4, 8, 16, 32, 64 and more pixels per fragment. */
static const uint8_t PALETTE[7][3] = {
    {46, 160, 67}, {140, 200, 60}, {240, 210, 50}, {245, 140, 40},
    {220, 60, 50}, {170, 60, 160}, {90, 70, 200},
};

static void put(uint8_t *px, const uint8_t rgb[3], int shade)
{
    for (int c = 0; c < 3; c++) {
        int v = rgb[c] + shade;
        px[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    px[3] = 255;
}

void spdrt_dmap_preview(const spdrt_dmap_pass *pass, const spdrt_dmap_layout *layout,
                        uint32_t view, uint8_t *rgba)
{
    static const uint8_t INVISIBLE[3] = {40, 40, 40}, EDGE[3] = {20, 20, 20};
    const uint32_t w = pass->framebuffer.width, h = pass->framebuffer.height;
    spdrt_dmap_offset bo = {0, 0};
    if (pass->has_offset && !pass->shared_viewport) bo = spdrt_dmap_bin_offset(pass->offset[view], pass->tile);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *px = rgba + ((size_t)y * w + x) * 4;
            const spdrt_dmap_bin *b = spdrt_dmap_bin_at(layout, (x + (uint32_t)bo.x) / pass->tile.width,
                                                        (y + (uint32_t)bo.y) / pass->tile.height);
            spdrt_dmap_rect r = spdrt_dmap_view_bin(pass, b, view);
            if (!(b->visible_views & (1u << view))) {
                put(px, INVISIBLE, 0);
                continue;
            }
            int32_t dx = (int32_t)x - r.x, dy = (int32_t)y - r.y;
            if (dx == 0 || dy == 0 || dx == r.width - 1 || dy == r.height - 1) {
                put(px, EDGE, 0);
                continue;
            }
            spdrt_dmap_extent a = b->area[view];
            uint32_t k = dmap_min_u(dmap_log2(a.width) + dmap_log2(a.height), 6);
            int cell = (int)(((uint32_t)dx / a.width + (uint32_t)dy / a.height) & 1u);
            put(px, PALETTE[k], cell ? -28 : 0);
        }
}
