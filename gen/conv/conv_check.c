/* conv_check.c: the --conv parameters once every flag is known: the padded sizes, the axis
 * order, the kernel spectrum's size and each shader's FFT shape, and every combination the
 * shaders cannot honour, each a one-line error naming the flag. */
#include <stdio.h>

#include "conv.h"
#include "wgsl.h"

#define usage_error sg_usage_error

/* Line passes hold E values of every channel: E x channels registers by default. */
#define LINE_REGISTERS 32
/* The default E (the FFT's default shape), and columns per workgroup in lanes at most: 4
 * measured fastest for pass 2 (1.44x over 8 at a 2048x1024 padding, level at 4096x2048;
 * docs/conv.md, Limits): fewer registers and more resident workgroups than 8 or 16
 * columns, and fewer workgroups than 1 or 2. With the tiles, 2 won at one case of eight
 * and lost at the mixed-radix sides (docs/conv.md, Tiles). */
#define DEFAULT_EPT 16
#define LANES_DEFAULT 4
/* A mixed-radix column pass holds at most this many values per invocation. Its plan needs
 * every radix to divide E (the product sits between the forward and the inverse FFT), so a
 * side such as 960 = 2^6 x 3 x 5 takes E = 60: 255 registers, and its pass 2 ran 4.4x slower
 * than the power of two above it (docs/conv.md, Padded sizes). A side with
 * no such plan is passed over for the next smooth one. */
#define MIXED_COLUMN_EPT 24
/* The smallest smooth side gives way to one at most 1/SMOOTH_MARGIN larger, as measured in
 * one call (docs/conv.md, Padded sizes): along the first axis a side
 * with a factor 7 to one without (1920x1080 with a 512 PSF: 2500 = 2^2 5^4 against 2450 =
 * 2 5^2 7^2, line passes 89.1 -> 64.5 us, pipeline 191.6 -> 180.6; 3000x1600 with 100: 3200
 * against 3136 within 1%), along the second axis to the power of two (1280x720 with 256:
 * 1024 against 1000, pipeline 76.1 -> 72.8 us; 976x976 with 25, run3: pass 2 31.4 -> 28.5). */
#define SMOOTH_MARGIN 32
/* Pass 2's shape over NARROW_POINTS points (narrow). */
#define NARROW_POINTS 1024
#define NARROW_EPT 8
#define NARROW_COLUMNS 2
/* Columns in lanes of the resample's workgroups (resample_shape). */
#define RESAMPLE_COLUMNS 16

static long next_pow2(long v)
{
    long p = 1;
    while (p < v) p *= 2;
    return p;
}

static long max_long(long a, long b) { return a > b ? a : b; }
static long min_long(long a, long b) { return a < b ? a : b; }

static int is_pow2(long v) { return v > 0 && (v & (v - 1)) == 0; }

/* Shared memory for one exchange round in complex slots: 32 KB as the FFT's, or WGSL's
 * --wg-storage where it is less (templates/fft/common.lua's budget_slots). */
static long budget_slots(const sg_run *run)
{
    long bytes = sg_is_wgsl(run) && run->common.wg_storage < 32768 ? run->common.wg_storage : 32768;
    return bytes / 8;
}

/* A padded side --pad-to smooth and --padded allow: even, no prime factor above 7. */
static int is_smooth_side(long v)
{
    if (v < SG_CONV_MIN_FFT || v % 2 != 0) return 0;
    while (v % 2 == 0) v /= 2;
    for (long p = 3; p <= SG_CONV_SMOOTH_LARGEST; p += 2)
        while (v % p == 0) v /= p;
    return v == 1;
}

/* A mixed-radix FFT of n points (not a power of two) for a line pass (lanes 0: one FFT per
 * workgroup, every channel's E values in registers, E x channels <= LINE_REGISTERS) or a
 * column pass (lanes columns per workgroup; every radix dividing E, so the forward FFT's
 * outputs are the inverse's inputs where they sit). E is `ept` where given (0: chosen). Quiet:
 * 0, or -1 where no shape fits. */
