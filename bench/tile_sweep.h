/* tile_sweep.h: spd_bench --tiles: every (--tile T, --wg N) spdgen admits, timed on small
 * images, so the fastest tile can be documented (bench/README.md, "The tile sweep"). */
#ifndef BENCH_TILE_SWEEP_H
#define BENCH_TILE_SWEEP_H

#include <stdio.h>

#include "sweep.h"

/* Times and checks every (T, N) at each size of s->opt (one format, one op, the device's
 * subgroup size) and prints a markdown table per size to out. Returns the number of
 * failures (a spdgen, pipeline or run error, or a level that differs from the reference). */
uint32_t bench_tile_sweep(bench_sweep *s, FILE *out);

#endif
