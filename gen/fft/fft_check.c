/* fft_check.c: the --fft parameters once every flag is known. Derives the shape (N = E x W,
 * or a four-step plan of two passes beyond one dispatch), the measured defaults (rows per
 * workgroup, rows in turn, twiddles, shared layout, columns in lanes) and checks every
 * combination, each refusal a one-line error. docs/fft.md gives the measurements behind
 * each default. */
#include <stdio.h>
#include <string.h>

#include "fft.h"

#define usage_error sg_usage_error

/* Complex rows whose E = 16 shape would need more invocations than this keep this many and
 * raise E instead (fewer, larger register passes, so fewer exchanges). */
#define WIDE_WG 256
/* Default rows per workgroup: short rows (E <= 4) so each invocation holds this many
 * values; W = WIDE_WG rows at E = 16 or 32 hold WIDE_ROWS (ROWS_4096 at E = 16 without
 * shuffles). */
#define SHORT_ROW_VALUES 8
#define WIDE_ROWS 2
#define ROWS_4096 4
/* Default rows in turn (--prefetch-rows) at E = 16 with W = PREFETCH_MIN_WG..WIDE_WG. */
#define PREFETCH_DEFAULT 2
#define PREFETCH_MIN_WG 64
/* --twiddles squared by default from SQUARED_FROM_N to SQUARED_TO_N in the default shape. */
#define SQUARED_FROM_N 2048
#define SQUARED_TO_N 4096
/* --shared-layout paired by default from this N. */
#define PAIRED_FROM_N 1024
/* Columns in lanes: up to LANES_DEFAULT (a 128-byte line per subgroup load), the lanes
 * layout by default only where LANES_MIN fit; a plan's passes PLAN_LANES_DEFAULT each. */
#define LANES_DEFAULT 16
#define LANES_MIN 8
#define PLAN_LANES_DEFAULT 4
/* The plan's scratch is tiled by pass 2's columns where pass 1 still writes runs of at
 * least this many complex values (128 bytes). */
#define TILE_MIN_RUN 16

static int is_pow2(long v) { return v > 0 && (v & (v - 1)) == 0; }

/* The (E, W) pairs that make N, for the message when --ept and --wg disagree. */
static void working_pairs(const sg_fft_params *f, char *buf, size_t size)
{
    buf[0] = '\0';
    for (long e = 2; e <= SG_FFT_MAX_EPT; e *= 2) {
        long w = f->n / e;
        if (w < 1 || w > f->max_wg || w * e != f->n) continue;
        snprintf(buf + strlen(buf), size - strlen(buf), "%s--ept %ld --wg %ld", buf[0] ? ", " : "", e, w);
    }
}

/* The default shape of one FFT of n points: E = 16 while the workgroup keeps at least 32
 * invocations (else 32, or n/2 below 64), never more than max_wg; `wide` (complex rows):
 * where E = 16 would need more than WIDE_WG invocations, W stays there and E grows. */
static void default_shape(long n, long max_wg, int wide, long *ept, long *wg)
{
    long w = n / SG_FFT_DEFAULT_EPT;
    long warp = n / 2 < 32 ? n / 2 : 32;
    if (wide && w > WIDE_WG) w = n / SG_FFT_MAX_EPT > WIDE_WG ? n / SG_FFT_MAX_EPT : WIDE_WG;
    if (w < warp) w = warp;
    if (w > max_wg) w = max_wg;
    *wg = w;
    *ept = n / w;
}

/* N beyond one dispatch: N = N1 x N2 with N1 = 2^ceil(log2(N) / 2), each pass shaped by
 * default_shape(); the options that need the whole spectrum in one workgroup are refused. */
