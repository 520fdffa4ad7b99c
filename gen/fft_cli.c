/* fft_cli.c: the --fft kernel's options. Parses each flag, then, once every flag is known,
 * derives the shape (N = E x W) and checks the combination. Every error is one line on
 * stderr naming the flag, the value and what is allowed, and exits 2 (cli.c's style). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "fft_cli.h"
#include "lua_fields.h"

static const char *const directions[] = {"forward", "inverse", NULL};
static const char *const norms[] = {"inverse", "none", "unitary", NULL};
static const char *const orders[] = {"natural", "native", NULL};
static const char *const storages[] = {"f32", "f16", NULL};
static const char *const twiddle_kinds[] = {"device", "lut", "squared", NULL};
/* --shared-layout: index = sg_fft_params.paired_shared. */
static const char *const shared_layouts[] = {"split", "paired", NULL};
/* --column-layout; index + 1 is the sg_fft_column_layout (AUTO has no name). */
static const char *const column_layouts[] = {"lanes", "registers", NULL};

/* Options with a value, then flags. --wg and --subgroup are cli.c's (shared with --spd). */
static const char *const valued_options[] = {"--fft", "--ept", "--max-wg", "--direction", "--norm",
                                             "--order", "--storage", "--twiddles", "--batch",
                                             "--rows-per-wg", "--column-layout",
                                             "--columns-per-wg", "--shared-layout",
                                             "--prefetch-rows", NULL};
static const char *const flag_options[] = {"--stride", "--real", NULL};

#define usage_error sg_usage_error

static int index_of(const char *const *names, const char *value)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], value) == 0) return i;
    return -1;
}

/* "a | b | c" for messages. */
static const char *list_of(const char *const *names, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; names[i]; i++) {
        if (i) strncat(buf, " | ", size - strlen(buf) - 1);
        strncat(buf, names[i], size - strlen(buf) - 1);
    }
    return buf;
}

/* Strict decimal: the whole string, no sign; -1 when it is not a number or too large. */
static long parse_count(const char *s)
{
    char *end;
    if (*s < '0' || *s > '9') return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v > (1L << 30)) return -1;
    return v;
}

static int is_pow2(long v) { return v > 0 && (v & (v - 1)) == 0; }


/* A power-of-two option value in lo..hi into *out; else the one-line usage error naming
 * the flag, the range and what the value means (`why`). */
static int pow2_option(const char *flag, const char *value, long lo, long hi, const char *why,
                       int *out)
{
    long v = parse_count(value);
    if (!is_pow2(v) || v < lo || v > hi)
        return usage_error("%s %s: must be a power of two %ld..%ld (%s)", flag, value, lo, hi,
                           why);
    *out = (int)v;
    return SG_EXIT_OK;
}

/* --columns-per-wg C, or C1,C2: a four-step plan's pass 1 and pass 2 (check_columns refuses
 * two values for one shader). */
static int columns_option(const char *value, sg_fft_params *f)
{
    char first[32];
    const char *comma = strchr(value, ',');
    size_t len = comma ? (size_t)(comma - value) : strlen(value);
    long v[2];
    snprintf(first, sizeof first, "%.*s", (int)(len < sizeof first ? len : sizeof first - 1), value);
    v[0] = len < sizeof first ? parse_count(first) : -1;
    v[1] = comma ? parse_count(comma + 1) : v[0];
    for (int i = 0; i < 2; i++)
        if (!is_pow2(v[i]) || v[i] > 1024)
            return usage_error("--columns-per-wg %s: must be a power of two 1..1024 (columns per "
                               "workgroup, in lanes: C x W invocations), or C1,C2 for a four-step "
                               "plan's two passes", value);
    f->columns_per_wg[0] = (int)v[0];
    f->columns_per_wg[1] = (int)v[1];
    f->columns_values = comma ? 2 : 1;
    return SG_EXIT_OK;
}

