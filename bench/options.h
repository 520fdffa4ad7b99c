/* options.h: spd_bench's command line. */
#ifndef BENCH_OPTIONS_H
#define BENCH_OPTIONS_H

#include <stdint.h>

#include "args.h"
#include "results.h"

#define BENCH_MAX_SIZES 32u

typedef struct {
    uint32_t sizes[BENCH_MAX_SIZES][2];
    uint32_t size_count;
    spdrt_format formats[4];
    uint32_t format_count;
    spd_op ops[2];
    uint32_t op_count;
    uint32_t subgroups[BENCH_MAX_VARIANTS]; /* empty: 0, 4 and the device's own size */
    uint32_t subgroup_count;
    char variants[16][128];          /* --variants: spdgen flags, each with "@K" tiles per
                                        workgroup or not; they replace the planned variants */
    uint32_t variant_count;
    int tiles;                       /* --tiles: the tile sweep instead of the usual one */
    int phases;                      /* --phases: time each prefix of the chain instead */
    bench_common_options common;     /* --quick, --validate, timing, --json .. --device */
} bench_options;

/* 0: run; 1: --help was printed (exit 0); 2: usage error, printed (exit 2). */
int bench_options_parse(int argc, char **argv, bench_options *o);

#endif
