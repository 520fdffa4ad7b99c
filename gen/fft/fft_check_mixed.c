/* fft_check_mixed.c: the --fft parameters for lengths that are not powers of two (and N =
 * 2): mixed radix over the primes 2 to 31 in one dispatch or a four-step plan of two, and
 * Bluestein's chirp-z for lengths with a larger prime factor. Derives E x W and the stage
 * radices (fft_radix.c), the FFTs per workgroup, and refuses what these paths do not do,
 * each with a one-line error. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fft.h"
#include "wgsl.h"

#define usage_error sg_usage_error

/* Shared memory for one exchange round: 32 KB as the power-of-two path, or WGSL's
 * --wg-storage where it is less (WebGPU's default 16 KB). BUDGET_SLOTS: in complex slots,
 * for the `run` in scope. */
#define BUDGET_BYTES 32768
static long budget_bytes(const sg_run *run)
{
    const sg_fft_params *f = run->params;
    long bytes = f->round_bytes ? f->round_bytes : BUDGET_BYTES;
    return sg_is_wgsl(run) && run->common.wg_storage < bytes ? run->common.wg_storage : bytes;
}
/* Complex rows longer than 16 KB, up to SMALL_ROUND_MAX_N points, exchange in rounds of at
 * most SMALL_ROUND_BYTES where a one-dispatch shape of E <= SMALL_ROUND_MAX_E makes them.
 * Measured (docs/fft.md, "Smaller exchange rounds"): the same shape in smaller rounds holds
 * fewer registers, so more workgroups fit (8000: 77.7% -> 97.3% of the copy floor); shapes of
 * a larger E that only smaller rounds allow reach 97-100% (3200: 59.5% -> 100%); past E 40 the
 * registers mostly run out (10000 as E 50 lost 1.40x). 9000 is the longest length measured; 10000
 * would move to a shape not timed.
 * Past E 40 too, where the shape in small rounds has W <= NARROW_W (two such workgroups fit a
 * multiprocessor's registers whatever their count, so its loads overlap another's barriers)
 * and the shape in rounds of BUDGET_BYTES is a poor one: E <= POOR_E_LOW (a wide workgroup of
 * few loads in flight: 3969 as 7 x 567 at 61% of the floor, as 63 x 63 at 91%) or E >=
 * POOR_E_HIGH (its 32 KB rounds hold the most registers: 7680 as 60 x 128, 58% -> 90%). Where
 * that shape's E lies between, it stays (7200 as 30 x 240 ran 1.17x faster than 60 x 120). */
#define SMALL_ROUND_BYTES 16384
#define SMALL_ROUND_MAX_E 40
#define SMALL_ROUND_MAX_N 9000
#define NARROW_W 128
#define POOR_E_LOW 12
#define POOR_E_HIGH 40
#define BUDGET_SLOTS (budget_bytes(run) / 8)
/* Columns per workgroup: up to this many in lanes (a 128-byte line per subgroup load); a
 * plan's passes PLAN_LANES each, as the power-of-two plans. */
#define LANES_DEFAULT 16
#define PLAN_LANES 4
#define PLAN_MIN_INVOCATIONS 64
/* --shared-layout paired from this N, as the power-of-two path. */
#define PAIRED_FROM_N 1024

/* The largest prime factor of n >= 2. */
static long largest_prime(long n)
{
    long p = 1;
    for (long d = 2; d * d <= n; d++)
        while (n % d == 0) n /= d, p = d;
    return n > 1 ? n : p;
}

/* What no length but a power of two takes. plan: the FFTs are longer than one dispatch, so
 * a plan's --columns-per-wg C1,C2 and --column-layout lanes (its regenerate command) stand. */
