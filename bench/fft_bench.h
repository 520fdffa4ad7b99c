/* fft_bench.h: the FFT benchmark (issue 5, FFT part; bench/README.md, "The FFT benchmark").
 *
 *   fft_bench.c    command line, device, the sweep: per group the floor, every variant, the
 *                  floor again; the exit status
 *   fft_kernels.c  spdgen --fft runs (SPIR-V, contract header, plan file), pipelines bound
 *                  to the benchmark's buffers, the recorded dispatches
 *   fft_check.c    the input (a counter-based hash, so any row can be made again on the
 *                  host), the double reference and the checks of a run's output
 *   fft_report.c   markdown and JSON
 *
 * Groups: batched 1D complex fp32 forward FFTs of N points (512 MiB of input per
 * transform: batch = 512 MiB / 8N rows), and a 1024 x 2048 2D transform, complex and with
 * real input (--real rows). Every group is timed against a compute copy of its bytes (the
 * floor, bench/shaders/copy.comp through kernels.c) with bench/gpu.c's harness. */
#ifndef BENCH_FFT_BENCH_H
#define BENCH_FFT_BENCH_H

#include <stdio.h>

#include "args.h"
#include "gpu.h"
#include "run_info.h"
#include "spdrt_fft.h"
#include "tools.h"

#define FFT_BENCH_MAX_SIZES 24u
#define FFT_BENCH_MAX_VARIANTS 24u
#define FFT_BENCH_MAX_PAIRS 32u      /* (E, W) pairs spdgen lists for one N (3000 has 15; a Rader prime both lists) */
#define FFT_BENCH_MAX_SUBGROUPS 6u
#define FFT_BENCH_2D_ROWS 1024u  /* the 2D transform: 1024 rows of 2048 complex values */
#define FFT_BENCH_2D_COLS 2048u
/* The largest N one dispatch holds with spdgen's default --max-wg 1024 (16 x W); longer
 * transforms are four-step plans (docs/fft.md, "Four-step plans"). */
#define FFT_BENCH_SINGLE_MAX 16384u

typedef enum { FFT_GROUP_1D, FFT_GROUP_2D, FFT_GROUP_2D_REAL } fft_group_kind;

/* Which path spdgen takes for a length (docs/fft.md, "Lengths beyond powers of two"):
 * powers of two; mixed radix for N with no prime factor above 31; Rader or Bluestein for the
 * rest. Decides the variants, the error bars and the target. */
/* RADER: a prime whose N - 1 is smooth (spdgen's --prime picks Rader or Bluestein);
 * BLUESTEIN: any other N with a prime factor above 31. */
typedef enum { FFT_LENGTH_POW2, FFT_LENGTH_SMOOTH, FFT_LENGTH_RADER, FFT_LENGTH_BLUESTEIN } fft_length_kind;
fft_length_kind fft_length_kind_of(uint32_t n); /* fft_check.c */

/* One run's output against what it must be. */
typedef struct {
    bench_status status;
    double rel_l2, max_rel;          /* against the double reference: sampled rows (1D), the
                                        whole output (2D) */
    double bound_rel_l2, bound_max_rel;
    double parseval, parseval_bound; /* 1D, every row: |sum |X|^2 - N sum |x|^2| / (N sum |x|^2),
                                        the worst row */
    uint64_t values;                 /* complex values read back (all of the output) */
    uint64_t non_finite;             /* floats of it NaN or infinite (the output is NaN-filled
                                        before each variant) */
    uint32_t rows_compared;          /* rows against the reference */
    char what[200];
    char first[256];                 /* why it failed */
} fft_check;