int sg_fft_cli_is_option(const char *flag, int *takes_value)
{
    if (index_of(valued_options, flag) >= 0) {
        *takes_value = 1;
        return 1;
    }
    if (index_of(flag_options, flag) >= 0) {
        *takes_value = 0;
        return 1;
    }
    return 0;
}

/* Records an enumerated option; an unknown value is a usage error listing the allowed ones. */
static int parse_choice(const char *flag, const char *value, const char *const *names, int *out)
{
    int k = index_of(names, value);
    if (k < 0) {
        char list[128];
        return usage_error("%s %s: must be %s", flag, value, list_of(names, list, sizeof list));
    }
    *out = k;
    return SG_EXIT_OK;
}

int sg_fft_cli_option(sg_config *cfg, const char *flag, const char *value)
{
    sg_fft_params *f = &cfg->fft;
    int choice;
    long v;
    if (!f->max_wg) f->max_wg = 1024; /* defaults; cli.c zeroes the config first */
    if (strcmp(flag, "--fft") != 0 && !f->first_option) { /* the table's copy: `flag` is reused */
        int k = index_of(valued_options, flag);
        f->first_option = k >= 0 ? valued_options[k] : flag_options[index_of(flag_options, flag)];
    }

    if (!strcmp(flag, "--fft")) {
        snprintf(cfg->fft_value, sizeof cfg->fft_value, "%s", value);
        v = parse_count(value);
        if (!is_pow2(v) || v < 4 || v > SG_FFT_MAX_N)
            return usage_error("--fft %s: must be a power of two 4..2^20 (1048576)", value);
        f->n = v;
    } else if (!strcmp(flag, "--ept")) {
        if (pow2_option(flag, value, 2, SG_FFT_MAX_EPT, "elements per invocation, held in "
                        "registers", &f->ept)) return SG_EXIT_USAGE;
        f->ept_given = 1;
    } else if (!strcmp(flag, "--max-wg")) {
        return pow2_option(flag, value, 1, 1024, "the largest workgroup the device runs",
                           &f->max_wg);
    } else if (!strcmp(flag, "--rows-per-wg")) {
        char why[64];
        snprintf(why, sizeof why, "rows per workgroup, --ept x rows <= %d values",
                 SG_FFT_MAX_EPT);
        return pow2_option(flag, value, 1, SG_FFT_MAX_EPT / 2, why, &f->rows_per_wg);
    } else if (!strcmp(flag, "--prefetch-rows")) {
        return pow2_option(flag, value, 1, 64, "rows per workgroup in turn; 1: no prefetch",
                           &f->prefetch_rows);
    } else if (!strcmp(flag, "--columns-per-wg")) {
        return columns_option(value, f);
    } else if (!strcmp(flag, "--column-layout")) {
        if (parse_choice(flag, value, column_layouts, &choice)) return SG_EXIT_USAGE;
        f->column_layout = (sg_fft_column_layout)(choice + 1);
        f->column_layout_given = 1;
    } else if (!strcmp(flag, "--batch")) {
        v = parse_count(value);
        if (v < 1 || v > 65535)
            return usage_error("--batch %s: must be 1..65535 (FFTs run by --selftest)", value);
        f->batch = (int)v;
    } else if (!strcmp(flag, "--direction")) {
        if (parse_choice(flag, value, directions, &choice)) return SG_EXIT_USAGE;
        f->direction = (sg_fft_direction)choice;
    } else if (!strcmp(flag, "--norm")) {
        if (parse_choice(flag, value, norms, &choice)) return SG_EXIT_USAGE;
        f->norm = (sg_fft_norm)choice;
    } else if (!strcmp(flag, "--order")) {
        if (parse_choice(flag, value, orders, &choice)) return SG_EXIT_USAGE;
        f->order = (sg_fft_order)choice;
    } else if (!strcmp(flag, "--storage")) {
        if (parse_choice(flag, value, storages, &choice)) return SG_EXIT_USAGE;
        f->storage = (sg_fft_storage)choice;
    } else if (!strcmp(flag, "--twiddles")) {
        if (parse_choice(flag, value, twiddle_kinds, &choice)) return SG_EXIT_USAGE;
        f->twiddles = (sg_fft_twiddles)choice;
        f->twiddles_given = 1;
    } else if (!strcmp(flag, "--shared-layout")) {
        if (parse_choice(flag, value, shared_layouts, &choice)) return SG_EXIT_USAGE;
        f->paired_shared = choice;
        f->paired_shared_given = 1;
    } else if (!strcmp(flag, "--stride")) {
        f->strided = 1;
    } else if (!strcmp(flag, "--real")) {
        f->real = 1;
    }
    return SG_EXIT_OK;
}