static int refuse_pow2_only(sg_run *run, int plan)
{
    sg_fft_params *f = run->params;
    if (f->order == SG_FFT_ORDER_NATIVE)
        return usage_error("--order native: only for powers of two (bit-reversed order); --fft %ld runs "
                           "in natural order", f->n);
    if (sg_given(run, FFT_OPT_TWIDDLES) && f->twiddles != SG_FFT_TWIDDLES_DEVICE)
        return usage_error("--twiddles %s: only for powers of two; --fft %ld computes its twiddles from "
                           "integer exponents (device)", sg_fft_twiddle_kinds[f->twiddles], f->n);
    if (sg_given(run, FFT_OPT_PREFETCH) && f->prefetch_rows > 1)
        return usage_error("--prefetch-rows %ld: only for powers of two; the rows of --fft %ld sit in "
                           "lanes (--rows-per-wg)", f->prefetch_rows, f->n);
    if (sg_given(run, FFT_OPT_COLUMN_LAYOUT) && f->column_layout == SG_FFT_COLUMNS_REGISTERS)
        return usage_error("--column-layout registers: only for powers of two; the columns of --fft %ld "
                           "sit in lanes", f->n);
    if (f->real && f->n % 2 != 0)
        return usage_error("--real: needs an even --fft (N/2 complex values per half spectrum), not %ld",
                           f->n);
    if (f->real && f->n < 8)
        return usage_error("--real: needs --fft 8 or more (N/2+1 half spectra of two rows packed in one "
                           "N-point FFT)");
    if (f->real && f->strided)
        return usage_error("--real: not with --stride (two real rows are packed into one complex row; "
                           "transform real columns as the rows of the transposed image)");
    if (f->real && f->storage == SG_FFT_STORAGE_F16 && f->direction == SG_FFT_INVERSE)
        return usage_error("--storage f16: not with --real --direction inverse for --fft %ld (two samples "
                           "share a uint; only powers of two pair them)", f->n);
    if (sg_given(run, FFT_OPT_ROWS) && (f->strided || f->real))
        return usage_error("--rows-per-wg %ld: not with %s; it is for complex rows", f->rows_per_wg,
                           f->strided ? "--stride (its columns per workgroup: --columns-per-wg)" : "--real");
    if (f->columns_values == 2 && !plan)
        return usage_error("--columns-per-wg %ld,%ld: two values are for a four-step plan's passes; "
                           "--fft %ld runs in one dispatch", f->columns_per_wg[0], f->columns_per_wg[1], f->n);
    if ((f->columns_values || sg_given(run, FFT_OPT_COLUMN_LAYOUT)) && !f->strided && !plan)
        return usage_error("%s: only for column FFTs (--stride); rows use --rows-per-wg",
                           f->columns_values ? "--columns-per-wg" : "--column-layout");
    if (f->path == SG_FFT_PATH_BLUESTEIN && (f->real || f->strided))
        return usage_error("%s: not for --fft %ld (a prime factor above %d: Bluestein's chirp-z runs "
                           "complex rows)", f->real ? "--real" : "--stride", f->n, SG_FFT_LARGEST_PRIME);
    return 0;
}

/* Whose FFTs E x W makes, for the errors: a convolution's, or the transform's own. */
static const char *convolution_text(const sg_fft_params *f)
{
    return f->rader_root ? " (Rader's FFTs of N - 1 points)" : f->bluestein_m ? " (Bluestein's FFTs)" : "";
}

/* E x W for a given --ept / --wg, or the default; `lanes`: fixed FFTs per workgroup (0: the
 * rows' default). */
static int mixed_shape(sg_run *run, long n, long lanes, int flags)
{
    sg_fft_params *f = run->params;
    int ept_given = sg_given(run, FFT_OPT_EPT), wg_given = sg_given(run, FFT_OPT_WG);
    char pairs[1024];
    if (!ept_given && !wg_given) {
        long max_e = f->round_bytes ? f->round_max_e : SG_FFT_MAX_REGISTERS;
        if (sg_fft_mixed_shape_within(n, max_e, f->max_wg, lanes, BUDGET_SLOTS, flags, &f->ept, &f->wg, NULL) != 0)
            return -1;
        return 0;
    }
    long e = ept_given ? f->ept : n / f->wg, w = wg_given ? f->wg : n / f->ept;
    int fits = e * w == n && (!ept_given || n % f->ept == 0) && (!wg_given || n % f->wg == 0);
    sg_fft_stages st;
    long ffts = lanes ? lanes : sg_fft_mixed_rows(n, w, f->max_wg, BUDGET_SLOTS, flags);
    if (fits)
        fits = w <= f->max_wg && ffts * w <= f->max_wg && e <= SG_FFT_MAX_REGISTERS &&
               sg_fft_stage_plan(n, e, ffts, BUDGET_SLOTS, flags, &st) == 0;
    if (!fits) {
        const char *flag = ept_given && wg_given ? "--ept/--wg" : ept_given ? "--ept" : "--wg";
        long value = ept_given ? f->ept : f->wg;
        sg_fft_mixed_pairs(n, f->max_wg, lanes, BUDGET_SLOTS, flags, pairs, sizeof pairs);
        if (f->bluestein_m && !sg_given(run, FFT_OPT_PRIME) && sg_fft_rader_root(f->n)) {
            /* auto found no Rader shape in them either: both lists */
            size_t used = strlen(pairs);
            snprintf(pairs + used, sizeof pairs - used, " (Bluestein, M = %ld), or ", n);
            used = strlen(pairs);
            sg_fft_mixed_pairs(f->n - 1, f->max_wg, lanes, BUDGET_SLOTS, SG_FFT_JUNCTION, pairs + used,
                               sizeof pairs - used);
            used = strlen(pairs);
            snprintf(pairs + used, sizeof pairs - used, " (Rader, N - 1 = %ld)", f->n - 1);
        }
        if (ept_given && wg_given)
            return usage_error("--ept %ld --wg %ld: no plan of --fft %ld%s as %ld x %ld; use %s", f->ept, f->wg,
                               f->n, convolution_text(f), f->ept, f->wg,
                               pairs[0] ? pairs : "the default");
        return usage_error("%s %ld: no plan of --fft %ld%s with it (E x W = %ld, W <= --max-wg %ld); use %s",
                           flag, value, f->n, convolution_text(f), n, f->max_wg,
                           pairs[0] ? pairs : "the default");
    }
    f->ept = e;
    f->wg = w;
    return 0;
}

