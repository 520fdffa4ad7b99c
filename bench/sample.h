/* sample.h: which texels of levels 1..levels are read back for checking, and reading them.
 *
 * A level of at most BENCH_FULL_TEXELS texels is read completely (at 16384x16384 that is
 * level 4 and below). A larger level is read as whole rows: the pairs (y, y+1) with y a
 * multiple of a power-of-two period P_k, about 64 pairs per level, and its last three
 * rows. P halves from one level to the next, so where level k reads rows y and y+1 its
 * successor reads row y/2, whose 2x2 footprint they are: every sampled row of level k+1
 * with y % P_{k+1} == 0 can be checked against the stored rows of level k, as the
 * baselines' check does. Whole rows include both edges; the last rows the bottom edge. */
#ifndef BENCH_SAMPLE_H
#define BENCH_SAMPLE_H

#include "workload.h"

#define BENCH_FULL_TEXELS (1u << 20)

typedef struct {
    spdrt_format format;
    uint32_t levels, texel;
    uint32_t w[BENCH_MAX_LEVELS], h[BENCH_MAX_LEVELS];
    uint32_t *rows[BENCH_MAX_LEVELS];    /* level k's rows read back, ascending */
    uint32_t row_count[BENCH_MAX_LEVELS];
    uint64_t offset[BENCH_MAX_LEVELS];   /* where level k's first row is in data */
    unsigned char *data;                 /* the rows, packed, as stored */
    uint64_t size;
} bench_sample;

/* The rows of a chain (w[k], h[k] for k = 0..levels), allocating `data` (uninitialized).
 * Returns 0, or -1 when memory runs out. full_texels: BENCH_FULL_TEXELS except in tests. */
int bench_sample_plan(bench_sample *s, spdrt_format format, uint32_t levels,
                      const uint32_t *w, const uint32_t *h, uint64_t full_texels);

/* Plans and reads the sample of the workload's levels as they are now. */
spdrt_result bench_sample_read(bench_workload *wl, bench_sample *s);

/* Row y of level k as stored, or NULL if it was not read. */
const unsigned char *bench_sample_row(const bench_sample *s, uint32_t k, uint32_t y);

void bench_sample_free(bench_sample *s);

#endif