/* The (E, W) pairs that make N, for the message when --ept and --wg disagree. */
static void working_pairs(const sg_fft_params *f, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int e = 2; e <= SG_FFT_MAX_EPT; e *= 2) {
        long w = f->n / e;
        if (w < 1 || w > f->max_wg || w * e != f->n) continue;
        char pair[48];
        snprintf(pair, sizeof pair, "%s--ept %d --wg %ld", buf[0] ? ", " : "", e, w);
        strncat(buf, pair, size - strlen(buf) - 1);
    }
}

/* The default shape of one FFT of n points, from the H200 measurements in
 * bench/FFT_RESULTS.md: E = 16 elements per invocation (four butterfly stages per exchange,
 * and 16 loads in flight per invocation) while the workgroup keeps at least 32 invocations
 * (one full warp; E = 8 x W = 32 is the fastest N = 256), and never more than --max-wg
 * invocations. Nabla's rule (E = 2 until the workgroup is full) was 1.5-2.2x slower for
 * N >= 256 on the H200. `wide` (complex rows, the shape measured): where E = 16 would need
 * more than SG_FFT_WIDE_WG invocations, W stays there and E grows (N = 8192: E 32 x W 256,
 * 16384: E 64 x W 256). */
static void default_shape(long n, int max_wg, int wide, int *ept, int *wg)
{
    long w = n / SG_FFT_DEFAULT_EPT;
    long warp = n / 2 < 32 ? n / 2 : 32;
    if (wide && w > SG_FFT_WIDE_WG)
        w = n / SG_FFT_MAX_EPT > SG_FFT_WIDE_WG ? n / SG_FFT_MAX_EPT : SG_FFT_WIDE_WG;
    if (w < warp) w = warp;
    if (w > max_wg) w = max_wg;
    *wg = (int)w;
    *ept = (int)(n / w);
}

/* N beyond one dispatch: the four-step plan, N = N1 x N2 with N1 = 2^ceil(log2(N) / 2),
 * each pass shaped by default_shape(). The passes pick their own E and W, so --ept and --wg
 * cannot be given; the options that need the whole spectrum in one workgroup are refused. */
static int plan_passes(sg_config *cfg, long single_max)
{
    sg_fft_params *f = &cfg->fft;
    int bits = 0;
    while ((1L << bits) < f->n) bits++;
    long n1 = 1L << ((bits + 1) / 2), n2 = f->n / n1;
    if (n1 > single_max)
        return usage_error("--fft %ld: too long even for two passes of at most %ld points "
                           "(--max-wg %d); raise --max-wg", f->n, single_max, f->max_wg);
    if (f->ept_given || cfg->wg_given)
        return usage_error("%s: --fft %ld is longer than one dispatch holds (%ld = 16 x --max-wg "
                           "%d), so each pass of its four-step plan picks E and W; limit them "
                           "with --max-wg", f->ept_given ? "--ept" : "--wg", f->n, single_max,
                           f->max_wg);
    if (f->real)
        return usage_error("--real: only up to --fft %ld (one dispatch); the four-step plan of "
                           "--fft %ld is complex only", single_max, f->n);
    if (f->order == SG_FFT_ORDER_NATIVE)
        return usage_error("--order native: only up to --fft %ld (one dispatch); the four-step "
                           "plan of --fft %ld is natural order", single_max, f->n);
    if (f->strided)
        return usage_error("--stride: only up to --fft %ld (one dispatch); the four-step plan of "
                           "--fft %ld runs rows", single_max, f->n);
    if (f->twiddles == SG_FFT_TWIDDLES_LUT)
        return usage_error("--twiddles lut: only up to --fft %ld (one dispatch); the four-step "
                           "plan of --fft %ld computes its twiddles", single_max, f->n);
    f->passes = 2;
    f->pass_n[0] = n1;
    f->pass_n[1] = n2;
    for (int p = 0; p < 2; p++) default_shape(f->pass_n[p], f->max_wg, 0, &f->pass_ept[p], &f->pass_wg[p]);
    f->ept = f->pass_ept[0];
    cfg->wg = f->pass_wg[0] < f->pass_wg[1] ? f->pass_wg[0] : f->pass_wg[1]; /* for --subgroup */
    return SG_EXIT_OK;
}

