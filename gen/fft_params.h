/* fft_params.h: the parameters of the --fft kernel, filled by fft_cli.c. Kept apart from
 * config.h so the FFT's options live with the FFT (gen/fft_cli.c, templates/fft.lua). */
#ifndef SPDGEN_FFT_PARAMS_H
#define SPDGEN_FFT_PARAMS_H

/* Largest elements per invocation (--ept, and --ept x --rows-per-wg): 64 complex values, 128
 * floats in registers. */
#define SG_FFT_MAX_EPT 64
/* The default shape's elements per invocation (four butterfly stages per exchange, 16 loads
 * in flight per invocation), and what bounds one dispatch: N <= 16 x --max-wg (16384 at 1024);
 * longer transforms are four-step plans. */
#define SG_FFT_DEFAULT_EPT 16
/* Complex row FFTs whose E = 16 shape would need more invocations than this keep this many
 * and raise E instead (up to SG_FFT_MAX_EPT): fewer, larger register passes, so fewer
 * shared-memory exchanges. Measured on the H200 (bench/FFT_RESULTS.md), against E = 16:
 * N = 8192 E 32 x W 256 77% of the copy floor against 69% (two exchanges instead of three);
 * N = 16384 E 64 x W 256 84.9% against 53% (two instead of five). At N = 4096, E 32 x W 128 was
 * slower (47% against 62%), hence the threshold. */
#define SG_FFT_WIDE_WG 256
/* Largest transform length spdgen accepts (beyond one dispatch, as a four-step plan). */
#define SG_FFT_MAX_N (1L << 20)

typedef enum { SG_FFT_FORWARD, SG_FFT_INVERSE } sg_fft_direction;
/* The zero value of each enum is its default (cli.c zeroes the config). */
typedef enum { SG_FFT_NORM_INVERSE, SG_FFT_NORM_NONE, SG_FFT_NORM_UNITARY } sg_fft_norm;
typedef enum { SG_FFT_ORDER_NATURAL, SG_FFT_ORDER_NATIVE } sg_fft_order;
typedef enum { SG_FFT_STORAGE_F32, SG_FFT_STORAGE_F16 } sg_fft_storage;
/* SQUARED: DEVICE, with every other register stage's twiddle the square of the one before. */
typedef enum { SG_FFT_TWIDDLES_DEVICE, SG_FFT_TWIDDLES_LUT, SG_FFT_TWIDDLES_SQUARED } sg_fft_twiddles;
/* Where the columns of a column FFT sit (--column-layout): AUTO = lanes where the derived C
 * reaches SG_FFT_LANES_MIN, else registers. */
typedef enum { SG_FFT_COLUMNS_AUTO, SG_FFT_COLUMNS_LANES, SG_FFT_COLUMNS_REGISTERS } sg_fft_column_layout;

/* Columns in lanes by default: up to 16 (16 x 8 bytes, a 128-byte line per load of a
 * subgroup), and the lanes layout only where at least 8 fit in --max-wg. */
#define SG_FFT_LANES_DEFAULT 16
#define SG_FFT_LANES_MIN 8
/* A four-step plan's passes: 4 columns in lanes in each (32-byte segments where a pass
 * reads or writes columns), with the scratch in tiles of 4 (plan_scratch_tile). Measured on
 * the H200 (bench/FFT_RESULTS.md, each pass timed alone, N = 32768 and 65536): pass 1 at
 * 81% of the copy floor with 4 columns, 72% with 8; pass 2 at 91% with 4 or 8 and 85% or
 * less with 16. Before the tiles (scratch in rows) pass 2 read columns too: 71% with 4. */
#define SG_FFT_PLAN_LANES_DEFAULT 4
/* The scratch is tiled by pass 2's columns (see plan_scratch_tile) where pass 1's stores
 * then still write runs of at least this many complex values (128 bytes). */
#define SG_FFT_TILE_MIN_RUN 16
/* --shared-layout default: paired (one float2 array, one 64-bit access per value) from this
 * N, split below. Measured on the H200 (bench/FFT_RESULTS.md): paired 12% faster at N = 8192
 * and 16384, 1-2% at 1024 and 4096, equal in the four-step plans; split 4% faster at 256. */
#define SG_FFT_PAIRED_FROM_N 1024
/* --prefetch-rows default: 2 for complex rows in the default shape at E = 16 with W = 64..256
 * (N = 1024..4096) that hold one row in registers (4096 without shuffles holds two:
 * SG_FFT_WIDE_ROWS below), else 1. Measured on the H200 (bench/FFT_RESULTS.md), against one row at a
 * time: N = 1024 95.4% -> 99.5% of the copy floor, 2048 88.7% -> 94.7%, 4096 62.4% -> 74.0%
 * (108 registers against 70 there: 2 workgroups per SM instead of 3); 4 rows were slower than
 * 2 at 4096 (69.8%), and N = 256 (E = 8) gained 1%, within the noise. A knock-out run placed
 * the cost: with the shared-memory exchanges left out the 4096 shader reached the floor, so
 * the exchanges' barriers hold each workgroup's loads back, and the prefetch overlaps them. */
