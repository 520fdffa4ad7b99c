/* levels.c: the level bookkeeping shared by the GPU run and the CPU reference. Kept apart
 * from spd_run.c so the reference (spd_ref.c, format.c, this) links without libvulkan. */
#include <stdlib.h>
#include <string.h>

#include "spdrt_spd.h"

/* floor(log2(max(w, h))) capped at mips_bound; 0 for an empty or 1x1 source. */
uint32_t spdrt_spd_mip_count(uint32_t width, uint32_t height, uint32_t mips_bound) {
    uint32_t m = width > height ? width : height, log2 = 0;
    while (m > 1)
        m >>= 1, log2++;
    return log2 < mips_bound ? log2 : mips_bound;
}

#define SPD_TILE 64u /* level texels per workgroup tile side */

int spdrt_spd_update_tiles(uint32_t width, uint32_t height, spdrt_rect rect, uint32_t base,
                           spdrt_edge edge, spdrt_rect *tiles) {
    uint32_t bw, bh, x0, y0, x1, y1, widen;
    if (rect.width == 0 || rect.height == 0 || rect.x >= width || rect.y >= height ||
        rect.width > width - rect.x || rect.height > height - rect.y || base > 31)
        return -1;
    bw = width >> base ? width >> base : 1;
    bh = height >> base ? height >> base : 1;
    /* A rectangle inside a dropped odd row/column changes no texel of level `base`; the
     * clamp then names the edge texel, whose tile is recomputed for nothing, harmlessly. */
    x0 = rect.x >> base, x1 = (rect.x + rect.width - 1) >> base;
    y0 = rect.y >> base, y1 = (rect.y + rect.height - 1) >> base;
    x0 = x0 < bw ? x0 : bw - 1, x1 = x1 < bw ? x1 : bw - 1;
    y0 = y0 < bh ? y0 : bh - 1, y1 = y1 < bh ? y1 : bh - 1;
    widen = edge == SPDRT_EDGE_CONSERVATIVE ? SPD_TILE : edge == SPDRT_EDGE_WEIGHTED ? 1 : 0;
    x0 = x0 > widen ? x0 - widen : 0, y0 = y0 > widen ? y0 - widen : 0;
    tiles->x = x0 / SPD_TILE;
    tiles->y = y0 / SPD_TILE;
    tiles->width = x1 / SPD_TILE - tiles->x + 1;
    tiles->height = y1 / SPD_TILE - tiles->y + 1;
    return 0;
}

/* Results (or counters) of one stage per slice: grid_k = ceil(size / 2^shift) per axis. */
static uint64_t grid_units(uint32_t width, uint32_t height, uint32_t shift) {
    uint64_t round = (1ull << shift) - 1;
    return ((width + round) >> shift) * ((height + round) >> shift);
}

void spdrt_spd_buffer_bytes(uint32_t tile, int hierarchy, uint32_t mips_bound, uint32_t width,
                            uint32_t height, uint32_t layers, uint32_t channels, uint64_t *counter_bytes,
                            uint64_t *handoff_bytes) {
    uint32_t m = 0, stages, k;
    uint64_t results = 0, counters = 0;
    if (tile == 0)
        tile = 64;
    if (!hierarchy && tile == 64) {  /* the loop: a counter per slice, a level-6 texel per tile */
        *counter_bytes = (uint64_t)layers * 4;
        *handoff_bytes = (uint64_t)layers * grid_units(width, height, 6) * channels * 4;
        return;
    }
    while ((1u << m) < tile)
        m++;
    stages = (mips_bound + m - 1) / m;
    for (k = 1; k < stages; k++)  /* the results of stages 0..stages-2: grid_1..grid_{S-1} */
        results += grid_units(width, height, k * m);
    for (k = 2; k <= stages; k++)  /* a counter per unit of stages 1..S-1: grid_2..grid_S */
        counters += grid_units(width, height, k * m);
    *counter_bytes = (uint64_t)layers * counters * 4;
    *handoff_bytes = (uint64_t)layers * results * channels * 4;
}

void spdrt_spd_levels_free(spdrt_spd_levels *levels) {
    size_t k;
    if (!levels)
        return;
    for (k = 0; k < sizeof levels->level / sizeof levels->level[0]; k++)
        free(levels->level[k]);
    memset(levels, 0, sizeof *levels);
    levels->gpu_ms = -1.0;
}
