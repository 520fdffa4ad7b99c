/* spd_passes.h: how an SPD mip chain is split into dispatches. One definition for the
 * runtime (spd_run.c), the CPU reference (spd_ref.c) and the contract header spdgen emits:
 * the Makefile embeds this file in spdgen and templates/c_header.lua copies the function
 * between the markers into --emit-header's output, so engines plan their dispatches with
 * the same code the tests run. */
#ifndef SPD_PASSES_H
#define SPD_PASSES_H

#include <stdint.h>

/* spd_pass_end: begin */
/* The last level of the dispatch that starts at level `base`: it reads level base (level 0
 * of the source for the first dispatch) and writes levels base+1 .. the returned level.
 * width x height is level 0, mip_count the levels of the whole chain, mips_per_pass the
 * levels one dispatch binds (the shader's --mips, or --max-mips-per-pass). With
 * --edge weighted (weighted != 0) a dispatch applies the 3-tap weights of an odd input only
 * where it reads that input directly: levels base+1, base+7 and base+13. Any other level
 * whose input has an odd side of 3 texels or more therefore starts a new dispatch.
 * Power-of-two sources never split. Loop: base = 0; while (base < mip_count) { end =
 * spd_pass_end(...); dispatch levels base+1..end; barrier; base = end; } */
static inline uint32_t spd_pass_end(uint32_t width, uint32_t height, uint32_t base,
                                    uint32_t mip_count, uint32_t mips_per_pass, int weighted)
{
    uint32_t end = base + 1u;
    while (end < mip_count && end - base < mips_per_pass) {
        uint32_t w = width >> end ? width >> end : 1u;   /* the input of level end + 1 */
        uint32_t h = height >> end ? height >> end : 1u;
        int odd = (w >= 3u && (w & 1u)) || (h >= 3u && (h & 1u));
        if (weighted && odd && (end - base) % 6u != 0u)
            break;
        end++;
    }
    return end;
}
/* spd_pass_end: end */

#endif