/* E and W from N (default_shape() when neither is given). */
static int derive_shape(sg_config *cfg)
{
    sg_fft_params *f = &cfg->fft;
    long single_max = (long)SG_FFT_DEFAULT_EPT * f->max_wg;
    char pairs[256];
    if (f->n > single_max) return plan_passes(cfg, single_max);
    if (f->ept_given && cfg->wg_given) {
        if ((long)f->ept * cfg->wg != f->n) {
            working_pairs(f, pairs, sizeof pairs);
            if (!pairs[0])
                return usage_error("--ept %d --wg %d: %d x %d is not --fft %ld, and no --ept "
                                   "2..%d with --wg <= --max-wg %d makes it", f->ept, cfg->wg,
                                   f->ept, cfg->wg, f->n, SG_FFT_MAX_EPT, f->max_wg);
            return usage_error("--ept %d --wg %d: %d x %d is not --fft %ld; use %s", f->ept,
                               cfg->wg, f->ept, cfg->wg, f->n, pairs);
        }
    } else if (cfg->wg_given) {
        if (f->n % cfg->wg != 0 || f->n / cfg->wg < 2 || f->n / cfg->wg > SG_FFT_MAX_EPT)
            return usage_error("--wg %d: must be a power of two that splits --fft %ld into "
                               "2..%d elements per invocation (--wg %ld..%ld)", cfg->wg, f->n,
                               SG_FFT_MAX_EPT, f->n / SG_FFT_MAX_EPT > 1 ? f->n / SG_FFT_MAX_EPT : 1,
                               f->n / 2);
        f->ept = (int)(f->n / cfg->wg);
    } else if (f->ept_given) {
        if (f->n % f->ept != 0)
            return usage_error("--ept %d: larger than --fft %ld", f->ept, f->n);
        cfg->wg = (int)(f->n / f->ept);
        if (cfg->wg > f->max_wg)
            return usage_error("--ept %d: --fft %ld / %d = %d invocations, more than --max-wg "
                               "%d; use --ept %ld..%d", f->ept, f->n, f->ept, cfg->wg,
                               f->max_wg, f->n / f->max_wg, SG_FFT_MAX_EPT);
    } else {
        default_shape(f->n, f->max_wg, !f->strided && !f->real, &f->ept, &cfg->wg);
    }
    if (f->passes) return SG_EXIT_OK;
    if (!is_pow2(cfg->wg))
        return usage_error("--wg %d: must be a power of two for --fft", cfg->wg);
    if (cfg->wg > f->max_wg)
        return usage_error("--wg %d: larger than --max-wg %d (for --fft %ld use --ept %ld or "
                           "more)", cfg->wg, f->max_wg, f->n,
                           f->n / f->max_wg > 2 ? f->n / f->max_wg : 2);
    return SG_EXIT_OK;
}