static int plan_passes(sg_run *run, long single_max)
{
    sg_fft_params *f = run->params;
    int bits = 0;
    while ((1L << bits) < f->n) bits++;
    long n1 = 1L << ((bits + 1) / 2), n2 = f->n / n1;
    if (n1 > single_max)
        return usage_error("--fft %ld: too long even for two passes of at most %ld points "
                           "(--max-wg %ld); raise --max-wg", f->n, single_max, f->max_wg);
    if (sg_given(run, FFT_OPT_EPT) || sg_given(run, FFT_OPT_WG))
        return usage_error("%s: --fft %ld is longer than one dispatch holds (%ld = 16 x --max-wg "
                           "%ld), so each pass of its four-step plan picks E and W; limit them "
                           "with --max-wg", sg_given(run, FFT_OPT_EPT) ? "--ept" : "--wg", f->n,
                           single_max, f->max_wg);
    const char *what = f->real ? "--real" : f->order == SG_FFT_ORDER_NATIVE ? "--order native"
                     : f->strided ? "--stride" : f->twiddles == SG_FFT_TWIDDLES_LUT ? "--twiddles lut"
                     : NULL;
    const char *why = f->real ? "is complex only" : f->order == SG_FFT_ORDER_NATIVE ? "is natural order"
                    : f->strided ? "runs rows" : "computes its twiddles";
    if (what)
        return usage_error("%s: only up to --fft %ld (one dispatch); the four-step plan of --fft %ld "
                           "%s", what, single_max, f->n, why);
    f->passes = 2;
    f->pass_n[0] = n1;
    f->pass_n[1] = n2;
    for (int p = 0; p < 2; p++) default_shape(f->pass_n[p], f->max_wg, 0, &f->pass_ept[p], &f->pass_wg[p]);
    f->ept = f->pass_ept[0];
    f->wg = f->pass_wg[0] < f->pass_wg[1] ? f->pass_wg[0] : f->pass_wg[1]; /* for --subgroup */
    return 0;
}

static int derive_shape(sg_run *run)
{
    sg_fft_params *f = run->params;
    long single_max = (long)SG_FFT_DEFAULT_EPT * f->max_wg;
    int ept_given = sg_given(run, FFT_OPT_EPT), wg_given = sg_given(run, FFT_OPT_WG);
    char pairs[256];
    if (f->n > single_max) return plan_passes(run, single_max);
    /* A power of two takes powers of two: E and W are bit counts of its plan. */
    if ((ept_given && !is_pow2(f->ept)) || (wg_given && !is_pow2(f->wg))) {
        working_pairs(f, pairs, sizeof pairs);
        return usage_error("%s %ld: --fft %ld splits into powers of two; use %s",
                           ept_given && !is_pow2(f->ept) ? "--ept" : "--wg",
                           ept_given && !is_pow2(f->ept) ? f->ept : f->wg, f->n, pairs);
    }
    if (ept_given && wg_given) {
        if (f->ept * f->wg != f->n) {
            working_pairs(f, pairs, sizeof pairs);
            if (!pairs[0])
                return usage_error("--ept %ld --wg %ld: %ld x %ld is not --fft %ld, and no --ept "
                                   "2..%d with --wg <= --max-wg %ld makes it", f->ept, f->wg,
                                   f->ept, f->wg, f->n, SG_FFT_MAX_EPT, f->max_wg);
            return usage_error("--ept %ld --wg %ld: %ld x %ld is not --fft %ld; use %s", f->ept,
                               f->wg, f->ept, f->wg, f->n, pairs);
        }
    } else if (wg_given) {
        if (f->n % f->wg != 0 || f->n / f->wg < 2 || f->n / f->wg > SG_FFT_MAX_EPT)
            return usage_error("--wg %ld: must be a power of two that splits --fft %ld into "
                               "2..%d elements per invocation (--wg %ld..%ld)", f->wg, f->n,
                               SG_FFT_MAX_EPT, f->n / SG_FFT_MAX_EPT > 1 ? f->n / SG_FFT_MAX_EPT : 1,
                               f->n / 2);
        f->ept = f->n / f->wg;
    } else if (ept_given) {
        if (f->n % f->ept != 0) return usage_error("--ept %ld: larger than --fft %ld", f->ept, f->n);
        f->wg = f->n / f->ept;
        if (f->wg > f->max_wg)
            return usage_error("--ept %ld: --fft %ld / %ld = %ld invocations, more than --max-wg "
                               "%ld; use --ept %ld..%d", f->ept, f->n, f->ept, f->wg, f->max_wg,
                               f->n / f->max_wg, SG_FFT_MAX_EPT);
    } else {
        default_shape(f->n, f->max_wg, !f->strided && !f->real, &f->ept, &f->wg);
    }
    if (f->wg > f->max_wg)
        return usage_error("--wg %ld: larger than --max-wg %ld (for --fft %ld use --ept %ld or "
                           "more)", f->wg, f->max_wg, f->n, f->n / f->max_wg > 2 ? f->n / f->max_wg : 2);
    return 0;
}

