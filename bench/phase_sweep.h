/* phase_sweep.h: spd_bench --phases: where an SPD shader's time goes. The shader's
 * mip_count push constant stops it after level k, so timing k = 1, 2, .. levels splits the
 * chain into the cost of each level (level 1: the whole level-0 read and the level-1
 * writes; level 7: the first level past the atomic hand-off), each against the SPD-shaped
 * floor of the same bytes (level 0 read, levels 1..k written) timed in the same run. */
#ifndef BENCH_PHASE_SWEEP_H
#define BENCH_PHASE_SWEEP_H

#include <stdio.h>

#include "sweep.h"

/* Times every prefix of each variant at each size of s->opt (first format, first op, the
 * device's subgroup size), checks each variant's full chain against the CPU reference and
 * prints a markdown table per (size, variant) to out. Returns the number of failures. */
uint32_t bench_phase_sweep(bench_sweep *s, FILE *out);

#endif