static int shape_with(const sg_run *run, long n, long lanes, long ept, int flags, sg_conv_shape *s)
{
    const sg_conv_params *c = run->params;
    long budget = budget_slots(run), e, w;
    long max_e = lanes ? MIXED_COLUMN_EPT : LINE_REGISTERS / c->channels;
    long ffts = lanes ? lanes : 1;
    if (ept) {
        e = ept, w = n / e;
        if (n % e != 0 || e > max_e || w * ffts > c->max_wg) return -1;
    } else if (sg_fft_mixed_shape_within(n, max_e, c->max_wg, ffts, budget, flags, &e, &w, NULL) != 0) {
        return -1;
    }
    if (sg_fft_stage_plan(n, e, ffts, budget, flags, &s->stages) != 0) return -1;
    if (!lanes && s->stages.registers * c->channels > SG_CONV_MAX_REGISTERS) return -1;
    s->n = n, s->ept = e, s->wg = w;
    return 0;
}

/* A line pass is planned with its exchanges' bank conflicts counted (SG_FFT_CONFLICTS: a first
 * stage of radix 16 writes 16 slots apart, all in one bank; measured, docs/conv.md), unless
 * that plan holds more registers than the channels allow; column passes need exact plans. */
static int mixed_shape(const sg_run *run, long n, long lanes, long ept, sg_conv_shape *s)
{
    if (lanes) return shape_with(run, n, lanes, ept, SG_FFT_EXACT, s);
    if (shape_with(run, n, 0, ept, SG_FFT_CONFLICTS, s) == 0) return 0;
    return shape_with(run, n, 0, ept, 0, s);
}

/* Whether a side of n points has a default shape in its role: the line passes (line) or
 * the column passes. */
static int side_fits(const sg_run *run, long n, int line)
{
    if (is_pow2(n)) return n <= 16 * ((const sg_conv_params *)run->params)->max_wg;
    sg_conv_shape s;
    return mixed_shape(run, n, line ? 0 : 1, 0, &s) == 0;
}

/* The padded side holding image + PSF - 1 along axis i in its role (line: the first axis):
 * the power of two, or with --pad-to smooth the smallest even 7-smooth side with a shape. */
static long next_smooth_side(const sg_run *run, long m, int line)
{
    const sg_conv_params *c = run->params;
    while (m <= 16 * c->max_wg && !(is_smooth_side(m) && side_fits(run, m, line))) m++;
    return m;
}

static long padded_side(const sg_run *run, int i, int line)
{
    const sg_conv_params *c = run->params;
    long need = max_long(SG_CONV_MIN_FFT, c->image[i] + c->psf[i] - 1);
    if (c->pad_to == SG_CONV_PAD_TO_POW2) return next_pow2(need);
    long m = next_smooth_side(run, need, line);
    long near = m + m / SMOOTH_MARGIN;
    if (line && m % 7 == 0) {
        /* A side of 7s gives way to one of 2, 3 and 5 at most 1/32 larger. */
        for (long k = next_smooth_side(run, m + 1, line); k <= near; k = next_smooth_side(run, k + 1, line))
            if (k % 7 != 0) {
                m = k;
                break;
            }
    } else if (!line && next_pow2(m) <= near && next_pow2(m) <= 16 * c->max_wg) {
        /* The power of two, where it is at most 1/32 larger. */
        m = next_pow2(m);
    }
    return m;
}

