/* dmap_resolve.c: the host side of spdgen --dmap resolve: the bins buffer from the model's
 * layout, a subsampled render made on the CPU (the test input), and the resolve's CPU
 * reference, the shader's arithmetic in the same order (templates/dmap/resolve.lua). */
/* GCC contracts nothing in ISO C mode (-std=c11); clang needs telling. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dmap_model.h"

spdrt_dmap_extent spdrt_dmap_subsampled_extent(const spdrt_dmap_pass *pass)
{
    spdrt_dmap_extent e = pass->framebuffer, align = dmap_tile_align(pass);
    if (pass->has_offset && !pass->shared_viewport) e.width += align.width, e.height += align.height;
    return e;
}

size_t spdrt_dmap_resolve_bins(const spdrt_dmap_pass *pass, const spdrt_dmap_layout *layout,
                               uint32_t *out, spdrt_dmap_resolve_params *params)
{
    const int placed = layout->subsampled;
    const uint32_t count = placed ? layout->tile_count.width * layout->tile_count.height : 1;
    const spdrt_dmap_extent src = spdrt_dmap_subsampled_extent(pass);
    *params = (spdrt_dmap_resolve_params){pass->framebuffer.width, pass->framebuffer.height,
        placed ? pass->tile.width : pass->framebuffer.width, placed ? pass->tile.height : pass->framebuffer.height,
        placed ? layout->tile_count.width : 1, count, src.width, src.height};
    const size_t words = (size_t)pass->views * (count + 1) * 4;
    if (!out) return words;
    memset(out, 0, words * sizeof *out);
    for (uint32_t v = 0; v < pass->views; v++) {
        uint32_t *w = out + (size_t)v * (count + 1) * 4;
        if (!placed) continue; /* one identity bin: start 0, origin 0, 1x1 */
        spdrt_dmap_offset bo = spdrt__dmap_view_bin_offset(pass, v);
        w[0] = (uint32_t)bo.x, w[1] = (uint32_t)bo.y;
        for (uint32_t j = 0; j < count; j++) {
            dmap_mapping m = spdrt__dmap_bin_mapping(pass, layout, v, bo, j);
            uint32_t *b = w + 4 + 4 * (size_t)j;
            b[0] = (uint32_t)m.start.x | ((uint32_t)m.start.y << 16);
            b[1] = (uint32_t)m.origin.x | ((uint32_t)m.origin.y << 16);
            b[2] = dmap_log2(m.area.width) | (dmap_log2(m.area.height) << 8);
        }
    }
    return words;
}

/* The fragment of root bin b in `view` that holds framebuffer pixel p: its centre. */
static void fragment_centre(const spdrt_dmap_pass *pass, const spdrt_dmap_bin *b, uint32_t view,
                            int32_t px, int32_t py, float *cx, float *cy)
{
    spdrt_dmap_rect r = spdrt_dmap_view_bin(pass, b, view);
    spdrt_dmap_extent a = b->area[view];
    int32_t kx = (px - r.x) / (int32_t)a.width, ky = (py - r.y) / (int32_t)a.height;
    *cx = (float)r.x + ((float)kx + 0.5f) * (float)a.width;
    *cy = (float)r.y + ((float)ky + 0.5f) * (float)a.height;
}

/* The root bin that holds framebuffer pixel p of `view` (the grid slid by its bin offset). */
static const spdrt_dmap_bin *bin_of(const spdrt_dmap_pass *pass, const spdrt_dmap_layout *layout,
                                    uint32_t view, int32_t px, int32_t py)
{
    spdrt_dmap_offset bo = spdrt__dmap_view_bin_offset(pass, view);
    return spdrt_dmap_bin_at(layout, (uint32_t)(px + bo.x) / pass->tile.width,
                             (uint32_t)(py + bo.y) / pass->tile.height);
}

/* The scene at the centre of the fragment that holds framebuffer point (x, y), clamped into
 * the framebuffer; black where the view is hidden. */
static void shade(const spdrt_dmap_pass *pass, const spdrt_dmap_layout *layout, uint32_t view,
                  float x, float y, spdrt_dmap_scene_fn scene, void *user, float *rgba)
{
    int32_t px = (int32_t)floorf(x), py = (int32_t)floorf(y);
    px = dmap_max_i(0, dmap_min_i(px, (int32_t)pass->framebuffer.width - 1));
    py = dmap_max_i(0, dmap_min_i(py, (int32_t)pass->framebuffer.height - 1));
    const spdrt_dmap_bin *b = bin_of(pass, layout, view, px, py);
    if (!(b->visible_views & (1u << view))) {
        rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0.0f;
        return;
    }
    float cx, cy;
    fragment_centre(pass, b, view, px, py, &cx, &cy);
    scene(cx, cy, view, rgba, user);
}

