/* timing_options.h: the timing options both benchmarks take (--reps, --warmup, --b2b,
 * --heat-ms, --scrub-mode, --scrub-mib), parsed and defaulted in one place. */
#ifndef BENCH_TIMING_OPTIONS_H
#define BENCH_TIMING_OPTIONS_H

#include <stdint.h>

typedef struct {
    uint32_t warmup, reps, b2b, heat_ms;
    uint64_t scrub_bytes;
    int scrub_write;
    unsigned given; /* which options the command line set (internal bits) */
} bench_timing_options;

/* One command-line option: returns 1 when `flag` is a timing option and `value` is valid,
 * 0 when `flag` is not a timing option, -1 when the value is bad (*allowed then says what
 * is allowed). A NULL value (none given) is a bad one; a bad value sets nothing. */
int bench_timing_option(bench_timing_options *t, const char *flag, const char *value,
                        const char **allowed);

/* Fills every option the command line did not set from `defaults`. */
void bench_timing_defaults(bench_timing_options *t, bench_timing_options defaults);

#endif