/* The padded image along x and y, for the axis order: --padded, or padded_side's. */
static int padded_sizes(sg_run *run)
{
    sg_conv_params *c = run->params;
    static const char side[2] = {'x', 'y'};
    int given = sg_given(run, CONV_OPT_PADDED);
    int line_axis = c->first_axis == SG_CONV_AXIS_X ? 0 : 1;
    if (given && sg_given(run, CONV_OPT_PAD_TO))
        return usage_error("--pad-to %s: not with --padded, which gives the sizes", sg_conv_pad_to[c->pad_to]);
    for (int i = 0; i < 2; i++) {
        if (given) {
            if (!is_pow2(c->padded[i]) && !is_smooth_side(c->padded[i]))
                return usage_error("--padded %ldx%ld: each side must be at least %d, even, with no prime "
                                   "factor above %d", c->padded[0], c->padded[1], SG_CONV_MIN_FFT,
                                   SG_CONV_SMOOTH_LARGEST);
            if (c->psf[i] > c->padded[i])
                return usage_error("--psf %ldx%ld: larger than the padded image %ldx%ld (--padded)",
                                   c->psf[0], c->psf[1], c->padded[0], c->padded[1]);
            if (c->image[i] + c->psf[i] - 1 > c->padded[i])
                return usage_error("--padded %ldx%ld: the image + the PSF - 1 is %ld along %c, so the "
                                   "convolution would wrap around", c->padded[0], c->padded[1],
                                   c->image[i] + c->psf[i] - 1, side[i]);
        } else {
            c->padded[i] = padded_side(run, i, i == line_axis);
        }
        if (given && !is_pow2(c->padded[i]) && !side_fits(run, c->padded[i], i == line_axis))
            return usage_error("--padded %ldx%ld: the %s %ld has no FFT shape for the %s passes (%s %d)",
                               c->padded[0], c->padded[1], i ? "height" : "width", c->padded[i],
                               i == line_axis ? "line" : "column", i == line_axis ?
                               "E x channels <= 32, W <= --max-wg; channels:" : "every radix dividing one E <=",
                               i == line_axis ? (int)c->channels : MIXED_COLUMN_EPT);
        if (!side_fits(run, c->padded[i], i == line_axis))
            return usage_error("--image %ldx%ld with --psf %ldx%ld: the padded %s %ld is past one "
                               "dispatch (at most %ld = 16 x --max-wg %ld%s)", c->image[0], c->image[1],
                               c->psf[0], c->psf[1], i ? "height" : "width", c->padded[i], 16 * c->max_wg,
                               c->max_wg, is_pow2(c->padded[i]) ? "" : ", with a mixed-radix shape");
    }
    return 0;
}

/* The axis of pass 1 and pass 3: the order whose spectra between the passes are smaller
 * (x first: a half spectrum of every row, about height x padded width values; y first,
 * width x padded height), x on a tie. */
/* auto: x first (rows) unless y first stores under 3/4 of x first's spectrum values. x first
 * measured faster or level even where it stores about 11% more (1280x720 with a 256 PSF:
 * 102 against 103 us; 1920x1080 with 512: 267 against 323 us; docs/conv.md, The axis
 * order): its line passes read image rows whole, y first reads columns. The 3/4 margin
 * itself is unmeasured. */
static void choose_axis(sg_run *run)
{
    sg_conv_params *c = run->params;
    if (c->first_axis == SG_CONV_AXIS_AUTO) {
        /* Each order's line side: --padded's, or its own (a smooth side may fit one role). */
        int given = sg_given(run, CONV_OPT_PADDED);
        long x_line = given ? c->padded[0] : padded_side(run, 0, 1);
        long y_line = given ? c->padded[1] : padded_side(run, 1, 1);
        c->first_axis = 4 * c->image[0] * y_line < 3 * c->image[1] * x_line ? SG_CONV_AXIS_Y : SG_CONV_AXIS_X;
    }
}

/* The sizes along the passes' axes, once the order and the padded image are known. */
static void axis_sizes(sg_conv_params *c)
{
    int a = c->first_axis == SG_CONV_AXIS_X ? 0 : 1;
    c->e1 = c->image[a], c->e2 = c->image[1 - a];
    c->k1 = c->psf[a], c->k2 = c->psf[1 - a];
    c->p1 = c->padded[a], c->p2 = c->padded[1 - a];
    if (c->spectrum == SG_CONV_SPECTRUM_EXACT) {
        c->q1 = c->p1, c->q2 = c->p2;
    } else {
        c->q1 = max_long(SG_CONV_MIN_FFT, next_pow2(c->k1));
        c->q2 = max_long(SG_CONV_MIN_FFT, next_pow2(c->k2));
    }
    c->channel_bits = c->channels > 2 ? 2 : c->channels - 1;
}