void spdrt_dmap_subsampled_render(const spdrt_dmap_pass *pass, const spdrt_dmap_layout *layout,
                                  spdrt_dmap_scene_fn scene, void *user, float *rgba)
{
    const spdrt_dmap_extent e = spdrt_dmap_subsampled_extent(pass);
    const size_t layer = (size_t)e.width * e.height;
    memset(rgba, 0, layer * pass->views * 4 * sizeof *rgba);
    unsigned char *taken = layout->subsampled ? calloc(layer, 1) : NULL; /* a bin's own texels */
    if (layout->subsampled && !taken) return;
    const uint32_t n = layout->tile_count.width * layout->tile_count.height;
    for (uint32_t v = 0; v < pass->views; v++) {
        float *img = rgba + layer * v * 4;
        if (!layout->subsampled) {
            for (uint32_t y = 0; y < pass->framebuffer.height; y++)
                for (uint32_t x = 0; x < pass->framebuffer.width; x++)
                    shade(pass, layout, v, (float)x, (float)y, scene, user, img + ((size_t)y * e.width + x) * 4);
            continue;
        }
        spdrt_dmap_offset bo = spdrt__dmap_view_bin_offset(pass, v);
        memset(taken, 0, layer);
        /* Pass 1: each bin's texels; pass 2: the aprons where no bin lies. */
        for (int aprons = 0; aprons < 2; aprons++)
            for (uint32_t j = 0; j < n; j++) {
                const spdrt_dmap_bin *b = &layout->bins[j];
                if (b->merged_into >= 0 || !(b->visible_views & (1u << v)) || !b->subsampled) continue;
                if (aprons && !(b->subsampled_views & (1u << v))) continue;
                dmap_mapping m = spdrt__dmap_bin_mapping(pass, layout, v, bo, j);
                spdrt_dmap_rect s = b->subsampled_pos[v];
                int32_t pad = aprons ? 2 : 0;
                for (int32_t y = s.y - pad; y < s.y + s.height + pad; y++)
                    for (int32_t x = s.x - pad; x < s.x + s.width + pad; x++) {
                        if (x < 0 || y < 0 || x >= (int32_t)e.width || y >= (int32_t)e.height) continue;
                        size_t i = (size_t)y * e.width + (size_t)x;
                        if (aprons && taken[i]) continue;
                        taken[i] = 1;
                        float *t = img + i * 4;
                        /* the framebuffer point this texel stands for in b's mapping */
                        float fx = (float)m.start.x + ((float)(x - s.x) + 0.5f) * (float)m.area.width;
                        float fy = (float)m.start.y + ((float)(y - s.y) + 0.5f) * (float)m.area.height;
                        shade(pass, layout, v, fx, fy, scene, user, t);
                    }
            }
    }
    free(taken);
}

/* 1 / 2^l for l = 0..4, as the shader's dmap_inverse. */
static float inverse(uint32_t l)
{
    return l == 0 ? 1.0f : l == 1 ? 0.5f : l == 2 ? 0.25f : l == 3 ? 0.125f : 0.0625f;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

void spdrt_dmap_resolve_reference(const spdrt_dmap_resolve_params *p, uint32_t views, int linear,
                                  const uint32_t *bins, const float *src, float *out)
{
    const size_t src_layer = (size_t)p->src_width * p->src_height;
    for (uint32_t v = 0; v < views; v++)
        for (uint32_t y = 0; y < p->height; y++)
            for (uint32_t x = 0; x < p->width; x++) {
                const uint32_t *base = bins + (size_t)v * (p->bins + 1) * 4;
                uint32_t column = (x + base[0]) / p->tile_width, row = (y + base[1]) / p->tile_height;
                uint32_t index = row * p->stride + column;
                const uint32_t *b = base + 4 + 4 * (size_t)(index < p->bins - 1 ? index : p->bins - 1);
                uint32_t lw = b[2] & 255u, lh = b[2] >> 8;
                uint32_t dx = x - (b[0] & 65535u), dy = y - (b[0] >> 16);
                const float *img = src + src_layer * v * 4;
                float *o = out + (((size_t)v * p->height + y) * p->width + x) * 4;
                if (!linear) {
                    uint32_t sx = (b[1] & 65535u) + (dx >> lw), sy = (b[1] >> 16) + (dy >> lh);
                    if (sx > p->src_width - 1) sx = p->src_width - 1;
                    if (sy > p->src_height - 1) sy = p->src_height - 1;
                    memcpy(o, img + ((size_t)sy * p->src_width + sx) * 4, 4 * sizeof *o);
                    continue;
                }
                float cx = (float)(b[1] & 65535u) + ((float)dx + 0.5f) * inverse(lw) - 0.5f;
                float cy = (float)(b[1] >> 16) + ((float)dy + 0.5f) * inverse(lh) - 0.5f;
                float ix = floorf(cx), iy = floorf(cy), fx = cx - ix, fy = cy - iy;
                int lx = (int)p->src_width - 1, ly = (int)p->src_height - 1;
                size_t x0 = (size_t)clampi((int)ix, 0, lx), x1 = (size_t)clampi((int)ix + 1, 0, lx);
                size_t y0 = (size_t)clampi((int)iy, 0, ly), y1 = (size_t)clampi((int)iy + 1, 0, ly);
                const float *v00 = img + (y0 * p->src_width + x0) * 4, *v10 = img + (y0 * p->src_width + x1) * 4;
                const float *v01 = img + (y1 * p->src_width + x0) * 4, *v11 = img + (y1 * p->src_width + x1) * 4;
                for (int c = 0; c < 4; c++) {
                    float step_top = (v10[c] - v00[c]) * fx;
                    float top = v00[c] + step_top;
                    float step_bottom = (v11[c] - v01[c]) * fx;
                    float bottom = v01[c] + step_bottom;
                    float step_y = (bottom - top) * fy;
                    o[c] = top + step_y;
                }
            }
}
