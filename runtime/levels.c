/* levels.c: the level bookkeeping shared by the GPU run and the CPU reference. Kept apart
 * from spd_run.c so the reference (spd_ref.c, format.c, this) links without libvulkan. */
#include <stdlib.h>
#include <string.h>

#include "spdrt.h"

/* floor(log2(max(w, h))) capped at mips_bound; 0 for an empty or 1x1 source. */
uint32_t spdrt_spd_mip_count(uint32_t width, uint32_t height, uint32_t mips_bound) {
    uint32_t m = width > height ? width : height, log2 = 0;
    while (m > 1)
        m >>= 1, log2++;
    return log2 < mips_bound ? log2 : mips_bound;
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