/* The stages of the shape just chosen, for the one shader. */
static void take_stages(const sg_run *run, sg_fft_params *f, long n, long ffts, int flags)
{
    sg_fft_stage_plan(n, f->ept, ffts, BUDGET_SLOTS, flags, &f->stages);
}

/* Pass p of a plan: FFTs of n points as columns in lanes, --columns-per-wg's, or PLAN_LANES
 * per workgroup doubled (up to LANES_DEFAULT) while the workgroup has fewer than
 * PLAN_MIN_INVOCATIONS (a short pass: 12167 = 529 x 23 has W = 1 in its second), or fewer
 * where PLAN_LANES do not fit. 0, or -1 when no shape fits. */
static int pass_shape(const sg_run *run, sg_fft_params *f, int p, long n, int flags)
{
    long c = f->columns_values ? f->columns_per_wg[f->columns_values == 2 && p == 1 ? 1 : 0] : PLAN_LANES;
    for (; c >= 1; c = f->columns_values ? 0 : c / 2) {
        long e, w;
        if (sg_fft_mixed_shape(n, f->max_wg, c, BUDGET_SLOTS, flags, &e, &w) != 0) continue;
        while (!f->columns_values && c * w < PLAN_MIN_INVOCATIONS && 2 * c <= LANES_DEFAULT) {
            long e2, w2;
            if (sg_fft_mixed_shape(n, f->max_wg, 2 * c, BUDGET_SLOTS, flags, &e2, &w2) != 0) break;
            c *= 2, e = e2, w = w2;
        }
        f->pass_n[p] = n, f->pass_ept[p] = e, f->pass_wg[p] = w, f->pass_lanes[p] = c;
        sg_fft_stage_plan(n, e, c, BUDGET_SLOTS, flags, &f->pass_stages[p]);
        return 0;
    }
    return -1;
}

/* What a plan of several passes settles once its passes are shaped. */
static void plan_settle(sg_fft_params *f)
{
    f->scratch_tile = f->pass_n[0];
    f->ept = f->pass_ept[0];
    f->wg = f->pass_wg[0] < f->pass_wg[1] ? f->pass_wg[0] : f->pass_wg[1];
    f->column_layout = SG_FFT_COLUMNS_LANES;
    f->columns_per_wg[0] = f->pass_lanes[0];
    f->columns_per_wg[1] = f->pass_lanes[1];
    f->columns_values = 2;
    f->rows_per_wg = 1;
    f->prefetch_rows = 1;
}

/* What no plan of several passes takes. */
static int refuse_plan_options(sg_run *run)
{
    sg_fft_params *f = run->params;
    if (sg_given(run, FFT_OPT_EPT) || sg_given(run, FFT_OPT_WG))
        return usage_error("%s %ld: --fft %ld runs as a %s plan, so each pass picks E and W; limit "
                           "them with --max-wg", sg_given(run, FFT_OPT_EPT) ? "--ept" : "--wg",
                           sg_given(run, FFT_OPT_EPT) ? f->ept : f->wg, f->n,
                           f->path == SG_FFT_PATH_BLUESTEIN ? "three-pass Bluestein" : "four-step");
    if (f->real || f->strided)
        return usage_error("%s: only in one dispatch; the four-step plan of --fft %ld runs complex rows",
                           f->real ? "--real" : "--stride", f->n);
    if (sg_given(run, FFT_OPT_ROWS) && f->rows_per_wg > 1)
        return usage_error("--rows-per-wg %ld: not with a four-step plan (--fft %ld)", f->rows_per_wg, f->n);
    return 0;
}