/* Rows per workgroup when --rows-per-wg is not given, for complex rows in the default shape
 * (fft_params.h has the measurements): at E <= 4 (N <= 128) enough rows that each invocation
 * holds SG_FFT_SHORT_ROW_VALUES values; at W = SG_FFT_WIDE_WG with E = 32 (N = 8192), and
 * with E = 16 (N = 4096) where no shuffles run (--subgroup 0 or 4; with 8+ rows in turn
 * measured faster), SG_FFT_WIDE_ROWS, or SG_FFT_4096_ROWS at 4096 with --subgroup 0; else 1.
 * A given --prefetch-rows keeps one. */
static int default_rows_per_wg(const sg_config *cfg)
{
    const sg_fft_params *f = &cfg->fft;
    if (f->strided || f->real || f->passes || f->ept_given || cfg->wg_given || f->prefetch_rows)
        return 1;
    if (f->ept <= 4)
        return SG_FFT_SHORT_ROW_VALUES / f->ept;
    if (cfg->wg == SG_FFT_WIDE_WG && f->ept == SG_FFT_DEFAULT_EPT && cfg->subgroup == 0)
        return SG_FFT_4096_ROWS;
    if (cfg->wg == SG_FFT_WIDE_WG && f->ept * SG_FFT_WIDE_ROWS <= SG_FFT_MAX_EPT &&
        (f->ept > SG_FFT_DEFAULT_EPT || (f->ept == SG_FFT_DEFAULT_EPT && cfg->subgroup < 8)))
        return SG_FFT_WIDE_ROWS;
    return 1;
}

/* --twiddles when not given: squared for complex rows in the default shape at --subgroup 0,
 * N = SG_FFT_SQUARED_FROM_N..SG_FFT_SQUARED_TO_N, in the row arrangement it was measured
 * with there (rows in turn at 2048, SG_FFT_4096_ROWS rows in registers at 4096); else device
 * (fft_params.h has the measurements). */
static sg_fft_twiddles default_twiddles(const sg_config *cfg)
{
    const sg_fft_params *f = &cfg->fft;
    if (f->strided || f->real || f->passes || f->ept_given || cfg->wg_given || cfg->subgroup != 0 ||
        f->n < SG_FFT_SQUARED_FROM_N || f->n > SG_FFT_SQUARED_TO_N)
        return SG_FFT_TWIDDLES_DEVICE;
    if (f->n == SG_FFT_SQUARED_TO_N && f->rows_per_wg != SG_FFT_4096_ROWS)
        return SG_FFT_TWIDDLES_DEVICE;
    if (f->n < SG_FFT_SQUARED_TO_N && f->prefetch_rows != SG_FFT_PREFETCH_DEFAULT)
        return SG_FFT_TWIDDLES_DEVICE;
    return SG_FFT_TWIDDLES_SQUARED;
}

/* Rows in turn (--prefetch-rows) when not given: SG_FFT_PREFETCH_DEFAULT for complex rows in
 * the default shape at E = 16 with W = SG_FFT_PREFETCH_MIN_WG..SG_FFT_WIDE_WG (N = 1024..4096)
 * that hold one row in registers (4096 holds two without shuffles), the shapes it was
 * measured faster on; else 1. */
static int default_prefetch_rows(const sg_config *cfg)
{
    const sg_fft_params *f = &cfg->fft;
    if (f->strided || f->real || f->passes || f->ept_given || cfg->wg_given || f->rows_per_wg > 1)
        return 1;
    return f->ept == SG_FFT_DEFAULT_EPT && cfg->wg >= SG_FFT_PREFETCH_MIN_WG && cfg->wg <= SG_FFT_WIDE_WG
               ? SG_FFT_PREFETCH_DEFAULT : 1;
}

/* Columns in lanes for a column FFT of `wg` invocations (a --stride shader, or pass p of a
 * plan): --columns-per-wg, else the largest power of two up to SG_FFT_LANES_DEFAULT
 * (SG_FFT_PLAN_LANES_DEFAULT for a plan's pass) with C x W <= --max-wg. 0 = the
 * register layout: --column-layout registers, or by default for a --stride shader where
 * fewer than SG_FFT_LANES_MIN columns fit (N >= 4096 at --max-wg 1024), which keeps the
 * shape measured before the lanes layout. */
