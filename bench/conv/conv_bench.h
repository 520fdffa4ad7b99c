/* conv_bench.h: what conv_bench.c measures and conv_report.c writes (the markdown table and
 * the JSON). */
#ifndef BENCH_CONV_BENCH_H
#define BENCH_CONV_BENCH_H

#include "results.h"
#include "run_info.h"

#define CONV_MAX_CASES 8
#define CONV_MAX_ROWS (CONV_MAX_CASES * 4)

/* One measured job: a case (image, PSF) with one spectrum and one storage. */
typedef struct {
    uint32_t width, height, psf;
    int exact, f16;
    uint32_t padded_width, padded_height, spectrum_width, spectrum_height;
    int first_axis_y;
    char command[320];            /* the spdgen arguments */
    uint64_t bytes[3];            /* each pass's bytes: every value it must read and write once */
    uint64_t floor_bytes[3];      /* what its floor moves, read + written (bytes, rounded) */
    bench_timing pass[3], floor[3], pipeline;
    /* The check after timing: a whole run against the CPU reference on `samples` pixels. */
    uint32_t samples;
    double max_err, max_ref, bound; /* bound: of max_err / max_ref */
    int checked;                  /* 1 ok, 0 mismatch or not run */
    char note[256];               /* why a row failed */
    char statistics[1024];        /* the driver's statistics of the job's five pipelines
                                     (spectrum1, spectrum2, pass1, pass2, pass3), or empty */
} conv_row;

typedef struct {
    bench_run_info run;
    conv_row rows[CONV_MAX_ROWS];
    uint32_t row_count;
    char extra[256];              /* --spdgen-args, given to every job */
    char error[512];
} conv_report;

void conv_report_markdown(const void *report, FILE *out);
void conv_report_json(const void *report, FILE *out);

#endif