/* A four-step plan of two mixed-radix passes: N = N1 x N2, N1 the smallest divisor >= sqrt(N)
 * with both passes in one dispatch as column FFTs. */
static int mixed_passes(sg_run *run, long single_max)
{
    sg_fft_params *f = run->params;
    int rc = refuse_plan_options(run);
    if (rc) return rc;
    long root = (long)ceil(sqrt((double)f->n));
    for (long n1 = root; n1 <= single_max && n1 < f->n; n1++) {
        if (f->n % n1 != 0 || f->n / n1 > single_max) continue;
        if (pass_shape(run, f, 0, n1, 0) != 0 || pass_shape(run, f, 1, f->n / n1, 0) != 0) continue;
        f->passes = 2;
        plan_settle(f);
        return 0;
    }
    return usage_error("--fft %ld: no two passes of at most %ld points (16 x --max-wg %ld) make it; "
                       "raise --max-wg", f->n, single_max, f->max_wg);
}

/* Bluestein beyond one dispatch: its M = M1 x M2 points (M1 the smallest divisor >= sqrt(M))
 * in three passes of column FFTs. Pass 1: the chirp product (zero padding past N) and the M1
 * point forward FFTs of the four-step plan, times its twiddles; pass 2: the M2-point forward
 * FFTs, the product with the kernel's spectrum and the M2-point inverse FFTs, times the
 * inverse's twiddles; pass 3: the M1-point inverse FFTs, the chirp product and the crop to N.
 * Every pass keeps register k on element it + W k (SG_FFT_EXACT), as the product needs. */
static int bluestein_passes(sg_run *run, long single_max)
{
    sg_fft_params *f = run->params;
    long m = f->bluestein_m;
    int rc = refuse_plan_options(run);
    if (rc) return rc;
    for (long m1 = (long)ceil(sqrt((double)m)); m1 <= single_max && m1 < m; m1++) {
        if (m % m1 != 0 || m / m1 > single_max) continue;
        if (pass_shape(run, f, 0, m1, SG_FFT_EXACT) != 0 || pass_shape(run, f, 1, m / m1, SG_FFT_EXACT) != 0)
            continue;
        f->pass_n[2] = f->pass_n[0], f->pass_ept[2] = f->pass_ept[0], f->pass_wg[2] = f->pass_wg[0];
        f->pass_lanes[2] = f->pass_lanes[0], f->pass_stages[2] = f->pass_stages[0];
        f->passes = 3;
        plan_settle(f);
        return 0;
    }
    return usage_error("--fft %ld: its prime factor %ld (above %d) needs Bluestein's chirp-z, whose "
                       "FFTs of M = %ld points make no two passes of at most %ld points (16 x --max-wg "
                       "%ld); raise --max-wg", f->n, largest_prime(f->n), SG_FFT_LARGEST_PRIME, m, single_max,
                       f->max_wg);
}

/* Whether a given --ept / --wg makes a plan of n with `lanes` FFTs per workgroup. */
static int given_shape_fits(const sg_run *run, long n, long lanes, int flags)
{
    const sg_fft_params *f = run->params;
    long e = sg_given(run, FFT_OPT_EPT) ? f->ept : n / f->wg;
    long w = sg_given(run, FFT_OPT_WG) ? f->wg : n / f->ept;
    sg_fft_stages st;
    return e * w == n && lanes * w <= f->max_wg &&
           sg_fft_stage_plan(n, e, lanes, BUDGET_SLOTS, flags, &st) == 0;
}

/* Bluestein's M in one dispatch, among the power of two >= 2N - 1 and every 2^a 3^b 5^c 7^d
 * from 2N - 1 up to SMOOTH_WINDOW percent above it (--bluestein-m: all of them, the power of
 * two alone, or the smooth ones). The planner's estimate (sg_fft_mixed_shape_cost, with
 * SG_FFT_CONVOLUTION) is of one FFT in units of exchanges of all its values, so M x the estimate
 * of M's best E x W compares lengths; the power of two stays unless a smooth M is strictly
 * cheaper (a tie keeps it). With --ept or --wg, the first candidate (the power of two, then the
 * smooth ones upwards) that they make with a plan. Sets f->bluestein_m; 0, or 2 after an error. */
