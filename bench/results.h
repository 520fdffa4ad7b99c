/* results.h: every figure the SPD benchmark measures, as the sweep fills it in and the
 * report prints it. Nothing here is computed twice: GB/s, % of floor and speed-ups are
 * derived in report.c from these medians and byte counts. */
#ifndef BENCH_RESULTS_H
#define BENCH_RESULTS_H

#include <stdint.h>

#include "run_info.h"
#include "spdrt_spd.h"
#include "spdrt.h"

#define BENCH_MAX_LEVELS 16u
#define BENCH_MAX_VARIANTS 28u

typedef enum {
    BENCH_NOT_RUN = 0, /* not attempted (an earlier step of its group failed) */
    BENCH_OK,
    BENCH_SKIPPED,     /* cannot run on this device or by definition; `note` says why */
    BENCH_FAILED       /* an error or a wrong result; `note` says what */
} bench_status;

/* GPU time of one measured thing (bench/gpu.h says exactly how it is taken):
 *   median_us, min_us, max_us  one repetition each, caches scrubbed before each (unless the
 *                              scrub is off): median, fastest and slowest of `samples`
 *   b2b_us                     back to back: the interval over b2b_runs consecutive runs
 *                              (a barrier after each) divided by b2b_runs; 0 = not measured */
typedef struct {
    bench_status status;
    double median_us, min_us, max_us;
    uint32_t samples;
    double b2b_us;
    uint32_t b2b_runs;
    char note[256];
    char driver_statistics[2048]; /* the driver's statistics of the pipeline(s) timed
                                    (registers, ...; bench_take_statistics), or empty */
} bench_timing;

/* A comparison of read-back texels with what they must be. */
typedef struct {
    bench_status status;
    uint64_t values;      /* channel values compared */
    uint64_t mismatches;  /* outside the bound */
    uint64_t unwritten;   /* equal to the sentinel the levels were cleared to */
    double max_error, bound; /* half: the bound of the last level (each level has its own) */
    int half;             /* spdgen --half (fp16 math): level k within spd_ref_bound_level(k),
                             which grows with k; set before bench_verify_spd */
    int sampler_linear;   /* spdgen --sampler linear: spd_ref_bound_level adds one unit for
                             rgba8 (the filter's rounding); set before bench_verify_spd */
    char what[320];       /* what was compared against what */
    char first[200];      /* the first mismatch, with both values */
} bench_check;

typedef enum {
    BENCH_SPDGEN = 0,     /* a shader spdgen made (the fields below say which) */
    BENCH_FFX,            /* FidelityFX SPD 2.0, texel loads, fp32 (bench/peers/) */
    BENCH_FFX_PACKED      /* FidelityFX SPD 2.0's packed fp16 path */
} bench_maker;

typedef struct {
    bench_maker maker;    /* a peer's rows are timed and checked alike, never marked best */
    uint32_t passes;      /* a peer's dispatches */
    int is_default;       /* what `spdgen --spd --op --format --max-size` alone gives, with
                             libspdrt's default tiles per workgroup */
    uint32_t subgroup;    /* spdgen --subgroup */
    int sampler_linear;   /* spdgen --sampler linear (mean) */
    int normalized;       /* spdgen --sampler-coords normalized (power-of-two sizes) */
    int half;             /* spdgen --half: fp16 math (16-bit float formats) */
    int hierarchy;        /* spdgen --tail hierarchy: the level-6 regions reduced in parallel */
    uint32_t fetch_ahead; /* spdgen --fetch-ahead N: next-tile fetches issued early */
    uint32_t tiles_per_workgroup; /* the push constant (grid x = ceil(tiles x / it)) */
    char extra[128];      /* spd_bench --variants: the flags as given (the fields above
                             then hold only what the bench needs to know of them) */
    char command[256];    /* the spdgen arguments that made the shader */
    bench_timing time;
    bench_check check;
    int best;             /* the fastest correct variant of its (size, format, op) */
} bench_variant;

typedef struct {
    spd_op op;
    bench_variant variants[BENCH_MAX_VARIANTS];
    uint32_t variant_count;
    bench_timing per_level;   /* one compute dispatch per level */
    bench_check per_level_check;
    int blit_linear;          /* 1: VK_FILTER_LINEAR (mean); 0: NEAREST, which is not a max */
    bench_timing blit;        /* one vkCmdBlitImage and one barrier per level */
    bench_check blit_check;
} bench_op_result;

/* One (size, format): the floor and references are shared by both ops. */
typedef struct {
    uint32_t width, height;
    spdrt_format format;
    uint32_t levels;          /* levels 1..levels are written */
    char max_size[32];        /* spdgen --max-size */
    char levels_note[160];    /* why fewer than the full chain, or empty */
    uint64_t bytes;           /* level 0 + levels 1..levels, in the format's bytes */
    uint64_t floor_bytes;     /* what the floor copy moves, read + written (>= bytes, rounded) */
    bench_timing floor;       /* compute vec4 copy: both runs below pooled (median of all
                               * their repetitions; b2b the mean of both) */
    bench_timing floor_first, floor_last; /* the copy timed first and last in the group */
    uint64_t shaped_read_bytes, shaped_write_bytes; /* level 0 and the mips, rounded to 16 */
    bench_timing shaped;      /* the SPD-shaped floor: reads level 0's bytes, writes the mips' */
    bench_timing copy_buffer; /* vkCmdCopyBuffer of the same bytes */
    bench_op_result ops[2];
    uint32_t op_count;
    char error[256];          /* a failure of the group as a whole */
    char skipped[256];        /* why the device cannot run this (size, format) at all */
} bench_group;

typedef struct {
    bench_run_info run;       /* the device, spdgen, the date, the timing settings */
    bench_group *groups;
    uint32_t group_count;
    char error[256];          /* a failure before or outside the groups */
} bench_report;

/* spdgen's --op spelling. */
static inline const char *bench_op_name(spd_op op) {
    return op == SPD_OP_MAX ? "max" : op == SPD_OP_MIN ? "min" : "mean";
}

#endif
