/* conv_bench.h: the FFT convolution benchmark (issue 24; bench/README.md, "The convolution
 * benchmark").
 *
 *   conv_bench.c   command line, device, the sweep, the exit status
 *   conv_case.c    one job: spdgen --conv, the job kept on the device (runtime/conv's
 *                  conv_job), the pipeline and each pass timed with bench/gpu.c's harness,
 *                  the floor of each one's bytes, the check against the CPU reference
 *   conv_report.c  markdown and JSON
 *
 * Every job: 3 channels, an rgba16f image in and out, the composite (src + 0.3 (conv -
 * src)), a random PSF normalized by set_kernel (its spectrum computed once, untimed). */
#ifndef BENCH_CONV_BENCH_H
#define BENCH_CONV_BENCH_H

#include <stdio.h>

#include "args.h"
#include "gpu.h"
#include "run_info.h"
#include "tools.h"

#define CONV_BENCH_MAX_CASES 8u
#define CONV_BENCH_MAX_JOBS 64u
#define CONV_BENCH_SAMPLES 256u  /* pixels compared with the reference per job */

typedef struct {
    uint32_t width, height, psf;     /* the image and a psf x psf PSF */
} conv_case;

/* The rows of one job: each pass alone, then the pipeline (the three passes with their
 * barriers, what a frame pays), then, for a resampled spectrum, the resample alone (what a
 * change of psf_scale or of the PSF adds; not in the pipeline). */
enum { CONV_ROW_PASS1, CONV_ROW_PASS2, CONV_ROW_PASS3, CONV_ROW_PIPELINE, CONV_ROW_RESAMPLE, CONV_ROWS };
/* Whether job j has row `row` (an exact spectrum has no resample). */
#define CONV_ROW_PRESENT(j, row) ((row) != CONV_ROW_RESAMPLE || !(j)->exact)

/* The output of the last timed pipeline run against the reference. */
typedef struct {
    bench_status status;
    uint32_t samples;                /* pixels compared (3 channels each) */
    double max_rel, bound;           /* max |got - ref| / max |ref| over them, and its bar */
    uint64_t non_finite;             /* output values NaN or infinite, all of the output (it
                                        was NaN-filled before the first run) */
    char what[160];                  /* the reference */
} conv_check;

typedef struct {
    conv_case c;
    int exact;                       /* --spectrum exact, else resampled */
    int f16;                         /* --storage f16 */
    uint32_t subgroup;               /* --subgroup */
    const char *variant;             /* extra spdgen flags (--variants), "" for none */
    char command[416];               /* the spdgen arguments */
    uint32_t padded_width, padded_height, first_axis_y;
    uint64_t bytes[CONV_ROWS];       /* what each row must move at least (the pipeline: the sum) */
    bench_timing time[CONV_ROWS];
    bench_timing floor[CONV_ROWS];   /* a compute copy of the same bytes (half read, half written) */
    conv_check check;
    char error[256];                 /* a failure before the timings */
} conv_job_result;

typedef struct {
    bench_common_options common;
    conv_case cases[CONV_BENCH_MAX_CASES];
    uint32_t case_count;
    int spectra[2], spectrum_count;  /* 0 resampled, 1 exact */
    int storages[2], storage_count;  /* 0 f32, 1 f16 */
    uint32_t subgroups[4], subgroup_count; /* UINT32_MAX: the device's */
    char variants[8][160];           /* extra spdgen flags per variant ("" the defaults) */
    uint32_t variant_count;
    int passes_after;                /* --passes after: pass k timed after passes 1..k-1 */
} conv_options;

typedef struct {
    bench_run_info run;
    conv_job_result jobs[CONV_BENCH_MAX_JOBS];
    uint32_t job_count;
    double seconds;
    int passes_after;                /* how the pass rows were timed (--passes) */
} conv_report;

/* Everything a job needs from the program: the device, the harness, spdgen, the floor's
 * kernel. */
typedef struct {
    spdrt_context *ctx;
    bench_gpu gpu;
    bench_spdgen spdgen;
    uint32_t *copy_spv;              /* copy.spv, the floor */
    size_t copy_words;
    int passes_after;                /* --passes after */
} conv_bench;

/* conv_case.c: generates, times and checks one job into *r (r->c, exact, f16 and subgroup
 * set by the caller). 0, or -1 when anything failed (r says what). */
int conv_bench_job(conv_bench *b, conv_job_result *r);

/* conv_report.c */
void conv_report_markdown(const void *report, FILE *out);  /* a conv_report */
void conv_report_json(const void *report, FILE *out);
/* Jobs with an error, a failed timing or a failed check. */
uint32_t conv_report_failures(const conv_report *r);

#endif