#define SMOOTH_WINDOW 20
static int bluestein_length(sg_run *run, long rows, long *cost)
{
    sg_fft_params *f = run->params;
    long pow2 = sg_fft_bluestein_m(f->n), least = 2 * f->n - 1, most = least + least * SMOOTH_WINDOW / 100;
    long cand[64], count = 0, best = 0, best_cost = -1;
    int shaped = sg_given(run, FFT_OPT_EPT) || sg_given(run, FFT_OPT_WG);
    int flags = SG_FFT_EXACT | SG_FFT_CONVOLUTION;
    if (f->bluestein_choice != SG_FFT_BLUESTEIN_SMOOTH) cand[count++] = pow2;
    if (f->bluestein_choice != SG_FFT_BLUESTEIN_POW2)
        for (long m = sg_fft_next_smooth(least, 7); m <= most && count < 64;
             m = sg_fft_next_smooth(m + 1, 7))
            if (m != pow2) cand[count++] = m;
    for (long i = 0; i < count; i++) {
        long m = cand[i], e, w, c;
        if (m > (long)SG_FFT_DEFAULT_EPT * f->max_wg) continue;
        if (shaped) {
            long lanes = rows;
            w = sg_given(run, FFT_OPT_WG) ? f->wg : m / f->ept;
            if (!lanes && w >= 1) lanes = sg_fft_mixed_rows(m, w, f->max_wg, BUDGET_SLOTS, flags);
            if (w >= 1 && given_shape_fits(run, m, lanes, flags)) {
                best = m;
                break;
            }
            continue;
        }
        if (sg_fft_mixed_shape_cost(m, f->max_wg, rows, BUDGET_SLOTS, flags, &e, &w, &c) != 0) continue;
        if (best_cost < 0 || m * c < best_cost) best = m, best_cost = m * c;
    }
    if (!best && f->bluestein_choice == SG_FFT_BLUESTEIN_SMOOTH)
        return usage_error("--bluestein-m smooth: no one-dispatch plan of --fft %ld over a 2^a 3^b 5^c 7^d "
                           "M from %ld to %ld%s (W <= --max-wg %ld); use --bluestein-m pow2 (M = %ld)", f->n,
                           least, most, shaped ? " with the given --ept/--wg" : "", f->max_wg, pow2);
    *cost = best_cost;
    f->bluestein_m = best ? best : pow2; /* none: the power of two's own error follows */
    f->bluestein_choice = f->bluestein_m == pow2 ? SG_FFT_BLUESTEIN_POW2 : SG_FFT_BLUESTEIN_SMOOTH;
    return 0;
}

/* What Rader's gathered load and scattered store cost beyond its FFTs, per point, in the
 * planner's units (an exchange of every value is 100), fitted to measured runs of both
 * paths (docs/fft.md, "Rader's algorithm"). STAGED: the row passes through shared memory in
 * order (templates/fft/rader.lua, where every exchange is one round), two more passes
 * through it; Rader was faster at 19, 61, 257, 1009 and 2003, which leave up to 168. GATHER:
 * scattered buffer addresses; Bluestein was faster at 17 and 7681, which need 244 or more.
 * (Fitted while 17 and 19 were primes above the largest radix, 13.) */
#define RADER_STAGED 100
#define RADER_GATHER 250

/* Whether the shader stages Rader's row in shared memory: two stages or more, every
 * exchange in one round (templates/fft/rader.lua's rule). */
static int rader_staged(const sg_run *run, long l, long e, long w, long rows)
{
    const sg_fft_params *f = run->params;
    sg_fft_stages st;
    long ffts = rows ? rows : sg_fft_mixed_rows(l, w, f->max_wg, BUDGET_SLOTS, SG_FFT_JUNCTION);
    if (sg_fft_stage_plan(l, e, ffts, BUDGET_SLOTS, SG_FFT_JUNCTION, &st) != 0 || st.count < 2) return 0;
    for (int i = 0; i + 1 < st.count; i++)
        if (st.rounds[i] > 1) return 0;
    return 1;
}

/* Rader's convolution of L = N - 1 points in one dispatch, for a prime N above 31 whose N - 1
 * is smooth (--prime). auto: Rader where L has a one-dispatch plan and L x its estimate is
 * below Bluestein's M x its own (L < M / 2), or where Bluestein has none in one
 * dispatch; with --ept or --wg, Rader where they make L. Rader's estimate adds RADER_STAGED
 * or RADER_GATHER per point. Its plans need not be exact: where some radix does not divide E, an exchange
 * between its FFTs (SG_FFT_JUNCTION, set in *flags). Sets f->rader_root (clearing
 * f->bluestein_m) or leaves Bluestein's M; 0, or 2 after an error. */
