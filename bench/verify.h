/* verify.h: checking read-back samples, so every figure the benchmark prints belongs to a
 * run that produced the right levels.
 *
 * SPD: every sampled texel against the CPU reference (runtime/spd/spd_ref.c's definition:
 * spd_ref_reduce for each 2x2 block, the chain kept in float, only stored values quantized
 * with spd_ref_quantize), within spd_ref_bound. The reference is streamed: one pass over
 * level 0, two rows kept per level, so a 16384x16384 source costs no memory and one pass
 * serves every variant of an op. bench_verify_selftest proves it equal to spd_ref_run.
 *
 * Baselines (one dispatch per level, blit chain) store each level before reducing it again,
 * so they legitimately differ from SPD by rounding that compounds down the chain. They are
 * checked link by link instead: each sampled texel against the reduce of its 2x2 block in
 * the stored level above, which is exactly what each of their steps computes. */
#ifndef BENCH_VERIFY_H
#define BENCH_VERIFY_H

#include "sample.h"

/* A chain's geometry and its level 0 as stored (rows packed). */
typedef struct {
    spdrt_format format;
    uint32_t levels;
    const uint32_t *w, *h;          /* levels + 1 entries */
    const unsigned char *level0;
} bench_chain;

/* Checks `count` samples (one per SPD variant of `op`) in one pass; fills checks[i].
 * Returns 0, or -1 if memory ran out (the checks then say so). */
int bench_verify_spd(const bench_chain *c, spd_op op, const bench_sample *const *samples,
                     bench_check *const *checks, uint32_t count);

/* Checks a baseline's sample link by link within `bound`. exact_halving_only: skip levels
 * whose predecessor does not halve exactly (a blit then filters a different footprint). */
void bench_verify_chain(const bench_chain *c, spd_op op, const bench_sample *s, double bound,
                        int exact_halving_only, bench_check *out);

/* The streamed reference against spd_ref_run, both checkers against planted errors, and the
 * level-0 tables against the runtime's conversions. 0 = all agree. */
int bench_verify_selftest(char *err, size_t err_size);

#endif