static int lane_columns(const sg_fft_params *f, int wg, int p)
{
    if (f->column_layout == SG_FFT_COLUMNS_REGISTERS) return 0;
    if (f->columns_values) return f->columns_per_wg[p];
    int c = f->passes ? SG_FFT_PLAN_LANES_DEFAULT : SG_FFT_LANES_DEFAULT;
    while (c > 1 && (long)c * wg > f->max_wg) c /= 2;
    if (f->passes) return c;
    return f->column_layout == SG_FFT_COLUMNS_AUTO && c < SG_FFT_LANES_MIN ? 0 : c;
}

/* How a plan's scratch holds pass 1's output: frequency k1 (of N1) of column n2 (of N2) at
 * (k1 / T) x N2 x T + n2 x T + k1 mod T, in tiles of T frequencies. With T = pass 2's
 * columns in lanes, C2, each of pass 2's workgroups reads one contiguous block (its C2
 * columns are one tile) instead of C2-value pieces N1 apart, and pass 1's C1 columns write
 * runs of C1 x C2 values. T = N1 is the scratch in rows (column n2 as a contiguous row):
 * kept where pass 2 has no lanes or those runs would be under SG_FFT_TILE_MIN_RUN values. */
static long plan_scratch_tile(const sg_fft_params *f)
{
    long t = f->pass_lanes[1];
    if (!t || (long)f->pass_lanes[0] * t < SG_FFT_TILE_MIN_RUN || t > f->pass_n[0]) return f->pass_n[0];
    return t;
}

/* --column-layout and --columns-per-wg: only for columns; C x W within --max-wg for every
 * shader; then each shader's columns in lanes (f->lanes, f->pass_lanes) and a plan's
 * scratch tiles. */
static int check_columns(sg_config *cfg)
{
    sg_fft_params *f = &cfg->fft;
    char value[32];
    const char *flag = f->columns_values ? "--columns-per-wg" : "--column-layout";
    if (f->columns_values == 2) snprintf(value, sizeof value, "%d,%d", f->columns_per_wg[0], f->columns_per_wg[1]);
    else if (f->columns_values) snprintf(value, sizeof value, "%d", f->columns_per_wg[0]);
    else snprintf(value, sizeof value, "%s", f->column_layout_given ? column_layouts[f->column_layout - 1] : "");
    if ((f->column_layout_given || f->columns_values) && !f->strided && !f->passes)
        return usage_error("%s %s: only for column FFTs (--stride) and four-step plans (--fft "
                           "beyond 16 x --max-wg); rows use --rows-per-wg", flag, value);
    if (f->columns_values == 2 && !f->passes)
        return usage_error("--columns-per-wg %s: two values are for a four-step plan's passes; "
                           "one --stride shader takes one", value);
    if (f->columns_values && f->column_layout == SG_FFT_COLUMNS_REGISTERS)
        return usage_error("--columns-per-wg %s: not with --column-layout registers (it holds "
                           "16/E columns in each invocation's registers)", value);
    int shaders = f->passes ? f->passes : 1;
    for (int p = 0; p < shaders; p++) {
        int wg = f->passes ? f->pass_wg[p] : cfg->wg;
        int c = f->columns_per_wg[p];
        if ((long)c * wg > f->max_wg) {
            char which[32] = "--wg";
            if (f->passes) snprintf(which, sizeof which, "pass %d", p + 1);
            int most = f->max_wg / wg;
            if (f->columns_values == 2)
                return usage_error("--columns-per-wg %s: %d columns x %d invocations (%s) is more "
                                   "than --max-wg %d; %s takes %d columns at most", value, c, wg,
                                   which, f->max_wg, which, most);
            return usage_error("--columns-per-wg %s: %d columns x %d invocations (%s) is more than "
                               "--max-wg %d; use --columns-per-wg %d or less", value, c, wg, which,
                               f->max_wg, most);
        }
        int lanes = f->strided || f->passes ? lane_columns(f, wg, p) : 0;
        if (f->passes) f->pass_lanes[p] = lanes;
        else f->lanes = lanes;
    }
    if (f->passes) f->scratch_tile = plan_scratch_tile(f);
    return SG_EXIT_OK;
}