static int prime_method(sg_run *run, long single_max, long rows, int *flags)
{
    sg_fft_params *f = run->params;
    long root = sg_fft_rader_root(f->n), l = f->n - 1, e, w, cost = -1, bluestein_cost = -1;
    int choice = f->prime_choice, shaped = sg_given(run, FFT_OPT_EPT) || sg_given(run, FFT_OPT_WG);
    int forced_m = sg_given(run, FFT_OPT_BLUESTEIN_M) && f->bluestein_choice != SG_FFT_BLUESTEIN_AUTO;
    if (choice == SG_FFT_PRIME_RADER && forced_m)
        return usage_error("--bluestein-m %s: not with --prime rader (Rader's convolution has N - 1 = %ld "
                           "points)", sg_fft_bluestein_ms[f->bluestein_choice], l);
    int rader = root && choice != SG_FFT_PRIME_BLUESTEIN && !forced_m && l <= single_max;
    if (rader) {
        long lanes = rows;
        w = sg_given(run, FFT_OPT_WG) ? f->wg : sg_given(run, FFT_OPT_EPT) ? l / f->ept : 0;
        if (shaped && !lanes && w >= 1)
            lanes = sg_fft_mixed_rows(l, w, f->max_wg, BUDGET_SLOTS, SG_FFT_JUNCTION);
        rader = shaped ? w >= 1 && given_shape_fits(run, l, lanes, SG_FFT_JUNCTION)
                       : sg_fft_mixed_shape_cost(l, f->max_wg, rows, BUDGET_SLOTS, SG_FFT_JUNCTION, &e, &w,
                                                 &cost) == 0;
    }
    if (!rader && choice == SG_FFT_PRIME_RADER)
        return usage_error("--prime rader: no one-dispatch plan of --fft %ld's N - 1 = %ld points%s (W <= "
                           "--max-wg %ld); use --prime bluestein", f->n, l,
                           shaped ? " with the given --ept/--wg" : "", f->max_wg);
    if (f->bluestein_m <= single_max && (!rader || (choice == SG_FFT_PRIME_AUTO && !shaped))) {
        int rc = bluestein_length(run, rows, &bluestein_cost);
        if (rc) return rc;
    }
    if (rader && choice == SG_FFT_PRIME_AUTO && !shaped && bluestein_cost >= 0) {
        /* Bluestein's estimate counts what its convolution in one workgroup costs beyond the
         * loads (SG_FFT_CONVOLUTION); Rader's is weighed the same way. Its shape keeps the plain
         * estimate: with those terms 193 ran 1.35x slower (E 24 x W 8 against E 12 x W 16). */
        long conv_e, conv_w; /* Rader's plain shape above stays */
        sg_fft_mixed_shape_cost(l, f->max_wg, rows, BUDGET_SLOTS, SG_FFT_JUNCTION | SG_FFT_CONVOLUTION, &conv_e,
                                &conv_w, &cost);
        if (bluestein_cost <= l * (cost + (rader_staged(run, l, e, w, rows) ? RADER_STAGED : RADER_GATHER)))
            rader = 0;
    }
    f->prime_choice = rader ? SG_FFT_PRIME_RADER : SG_FFT_PRIME_BLUESTEIN;
    if (rader) f->rader_root = root, f->bluestein_m = 0, *flags = SG_FFT_JUNCTION;
    return 0;
}

/* Whether the default shape of complex rows in rounds of BUDGET_BYTES is a poor one (see
 * SMALL_ROUND_BYTES): E <= POOR_E_LOW or E >= POOR_E_HIGH, or exchanges by component in
 * rounds past SG_FFT_PAIR_BYTES (one workgroup per multiprocessor). */
static int poor_in_big_rounds(sg_run *run, long n, long rows, int flags)
{
    sg_fft_params *f = run->params;
    long keep = f->round_bytes, e, w;
    sg_fft_stages st;
    f->round_bytes = 0; /* BUDGET_SLOTS follows it */
    int poor = 0;
    if (sg_fft_mixed_shape_within(n, SG_FFT_MAX_REGISTERS, f->max_wg, rows, BUDGET_SLOTS, flags, &e, &w, NULL) == 0) {
        long ffts = rows ? rows : sg_fft_mixed_rows(n, w, f->max_wg, BUDGET_SLOTS, flags);
        poor = e <= POOR_E_LOW || e >= POOR_E_HIGH ||
               (sg_fft_stage_plan(n, e, ffts, BUDGET_SLOTS, flags, &st) == 0 && st.components &&
                st.slots * 8 > SG_FFT_PAIR_BYTES);
    }
    f->round_bytes = keep;
    return poor;
}

/* The bound on E of the default shape of complex rows of n points in rounds of
 * SMALL_ROUND_BYTES (f->round_bytes already set to it), decided by exchanges by element alone:
 * SMALL_ROUND_MAX_E where a shape of E <= it makes them, SG_FFT_MAX_REGISTERS where a shape of
 * W <= NARROW_W does and the shape in rounds of BUDGET_BYTES is poor; 0: big rounds. */
