/* spd_plan.c: how an SPD shader's dispatches are laid out (spd_internal.h): one definition
 * for the self-contained run (spd_run.c) and the recording on an application's device
 * (spd_record.c). */
#include <stdio.h>

#include "spd_internal.h"
#include "spd_passes.h"

uint32_t spdrt__spd_tile(const spdrt_spd_params *p) { return p->tile ? p->tile : 64u; }

int spdrt__spd_hierarchy(const spdrt_spd_params *p) {
    return p->hierarchy || spdrt__spd_tile(p) < 64;
}

int spdrt__spd_normalized_sampler(const spdrt_spd_params *p) {
    return p->sampler_normalized || p->is_array;
}

uint32_t spdrt__spd_tiles_per_workgroup(const spdrt_spd_params *p) {
    if (p->tiles_per_workgroup)
        return p->tiles_per_workgroup;
    if (spdrt__spd_tile(p) < 64 || p->mips_bound <= 6)
        return 1;
    if (spdrt__spd_hierarchy(p))
        return SPDRT_DEFAULT_HIERARCHY_TILES_PER_WORKGROUP;
    return (uint64_t)p->width * p->height * spdrt__format_texel_size(p->format) >=
                   SPDRT_LARGE_SOURCE_BYTES
               ? SPDRT_LARGE_SOURCE_TILES_PER_WORKGROUP
               : SPDRT_DEFAULT_TILES_PER_WORKGROUP;
}

uint32_t spdrt__spd_passes(const spdrt_spd_params *p, uint32_t mip_count,
                           uint32_t base[SPDRT_SPD_MAX_PASSES + 1]) {
    uint32_t n = 0;
    base[0] = 0;
    while (base[n] < mip_count && n < SPDRT_SPD_MAX_PASSES) {
        base[n + 1] = spd_pass_end(p->width, p->height, base[n], mip_count, p->mips_bound,
                                   p->edge == SPDRT_EDGE_WEIGHTED);
        n++;
    }
    return n;
}

int spdrt__spd_check_shader(const spdrt_spd_params *p, char *err, size_t size) {
    uint32_t tile = spdrt__spd_tile(p), k = p->tiles_per_workgroup;
    if (spdrt_format_channels(p->format) == 0)
        snprintf(err, size, "unknown format %d", (int)p->format);
    else if (p->mips_bound == 0)
        snprintf(err, size, "mips_bound must be at least 1");
    else if (tile < 2 || tile > 64 || (tile & (tile - 1)))
        snprintf(err, size, "tile %u is not 2, 4, 8, 16, 32 or 64", p->tile);
    /* The hierarchy counts a workgroup's tiles on the counter of its first tile's block of
     * T x T tiles: they must all lie in that block. */
    else if (spdrt__spd_hierarchy(p) && k > 1 && ((k & (k - 1)) || k > tile))
        snprintf(err, size, "tiles_per_workgroup %u with --tile %u --tail hierarchy must be a "
                 "power of two up to %u, so that a workgroup's tiles lie in one block of the "
                 "hierarchy's first stage", k, tile, tile);
    else if (k > SPDRT_MAX_TILES_PER_WORKGROUP)
        snprintf(err, size, "tiles_per_workgroup %u is more than %u", k,
                 SPDRT_MAX_TILES_PER_WORKGROUP);
    else
        return 0;
    return -1;
}

int spdrt__spd_check_source(const spdrt_spd_params *p, char *err, size_t size) {
    if (p->width == 0 || p->height == 0 || p->layers == 0)
        snprintf(err, size, "empty source (%ux%u, %u layers)", p->width, p->height, p->layers);
    else if (!p->is_array && p->layers != 1)
        snprintf(err, size, "%u layers but the shader is not an array shader", p->layers);
    /* Normalized coordinates, (2x + 1) / width, are exact only where the sides are powers of
     * two (texel coordinates are exact at any size). */
    else if (p->sampler_linear && spdrt__spd_normalized_sampler(p) &&
             ((p->width & (p->width - 1)) || (p->height & (p->height - 1))))
        snprintf(err, size, "a shader with normalized sampler coordinates (--sampler-coords "
                 "normalized, or --array) needs power-of-two sides (got %ux%u)", p->width,
                 p->height);
    /* Beyond 12 levels the last workgroup keeps one level-12 texel per 4096x4096 region in
     * shared memory, sized for 16384x16384. */
    else if (spdrt_spd_mip_count(p->width, p->height, p->mips_bound) > 12 &&
             (p->width > 16384 || p->height > 16384))
        snprintf(err, size, "a %ux%u source is larger than 16384x16384, the largest an SPD "
                 "shader with more than 12 levels serves", p->width, p->height);
    else
        return 0;
    return -1;
}