/* What to ask spdgen for. */
typedef struct {
    uint32_t n;
    uint32_t ept, wg;                /* 0, 0: spdgen derives them (its default shape) */
    uint32_t subgroup;
    uint32_t max_wg;                 /* 0: spdgen's default (1024) */
    int strided, real;
    uint32_t rows_per_wg;            /* --rows-per-wg; 0: not given (spdgen's default) */
    uint32_t prefetch_rows;          /* --prefetch-rows; 0: not given (spdgen's default) */
    int lut;                         /* --twiddles lut (a host-made table, binding 2) */
    const char *twiddles;            /* --twiddles device | squared (squared: half the stage
                                        polynomials); NULL: spdgen's default */
    int paired;                      /* --shared-layout paired (one float2 array) */
    const char *column_layout;       /* --column-layout; NULL: not given (spdgen's default) */
    const char *columns_per_wg;      /* --columns-per-wg ("4", or "4,8" for a plan's two
                                        passes); NULL: not given (spdgen's default) */
} fft_request;

typedef struct {
    fft_request req[2];              /* 1D: [0]; 2D: rows, columns */
    uint32_t requests;
    int is_default;                  /* spdgen --fft N with nothing else (the default choice) */
    int plan;                        /* spdgen made a four-step plan */
    char command[320];               /* the spdgen arguments ("spdgen ... + spdgen ..." for 2D) */
    char shape[256];                 /* what spdgen made: E x W, S; per pass for plans */
    bench_timing time;
    fft_check check;
    fft_check runtime_check;         /* plans: spdrt_fft_plan_load + spdrt_fft_plan_run */
    uint32_t dispatches;             /* 2 for a plan or a 2D transform, else 1 */
    bench_timing dispatch_time[2];   /* with 2: each dispatch timed alone, after the checks */
    int best;                        /* the fastest correct variant of its group */
} fft_variant;

typedef struct {
    fft_group_kind kind;
    uint32_t n;                      /* 1D: N; 2D: the row length */
    uint32_t rows;                   /* 2D: the column length; 1D: 0 */
    uint32_t batch;                  /* 1D: transforms (rows); 2D: 1 */
    uint64_t in_bytes, out_bytes;
    uint64_t bytes;                  /* in + out: what GB/s counts */
    uint64_t copy_bytes;             /* the floor copies this (reads it, writes it) */
    char batch_note[200];            /* why the batch is smaller than asked */
    bench_timing floor, floor_first, floor_last;
    fft_variant variants[FFT_BENCH_MAX_VARIANTS];
    uint32_t variant_count;
    char error[256];
} fft_group;

typedef struct {
    uint32_t sizes[FFT_BENCH_MAX_SIZES];
    uint32_t size_count;
    uint32_t subgroups[FFT_BENCH_MAX_SUBGROUPS]; /* empty: 0, 4 and the device's size */
    uint32_t subgroup_count;
    uint32_t sweep;                  /* (E, W) or --max-wg alternatives per N */
    uint32_t pairs;                  /* N not a power of two: other --ept/--wg pairs per N */
    uint32_t rows[4];                /* N not a power of two: --rows-per-wg values to time */
    uint32_t row_count;
    uint32_t batch_mib;              /* input per 1D transform */
    uint32_t sample_rows;            /* most rows per 1D group against the reference */
    int two_d;
    uint64_t seed;
    bench_common_options common;     /* --quick, --validate, timing, --json .. --device */
} fft_options;

typedef struct {
    bench_run_info run;              /* the device, spdgen, the date, the timing settings */
    uint32_t batch_mib;              /* input per 1D transform (--batch-mib) */
    double seconds;                  /* wall time of the sweep */
    fft_group *groups;
    uint32_t group_count;
    char error[256];
} fft_report;

/* ---- fft_kernels.c ------------------------------------------------------------------- */

/* What spdgen wrote for one request: one shader, or the two passes of a plan. */
typedef struct {
    int plan;
    uint32_t passes;                 /* 1 or 2 */
    spdrt_fft_config config[2];      /* each pass as the runtime builds it */
    uint32_t ept[2];
    uint32_t ffts_per_transform[2];  /* plans: FFTs per N-point transform */
    int rows_in_turn;                /* rows per workgroup one after another (--prefetch-rows) */
    uint32_t *spirv[2];
    size_t words[2];
    spdrt_fft_config whole;          /* the transform */
    char plan_path[BENCH_PATH_MAX + 32]; /* plans: the plan file, until fft_shader_free */
    char files[5][BENCH_PATH_MAX + 32];  /* everything spdgen wrote, removed by fft_shader_free */
} fft_shader;