/* Whether the shape is the default one of complex rows in one dispatch: the shapes the
 * defaults below were measured on. */
static int default_rows_shape(const sg_run *run)
{
    const sg_fft_params *f = run->params;
    return !f->strided && !f->real && !f->passes && !sg_given(run, FFT_OPT_EPT) &&
           !sg_given(run, FFT_OPT_WG);
}

static long default_rows_per_wg(const sg_run *run)
{
    const sg_fft_params *f = run->params;
    if (!default_rows_shape(run) || sg_given(run, FFT_OPT_PREFETCH)) return 1;
    if (f->ept <= 4) return SHORT_ROW_VALUES / f->ept;
    if (f->wg == WIDE_WG && f->ept == SG_FFT_DEFAULT_EPT && f->subgroup == 0) return ROWS_4096;
    if (f->wg == WIDE_WG && f->ept * WIDE_ROWS <= SG_FFT_MAX_EPT &&
        (f->ept > SG_FFT_DEFAULT_EPT || (f->ept == SG_FFT_DEFAULT_EPT && f->subgroup < 8)))
        return WIDE_ROWS;
    return 1;
}

static long default_prefetch_rows(const sg_run *run)
{
    const sg_fft_params *f = run->params;
    if (!default_rows_shape(run) || f->rows_per_wg > 1) return 1;
    return f->ept == SG_FFT_DEFAULT_EPT && f->wg >= PREFETCH_MIN_WG && f->wg <= WIDE_WG
               ? PREFETCH_DEFAULT : 1;
}

/* Squared twiddles in the row arrangements they were measured with: rows in turn at 2048,
 * ROWS_4096 rows in registers at 4096. */
static int default_twiddles(const sg_run *run)
{
    const sg_fft_params *f = run->params;
    if (!default_rows_shape(run) || f->subgroup != 0 || f->n < SQUARED_FROM_N || f->n > SQUARED_TO_N)
        return SG_FFT_TWIDDLES_DEVICE;
    if (f->n == SQUARED_TO_N && f->rows_per_wg != ROWS_4096) return SG_FFT_TWIDDLES_DEVICE;
    if (f->n < SQUARED_TO_N && f->prefetch_rows != PREFETCH_DEFAULT) return SG_FFT_TWIDDLES_DEVICE;
    return SG_FFT_TWIDDLES_SQUARED;
}

/* Columns in lanes for a column FFT of `wg` invocations (a --stride shader, or pass p of a
 * plan): --columns-per-wg, else the largest power of two up to LANES_DEFAULT
 * (PLAN_LANES_DEFAULT in a plan) with C x W <= --max-wg. 0: the register layout, by request
 * or for a --stride shader where fewer than LANES_MIN columns fit. */
static long lane_columns(const sg_run *run, long wg, int p)
{
    const sg_fft_params *f = run->params;
    int layout_given = sg_given(run, FFT_OPT_COLUMN_LAYOUT);
    if (layout_given && f->column_layout == SG_FFT_COLUMNS_REGISTERS) return 0;
    if (f->columns_values) return f->columns_per_wg[p];
    long c = f->passes ? PLAN_LANES_DEFAULT : LANES_DEFAULT;
    while (c > 1 && c * wg > f->max_wg) c /= 2;
    if (f->passes) return c;
    return !layout_given && c < LANES_MIN ? 0 : c;
}

/* Pass 1's output in the scratch in tiles of T frequencies: T = pass 2's columns in lanes,
 * so each of its workgroups reads one contiguous block; T = N1 (rows) where pass 2 has no
 * lanes or pass 1's runs would be shorter than TILE_MIN_RUN values. */
