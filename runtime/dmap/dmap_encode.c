/* dmap_encode.c: how a rate becomes a map texel and how the driver reads it back. */
#include "dmap_model.h"

uint8_t spdrt_dmap_density_byte(uint32_t area)
{
    return area == 0 ? 0 : area > 255 ? 1 : (uint8_t)(255u / area); /* past 255: the coarsest byte */
}

/* round(255 / area), halves away from zero as C's round() does. */
uint8_t spdrt_dmap_density_byte_rounded(uint32_t area)
{
    return area == 0 ? 0 : (uint8_t)((2u * 255u + area) / (2u * area));
}

/* util_format_unpack_rgba for R8G8_UNORM multiplies by 1.0f / 255 (_mesa_unorm_to_float);
 * tu_fragment_density_map_sample then divides 1.0f by it. */
float spdrt_dmap_area_of_byte(uint8_t byte)
{
    volatile float density = (float)byte * (1.0f / 255.0f); /* one rounding, as the driver */
    return 1.0f / density;
}

uint8_t spdrt_dmap_fsr_texel(uint32_t lw, uint32_t lh)
{
    return (uint8_t)(((lw > 2 ? 2 : lw) << 2) | (lh > 2 ? 2 : lh)); /* past 2: the coarsest, 4 */
}
