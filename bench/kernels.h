/* kernels.h: the things the benchmark times, each as a record function for bench_time:
 *   SPD         one dispatch of an spdgen shader (its binding contract, docs/spd.md)
 *   per-level   the baseline a user writes by hand: one 8x8-workgroup compute dispatch per
 *               level, texelFetch of level k, imageStore to level k+1, a barrier between
 *   blit chain  the baseline a user gets for free: one vkCmdBlitImage and one barrier per
 *               level (LINEAR averages 2x2 blocks for even sizes; nothing computes a max)
 *   floor       a compute vec4 copy between two device-local buffers of the same bytes
 *               (and the SPD-shaped floor: level 0's bytes read, the mips' bytes written)
 *   copy buffer vkCmdCopyBuffer of the same bytes, for reference only */
#ifndef BENCH_KERNELS_H
#define BENCH_KERNELS_H

#include "spd/spd_internal.h"
#include "workload.h"

typedef struct {
    bench_workload *wl;
    spdrt_pipeline pipe;
    uint32_t tile;        /* the shader's --tile: the grid is ceil(w/tile) x ceil(h/tile) */
    uint32_t mip_count;   /* the push constant mip_count: 0 = the workload's levels; fewer
                             stops the shader after that level (spd_bench --phases) */
    uint32_t tiles_per_workgroup; /* the push constant (--tile 64 --tail loop shaders): the
                                     grid's x shrinks to ceil(tiles x / it); 0 = one */
} bench_spd_kernel;

/* UNSUPPORTED when the device cannot run the shader's subgroup operations. tile: the
 * shader's --tile (0 = 64), at least the workload's min_tile. */
spdrt_result bench_spd_kernel_create(bench_workload *wl, const uint32_t *spirv, size_t words,
                                     uint32_t mips_bound, uint32_t subgroup, uint32_t tile,
                                     int normalized_sampler, bench_spd_kernel *out);
void bench_spd_kernel_record(VkCommandBuffer cb, void *user);
void bench_spd_kernel_destroy(bench_spd_kernel *k);

typedef struct {
    bench_workload *wl;
    spdrt_pipeline pipe;  /* set k reads level k and writes level k+1 */
} bench_level_kernel;

spdrt_result bench_level_kernel_create(bench_workload *wl, const uint32_t *spirv, size_t words,
                                       bench_level_kernel *out);
void bench_level_kernel_record(VkCommandBuffer cb, void *user);
void bench_level_kernel_destroy(bench_level_kernel *k);

/* FidelityFX SPD 2.0 (bench/peers/ffx_spd.comp), the peer a user would pick instead: one
 * dispatch up to 4096 texels a side; past it two, the second from level 6, the only correct way
 * it has there (one dispatch's last workgroup reads one 64x64 region of level 6). */
#define BENCH_FFX_LEVELS 13u  /* the levels array the shader binds: level 0 and 12 mips */
typedef struct {
    bench_workload *wl;
    spdrt_pipeline pipe;   /* set p: pass p's levels, from base[p] */
    uint32_t passes, base[2], mips[2];
} bench_ffx_kernel;

spdrt_result bench_ffx_kernel_create(bench_workload *wl, const uint32_t *spirv, size_t words,
                                     bench_ffx_kernel *out);
void bench_ffx_kernel_record(VkCommandBuffer cb, void *user);
void bench_ffx_kernel_destroy(bench_ffx_kernel *k);

typedef struct {
    bench_workload *wl;
    VkFilter filter;
} bench_blit_chain;

/* Whether the device can blit this format with this filter on our queue: SPDRT_OK, or
 * UNSUPPORTED with the reason as the context's last error. */
spdrt_result bench_blit_supported(bench_workload *wl, VkFilter filter);
/* Timed: level k-1 (TRANSFER_SRC) blitted to level k (TRANSFER_DST), then level k moved to
 * TRANSFER_SRC for the next blit. Untimed set-up: before() moves level 0 to TRANSFER_SRC and
 * the others to TRANSFER_DST, after() everything back to GENERAL. */
void bench_blit_before(VkCommandBuffer cb, void *user);
void bench_blit_record(VkCommandBuffer cb, void *user);
void bench_blit_after(VkCommandBuffer cb, void *user);

/* copy.comp over the workload's two floor buffers: reads `read_bytes` of copy_src and
 * writes the first `write_bytes` of them to copy_dst (write_bytes <= read_bytes, both
 * multiples of 16). The floor: read = write = copy_bytes. The SPD-shaped floor: read =
 * level 0's bytes, write = the mips' bytes. */
typedef struct {
    bench_workload *wl;
    spdrt_pipeline pipe;   /* set i covers chunk i */
    uint64_t chunk_bytes;  /* at most maxStorageBufferRange per binding */
    uint64_t read_bytes, write_bytes;
} bench_copy_kernel;

spdrt_result bench_copy_kernel_create(bench_workload *wl, const uint32_t *spirv, size_t words,
                                      uint64_t read_bytes, uint64_t write_bytes,
                                      bench_copy_kernel *out);
void bench_copy_kernel_record(VkCommandBuffer cb, void *user);
/* Compares copy_dst with copy_src at 16 places spread over the written bytes (the last one
 * ends at the last written byte). 0, or -1 with err saying where they differ. */
int bench_copy_kernel_check(bench_copy_kernel *k, char *err, size_t err_size);
void bench_copy_kernel_destroy(bench_copy_kernel *k);

/* user = the bench_workload */
void bench_copy_buffer_record(VkCommandBuffer cb, void *user);

#endif