/* E given by `flag` for a power-of-two FFT of n points with `per_element` values per element:
 * W = n / E. */
static int given_ept(sg_run *run, long n, long per_element, long ept, const char *flag, sg_conv_shape *s)
{
    const sg_conv_params *c = run->params;
    if (!is_pow2(ept)) /* only --pass2-ept: --ept is a power of two */
        return usage_error("%s %ld: pass 2's FFTs of %ld points take a power of two", flag, ept, n);
    if (ept > n / 2)
        return usage_error("%s %ld: this job's FFTs of %ld points take at most %s %ld", flag, ept,
                           n, flag, n / 2);
    if (ept * per_element > SG_CONV_MAX_REGISTERS)
        return usage_error("%s %ld: the line passes hold %ld channels, so at most %s %ld "
                           "(%d values per invocation)", flag, ept, per_element, flag,
                           SG_CONV_MAX_REGISTERS / per_element, SG_CONV_MAX_REGISTERS);
    if (n / ept > c->max_wg)
        return usage_error("%s %ld: an FFT of %ld points would need %ld invocations, past "
                           "--max-wg %ld", flag, ept, n, n / ept, c->max_wg);
    s->ept = ept;
    s->wg = n / ept;
    return 0;
}

/* A line pass (along A1, every channel in registers): E x channels <= LINE_REGISTERS. */
static int line_shape(sg_run *run, long n, sg_conv_shape *s)
{
    const sg_conv_params *c = run->params;
    long per_element = 1L << c->channel_bits;
    s->n = n;
    s->lanes = 0;
    s->groups_per_channel = 0;
    if (!is_pow2(n)) {
        if (mixed_shape(run, n, 0, c->ept, s) == 0) return 0;
        return usage_error("--ept %ld: the line passes' FFTs of %ld points take an E that divides %ld, "
                           "with E x %ld channels at most %d", c->ept, n, n, c->channels, LINE_REGISTERS);
    }
    if (c->ept) return given_ept(run, n, per_element, c->ept, "--ept", s);
    s->ept = min_long(min_long(DEFAULT_EPT, LINE_REGISTERS / per_element), n / 2);
    s->wg = n / s->ept;
    if (s->wg > c->max_wg) s->wg = c->max_wg, s->ept = n / s->wg;
    return 0;
}

/* A mixed-radix column pass: --columns-per-wg, or the most columns up to LANES_DEFAULT that
 * have a shape. */
static int mixed_column_shape(sg_run *run, long n, long columns, long ept, const char *flag, sg_conv_shape *s)
{
    const sg_conv_params *c = run->params;
    int found = -1;
    for (long lanes = c->columns ? c->columns : LANES_DEFAULT; found != 0 && lanes >= 1; lanes /= 2) {
        found = mixed_shape(run, n, lanes, ept, s);
        if (found == 0) s->lanes = lanes;
        if (c->columns) break;
    }
    if (found != 0 && c->columns)
        return usage_error("--columns-per-wg %ld: no shape of the %ld-point FFTs (%s, --max-wg %ld) holds "
                           "%ld columns", c->columns, n, flag, c->max_wg, c->columns);
    if (found != 0)
        return usage_error("%s %ld: the column passes' FFTs of %ld points take an E that divides %ld and "
                           "every radix of the plan, at most %d", flag, ept, n, n,
                           MIXED_COLUMN_EPT);
    s->groups_per_channel = (columns + s->lanes - 1) / s->lanes;
    return 0;
}

/* Pass 2 over NARROW_POINTS points, with neither E nor --columns-per-wg given: E 8 in 2 columns
 * (80 registers, three workgroups a multiprocessor) rather than the columns' default E 16 in
 * 4 (143-154 registers, one). Measured faster at every 1024-point pass 2 tried, with the
 * resample spanning several workgroups (1280x720, 1024x768, 512x512: pipeline 1.02-1.07x);
 * at 2048 points it lost (1.11-1.21x slower), and below 1024 it is not measured
 * (docs/conv.md, Limits). */
