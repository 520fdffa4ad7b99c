/* dmap_area.c: one bin's fragment area, as turnip reads the map for it. Each rule names the
 * function of src/freedreno/vulkan it follows. */
#include <math.h>

#include "dmap_model.h"

/* tu_image.cc, tu_fragment_density_map_sample:
 *   fdm_shift = CLAMP(util_logbase2_ceil(width / fdm->vk.extent.width), MIN.., MAX..)
 * with C's integer division, so a map of ceil(fb / T) texels is not always read at T. */
uint32_t spdrt_dmap_texel_shift(uint32_t fb, uint32_t map)
{
    uint32_t shift = dmap_log2_ceil(map ? fb / map : 0);
    if (shift < DMAP_MIN_TEXEL_LOG2) shift = DMAP_MIN_TEXEL_LOG2;
    if (shift > DMAP_MAX_TEXEL_LOG2) shift = DMAP_MAX_TEXEL_LOG2;
    return shift;
}

/* tu_cmd_buffer.h, euclid_rem(-a, b): the remainder of -a that is never negative. */
int32_t spdrt_dmap_euclid_rem(int32_t a, int32_t b)
{
    int64_t divisor = -(int64_t)a; /* 64 bits: -INT32_MIN does not fit 32 */
    if (divisor >= 0) return (int32_t)(divisor % b);
    int64_t tmp = b - (-divisor % b);
    return tmp == b ? 0 : (int32_t)tmp;
}

/* tu_cmd_buffer.h, tu_bin_offset: { euclid_rem(-offset.x, tile0.width), ... }. */
spdrt_dmap_offset spdrt_dmap_bin_offset(spdrt_dmap_offset offset, spdrt_dmap_extent tile)
{
    spdrt_dmap_offset o = {spdrt_dmap_euclid_rem(offset.x, (int32_t)tile.width),
                           spdrt_dmap_euclid_rem(offset.y, (int32_t)tile.height)};
    return o;
}

/* Arithmetic shift of a signed coordinate: x >> shift on int32_t in the driver. */
static int32_t shift_down(int32_t v, uint32_t shift)
{
    return v >= 0 ? v >> shift : -(int32_t)((((uint32_t)-v) + (1u << shift) - 1) >> shift);
}

/* tu_image.cc, tu_fragment_density_map_sample: the texel at (x >> shift, y >> shift),
 * clamped into the map, of layer `view`; 1.0f / (R, G). */
spdrt_dmap_area spdrt_dmap_sample(const spdrt_dmap_pass *pass, int32_t x, int32_t y,
                                  uint32_t view)
{
    const spdrt_dmap_extent m = pass->map_extent;
    int32_t i = shift_down(x, spdrt_dmap_texel_shift(pass->framebuffer.width, m.width));
    int32_t j = shift_down(y, spdrt_dmap_texel_shift(pass->framebuffer.height, m.height));
    i = dmap_max_i(0, dmap_min_i(i, (int32_t)m.width - 1));
    j = dmap_max_i(0, dmap_min_i(j, (int32_t)m.height - 1));
    const uint8_t *t = pass->map + (((size_t)view * m.height + (size_t)j) * m.width + (size_t)i) * 2;
    spdrt_dmap_area a = {spdrt_dmap_area_of_byte(t[0]), spdrt_dmap_area_of_byte(t[1])};
    return a;
}

/* tu_tile_config.cc, tu_calc_frag_area, before its caps. */
int spdrt_dmap_floor_area(spdrt_dmap_area raw, spdrt_dmap_extent *out)
{
    float floor_x, floor_y;
    float area = raw.width * raw.height;
    float frac_x = modff(raw.width, &floor_x);
    float frac_y = modff(raw.height, &floor_y);
    /* "the blob driver skips rendering tiles with 0 density" */
    if (!isfinite(area)) return -1;
    /* "The spec allows rounding up one of the axes as long as the total area is less than
     * or equal to the original area": the axis with the larger fraction. */
    if ((frac_x > frac_y ? (floor_x + 1.f) * floor_y : floor_x * (floor_y + 1.f)) <= area) {
        if (frac_x > frac_y) floor_x += 1.f;
        else floor_y += 1.f;
    }
    /* "Round down to a power of two to make sure all operations are exact." */
    out->width = 1u << dmap_log2((uint32_t)floor_x);
    out->height = 1u << dmap_log2((uint32_t)floor_y);
    return 0;
}

/* tu_tile_config.cc, tu_calc_frag_area, its caps. */
int spdrt_dmap_frag_area(const spdrt_dmap_pass *pass, spdrt_dmap_area raw,
                         spdrt_dmap_extent *out)
{
    spdrt_dmap_extent a;
    if (spdrt_dmap_floor_area(raw, &a)) return -1;
    /* "the fragment area has to divide the offset": at most TU_FDM_OFFSET_GRANULARITY. */
    if (pass->has_offset) {
        a.width = dmap_min_u(a.width, DMAP_OFFSET_GRANULARITY);
        a.height = dmap_min_u(a.height, DMAP_OFFSET_GRANULARITY);
    }
    /* "HW viewport scaling supports a maximum fragment width/height of 4." */
    if (pass->views <= DMAP_MAX_HW_SCALED_VIEWS) {
        a.width = dmap_min_u(a.width, DMAP_HW_SCALE_MAX);
        a.height = dmap_min_u(a.height, DMAP_HW_SCALE_MAX);
    }
    /* "Make sure that the width/height divides the tile width/height." */
    while (pass->tile.width % a.width != 0) a.width /= 2;
    while (pass->tile.height % a.height != 0) a.height /= 2;
    *out = a;
    return 0;
}