int sg_fft_cli_check(sg_config *cfg)
{
    sg_fft_params *f = &cfg->fft;
    if (!f->max_wg) f->max_wg = 1024;
    if (cfg->wg_given && cfg->wg < 1)
        return usage_error("--wg %d: must be a power of two 1..--max-wg", cfg->wg);
    int rc = derive_shape(cfg);
    if (rc != SG_EXIT_OK) return rc;
    if (!f->paired_shared_given) f->paired_shared = f->n >= SG_FFT_PAIRED_FROM_N;
    if (cfg->subgroup > cfg->wg)
        return usage_error("--subgroup %d: larger than the workgroup (%s %d); use 0..%d",
                           cfg->subgroup, f->passes ? "a pass's" : "--wg", cfg->wg,
                           cfg->wg >= 4 ? cfg->wg : 0);
    if (f->real && f->n < 8)
        return usage_error("--real: needs --fft 8 or more (N/2+1 half spectra of two rows "
                           "packed in one N-point FFT)");
    if (f->real && f->order == SG_FFT_ORDER_NATIVE)
        return usage_error("--order native: not with --real (the half spectra are unpacked in "
                           "natural order)");
    if (!f->batch) f->batch = 4;
    if (!f->rows_per_wg) f->rows_per_wg = default_rows_per_wg(cfg);
    if (f->rows_per_wg > 1) {
        const char *clash = f->strided ? "--stride (its columns per workgroup: --columns-per-wg)"
                            : f->real ? "--real" : f->passes ? "a four-step plan" : NULL;
        if (clash)
            return usage_error("--rows-per-wg %d: not with %s; it is for complex rows in one "
                               "dispatch", f->rows_per_wg, clash);
        /* As many values in registers as the largest E. */
        if (f->ept * f->rows_per_wg > SG_FFT_MAX_EPT)
            return usage_error("--rows-per-wg %d: --ept %d x %d rows is more than %d values in "
                               "registers; use --rows-per-wg %d%s", f->rows_per_wg, f->ept,
                               f->rows_per_wg, SG_FFT_MAX_EPT, SG_FFT_MAX_EPT / f->ept,
                               f->ept < SG_FFT_MAX_EPT ? " or less" : "");
    }
    if (!f->prefetch_rows) f->prefetch_rows = default_prefetch_rows(cfg);
    if (f->prefetch_rows > 1) {
        const char *clash = f->strided ? "--stride" : f->real ? "--real" : f->passes ? "a four-step plan"
                            : f->rows_per_wg > 1 ? "--rows-per-wg" : NULL;
        if (clash)
            return usage_error("--prefetch-rows %d: not with %s; it is for complex rows in one "
                               "dispatch, one at a time", f->prefetch_rows, clash);
        if (f->ept > SG_FFT_DEFAULT_EPT)
            return usage_error("--prefetch-rows %d: --ept %d plus the next row's %d is more than "
                               "%d values in registers; use --ept %d or less", f->prefetch_rows,
                               f->ept, f->ept, 2 * SG_FFT_DEFAULT_EPT, SG_FFT_DEFAULT_EPT);
    }
    if (!f->twiddles_given) f->twiddles = default_twiddles(cfg);
    return check_columns(cfg);
}

const char *sg_fft_cli_stray_option(const sg_config *cfg)
{
    return cfg->kernel == SG_KERNEL_FFT ? NULL : cfg->fft.first_option;
}