static long small_rounds_max_e(sg_run *run, long n, long rows, int flags)
{
    sg_fft_params *f = run->params;
    int by_element = flags & ~SG_FFT_COMPONENTS;
    long e, w;
    if (sg_fft_mixed_shape_within(n, SMALL_ROUND_MAX_E, f->max_wg, rows, BUDGET_SLOTS, by_element, &e, &w,
                                  NULL) == 0)
        return SMALL_ROUND_MAX_E;
    if (sg_fft_mixed_shape_within(n, SG_FFT_MAX_REGISTERS, f->max_wg, rows, BUDGET_SLOTS, by_element, &e, &w,
                                  NULL) == 0 && w <= NARROW_W && poor_in_big_rounds(run, n, rows, flags))
        return SG_FFT_MAX_REGISTERS;
    return 0;
}

/* Whether complex rows of n points take rounds of SMALL_ROUND_BYTES (sets f->round_bytes, and
 * for the default shape its bound f->round_max_e), as small_rounds_max_e says for the default
 * shape. A given --ept/--wg takes them where it exchanges by element in them with E <=
 * SMALL_ROUND_MAX_E, or with W <= NARROW_W where the shape in rounds of BUDGET_BYTES is poor;
 * or where it makes them only by component and the default shape takes them. The choice
 * follows from N and the shape, so a regenerate command (which writes both) makes the same
 * rounds. */
static void small_rounds(sg_run *run, long n, long rows, int flags)
{
    sg_fft_params *f = run->params;
    f->round_bytes = SMALL_ROUND_BYTES;
    long max_e = small_rounds_max_e(run, n, rows, flags);
    if (sg_given(run, FFT_OPT_EPT) || sg_given(run, FFT_OPT_WG)) {
        long e = sg_given(run, FFT_OPT_EPT) ? f->ept : n / f->wg;
        long w = e >= 1 ? n / e : 0;
        long lanes = rows ? rows : w >= 1 ? sg_fft_mixed_rows(n, w, f->max_wg, BUDGET_SLOTS, flags) : 1;
        int take = 0;
        if (e >= 1 && given_shape_fits(run, n, lanes, flags & ~SG_FFT_COMPONENTS))
            take = e <= SMALL_ROUND_MAX_E || (w <= NARROW_W && poor_in_big_rounds(run, n, rows, flags));
        else if (e >= 1 && given_shape_fits(run, n, lanes, flags))
            take = max_e != 0;
        if (!take) f->round_bytes = 0;
    } else if (max_e) {
        f->round_max_e = max_e;
    } else {
        f->round_bytes = 0;
    }
}

/* Columns of --stride in lanes: --columns-per-wg, else the most up to LANES_DEFAULT that fit.
 * 0, 2 after an error, -1 when no shape exists (no error printed). */
static int mixed_columns(sg_run *run, long n, int flags)
{
    sg_fft_params *f = run->params;
    int shaped = sg_given(run, FFT_OPT_EPT) || sg_given(run, FFT_OPT_WG);
    long c = f->columns_values ? f->columns_per_wg[0] : 0;
    if (c) {
        int rc = mixed_shape(run, n, c, flags);
        if (rc) return rc;
    } else {
        for (c = LANES_DEFAULT; c >= 1; c /= 2) {
            if (shaped ? given_shape_fits(run, n, c, flags)
                       : sg_fft_mixed_shape(n, f->max_wg, c, BUDGET_SLOTS, flags, &f->ept, &f->wg) == 0)
                break;
        }
        if (c < 1) return shaped ? mixed_shape(run, n, 1, flags) : -1;
        if (shaped && mixed_shape(run, n, c, flags)) return 2;
    }
    f->lanes = c;
    f->column_layout = SG_FFT_COLUMNS_LANES;
    f->columns_per_wg[0] = f->columns_per_wg[1] = c;
    f->columns_values = 1;
    return 0;
}

