/* dmap_params.c: the push-constant block of spdgen --dmap fdm|fsr shaders (the order
 * templates/dmap/push.lua declares) and reasonable values for it. */
#include "dmap_model.h"

/* Bit lw * 5 + lh for every rate with both sides at most 2^max_log2. */
static uint32_t all_rates(uint32_t max_log2)
{
    uint32_t mask = 0;
    for (uint32_t a = 0; a <= max_log2; a++)
        for (uint32_t b = 0; b <= max_log2; b++) mask |= 1u << (a * 5 + b);
    return mask;
}

void spdrt_dmap_gen_defaults(const spdrt_dmap_gen_config *c, uint32_t width, uint32_t height,
                             spdrt_dmap_gen_params *p)
{
    uint32_t side = width < height ? width : height;
    *p = (spdrt_dmap_gen_params){0};
    p->width = width;
    p->height = height;
    p->rate_mask = all_rates(c->kind == SPDRT_DMAP_FSR ? 2 : 4);
    const uint32_t rings[5] = {spdrt_dmap_rate_code(0, 0), spdrt_dmap_rate_code(0, 1),
                               spdrt_dmap_rate_code(1, 1), spdrt_dmap_rate_code(1, 2),
                               spdrt_dmap_rate_code(2, 2)};
    const uint32_t fraction[4] = {8, 5, 3, 2};
    for (int k = 0; k < 5; k++) p->ring_rates[k] = rings[k];
    for (int k = 0; k < 4; k++) p->radii[k] = side / fraction[k];
    p->aspect[0] = p->aspect[1] = 256;
    for (uint32_t v = 0; v < SPDRT_DMAP_MAX_VIEWS; v++) {
        p->gaze[v][0] = width / 2;
        p->gaze[v][1] = height / 2;
    }
    p->cutoff = 0.025f;
    p->cutoff4 = 0.0f;
    p->motion_factor = 0.01f;
}

static uint32_t float_bits(float f)
{
    union { float f; uint32_t u; } v = {f};
    return v.u;
}

uint32_t spdrt_dmap_gen_push(const spdrt_dmap_gen_config *c, const spdrt_dmap_gen_params *p,
                             uint32_t words[16])
{
    uint32_t n = 0;
    words[n++] = p->width;
    words[n++] = p->height;
    words[n++] = p->rate_mask;
    if (c->foveation != SPDRT_DMAP_FOVEATION_OFF) {
        uint32_t rings = 0;
        for (int k = 0; k < 5; k++) rings |= (p->ring_rates[k] & 63u) << (6 * k);
        words[n++] = rings;
        words[n++] = (p->radii[0] & 65535u) | (p->radii[1] << 16);
        words[n++] = (p->radii[2] & 65535u) | (p->radii[3] << 16);
        words[n++] = (p->aspect[0] & 65535u) | (p->aspect[1] << 16);
    }
    if (c->content) {
        words[n++] = float_bits(p->cutoff);
        words[n++] = float_bits(p->cutoff4);
        words[n++] = float_bits(p->motion_factor);
    }
    if (c->foveation == SPDRT_DMAP_FOVEATION_GAZE)
        for (uint32_t v = 0; v < c->views; v++) words[n++] = (p->gaze[v][0] & 65535u) | (p->gaze[v][1] << 16);
    return n;
}

spdrt_dmap_extent spdrt_dmap_gen_extent(const spdrt_dmap_gen_config *c, uint32_t width,
                                        uint32_t height)
{
    /* A texel of 0 (not a configuration the generator makes) has no map: 0x0, not a trap. */
    spdrt_dmap_extent e = {0, 0};
    if (c->texel) e = (spdrt_dmap_extent){dmap_div_up(width, c->texel), dmap_div_up(height, c->texel)};
    return e;
}

uint32_t spdrt_dmap_gen_texel_bytes(const spdrt_dmap_gen_config *c)
{
    return c->kind == SPDRT_DMAP_FDM ? 2 : 1;
}

uint32_t spdrt_dmap_gen_texel_rate(const spdrt_dmap_gen_config *c, const uint8_t *texel)
{
    if (c->kind == SPDRT_DMAP_FSR) return spdrt_dmap_rate_code(texel[0] >> 2, texel[0] & 3u);
    spdrt_dmap_extent a;
    spdrt_dmap_area raw = {spdrt_dmap_area_of_byte(texel[0]), spdrt_dmap_area_of_byte(texel[1])};
    if (spdrt_dmap_floor_area(raw, &a)) return UINT32_MAX;
    return spdrt_dmap_rate_code(dmap_log2(a.width), dmap_log2(a.height));
}

size_t spdrt_dmap_gen_axes_count(const spdrt_dmap_gen_config *c, uint32_t width, uint32_t height)
{
    spdrt_dmap_extent e = spdrt_dmap_gen_extent(c, width, height);
    return (size_t)c->views * (e.width + e.height);
}

void spdrt_dmap_gen_axes(const spdrt_dmap_gen_config *c, uint32_t width, uint32_t height,
                         const uint8_t *map, uint32_t *axes)
{
    const spdrt_dmap_extent e = spdrt_dmap_gen_extent(c, width, height);
    const uint32_t bytes = spdrt_dmap_gen_texel_bytes(c);
    for (uint32_t v = 0; v < c->views; v++) {
        uint32_t *cols = axes + (size_t)v * (e.width + e.height), *rows = cols + e.width;
        for (uint32_t i = 0; i < e.width + e.height; i++) cols[i] = UINT32_MAX;
        for (uint32_t y = 0; y < e.height; y++)
            for (uint32_t x = 0; x < e.width; x++) {
                uint32_t rate = spdrt_dmap_gen_texel_rate(c, map + (((size_t)v * e.height + y) * e.width + x) * bytes);
                cols[x] = dmap_min_u(cols[x], rate >> 3);
                rows[y] = dmap_min_u(rows[y], rate & 7u);
            }
    }
}