static long plan_scratch_tile(const sg_fft_params *f)
{
    long t = f->pass_lanes[1];
    if (!t || f->pass_lanes[0] * t < TILE_MIN_RUN || t > f->pass_n[0]) return f->pass_n[0];
    return t;
}

static int check_columns(sg_run *run)
{
    sg_fft_params *f = run->params;
    char value[48];
    int layout_given = sg_given(run, FFT_OPT_COLUMN_LAYOUT);
    const char *flag = f->columns_values ? "--columns-per-wg" : "--column-layout";
    if (f->columns_values == 2) snprintf(value, sizeof value, "%ld,%ld", f->columns_per_wg[0], f->columns_per_wg[1]);
    else if (f->columns_values) snprintf(value, sizeof value, "%ld", f->columns_per_wg[0]);
    else snprintf(value, sizeof value, "%s", layout_given ? sg_fft_column_layouts[f->column_layout] : "");
    if ((layout_given || f->columns_values) && !f->strided && !f->passes)
        return usage_error("%s %s: only for column FFTs (--stride) and four-step plans (--fft "
                           "beyond 16 x --max-wg); rows use --rows-per-wg", flag, value);
    if (f->columns_values == 2 && !f->passes)
        return usage_error("--columns-per-wg %s: two values are for a four-step plan's passes; "
                           "one --stride shader takes one", value);
    if (f->columns_values && layout_given && f->column_layout == SG_FFT_COLUMNS_REGISTERS)
        return usage_error("--columns-per-wg %s: not with --column-layout registers (it holds "
                           "16/E columns in each invocation's registers)", value);
    int shaders = f->passes ? f->passes : 1;
    for (int p = 0; p < shaders; p++) {
        long wg = f->passes ? f->pass_wg[p] : f->wg;
        long c = f->columns_per_wg[p];
        if (c * wg > f->max_wg) {
            char which[32] = "--wg";
            if (f->passes) snprintf(which, sizeof which, "pass %d", p + 1);
            long most = f->max_wg / wg;
            if (f->columns_values == 2)
                return usage_error("--columns-per-wg %s: %ld columns x %ld invocations (%s) is more "
                                   "than --max-wg %ld; %s takes %ld columns at most", value, c, wg,
                                   which, f->max_wg, which, most);
            return usage_error("--columns-per-wg %s: %ld columns x %ld invocations (%s) is more than "
                               "--max-wg %ld; use --columns-per-wg %ld or less", value, c, wg, which,
                               f->max_wg, most);
        }
        long lanes = f->strided || f->passes ? lane_columns(run, wg, p) : 0;
        if (f->passes) f->pass_lanes[p] = lanes;
        else f->lanes = lanes;
    }
    if (f->passes) f->scratch_tile = plan_scratch_tile(f);
    /* Resolved, as the regenerate command names them. */
    if (f->strided || f->passes) {
        long first = f->passes ? f->pass_lanes[0] : f->lanes;
        f->column_layout = first ? SG_FFT_COLUMNS_LANES : SG_FFT_COLUMNS_REGISTERS;
        f->columns_per_wg[0] = first;
        f->columns_per_wg[1] = f->passes ? f->pass_lanes[1] : first;
        f->columns_values = f->passes ? 2 : 1;
    }
    return 0;
}