/* Runs `spdgen <args> --target spirv -o DIR/NAME.spv --emit-header DIR/NAME.h` in the
 * spdgen's private directory and reads back what it made. `command` receives the arguments
 * as the report shows them (appended to what it holds). 0, or -1 with err set. */
int fft_generate(bench_spdgen *g, const fft_request *r, const char *name, fft_shader *out,
                 char *command, size_t command_size, char *err, size_t err_size);
/* The --ept/--wg pairs that make a plan of N (not a power of two), as spdgen lists them when
 * it refuses a pair that makes none: pairs[i] = {E, W}. The count (at most max), or -1 with
 * err set. */
int fft_valid_pairs(bench_spdgen *g, uint32_t n, uint32_t (*pairs)[2], uint32_t max, char *err,
                    size_t err_size);
void fft_shader_free(fft_shader *s);
/* "E 4 x W 256, S 32", or per pass for a plan. */
void fft_shader_shape(const fft_shader *s, char *out, size_t size);

/* Up to two dispatches with a barrier between (a plan's passes, or 2D rows then columns). */
typedef struct {
    spdrt_context *ctx;
    spdrt_fft_pipeline *pipe[2];
    uint32_t push[2][4];
    uint32_t groups[2];
    uint32_t count;
    uint32_t alone;                  /* 0: every dispatch; i + 1: dispatch i alone (its own time) */
} fft_kernel;

/* Appends the shader's dispatches to k: one shader reads src and writes dst (`count` FFTs,
 * strides 0 = packed); a plan's pass 1 reads src into scratch and pass 2 writes dst.
 * UNSUPPORTED where the device cannot run it (subgroups, a grid beyond its limits). */
spdrt_result fft_kernel_add(fft_kernel *k, const fft_shader *s, const spdrt_buffer *src,
                            const spdrt_buffer *scratch, const spdrt_buffer *dst, uint32_t count,
                            uint32_t in_stride, uint32_t out_stride);
void fft_kernel_record(VkCommandBuffer cb, void *user); /* user = fft_kernel */
void fft_kernel_destroy(fft_kernel *k);

/* ---- fft_check.c --------------------------------------------------------------------- */

/* Input float i of the stream every group reads from the start of its input buffer: the
 * runtime's test data (spdrt_random_float) in [-1, 1), a hash of (seed, i). */
float fft_input_value(uint64_t seed, uint64_t i);
void fft_input_fill(uint64_t seed, float *out, uint64_t first, uint64_t count);

/* What a 1D group's output must be: the reference of some rows, every row's input energy. */
typedef struct {
    uint32_t n, batch;
    int bluestein;                   /* N takes Bluestein's path: its wider relative L2 bar */
    uint32_t *rows;                  /* the rows compared with the reference, ascending */
    uint32_t row_count;
    double *expected;                /* row_count x 2n */
    double *energy;                  /* batch: sum |x|^2 of each input row */
} fft_reference_1d;

int fft_reference_1d_make(uint64_t seed, uint32_t n, uint32_t batch, uint32_t max_rows,
                          fft_reference_1d *out);
void fft_reference_1d_free(fft_reference_1d *r);
/* out: the whole output, batch rows of n complex values. */
void fft_check_1d(const fft_reference_1d *r, const float *out, fft_check *c);

/* The 2D transforms' whole reference (rows x cols complex, or with real input rows x cols/2
 * complex half spectra, element 0 of each row packing X[0] and X[cols/2], then the column
 * FFTs of that), in double. */
double *fft_reference_2d(uint64_t seed, uint32_t rows, uint32_t cols, int real);
void fft_check_2d(const double *expected, const float *out, uint64_t complex_values,
                  fft_check *c);

/* ---- fft_report.c -------------------------------------------------------------------- */

void fft_report_mark_best(fft_report *r);
void fft_report_markdown(const fft_report *r, FILE *out);
void fft_report_json(const fft_report *r, FILE *out);
/* Failed timings, failed checks, failed groups: the run fails if this is not 0. */
uint32_t fft_report_failures(const fft_report *r);

#endif