int sg_fft_check_mixed(sg_run *run)
{
    sg_fft_params *f = run->params;
    long single_max = (long)SG_FFT_DEFAULT_EPT * f->max_wg;
    int rc;
    f->path = sg_fft_path(f->n);
    long length = f->path == SG_FFT_PATH_BLUESTEIN ? sg_fft_bluestein_m(f->n) : f->n;
    long budget = budget_bytes(run);
    if ((rc = refuse_pow2_only(run, length > single_max))) return rc;
    if (!run->common.selftest && sg_given(run, FFT_OPT_BATCH))
        return usage_error("--batch: only meaningful with --selftest");
    if (!sg_given(run, FFT_OPT_SHARED))
        f->shared_layout = f->n >= PAIRED_FROM_N ? SG_FFT_SHARED_PAIRED : SG_FFT_SHARED_SPLIT;
    f->twiddles = SG_FFT_TWIDDLES_DEVICE;
    f->prefetch_rows = 1;
    long n = f->n;
    /* Complex rows count their exchanges' bank conflicts (lightly: their loads hide most of
     * it); columns interleave in the invocations, which that count does not model. */
    int flags = f->real      ? SG_FFT_EXACT | SG_FFT_EVEN
                : f->strided ? SG_FFT_ONE_SUBGROUP
                             : SG_FFT_ONE_SUBGROUP | SG_FFT_CONFLICTS | SG_FFT_LOAD_BOUND | SG_FFT_COMPONENTS;
    if (sg_given(run, FFT_OPT_BLUESTEIN_M) && f->bluestein_choice != SG_FFT_BLUESTEIN_AUTO &&
        (f->path != SG_FFT_PATH_BLUESTEIN || length > single_max))
        return usage_error("--bluestein-m %s: only for Bluestein's chirp-z in one dispatch (a prime factor "
                           "above %d, M <= %ld = 16 x --max-wg %ld); --fft %ld %s",
                           sg_fft_bluestein_ms[f->bluestein_choice], SG_FFT_LARGEST_PRIME, single_max,
                           f->max_wg, f->n,
                           f->path != SG_FFT_PATH_BLUESTEIN ? "does not take it"
                                                            : "runs as three passes over the power of two");
    if (f->path == SG_FFT_PATH_BLUESTEIN) {
        f->bluestein_m = sg_fft_bluestein_m(f->n);
        flags = SG_FFT_EXACT | SG_FFT_CONVOLUTION;
        if ((rc = prime_method(run, single_max, sg_given(run, FFT_OPT_ROWS) ? f->rows_per_wg : 0, &flags)))
            return rc;
        if (!f->rader_root && f->bluestein_m > single_max) return bluestein_passes(run, single_max);
        n = f->rader_root ? f->n - 1 : f->bluestein_m;
    } else if (f->n > single_max) {
        return mixed_passes(run, single_max);
    }
    if (f->strided) {
        rc = mixed_columns(run, n, flags);
        if (rc == 2) return 2;
        if (rc != 0) return usage_error("--stride: no plan of --fft %ld as columns (W <= --max-wg %ld)",
                                        f->n, f->max_wg);
        take_stages(run, f, n, f->lanes, flags);
        f->rows_per_wg = 1;
        return 0;
    }
    long rows = sg_given(run, FFT_OPT_ROWS) ? f->rows_per_wg : 0;
    if ((flags & SG_FFT_LOAD_BOUND) && n * 8 > SMALL_ROUND_BYTES && n <= SMALL_ROUND_MAX_N &&
        budget_bytes(run) > SMALL_ROUND_BYTES) /* not where the target allows less (WGSL) */
        small_rounds(run, n, rows, flags);
    rc = mixed_shape(run, n, rows, flags);
    if (rc == 2) return 2;
    if (rc != 0) {
        if (f->path == SG_FFT_PATH_MIXED && !sg_given(run, FFT_OPT_EPT) && !sg_given(run, FFT_OPT_WG) &&
            !f->real && !rows)
            return mixed_passes(run, single_max);
        char memory[64] = "32 KB";
        if (budget < BUDGET_BYTES) snprintf(memory, sizeof memory, "%ld bytes (--wg-storage)", budget);
        return usage_error("--fft %ld: no one-dispatch plan%s (E <= %d, W <= --max-wg %ld, %s of shared "
                           "memory)", f->n, f->real ? " of real rows" : "", SG_FFT_MAX_REGISTERS, f->max_wg,
                           memory);
    }
    f->rows_per_wg = rows ? rows : sg_fft_mixed_rows(n, f->wg, f->max_wg, BUDGET_SLOTS, flags);
    take_stages(run, f, n, f->rows_per_wg, flags);
    /* An exchange by component moves floats through one array, so no layout applies (and the
     * regenerate command leaves the flag out: sg_fft_shared_layout_applies). */
    if (f->stages.components && sg_given(run, FFT_OPT_SHARED))
        return usage_error("--shared-layout %s: --fft %ld (E %ld x W %ld) exchanges by component, the real "
                           "parts then the imaginary through one float array, where no layout applies",
                           sg_fft_shared_layouts[f->shared_layout], f->n, f->ept, f->wg);
    return 0;
}