static int narrow(const sg_conv_params *c, long n, long ept)
{
    return n == NARROW_POINTS && !ept && !c->columns && NARROW_COLUMNS * (n / NARROW_EPT) <= c->max_wg;
}

/* A column pass (along A2, `columns` columns, C in lanes): E given by `flag` (0: the FFT's
 * default shape of columns, W = n / 16, at least 32 or n / 2, at most --max-wg; pass 2 may
 * take narrow()'s). */
static int column_shape(sg_run *run, long n, long columns, long ept, const char *flag, int pass2,
                        sg_conv_shape *s)
{
    const sg_conv_params *c = run->params;
    s->n = n;
    if (!is_pow2(n)) return mixed_column_shape(run, n, columns, ept, flag, s);
    int narrowed = pass2 && narrow(c, n, ept);
    if (ept) {
        int rc = given_ept(run, n, 1, ept, flag, s);
        if (rc) return rc;
    } else if (narrowed) {
        s->ept = NARROW_EPT;
        s->wg = n / NARROW_EPT;
    } else {
        long w = max_long(n / DEFAULT_EPT, min_long(n / 2, 32));
        s->wg = min_long(w, c->max_wg);
        s->ept = n / s->wg;
    }
    if (c->columns) {
        if (c->columns * s->wg > c->max_wg)
            return usage_error("--columns-per-wg %ld: %ld columns x %ld invocations is past --max-wg %ld",
                               c->columns, c->columns, s->wg, c->max_wg);
        s->lanes = c->columns;
    } else if (narrowed) {
        s->lanes = NARROW_COLUMNS;
    } else {
        s->lanes = 1;
        while (s->lanes * 2 <= LANES_DEFAULT && s->lanes * 2 * s->wg <= c->max_wg) s->lanes *= 2;
    }
    s->groups_per_channel = (columns + s->lanes - 1) / s->lanes;
    return 0;
}

/* The resample stores each value where pass 2's invocation of the same index reads it: one
 * coalesced load per register there (docs/conv.md, "Resampled and exact spectra"). Its
 * workgroups have pass 2's size, but each spans `merge` of pass 2's workgroups, RESAMPLE_COLUMNS
 * columns in lanes, and a share of their elements: its taps of the kernel spectrum then read
 * rows of neighbouring columns where pass 2's few columns read scattered rows (measured,
 * docs/conv.md). The workgroups per channel round up to a multiple of `merge`. */
static void resample_shape(sg_conv_params *c)
{
    sg_conv_shape *s = &c->shapes[SG_CONV_RESAMPLE];
    *s = c->shapes[SG_CONV_PASS2];
    long per_column = s->wg; /* pass 2's invocations per column (W) */
    s->merge = 1;
    while (s->lanes * s->merge * 2 <= RESAMPLE_COLUMNS && per_column % (s->merge * 2) == 0) s->merge *= 2;
    s->groups_per_channel = (s->groups_per_channel + s->merge - 1) / s->merge * s->merge;
}

static int check_flags(sg_run *run)
{
    sg_conv_params *c = run->params;
    if (!sg_given(run, CONV_OPT_IMAGE)) return usage_error("--conv needs --image WxH (the largest image)");
    if (!sg_given(run, CONV_OPT_PSF)) return usage_error("--conv needs --psf WxH (the largest PSF)");
    if (sg_given(run, CONV_OPT_FORMAT) && c->output != SG_CONV_IO_IMAGE)
        return usage_error("--format %s: only with --output image", sg_conv_formats[c->format]);
    if (!run->common.selftest) {
        if (sg_given(run, CONV_OPT_SIZE)) return usage_error("--size: only meaningful with --selftest");
        return 0;
    }
    if (!sg_given(run, CONV_OPT_SIZE)) {
        c->size[0] = c->image[0];
        c->size[1] = c->image[1];
    } else if (c->size[0] > c->image[0] || c->size[1] > c->image[1]) {
        return usage_error("--size %ldx%ld: larger than --image %ldx%ld", c->size[0], c->size[1],
                           c->image[0], c->image[1]);
    }
    return 0;
}

