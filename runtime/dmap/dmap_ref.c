/* dmap_ref.c: the CPU reference of spdgen --dmap fdm|fsr: the rules templates/dmap/ emits,
 * computed the same way, so a map compares bit for bit. Foveation and the clamp are
 * integer arithmetic; the content's float arithmetic is the shader's, one rounding per
 * operation in the same order, no contraction (the shader's `precise`). */
/* GCC contracts nothing in ISO C mode (-std=c11); clang needs telling. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
#include <math.h>
#include <stdlib.h>

#include "core/internal.h"
#include "dmap_model.h"

typedef struct {
    const spdrt_dmap_gen_config *c;
    const spdrt_dmap_gen_params *p;
    const float *colour, *motion;
    int w, h;
    uint32_t words[16];             /* the push block, which the rules read back */
    uint32_t rings, radii01, radii23, aspect;
} ref;

/* A value as the shader reads it from a 16-bit float image. */
static float h(float x) { return spdrt__half_to_float(spdrt__float_to_half(x)); }
static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Luminance of pixel (px, py) moved back by its motion vector (content.lua's emit_pixel). */
static float luminance(const ref *r, uint32_t view, int px, int py, float mv[2])
{
    int mx = clampi(px, 0, r->w - 1), my = clampi(py, 0, r->h - 1);
    const float *m = r->motion + (((size_t)view * (size_t)r->h + (size_t)my) * (size_t)r->w + (size_t)mx) * 2;
    float vx = h(m[0]), vy = h(m[1]);
    if (mv) mv[0] = vx, mv[1] = vy;
    int sx = clampi(px - (int)floorf(vx + 0.5f), 0, r->w - 1);
    int sy = clampi(py - (int)floorf(vy + 0.5f), 0, r->h - 1);
    const float *c = r->colour + (((size_t)view * (size_t)r->h + (size_t)sy) * (size_t)r->w + (size_t)sx) * 4;
    float lr = h(c[0]) * 0.30f;
    float lg = h(c[1]) * 0.59f;
    float lb = h(c[2]) * 0.11f;
    float sum = lr + lg;
    return sum + lb;
}

typedef struct { float d[3], lo, hi; } block;

/* The 2x2 block with first pixel (2 bx, 2 by) (content.lua's emit_block). */
static block block_at(const ref *r, uint32_t view, int bx, int by)
{
    int ox = 2 * bx, oy = 2 * by;
    float mv[2];
    float l0 = luminance(r, view, ox, oy, mv), l1 = luminance(r, view, ox + 1, oy, NULL);
    float l2 = luminance(r, view, ox, oy + 1, NULL), l3 = luminance(r, view, ox + 1, oy + 1, NULL);
    float m = r->p->motion_factor * fmaxf(fabsf(mv[0]), fabsf(mv[1]));
    float lo = fminf(fminf(fminf(l0, l1), l2), l3), hi = fmaxf(fmaxf(fmaxf(l0, l1), l2), l3);
    block b;
    b.d[0] = fmaxf(fabsf(l0 - l1), fabsf(l2 - l3)) - m;
    b.d[1] = fmaxf(fabsf(l0 - l2), fabsf(l1 - l3)) - m;
    b.d[2] = (hi - lo) - m;
    b.lo = lo;
    b.hi = hi - m;
    return b;
}

/* Every block of a view and its ring, at [(by + 1) * (bw + 2) + bx + 1]. */
static block *blocks_of(const ref *r, uint32_t view, int bw, int bh)
{
    block *all = malloc((size_t)(bw + 2) * (size_t)(bh + 2) * sizeof *all);
    for (int by = -1; all && by <= bh; by++)
        for (int bx = -1; bx <= bw; bx++) all[(by + 1) * (bw + 2) + bx + 1] = block_at(r, view, bx, by);
    return all;
}

/* The widened differences of block (bx, by) inside the image (content.lua's phase 3). */
static void widened(const block *all, int bw, int bx, int by, float out[3])
{
    const int s = (by + 1) * (bw + 2) + bx + 1, row = bw + 2;
    float nmin = fminf(fminf(fminf(all[s - row].lo, all[s - 1].lo), all[s + row].lo), all[s + 1].lo);
    float nmax = fmaxf(fmaxf(fmaxf(all[s - row].hi, all[s - 1].hi), all[s + row].hi), all[s + 1].hi);
    float dmin = fmaxf(0.0f, all[s].lo - nmin);
    float dmax = fmaxf(0.0f, nmax - all[s].hi);
    for (int i = 0; i < 3; i++) {
        float w = all[s].d[i] + dmin;
        w = w + dmax;
        out[i] = fmaxf(0.0f, w);
    }
}

/* hooks.lua's content_rate. */
static uint32_t content_rate(const float d[3], float cutoff, float cutoff4)
{
    if (d[2] < cutoff4) return spdrt_dmap_rate_code(2, 2);
    if (d[2] < cutoff) return spdrt_dmap_rate_code(1, 1);
    if (d[0] > d[1]) return d[1] > cutoff ? 0u : spdrt_dmap_rate_code(0, 1);
    return d[0] > cutoff ? 0u : spdrt_dmap_rate_code(1, 0);
}

/* rates.lua's dmap_foveation_rate. */
static uint32_t foveation_rate(const ref *r, uint32_t cx, uint32_t cy, uint32_t gx, uint32_t gy)
{
    gx = dmap_min_u(gx, 16384u);
    gy = dmap_min_u(gy, 16384u);
    uint32_t dx = cx > gx ? cx - gx : gx - cx, dy = cy > gy ? cy - gy : gy - cy;
    uint32_t sx = (dx * dmap_min_u(r->aspect & 65535u, 256u)) >> 8;
    uint32_t sy = (dy * dmap_min_u(r->aspect >> 16, 256u)) >> 8;
    uint32_t d2 = sx * sx + sy * sy, ring = 4;
    const uint32_t radius[4] = {r->radii01 & 65535u, r->radii01 >> 16, r->radii23 & 65535u, r->radii23 >> 16};
    for (int k = 3; k >= 0; k--) {
        uint32_t rk = dmap_min_u(radius[k], 32768u);
        if (d2 < rk * rk) ring = (uint32_t)k;
    }
    return (r->rings >> (6 * ring)) & 63u;
}

/* rates.lua's dmap_limit. */
static uint32_t limit(uint32_t rate, uint32_t mask, uint32_t max_log2)
{
    uint32_t lw = dmap_min_u(rate >> 3, max_log2), lh = dmap_min_u(rate & 7u, max_log2);
    uint32_t best = 0, best_score = 0;
    for (uint32_t a = 0; a <= max_log2; a++)
        for (uint32_t b = 0; b <= max_log2; b++) {
            int supported = (((mask | 1u) >> (a * 5 + b)) & 1u) != 0;
            uint32_t skew = a > b ? a - b : b - a;
            uint32_t score = ((a + b) << 4) | ((7 - skew) << 1) | (a > b ? 1u : 0u);
            if (supported && a <= lw && b <= lh && score > best_score) {
                best_score = score;
                best = (a << 3) | b;
            }
        }
    return best;
}

static uint32_t combine(const spdrt_dmap_gen_config *c, uint32_t a, uint32_t b)
{
    uint32_t (*pick)(uint32_t, uint32_t) = c->combine_coarser ? dmap_max_u : dmap_min_u;
    return (pick(a >> 3, b >> 3) << 3) | pick(a & 7u, b & 7u);
}

static void store(const spdrt_dmap_gen_config *c, uint32_t rate, uint8_t *texel)
{
    if (c->kind == SPDRT_DMAP_FDM) {
        texel[0] = (uint8_t)(255u >> (rate >> 3));
        texel[1] = (uint8_t)(255u >> (rate & 7u));
    } else {
        texel[0] = (uint8_t)(((rate >> 3) << 2) | (rate & 7u));
    }
}

int spdrt_dmap_gen_reference(const spdrt_dmap_gen_config *c, const spdrt_dmap_gen_params *p,
                             const float *colour, const float *motion, uint8_t *map)
{
    ref r = {c, p, colour, motion, (int)p->width, (int)p->height, {0}, 0, 0, 0, 0};
    spdrt_dmap_gen_push(c, p, r.words);
    if (c->foveation != SPDRT_DMAP_FOVEATION_OFF) r.rings = r.words[3], r.radii01 = r.words[4],
        r.radii23 = r.words[5], r.aspect = r.words[6];
    const spdrt_dmap_extent e = spdrt_dmap_gen_extent(c, p->width, p->height);
    const uint32_t T = c->texel, bytes = spdrt_dmap_gen_texel_bytes(c);
    const int bw = (int)(p->width + 1) / 2, bh = (int)(p->height + 1) / 2;
    const uint32_t max_log2 = dmap_log2(c->max_rate);
    for (uint32_t v = 0; v < c->views; v++) {
        block *all = c->content ? blocks_of(&r, v, bw, bh) : NULL;
        if (c->content && !all) return -1;
        uint32_t gx = p->width / 2, gy = p->height / 2;
        if (c->foveation == SPDRT_DMAP_FOVEATION_GAZE) {
            uint32_t g = r.words[(c->content ? 10 : 7) + v];
            gx = g & 65535u, gy = g >> 16;
        }
        for (uint32_t ty = 0; ty < e.height; ty++)
            for (uint32_t tx = 0; tx < e.width; tx++) {
                uint32_t rate = 0, fov = 0, cont = 0;
                if (c->foveation != SPDRT_DMAP_FOVEATION_OFF)
                    fov = foveation_rate(&r, tx * T + T / 2, ty * T + T / 2, gx, gy);
                if (c->content) {
                    float d[3] = {0, 0, 0}, wd[3];
                    /* the texel's blocks whose first pixel lies in the image */
                    for (int by = (int)(ty * T / 2); by < (int)((ty + 1) * T / 2) && by < bh; by++)
                        for (int bx = (int)(tx * T / 2); bx < (int)((tx + 1) * T / 2) && bx < bw; bx++) {
                            widened(all, bw, bx, by, wd);
                            for (int i = 0; i < 3; i++) d[i] = fmaxf(d[i], wd[i]);
                        }
                    cont = content_rate(d, p->cutoff, p->cutoff4);
                }
                rate = c->content && c->foveation != SPDRT_DMAP_FOVEATION_OFF ? combine(c, fov, cont)
                     : c->content ? cont : fov;
                rate = limit(rate, p->rate_mask, max_log2);
                store(c, rate, map + (((size_t)v * e.height + ty) * e.width + tx) * bytes);
            }
        free(all);
    }
    return 0;
}
