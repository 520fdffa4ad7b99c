/* fft.h: the --fft kernel's parameters, as its option table (fft.c) fills them and its
 * check (fft_check.c) resolves them, and the shape of a four-step plan. */
#ifndef SPDGEN_FFT_H
#define SPDGEN_FFT_H

#include "fft_radix.h"
#include "kernel.h"

/* Largest elements per invocation (--ept, and --ept x --rows-per-wg): 64 complex values. */
#define SG_FFT_MAX_EPT 64
/* The default shape's elements per invocation; one dispatch holds N <= 16 x --max-wg. */
#define SG_FFT_DEFAULT_EPT 16
/* Longest transform (beyond one dispatch, as a four-step plan). */
#define SG_FFT_MAX_N (1L << 20)
/* The most shaders of a plan: two for a four-step plan, three for Bluestein's. */
#define SG_FFT_MAX_PASSES 3

enum { SG_FFT_FORWARD, SG_FFT_INVERSE };
enum { SG_FFT_NORM_INVERSE, SG_FFT_NORM_NONE, SG_FFT_NORM_UNITARY };
enum { SG_FFT_ORDER_NATURAL, SG_FFT_ORDER_NATIVE };
enum { SG_FFT_STORAGE_F32, SG_FFT_STORAGE_F16 };
/* SQUARED: DEVICE, with every other register stage's twiddle the square of the one before. */
enum { SG_FFT_TWIDDLES_DEVICE, SG_FFT_TWIDDLES_LUT, SG_FFT_TWIDDLES_SQUARED };
enum { SG_FFT_SHARED_SPLIT, SG_FFT_SHARED_PAIRED };
enum { SG_FFT_COLUMNS_LANES, SG_FFT_COLUMNS_REGISTERS };
/* --prime: AUTO, Rader where it applies and the planner's estimate finds it cheaper; RADER;
 * BLUESTEIN. */
enum { SG_FFT_PRIME_AUTO, SG_FFT_PRIME_RADER, SG_FFT_PRIME_BLUESTEIN };
/* --bluestein-m: AUTO, the cheaper by the planner's estimate; POW2, the power of two >= 2N - 1;
 * SMOOTH, the cheapest 2^a 3^b 5^c 7^d from 2N - 1 to 20% above it. */
enum { SG_FFT_BLUESTEIN_AUTO, SG_FFT_BLUESTEIN_POW2, SG_FFT_BLUESTEIN_SMOOTH };

typedef struct {
    long n;                  /* --fft N */
    long ept;                /* --ept E (resolved) */
    long wg;                 /* --wg W (resolved) */
    long max_wg;             /* --max-wg */
    long subgroup;
    int direction, norm, order, storage, twiddles, shared_layout;
    int strided;             /* --stride */
    int real;                /* --real */
    long rows_per_wg;        /* --rows-per-wg (resolved) */
    long prefetch_rows;      /* --prefetch-rows (resolved) */
    int column_layout;       /* --column-layout (resolved where it applies) */
    long columns_per_wg[2];  /* --columns-per-wg C or C1,C2 */
    int columns_values;      /* how many --columns-per-wg gave */
    long batch;              /* --batch: FFTs --selftest runs */
    int bluestein_choice;    /* --bluestein-m (SG_FFT_BLUESTEIN_*; resolved to POW2 or SMOOTH) */
    int prime_choice;        /* --prime (SG_FFT_PRIME_*) */

    /* Derived. lanes: this shader's columns in lanes (0: registers, or rows). */
    long lanes;
    /* A four-step plan (passes = 2, else 0): pass p runs FFTs of pass_n[p] points with
     * pass_ept[p] x pass_wg[p], pass_lanes[p] columns in lanes; the scratch between the
     * passes is in tiles of scratch_tile frequencies. Bluestein beyond one dispatch: passes =
     * 3 over its M = pass_n[0] x pass_n[1] points (pass_n[2] = pass_n[0]). */
    int passes;
    long pass_n[SG_FFT_MAX_PASSES], pass_ept[SG_FFT_MAX_PASSES], pass_wg[SG_FFT_MAX_PASSES],
        pass_lanes[SG_FFT_MAX_PASSES];
    long scratch_tile;

    /* Lengths that are not powers of two (fft_check_mixed.c): the path (SG_FFT_PATH_*), the
     * stages of the one shader or of each pass, and Bluestein's convolution length M (the
     * shader's E x W and stages are those of its M-point FFTs). Rader in one dispatch (a prime
     * N, path BLUESTEIN, bluestein_m 0): its primitive root; E x W and the stages are those of
     * its N - 1 point FFTs. */
    int path;
    sg_fft_stages stages, pass_stages[SG_FFT_MAX_PASSES];
    long bluestein_m;
    long rader_root;
    /* Shared memory per exchange round of the mixed-radix planner: 0 for its default (32 KB),
     * or less where complex rows take smaller rounds (fft_check_mixed.c, SMALL_ROUND_BYTES),
     * and then the largest E their default shape may take (round_max_e; unused with a given
     * --ept/--wg). */
    long round_bytes, round_max_e;
} sg_fft_params;

/* Positions in the option table (fft.c), for sg_given(). */
enum {
    FFT_OPT_FFT, FFT_OPT_EPT, FFT_OPT_WG, FFT_OPT_MAX_WG, FFT_OPT_SUBGROUP, FFT_OPT_DIRECTION,
    FFT_OPT_NORM, FFT_OPT_ORDER, FFT_OPT_STORAGE, FFT_OPT_STRIDE, FFT_OPT_REAL,
    FFT_OPT_COLUMN_LAYOUT, FFT_OPT_COLUMNS, FFT_OPT_ROWS, FFT_OPT_PREFETCH, FFT_OPT_TWIDDLES,
    FFT_OPT_SHARED, FFT_OPT_BATCH, FFT_OPT_BLUESTEIN_M, FFT_OPT_PRIME
};

extern const char *const sg_fft_directions[], *const sg_fft_norms[], *const sg_fft_orders[],
    *const sg_fft_storages[], *const sg_fft_twiddle_kinds[], *const sg_fft_shared_layouts[],
    *const sg_fft_column_layouts[], *const sg_fft_bluestein_ms[], *const sg_fft_primes[];

int sg_fft_check(sg_run *run);
int sg_fft_check_mixed(sg_run *run);
/* The WebGPU rules of --target wgsl (fft_wgsl.c): --max-wg within the device's invocations,
 * shuffles' feature. */
int sg_fft_wgsl_check(sg_run *run);
int sg_fft_plan(const sg_run *run, struct sg_job *job);
void sg_fft_job_contract(const sg_run *run, const struct sg_job *job, struct sg_contract *out);
char *sg_fft_manifest(const sg_run *run, const struct sg_job *job);
void sg_fft_header(sg_text *out, const sg_run *run, const struct sg_job *job, const char *prefix,
                   const char *fn);
int sg_fft_selftest(const sg_run *run, const struct sg_job *job);

#endif