int sg_conv_check(sg_run *run)
{
    sg_conv_params *c = run->params;
    /* WebGPU: the shapes fit the limits given (--wg-invocations), as the other kernels'. */
    if (sg_is_wgsl(run) && !sg_given(run, CONV_OPT_MAX_WG) && c->max_wg > run->common.wg_invocations)
        c->max_wg = run->common.wg_invocations;
    int rc = check_flags(run);
    if (rc) return rc;
    choose_axis(run);
    rc = padded_sizes(run);
    if (rc) return rc;
    axis_sizes(c);
    rc = line_shape(run, c->q1, &c->shapes[SG_CONV_SPECTRUM1]);
    if (!rc) rc = column_shape(run, c->q2, c->q1 / 2 + 1, c->ept, "--ept", 0, &c->shapes[SG_CONV_SPECTRUM2]);
    if (!rc) rc = line_shape(run, c->p1, &c->shapes[SG_CONV_PASS1]);
    /* --pass2-ept shapes pass 2 (and the resample) alone: spectrum2 runs only when the PSF
     * changes, on the PSF's side, which may take no such E. */
    if (!rc) rc = column_shape(run, c->p2, c->p1 / 2 + 1, c->pass2_ept ? c->pass2_ept : c->ept,
                               c->pass2_ept ? "--pass2-ept" : "--ept", 1, &c->shapes[SG_CONV_PASS2]);
    if (!rc) rc = line_shape(run, c->p1, &c->shapes[SG_CONV_PASS3]);
    if (!rc) resample_shape(c);
    return rc;
}

/* The column passes read and write their columns in tiles (templates/conv/tiles.lua): tile
 * g of a channel holds columns gT..gT+T-1 of every line (y, the exact spectrum) or, for z and
 * zk, of every pair of lines both Z[k1] and Z[-k1]. */
long sg_conv_tile(const sg_conv_params *c, int shader)
{
    return max_long(c->shapes[shader].lanes, SG_CONV_TILE_COLUMNS);
}
long sg_conv_tiles(const sg_conv_params *c, int shader)
{
    long columns = (shader == SG_CONV_SPECTRUM2 ? c->q1 : c->p1) / 2 + 1;
    return (columns + sg_conv_tile(c, shader) - 1) / sg_conv_tile(c, shader);
}
static long tiled_columns(const sg_conv_params *c, int shader)
{
    return sg_conv_tiles(c, shader) * sg_conv_tile(c, shader);
}
long sg_conv_z_values(const sg_conv_params *c)
{
    return c->channels * tiled_columns(c, SG_CONV_PASS2) * ((c->e2 + 1) / 2) * 2;
}
long sg_conv_y_values(const sg_conv_params *c)
{
    return c->channels * tiled_columns(c, SG_CONV_PASS2) * c->e2;
}
long sg_conv_zk_values(const sg_conv_params *c)
{
    return c->channels * tiled_columns(c, SG_CONV_SPECTRUM2) * ((c->k2 + 1) / 2) * 2;
}
/* r: per channel, each of pass 2's workgroups holds its columns' P2 values each (pass 2's
 * register order); the columns past P1/2 of the last workgroup are slots pass 2 never uses. */
long sg_conv_r_values(const sg_conv_params *c)
{
    const sg_conv_shape *s = &c->shapes[SG_CONV_PASS2];
    return c->spectrum == SG_CONV_SPECTRUM_EXACT ? 0 : c->channels * s->groups_per_channel * s->lanes * c->p2;
}
long sg_conv_s_values(const sg_conv_params *c)
{
    if (c->spectrum == SG_CONV_SPECTRUM_EXACT) return c->channels * tiled_columns(c, SG_CONV_PASS2) * c->p2;
    return c->channels * c->q2 * c->q1;
}