static int check_rows(sg_run *run)
{
    sg_fft_params *f = run->params;
    if (!sg_given(run, FFT_OPT_ROWS)) f->rows_per_wg = default_rows_per_wg(run);
    if (f->rows_per_wg > 1) {
        const char *clash = f->strided ? "--stride (its columns per workgroup: --columns-per-wg)"
                            : f->real ? "--real" : f->passes ? "a four-step plan" : NULL;
        if (clash)
            return usage_error("--rows-per-wg %ld: not with %s; it is for complex rows in one "
                               "dispatch", f->rows_per_wg, clash);
        if (f->ept * f->rows_per_wg > SG_FFT_MAX_EPT)
            return usage_error("--rows-per-wg %ld: --ept %ld x %ld rows is more than %d values in "
                               "registers; use --rows-per-wg %ld%s", f->rows_per_wg, f->ept,
                               f->rows_per_wg, SG_FFT_MAX_EPT, SG_FFT_MAX_EPT / f->ept,
                               f->ept < SG_FFT_MAX_EPT ? " or less" : "");
    }
    if (!sg_given(run, FFT_OPT_PREFETCH)) f->prefetch_rows = default_prefetch_rows(run);
    if (f->prefetch_rows > 1) {
        const char *clash = f->strided ? "--stride" : f->real ? "--real" : f->passes ? "a four-step plan"
                            : f->rows_per_wg > 1 ? "--rows-per-wg" : NULL;
        if (clash)
            return usage_error("--prefetch-rows %ld: not with %s; it is for complex rows in one "
                               "dispatch, one at a time", f->prefetch_rows, clash);
        if (f->ept > SG_FFT_DEFAULT_EPT)
            return usage_error("--prefetch-rows %ld: --ept %ld plus the next row's %ld is more than "
                               "%d values in registers; use --ept %d or less", f->prefetch_rows,
                               f->ept, f->ept, 2 * SG_FFT_DEFAULT_EPT, SG_FFT_DEFAULT_EPT);
    }
    return 0;
}

int sg_fft_check(sg_run *run)
{
    sg_fft_params *f = run->params;
    int rc = sg_fft_wgsl_check(run);
    if (rc) return rc;
    if (sg_given(run, FFT_OPT_PRIME) && f->prime_choice != SG_FFT_PRIME_AUTO && !sg_fft_rader_root(f->n))
        return usage_error("--prime %s: only for a prime --fft above %d whose N - 1 has no prime factor above "
                           "%d (where Rader's convolution applies); --fft %ld is not one",
                           sg_fft_primes[f->prime_choice], SG_FFT_LARGEST_PRIME, SG_FFT_LARGEST_PRIME, f->n);
    if (sg_fft_path(f->n) != SG_FFT_PATH_POW2) return sg_fft_check_mixed(run);
    if (sg_given(run, FFT_OPT_BLUESTEIN_M) && f->bluestein_choice != SG_FFT_BLUESTEIN_AUTO)
        return usage_error("--bluestein-m %s: only for Bluestein's chirp-z in one dispatch (a prime factor "
                           "above %d); --fft %ld is a power of two",
                           sg_fft_bluestein_ms[f->bluestein_choice], SG_FFT_LARGEST_PRIME, f->n);
    rc = derive_shape(run);
    if (rc) return rc;
    if (!sg_given(run, FFT_OPT_SHARED))
        f->shared_layout = f->n >= PAIRED_FROM_N ? SG_FFT_SHARED_PAIRED : SG_FFT_SHARED_SPLIT;
    if (f->subgroup > f->wg)
        return usage_error("--subgroup %ld: larger than the workgroup (%s %ld); use 0..%ld",
                           f->subgroup, f->passes ? "a pass's" : "--wg", f->wg, f->wg >= 4 ? f->wg : 0);
    if (f->real && f->n < 8)
        return usage_error("--real: needs --fft 8 or more (N/2+1 half spectra of two rows "
                           "packed in one N-point FFT)");
    if (f->real && f->order == SG_FFT_ORDER_NATIVE)
        return usage_error("--order native: not with --real (the half spectra are unpacked in "
                           "natural order)");
    if (f->real && f->strided)
        return usage_error("--real: not with --stride (two real rows are packed into one complex "
                           "row; transform real columns as the rows of the transposed image)");
    if ((rc = check_rows(run))) return rc;
    if (!sg_given(run, FFT_OPT_TWIDDLES)) f->twiddles = default_twiddles(run);
    if (!run->common.selftest && sg_given(run, FFT_OPT_BATCH))
        return usage_error("--batch: only meaningful with --selftest");
    if (!is_pow2(f->wg)) return usage_error("--wg %ld: must be a power of two for --fft", f->wg);
    return check_columns(run);
}
