/* workload.h: everything one (size, format) of the benchmark runs on, created once and
 * shared by the SPD variants, the baselines and the floor.
 *
 * One image holds level 0 (random data, uploaded once) and levels 1..levels. It rests in
 * VK_IMAGE_LAYOUT_GENERAL, which the sampled reads and storage writes of SPD and the
 * per-level chain use; transfers (clears, read-backs, the blit chain) move it to the
 * TRANSFER layouts and back outside the timed work. The floor copies copy_bytes (half the
 * SPD's byte count, in whole 16-byte elements) from copy_src to copy_dst, so it moves (reads
 * plus writes) the same bytes the SPD does; the SPD-shaped floor reads shaped_read_bytes
 * (level 0's) of copy_src and writes shaped_write_bytes (the mips') to copy_dst. Both
 * buffers are device-local, each in its own allocation (offset 0, so aligned far beyond 256
 * bytes), and hold random data. */
#ifndef BENCH_WORKLOAD_H
#define BENCH_WORKLOAD_H

#include "gpu.h"

/* Every level is cleared to this before each measured run, so a run that skips a texel
 * cannot pass with an earlier run's value (rgba8 stores it as 0). */
#define BENCH_SENTINEL (-1234.5f)

typedef struct {
    spdrt_context *ctx;
    uint32_t width, height, levels;
    spdrt_format format;
    uint32_t texel;                    /* bytes per texel */
    uint32_t w[BENCH_MAX_LEVELS], h[BENCH_MAX_LEVELS];
    spdrt_image image;                 /* levels + 1 levels */
    VkImageView views[BENCH_MAX_LEVELS];
    spdrt_buffer source;               /* level 0 as stored, host-visible, kept for the checks */
    spdrt_buffer counters, level6;     /* the SPD contract's bindings 2 and 3, sized for
                                        * shaders of --tile min_tile and up */
    uint32_t min_tile;
    spdrt_buffer copy_src, copy_dst;   /* the floor's buffers (copy_src: the larger of
                                        * copy_bytes and shaped_read_bytes; copy_dst:
                                        * copy_bytes) */
    uint64_t copy_bytes;
    uint64_t shaped_read_bytes, shaped_write_bytes;
    uint64_t bytes;                    /* level 0 + levels 1..levels */
} bench_workload;

/* Creates the resources, fills level 0 with random data (seeded) and uploads it. SPD
 * shaders of --tile min_tile..64 can run on it (64: the sweep's shaders). */
spdrt_result bench_workload_create(spdrt_context *ctx, uint32_t width, uint32_t height,
                                   spdrt_format format, uint32_t levels, uint32_t min_tile,
                                   uint64_t seed, bench_workload *out);
void bench_workload_destroy(bench_workload *wl);

/* Levels 1..levels to the sentinel, the SPD counters and hand-off buffer to zero. */
spdrt_result bench_workload_clear(bench_workload *wl);

/* A layout transition of levels base..base+count-1, ordered after every earlier command
 * and before every later one. For set-up outside timed work. */
void bench_image_layout(VkCommandBuffer cb, const bench_workload *wl, uint32_t base,
                        uint32_t count, VkImageLayout from, VkImageLayout to);

/* Level 0 row y as stored. */
const unsigned char *bench_workload_source_row(const bench_workload *wl, uint32_t y);

/* Bytes of level k (0..levels). */
uint64_t bench_level_bytes(const bench_workload *wl, uint32_t k);

#endif