#define SG_FFT_PREFETCH_DEFAULT 2
#define SG_FFT_PREFETCH_MIN_WG 64
/* --rows-per-wg defaults (rows in registers, for complex rows in the default shape), measured on
 * the H200 (bench/FFT_RESULTS.md). Short rows (E <= 4, N <= 128) get SG_FFT_SHORT_ROW_VALUES / E
 * rows, so each invocation holds 8 values: N = 64 (E 2 x W 32) with 4 rows took 97.1% of the
 * copy floor at --subgroup 32 against 89.0% with 8 rows and 80.3% with 2 (75.6% against 72.6%
 * with 8 at --subgroup 0); N = 128 (E 4) with 2 rows 91.6% (S 32) and 90.1% (S 0) against
 * 84.2% and 77.9% with 4. */
#define SG_FFT_SHORT_ROW_VALUES 8
/* At W = SG_FFT_WIDE_WG with E = 16 or 32 (N = 4096, 8192): SG_FFT_WIDE_ROWS rows in registers
 * (32 or 64 values per invocation; N = 16384's E 64 x W 256 holds 64), so each exchange round
 * moves both rows behind one barrier and twice the loads are in flight: N = 4096 78.7% of the
 * floor against 74.0% with two rows in turn (--prefetch-rows 2), 8192 84.3% against 76.9%;
 * with --subgroup 4 and 32 at 8192, and 4 at 4096, also faster. Not at 4096 with --subgroup 32
 * (43.7% against 52.4% in turn), which keeps rows in turn. Stacked rows were much slower at
 * W = 64 and 128 (N = 1024 63% against 99.9%, 2048 50% against 95%), so those keep rows in
 * turn too. */
#define SG_FFT_WIDE_ROWS 2
/* N = 4096 at --subgroup 0 holds SG_FFT_4096_ROWS rows in registers, with squared twiddles
 * (SG_FFT_SQUARED_FROM_N..SG_FFT_SQUARED_TO_N below): 86.6% and 86.1% of the floor in two
 * H200 runs against 78.5% and 78.6% with 2 rows and computed twiddles. Neither change alone
 * helps there (4 rows 78.1%, 2 rows squared 64.9%): NVIDIA's compiler schedules the pair
 * differently (238 registers against 242). --subgroup 4 keeps SG_FFT_WIDE_ROWS (4 rows not
 * measured with quad swaps). */
#define SG_FFT_4096_ROWS 4
/* --twiddles default: squared for complex rows in the default shape at --subgroup 0 where it
 * was measured faster on the H200 (bench/FFT_RESULTS.md; two runs each): N = 2048 (rows in
 * turn) 97.1% and 97.2% of the floor against 95.1% and 95.0%, and N = 4096 with
 * SG_FFT_4096_ROWS rows (above); else device. 1024 and 16384 tie (100.1% against 99.9%,
 * 85.3% against 84.9-85.1%), so they keep the device twiddles, about one ulp more accurate. */
#define SG_FFT_SQUARED_FROM_N 2048
#define SG_FFT_SQUARED_TO_N 4096

typedef struct {
    long n;                     /* --fft N: transform length, a power of two */
    int ept;                    /* --ept E: elements per invocation (derived when not given) */
    int ept_given;
    int max_wg;                 /* --max-wg: the largest workgroup the derivation may pick */
    sg_fft_direction direction; /* --direction */
    sg_fft_norm norm;           /* --norm */
    sg_fft_order order;         /* --order */
    sg_fft_storage storage;     /* --storage */
    sg_fft_twiddles twiddles;   /* --twiddles */
    int twiddles_given;         /* --twiddles on the command line (else default_twiddles) */
    int paired_shared;          /* --shared-layout paired: one float2 array (64-bit accesses) */
    int paired_shared_given;    /* --shared-layout on the command line (else by N) */
    int strided;                /* --stride: FFTs along columns (elements row_stride apart) */
    int real;                   /* --real: two real rows per complex FFT */
    int rows_per_wg;            /* --rows-per-wg R: consecutive rows per workgroup (0 = 1) */
    int prefetch_rows;          /* --prefetch-rows R: rows per workgroup in turn, the next one
                                 * loaded while one is transformed (0 = the default, 1 = off) */
    sg_fft_column_layout column_layout; /* --column-layout */
    int column_layout_given;
    int columns_per_wg[2];      /* --columns-per-wg C, or C1,C2 for a plan's two passes: [p]
                                 * is pass p + 1's (both C with one value; 0: derived) */
    int columns_values;         /* how many values --columns-per-wg gave (0, 1 or 2) */
    int lanes;                  /* this shader's columns in lanes: C, or 0 (registers, or rows) */
    int batch;                  /* --batch: rows (FFTs) run by --selftest */
    const char *first_option;   /* the first FFT-only option seen, for errors with --spd */

    /* N longer than one dispatch holds: a four-step plan of `passes` (2) shaders, pass p
     * running FFTs of pass_n[p] points with pass_ept[p] x pass_wg[p]. 0 = one dispatch. */
    int passes;
    long pass_n[2];
    int pass_ept[2], pass_wg[2];
    int pass_lanes[2];          /* each pass's columns in lanes (0: registers) */
    long scratch_tile;          /* the scratch between the passes in tiles of T frequencies
                                 * (see plan_scratch_tile in fft_cli.c) */
    int pass;                   /* the pass being generated: 1 or 2 (0: the single kernel) */
} sg_fft_params;

#endif