void sg_fft_cli_command(const sg_config *cfg, char *buf, size_t size)
{
    const sg_fft_params *f = &cfg->fft;
    static const char *const lang_names[] = {"glsl", "hlsl"};
    char shape[64], rows_flag[80] = "";
    if (f->rows_per_wg > 1) snprintf(rows_flag, sizeof rows_flag, " --rows-per-wg %d", f->rows_per_wg);
    if (f->prefetch_rows > 1) snprintf(rows_flag, sizeof rows_flag, " --prefetch-rows %d", f->prefetch_rows);
    /* Columns: each shader, or a plan's two passes, names its resolved layout. */
    if (f->strided && !f->passes && f->lanes)
        snprintf(rows_flag, sizeof rows_flag, " --column-layout lanes --columns-per-wg %d", f->lanes);
    else if (f->strided && !f->passes)
        snprintf(rows_flag, sizeof rows_flag, " --column-layout registers");
    else if (f->passes && f->pass_lanes[0])
        snprintf(rows_flag, sizeof rows_flag, " --columns-per-wg %d,%d", f->pass_lanes[0], f->pass_lanes[1]);
    else if (f->passes)
        snprintf(rows_flag, sizeof rows_flag, " --column-layout registers");
    /* A four-step plan's passes follow from N and --max-wg; one dispatch names E and W. */
    if (f->passes) snprintf(shape, sizeof shape, "--max-wg %d", f->max_wg);
    else snprintf(shape, sizeof shape, "--ept %d --wg %d", f->ept, cfg->wg);
    snprintf(buf, size,
             "spdgen --fft %ld %s --subgroup %d --direction %s --norm %s --order %s "
             "--storage %s%s%s%s --twiddles %s --shared-layout %s --target %s%s%s%s%s",
             f->n, shape, cfg->subgroup, directions[f->direction], norms[f->norm],
             orders[f->order], storages[f->storage], f->strided ? " --stride" : "",
             f->real ? " --real" : "", rows_flag, twiddle_kinds[f->twiddles],
             shared_layouts[f->paired_shared], sg_target_name(cfg->target),
             cfg->target == SG_TARGET_SPIRV ? " --spirv-from " : "",
             cfg->target == SG_TARGET_SPIRV ? lang_names[cfg->spirv_from] : "",
             cfg->env != SV_ENV_VULKAN_1_1 ? " --target-env " : "",
             cfg->env != SV_ENV_VULKAN_1_1 ? sg_env_name(cfg->env) : "");
}

/* cfg.fft = { n, ept, wg, direction, norm, order, storage, twiddles, strided, real,
 * rows_per_wg, prefetch_rows, lanes (columns in lanes, 0: none), pass }. */
void sg_fft_push_fields(struct lua_State *L, const sg_config *cfg)
{
    const sg_fft_params *f = &cfg->fft;
    lua_createtable(L, 0, 10);
    sg_set_integer(L, "n", f->n);
    sg_set_integer(L, "ept", f->ept);
    sg_set_integer(L, "wg", cfg->wg);
    sg_set_string(L, "direction", directions[f->direction]);
    sg_set_string(L, "norm", norms[f->norm]);
    sg_set_string(L, "order", orders[f->order]);
    sg_set_string(L, "storage", storages[f->storage]);
    sg_set_string(L, "twiddles", twiddle_kinds[f->twiddles]);
    sg_set_boolean(L, "paired_shared", f->paired_shared);
    sg_set_boolean(L, "strided", f->strided);
    sg_set_boolean(L, "real", f->real);
    sg_set_integer(L, "rows_per_wg", f->rows_per_wg);
    sg_set_integer(L, "prefetch_rows", f->prefetch_rows);
    sg_set_integer(L, "lanes", f->lanes);
    if (f->pass) { /* one pass of a four-step plan: { index, count, n_total, scratch_tile } */
        lua_createtable(L, 0, 4);
        sg_set_integer(L, "index", f->pass);
        sg_set_integer(L, "count", f->passes);
        sg_set_integer(L, "n_total", f->pass_n[0] * f->pass_n[1]);
        sg_set_integer(L, "scratch_tile", f->scratch_tile);
        lua_setfield(L, -2, "pass");
    }
    lua_setfield(L, -2, "fft");
}
