/* fft_bench.c: the FFT benchmark (issue 5, FFT part). See bench/README.md, "The FFT
 * benchmark", and fft_bench.h.
 *
 * For every group (a 1D size N, batched to --batch-mib of input per transform; the 2D
 * 1024 x 2048 transform, complex and with real input): the floor (a compute copy of the
 * group's input bytes), every variant spdgen makes for it, then the floor again. Everything
 * is timed with bench/gpu.c's harness and every variant's output is checked in the same run;
 * the exit status is 0 only if every check passed. The table goes to stdout, progress to
 * stderr. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "fft_bench.h"
#include "kernels.h"
#include "report_cells.h"

static const uint32_t default_sizes[] = {64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
/* --quick: one size of each kind (tiny rows; E 16 x W 64; E 64 x W 256, the largest single
 * dispatch; a four-step plan) on a small batch, small enough for lavapipe. */
static const uint32_t quick_sizes[] = {64, 1024, 16384, 65536};

/* ---- command line -------------------------------------------------------------------- */

static void help(void) {
    printf("usage: fft_bench [options]\n\n"
           "Times spdgen's FFT (batched 1D complex fp32 forward transforms, and a 1024x2048 2D\n"
           "transform, complex and with real input) against a compute-copy floor of the same\n"
           "bytes on the Vulkan device, checks every run's output against the double\n"
           "reference, prints a markdown table. Exit 0 only if every check passed.\n\n"
           "  --sizes LIST      1D lengths N, comma-separated: powers of two 64..1048576, or\n"
           "                    any other N 3..1048576 (mixed radix or Bluestein; default\n"
           "                    every power of two from 64 to 65536)\n"
           "  --batch-mib N     input per 1D transform: batch = N MiB / 8N rows (default 512)\n"
           "  --subgroups LIST  spdgen --subgroup values for the default E and W (default: 0,\n"
           "                    4 and the device's size)\n"
           "  --sweep N         (E, W) alternatives per N, or --max-wg ones for four-step\n"
           "                    plans, at the device's subgroup size (default 3)\n"
           "  --pairs N         N not a power of two: up to N of the other --ept/--wg pairs\n"
           "                    spdgen lists, E nearest the default's first (default 3;\n"
           "                    20: all)\n"
           "  --rows LIST       N not a power of two: also every (E, W) pair spdgen accepts\n"
           "                    with --rows-per-wg R, for each R of the list (2..16, at most\n"
           "                    4; default none)\n"
           "  --no-2d           leave out the 2D transforms\n"
           "  --sample-rows N   1D rows compared with the double reference per size (at most;\n"
           "                    default 64; every row gets the energy check)\n"
           "  --reps N          timed repetitions, each with cold caches; median reported\n"
           "                    (default 19)\n"
           "  --warmup N        untimed repetitions first (default 3)\n"
           "  --b2b N           also time N runs back to back, no scrub, barrier between;\n"
           "                    reported per run (default 10; 0 = off)\n"
           "  --scrub-mib N     compute pass over an N MiB buffer before each repetition to\n"
           "                    evict the caches (default 256; 0 = off: warm caches)\n"
           "  --scrub-mode M    read (default) or write\n"
           "  --heat-ms N       GPU work before each measurement so clocks are up (default 200;\n"
           "                    0 = off); 5x as long once at start\n"
           "  --seed N          the input's seed (default 1)\n"
           "  --quick           smoke run: N = 64, 1024, 16384, 65536 with 4 MiB per transform,\n"
           "                    subgroups 0 and the device's, 1 alternative, 3 reps, 1 warm-up,\n"
           "                    2 back to back, 8 MiB scrub, 10 ms heat (explicit options win)\n"
           BENCH_HELP_COMMON);
}

/* One comma-separated list of unsigned values into out[], each passing ok(). */
typedef struct {
    uint32_t *out, max, *count;
    int (*ok)(uint32_t);
} value_list;

static int add_value(const char *token, void *user) {
    value_list *l = user;
    uint32_t v;
    if (*l->count == l->max || bench_parse_u32(token, UINT32_MAX, &v) || !l->ok(v))
        return -1;
    l->out[(*l->count)++] = v;
    return 0;
}

static int parse_list(const char *list, uint32_t *out, uint32_t max, uint32_t *count,
                      int (*ok)(uint32_t)) {
    value_list l = {out, max, count, ok};
    *count = 0;
    return bench_each_item(list, add_value, &l);
}

/* Powers of two from 64 (the power-of-two variants assume at least that), any other N
 * from 3 (mixed radix or Bluestein; spdgen refuses what it cannot make, and the run
 * reports it). */
static int ok_size(uint32_t n) {
    return n <= (1u << 20) && ((n & (n - 1)) ? n >= 3 : n >= 64);
}
static int ok_rows(uint32_t r) { return r >= 2 && r <= 16; }
static int ok_subgroup(uint32_t s) {
    return s == 0 || s == 4 || s == 8 || s == 16 || s == 32 || s == 64;
}

/* 0: run; 1: --help was printed (exit 0); 2: usage error, printed (exit 2). */
static int parse_options(int argc, char **argv, fft_options *o) {
    int i;
    int batch_set = 0, sweep_set = 0, pairs_set = 0;
    uint32_t v;
    memset(o, 0, sizeof *o);
    o->two_d = 1;
    o->seed = 1;
    o->sample_rows = 64;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int common = bench_common_option(&o->common, "fft_bench", help, argc, argv, &i);
        if (common != BENCH_ARG_OWN) {
            if (common != BENCH_ARG_TAKEN)
                return common; /* --help, or a usage error */
        } else if (!strcmp(a, "--no-2d")) {
            o->two_d = 0;
        } else if (!val) {
            return bench_usage("fft_bench", a, NULL, BENCH_MISSING_VALUE);
        } else {
            i++;
            if (!strcmp(a, "--sizes")) {
                if (parse_list(val, o->sizes, FFT_BENCH_MAX_SIZES, &o->size_count, ok_size))
                    return bench_usage("fft_bench", a, val,
                                       "powers of two 64..1048576 or other N 3..1048576, at most "
                                       "24, comma-separated");
            } else if (!strcmp(a, "--subgroups")) {
                if (parse_list(val, o->subgroups, FFT_BENCH_MAX_SUBGROUPS, &o->subgroup_count,
                               ok_subgroup))
                    return bench_usage("fft_bench", a, val,
                                       "0, 4, 8, 16, 32, 64, at most 6, comma-separated");
            } else if (!strcmp(a, "--batch-mib")) {
                if (bench_parse_u32(val, 4096, &o->batch_mib) || o->batch_mib == 0)
                    return bench_usage("fft_bench", a, val, "1..4096");
                batch_set = 1;
            } else if (!strcmp(a, "--sweep")) {
                if (bench_parse_u32(val, 3, &o->sweep))
                    return bench_usage("fft_bench", a, val, "0..3");
                sweep_set = 1;
            } else if (!strcmp(a, "--pairs")) {
                if (bench_parse_u32(val, FFT_BENCH_MAX_PAIRS, &o->pairs))
                    return bench_usage("fft_bench", a, val, "0..20");
                pairs_set = 1;
            } else if (!strcmp(a, "--rows")) {
                if (parse_list(val, o->rows, 4, &o->row_count, ok_rows))
                    return bench_usage("fft_bench", a, val, "2..16, at most 4, comma-separated");
            } else if (!strcmp(a, "--sample-rows")) {
                if (bench_parse_u32(val, 4096, &o->sample_rows) || o->sample_rows == 0)
                    return bench_usage("fft_bench", a, val, "1..4096");
            } else if (!strcmp(a, "--seed")) {
                if (bench_parse_u32(val, UINT32_MAX, &v))
                    return bench_usage("fft_bench", a, val, "an unsigned 32-bit number");
                o->seed = v;
            } else {
                return bench_usage("fft_bench", a, val, "unknown option");
            }
        }
    }
    if (o->size_count == 0) {
        const uint32_t *s = o->common.quick ? quick_sizes : default_sizes;
        uint32_t n = o->common.quick ? sizeof quick_sizes / sizeof quick_sizes[0]
                                     : sizeof default_sizes / sizeof default_sizes[0];
        for (o->size_count = 0; o->size_count < n; o->size_count++)
            o->sizes[o->size_count] = s[o->size_count];
    }
    if (!batch_set)
        o->batch_mib = o->common.quick ? 4 : 512;
    if (!sweep_set)
        o->sweep = o->common.quick ? 1 : 3;
    if (!pairs_set)
        o->pairs = o->common.quick ? 1 : 3;
    bench_timing_defaults(&o->common.timing, o->common.quick ? (bench_timing_options){.reps = 3, .warmup = 1, .b2b = 2, .heat_ms = 10, .scrub_bytes = (uint64_t)8 << 20}
                                                      : (bench_timing_options){.reps = 19, .warmup = 3, .b2b = 10, .heat_ms = 200, .scrub_bytes = (uint64_t)256 << 20});
    return 0;
}

/* ---- the run's state ------------------------------------------------------------------ */

typedef struct {
    spdrt_context *ctx;
    const fft_options *opt;
    bench_gpu gpu;
    bench_spdgen spdgen;
    uint32_t subgroups[FFT_BENCH_MAX_SUBGROUPS], subgroup_count;
    uint32_t device_subgroup;   /* the device's size where spdgen knows it (8..64), else 0 */
    spdrt_buffer src, scratch, dst, readback;
    uint32_t *copy_spv;         /* the floor's kernel */
    size_t copy_words;
} fft_sweep;

static void outcome(bench_timing *t, spdrt_context *ctx, spdrt_result res, const char *what) {
    t->status = res == SPDRT_ERROR_UNSUPPORTED ? BENCH_SKIPPED : BENCH_FAILED;
    snprintf(t->note, sizeof t->note, "%s%s%.200s", what ? what : "", what ? ": " : "",
             spdrt_last_error(ctx));
}

/* ---- groups and variants ------------------------------------------------------------- */

static void add_variant(fft_group *g, const fft_request *rows, const fft_request *cols,
                        int is_default) {
    fft_variant *v;
    if (g->variant_count == FFT_BENCH_MAX_VARIANTS)
        return;
    v = &g->variants[g->variant_count++];
    v->req[0] = *rows;
    v->requests = 1;
    if (cols)
        v->req[1] = *cols, v->requests = 2;
    v->is_default = is_default;
}

/* The subgroup of an alternative: the device's size, or the workgroup where it is smaller
 * (one partial subgroup whose shuffles stay within W lanes), or quads. */
static uint32_t alternative_subgroup(const fft_sweep *s, uint32_t wg) {
    uint32_t sg = s->device_subgroup < wg ? s->device_subgroup : wg;
    if (sg < 8)
        sg = wg >= 4 ? 4 : 0;
    return sg;
}

static uint32_t log2u(uint32_t v) {
    uint32_t l = 0;
    while (v > 1)
        v >>= 1, l++;
    return l;
}

/* A four-step plan's columns in lanes per pass (--columns-per-wg C1,C2) timed besides the
 * default 4,4. */
static const char *const plan_columns[] = {"4,8", "4,16", "8,8", "2,4"};

/* A 2D transform: its row and column passes (c) per subgroup, and the column layouts. */
static void variants_2d(const fft_sweep *s, fft_group *g) {
    fft_request r, c;
    uint32_t i;
    memset(&r, 0, sizeof r);
    memset(&c, 0, sizeof c);
    r.n = g->n, r.real = g->kind == FFT_GROUP_2D_REAL;
    c.n = g->rows, c.strided = 1;
    for (i = 0; i < s->subgroup_count; i++) {
        r.subgroup = c.subgroup = s->subgroups[i];
        add_variant(g, &r, &c, s->subgroups[i] == 0);
    }
    /* The columns in registers (16/E side by side per invocation), the layout before
     * the lanes default: the column pass's old shape. */
    r.subgroup = c.subgroup = 0, c.column_layout = "registers";
    add_variant(g, &r, &c, 0);
    /* 4 columns in lanes (32-byte rows per load) rather than 16: the exchanges then
     * bring 4 bits each instead of 2 (fewer barriers), the price of the wider rows. */
    c.column_layout = NULL, c.columns_per_wg = "4";
    add_variant(g, &r, &c, 0);
}

/* The spellings of spdgen's default shape (E_default x W_default) besides the subgroups. */
static void variants_single_spellings(const fft_sweep *s, fft_group *g, uint32_t wg_default,
                                      uint32_t e_default) {
    fft_request r;
    uint32_t i;
    memset(&r, 0, sizeof r);
    r.n = g->n;
    for (i = 0; i < s->subgroup_count; i++)
        if (s->subgroups[i] <= wg_default) {
            r.subgroup = s->subgroups[i];
            add_variant(g, &r, NULL, s->subgroups[i] == 0);
        }
    /* Twiddles from a table (L1-cached loads) instead of the polynomial: from N = 1024
     * the default shape evaluates 12+ polynomials per invocation. And the other of the
     * computed spellings: spdgen squares every other stage's twiddle by default at
     * N = 2048 and 4096 (gen/fft/fft_check.c default_twiddles), so time the polynomial for
     * every stage there and the squares elsewhere. */
    if (g->n >= 1024) {
        r.lut = 1, r.subgroup = 0;
        add_variant(g, &r, NULL, 0);
        r.lut = 0;
        r.twiddles = g->n == 2048 || g->n == 4096 ? "device" : "squared";
        add_variant(g, &r, NULL, 0);
        r.twiddles = NULL;
    }
    /* One float2 array for the exchanges: 64-bit shared accesses, half the instructions. */
    if (g->n >= 256) {
        r.paired = 1, r.subgroup = 0;
        add_variant(g, &r, NULL, 0);
        r.paired = 0;
    }
    /* Rows per workgroup in registers (--rows-per-wg; docs/fft.md, "E and W"): spdgen gives
     * E <= 4 (N <= 128) 8/E rows, E = 16 at W = 256 (N = 4096) four and E = 32 (8192)
     * two; time the neighbours: one row and 16/E rows (S = 0 and the device's subgroup)
     * at E <= 4, two and four at E = 8, two at 4096 (its default before four, with the
     * polynomial twiddles that go with two there) and at W = 64, 128 (N = 1024, 2048). */
    if (e_default <= 4) {
        r.subgroup = 0, r.rows_per_wg = 1;
        add_variant(g, &r, NULL, 0);
        r.rows_per_wg = 16 / e_default;
        add_variant(g, &r, NULL, 0);
        r.subgroup = alternative_subgroup(s, wg_default);
        if (r.subgroup >= 8)
            add_variant(g, &r, NULL, 0);
    } else if (e_default == 8 || (e_default == 16 && wg_default >= 64 && wg_default <= 256)) {
        r.subgroup = 0, r.rows_per_wg = 2;
        add_variant(g, &r, NULL, 0);
        if (e_default == 8) {
            r.rows_per_wg = 4;
            add_variant(g, &r, NULL, 0);
        }
    }
    r.rows_per_wg = 0;
    /* Rows in turn, the next row's loads in flight (--prefetch-rows; given, it leaves one
     * row in registers): spdgen gives E = 16 x W = 64, 128 (N = 1024, 2048) two; time one
     * row at a time there and at N = 4096, 8192, and two and four rows in turn at 4096
     * (its default before rows in registers), two at 256 and 512. */
    if (e_default >= 16 && e_default <= 32 && wg_default >= 64 && wg_default <= 256) {
        r.subgroup = 0, r.prefetch_rows = 1;
        add_variant(g, &r, NULL, 0);
        if (g->n == 4096) {
            r.prefetch_rows = 2;
            add_variant(g, &r, NULL, 0);
            r.prefetch_rows = 4;
            add_variant(g, &r, NULL, 0);
        }
        r.prefetch_rows = 0;
    } else if (g->n >= 256 && g->n <= 512) {
        r.subgroup = 0, r.prefetch_rows = 2;
        add_variant(g, &r, NULL, 0);
        r.prefetch_rows = 0;
    }
}

/* One dispatch: the default shape's spellings, then other shapes E x W (up to --sweep). */
static void variants_single(const fft_sweep *s, fft_group *g) {
    const uint32_t limit = s->ctx->limits.maxComputeWorkGroupInvocations;
    fft_request r;
    uint32_t added = 0;
    memset(&r, 0, sizeof r);
    r.n = g->n;
    /* spdgen's default shape (docs/fft.md, "E and W"; gen/fft/fft_check.c default_shape):
     * E = 16 while W = N/16 >= 32, else W = 32 (N/2 below N = 64), and W = 256 with a larger
     * E where N/16 > 256; the sweep skips it. */
    uint32_t warp = g->n / 2 < 32 ? g->n / 2 : 32;
    uint32_t wg_default = g->n / 16 > warp ? g->n / 16 : warp, e, e_default;
    if (wg_default > 256)
        wg_default = g->n / 64 > 256 ? g->n / 64 : 256;
    e_default = g->n / wg_default;
    variants_single_spellings(s, g, wg_default, e_default);
    for (e = 2; e <= 64 && added < s->opt->sweep; e *= 2) {
        uint32_t wg = g->n / e;
        if (wg == wg_default || wg > 1024 || wg > limit || wg == 0)
            continue;
        r.ept = e, r.wg = wg, r.subgroup = alternative_subgroup(s, wg);
        add_variant(g, &r, NULL, 0);
        /* The same shape with shared memory only: shuffles cost two instructions per
         * complex value per stage, a shared-memory round one store and one load. */
        if (r.subgroup != 0) {
            r.subgroup = 0;
            add_variant(g, &r, NULL, 0);
        }
        added++;
    }
}

/* A four-step plan: per subgroup, the layouts and columns per pass, and smaller --max-wg. */
static void variants_plan(const fft_sweep *s, fft_group *g) {
    fft_request r;
    uint32_t i, added = 0;
    memset(&r, 0, sizeof r);
    r.n = g->n;
    /* E and W per pass follow from --max-wg, which must still hold the longer pass,
     * N1 = 2^ceil(log2 N / 2), in one dispatch (16 x W). */
    uint32_t n1 = 1u << ((log2u(g->n) + 1) / 2), mw;
    for (i = 0; i < s->subgroup_count; i++) {
        r.subgroup = s->subgroups[i];
        add_variant(g, &r, NULL, s->subgroups[i] == 0);
    }
    r.subgroup = 0, r.paired = 1;
    add_variant(g, &r, NULL, 0);
    r.paired = 0;
    /* Both passes' columns in registers, the layout before the lanes default. */
    r.subgroup = 0, r.column_layout = "registers";
    add_variant(g, &r, NULL, 0);
    /* Other columns in lanes per pass (C1,C2) than the default: wider segments, but
     * larger workgroups and more exchange rounds; the scratch is tiled by C2 where
     * C1 x C2 >= 16 (gen/fft/fft_check.c plan_scratch_tile), so 2,4 keeps
     * it in rows. */
    r.column_layout = NULL;
    for (i = 0; i < sizeof plan_columns / sizeof plan_columns[0]; i++) {
        r.columns_per_wg = plan_columns[i];
        add_variant(g, &r, NULL, 0);
    }
    r.columns_per_wg = NULL;
    for (mw = 64; mw >= 16 && added < s->opt->sweep; mw /= 2) {
        if (16 * mw < n1)
            continue;
        r.max_wg = mw, r.subgroup = alternative_subgroup(s, mw);
        add_variant(g, &r, NULL, 0);
        added++;
    }
}

/* N not a power of two (mixed radix or Bluestein): spdgen's choice, then up to --pairs of
 * the other --ept/--wg pairs it accepts, those with E nearest the default's first. These
 * paths exchange through shared memory only (the header's subgroup size is 0 whatever
 * --subgroup says), so the variants differ only in shape. Beyond one dispatch (a plan of
 * mixed passes) only the default runs. */
static void variants_any(fft_sweep *s, fft_group *g) {
    fft_request r;
    fft_shader sh;
    uint32_t pairs[FFT_BENCH_MAX_PAIRS][2], used[FFT_BENCH_MAX_PAIRS] = {0}, e0 = 0, w0 = 0;
    uint32_t added, i;
    char err[512], command[320] = "";
    int count;
    memset(&r, 0, sizeof r);
    r.n = g->n;
    add_variant(g, &r, NULL, 1);
    if ((s->opt->pairs == 0 && s->opt->row_count == 0) || g->n > FFT_BENCH_SINGLE_MAX)
        return;
    /* The default's shape, so that the same pair is not timed twice. */
    if (fft_generate(&s->spdgen, &r, "probe", &sh, command, sizeof command, err, sizeof err) == 0) {
        const spdrt_fft_config *c0 = &sh.config[0];
        uint32_t len = c0->bluestein_m ? c0->bluestein_m : c0->rader_root ? g->n - 1 : g->n;
        if (!sh.plan)
            e0 = sh.ept[0], w0 = len / sh.ept[0];
        fft_shader_free(&sh);
    }
    count = fft_valid_pairs(&s->spdgen, g->n, pairs, FFT_BENCH_MAX_PAIRS, err, sizeof err);
    if (count < 0) {
        fprintf(stderr, "fft_bench: N = %u: %s\n", g->n, err);
        return;
    }
    for (added = 0; added < s->opt->pairs; added++) {
        int pick = -1;
        double best = 0.0;
        for (i = 0; i < (uint32_t)count; i++) {
            double d = pairs[i][0] > e0 ? (double)pairs[i][0] / (e0 ? e0 : 16)
                                        : (double)(e0 ? e0 : 16) / pairs[i][0];
            if (used[i] || (pairs[i][0] == e0 && pairs[i][1] == w0) ||
                pairs[i][1] > s->ctx->limits.maxComputeWorkGroupInvocations)
                continue;
            if (pick < 0 || d < best)
                pick = (int)i, best = d;
        }
        if (pick < 0)
            break;
        used[pick] = 1;
        r.ept = pairs[pick][0], r.wg = pairs[pick][1];
        add_variant(g, &r, NULL, 0);
    }
    /* --rows: each pair (the default's too) with R rows per workgroup, where spdgen makes it. */
    for (uint32_t k = 0; k < s->opt->row_count; k++) {
        for (i = 0; i < (uint32_t)count; i++) {
            fft_request q = {.n = g->n, .ept = pairs[i][0], .wg = pairs[i][1], .rows_per_wg = s->opt->rows[k]};
            if (fft_generate(&s->spdgen, &q, "probe", &sh, command, sizeof command, err, sizeof err) != 0)
                continue;
            int plan = sh.plan;
            fft_shader_free(&sh);
            if (!plan) add_variant(g, &q, NULL, 0);
        }
    }
}

static void plan_variants(fft_sweep *s, fft_group *g) {
    if (g->kind != FFT_GROUP_1D)
        variants_2d(s, g);
    else if (fft_length_kind_of(g->n) != FFT_LENGTH_POW2)
        variants_any(s, g);
    else if (g->n <= FFT_BENCH_SINGLE_MAX)
        variants_single(s, g);
    else
        variants_plan(s, g);
}

static void make_groups(fft_sweep *s, fft_report *rep) {
    const fft_options *o = s->opt;
    uint64_t range = s->ctx->limits.maxStorageBufferRange;
    uint32_t max_groups = s->ctx->limits.maxComputeWorkGroupCount[0], i;
    for (i = 0; i < o->size_count; i++) {
        fft_group *g = &rep->groups[rep->group_count++];
        uint64_t row = 8ull * o->sizes[i], batch = ((uint64_t)o->batch_mib << 20) / row;
        memset(g, 0, sizeof *g);
        g->kind = FFT_GROUP_1D;
        g->n = o->sizes[i];
        if (batch == 0)
            batch = 1;
        /* Each buffer is bound whole: at most maxStorageBufferRange bytes. One row per
         * workgroup: at most maxComputeWorkGroupCount[0] rows. */
        if (batch * row > range) {
            batch = range / row;
            snprintf(g->batch_note, sizeof g->batch_note, "batch cut to %llu rows (%llu MiB): "
                     "the device binds at most %llu bytes per storage buffer",
                     (unsigned long long)batch, (unsigned long long)(batch * row >> 20),
                     (unsigned long long)range);
        }
        if (batch > max_groups) {
            batch = max_groups;
            snprintf(g->batch_note, sizeof g->batch_note, "batch cut to %llu rows: the device "
                     "dispatches at most %u workgroups", (unsigned long long)batch, max_groups);
        }
        /* The floor copies whole 16-byte elements: an even number of values (odd N: an
         * even batch). */
        if (batch > 1 && (batch * o->sizes[i]) % 2)
            batch--;
        g->batch = (uint32_t)batch;
        g->in_bytes = g->out_bytes = g->copy_bytes = batch * row;
        g->bytes = g->in_bytes + g->out_bytes;
        plan_variants(s, g);
    }
    for (i = 0; o->two_d && i < 2; i++) {
        fft_group *g = &rep->groups[rep->group_count++];
        memset(g, 0, sizeof *g);
        g->kind = i ? FFT_GROUP_2D_REAL : FFT_GROUP_2D;
        g->n = FFT_BENCH_2D_COLS;
        g->rows = FFT_BENCH_2D_ROWS;
        g->batch = 1;
        g->in_bytes = (uint64_t)g->rows * g->n * (i ? 4 : 8);
        g->out_bytes = g->in_bytes; /* complex: the same; real: half spectra, N/2 complex */
        g->copy_bytes = g->in_bytes;
        g->bytes = g->in_bytes + g->out_bytes;
        plan_variants(s, g);
    }
}

/* ---- buffers -------------------------------------------------------------------------- */

static void record_upload(VkCommandBuffer cb, void *user) {
    spdrt_buffer *const *b = user; /* staging, src */
    VkBufferCopy region;
    memset(&region, 0, sizeof region);
    region.size = b[1]->size;
    vkCmdCopyBuffer(cb, b[0]->buffer, b[1]->buffer, 1, &region);
    /* The other buffers hold data too before anything reads them. */
}

static void record_clear(VkCommandBuffer cb, void *user) {
    fft_sweep *s = user;
    vkCmdFillBuffer(cb, s->scratch.buffer, 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cb, s->dst.buffer, 0, VK_WHOLE_SIZE, 0);
}

/* src, scratch and dst of the largest group's bytes, the input stream uploaded into src,
 * and the host buffer outputs are read back into. */
static spdrt_result create_buffers(fft_sweep *s, const fft_report *rep) {
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    uint64_t size = 0;
    uint32_t g;
    spdrt_buffer staging;
    spdrt_result res;
    for (g = 0; g < rep->group_count; g++) {
        if (rep->groups[g].in_bytes > size)
            size = rep->groups[g].in_bytes;
        if (rep->groups[g].out_bytes > size)
            size = rep->groups[g].out_bytes;
    }
    res = spdrt__buffer_create(s->ctx, size, usage, 0, &s->src);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(s->ctx, size, usage, 0, &s->scratch);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(s->ctx, size, usage, 0, &s->dst);
    if (res == SPDRT_OK)
        res = spdrt__buffer_create(s->ctx, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1,
                                   &s->readback);
    if (res != SPDRT_OK)
        return res;
    res = spdrt__buffer_create(s->ctx, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, &staging);
    if (res != SPDRT_OK)
        return res;
    fft_input_fill(s->opt->seed, staging.map, 0, size / 4);
    {
        spdrt_buffer *pair[2] = {&staging, &s->src};
        res = bench_submit(s->ctx, record_upload, pair);
    }
    if (res == SPDRT_OK)
        res = bench_submit(s->ctx, record_clear, s);
    if (!s->ctx->hung)
        spdrt__buffer_destroy(s->ctx, &staging);
    return res;
}

static void destroy_buffers(fft_sweep *s) {
    if (s->ctx->hung)
        return;
    spdrt__buffer_destroy(s->ctx, &s->src);
    spdrt__buffer_destroy(s->ctx, &s->scratch);
    spdrt__buffer_destroy(s->ctx, &s->dst);
    spdrt__buffer_destroy(s->ctx, &s->readback);
}

/* ---- the floor ------------------------------------------------------------------------ */

static void record_floor_poison(VkCommandBuffer cb, void *user) {
    const fft_sweep *s = user;
    vkCmdFillBuffer(cb, s->dst.buffer, 0, VK_WHOLE_SIZE, 0xdeadbeefu);
}

/* copy.comp from src to dst, copy_bytes of each (kernels.c's floor with the benchmark's own
 * buffers as the workload's): poison, time, check 16 places of the copy. */
static void floor_run(fft_sweep *s, const fft_group *g, bench_timing *t, double *samples) {
    bench_workload wl;
    bench_copy_kernel ck;
    char err[512];
    spdrt_result res;
    memset(&wl, 0, sizeof wl);
    wl.ctx = s->ctx;
    wl.copy_src = s->src;
    wl.copy_dst = s->dst;
    wl.copy_bytes = g->copy_bytes;
    res = bench_copy_kernel_create(&wl, s->copy_spv, s->copy_words, g->copy_bytes,
                                   g->copy_bytes, &ck);
    if (res == SPDRT_OK)
        res = bench_submit(s->ctx, record_floor_poison, s);
    if (res == SPDRT_OK) {
        bench_work w = {NULL, bench_copy_kernel_record, NULL, &ck};
        res = bench_time(&s->gpu, &w, t, samples);
        if (res == SPDRT_OK && bench_copy_kernel_check(&ck, err, sizeof err) != 0) {
            t->status = BENCH_FAILED;
            snprintf(t->note, sizeof t->note, "%.250s", err);
        }
    }
    if (res != SPDRT_OK)
        outcome(t, s->ctx, res, "floor");
    bench_copy_kernel_destroy(&ck);
}

/* ---- a variant ------------------------------------------------------------------------ */

static void record_poison(VkCommandBuffer cb, void *user) {
    const fft_sweep *s = user;
    /* NaN in fp32: an element the variant never writes reads back as NaN. */
    vkCmdFillBuffer(cb, s->dst.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
    vkCmdFillBuffer(cb, s->scratch.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
}

typedef struct {
    const fft_sweep *s;
    uint64_t bytes;
} readback_job;

static void record_readback(VkCommandBuffer cb, void *user) {
    const readback_job *j = user;
    VkBufferCopy region;
    memset(&region, 0, sizeof region);
    region.size = j->bytes;
    vkCmdCopyBuffer(cb, j->s->dst.buffer, j->s->readback.buffer, 1, &region);
}

/* The runtime's own plan path on two transforms: spdrt_fft_plan_load reads the plan file
 * spdgen wrote, spdrt_fft_plan_run runs it (its own buffers, NaN-filled output), against
 * spdrt_fft_reference. Shows that the benchmark records what the runtime records. */
static void runtime_plan_check(fft_sweep *s, const fft_shader *sh, fft_check *c) {
    spdrt_fft_plan *plan = NULL;
    spdrt_fft_params p;
    uint32_t n = sh->whole.n;
    size_t floats;
    float *in = NULL, *out = NULL;
    double *ref = NULL;
    spdrt_fft_error e;
    spdrt_result res;
    memset(c, 0, sizeof *c);
    c->bound_rel_l2 = SPDRT_FFT_BOUND_REL_L2;
    c->bound_max_rel = SPDRT_FFT_BOUND_MAX_REL;
    c->rows_compared = 2;
    c->values = 2 * (uint64_t)n;
    snprintf(c->what, sizeof c->what, "spdrt_fft_plan_load + spdrt_fft_plan_run of the plan "
             "file, 2 transforms, against the double reference");
    memset(&p, 0, sizeof p);
    p.count = 2;
    res = spdrt_fft_plan_load(s->ctx, sh->plan_path, &plan);
    if (res != SPDRT_OK) {
        c->status = res == SPDRT_ERROR_UNSUPPORTED ? BENCH_SKIPPED : BENCH_FAILED;
        snprintf(c->first, sizeof c->first, "%.250s", spdrt_last_error(s->ctx));
        return;
    }
    floats = spdrt_fft_input_floats(spdrt_fft_plan_config(plan), &p);
    in = malloc(floats * sizeof *in);
    out = malloc(floats * sizeof *out);
    ref = malloc(floats * sizeof *ref);
    if (!in || !out || !ref) {
        c->status = BENCH_FAILED;
        snprintf(c->first, sizeof c->first, "out of memory");
    } else {
        fft_input_fill(s->opt->seed, in, 0, floats);
        res = spdrt_fft_plan_run(s->ctx, plan, &p, in, out, NULL);
        if (res != SPDRT_OK) {
            c->status = res == SPDRT_ERROR_UNSUPPORTED ? BENCH_SKIPPED : BENCH_FAILED;
            snprintf(c->first, sizeof c->first, "%.250s", spdrt_last_error(s->ctx));
        } else if (spdrt_fft_reference(spdrt_fft_plan_config(plan), &p, in, ref) != 0) {
            c->status = BENCH_FAILED;
            snprintf(c->first, sizeof c->first, "out of memory");
        } else {
            spdrt_fft_compare(out, ref, floats, 1, &e);
            c->rel_l2 = e.rel_l2, c->max_rel = e.max_rel, c->non_finite = e.non_finite;
            c->status = e.non_finite == 0 && e.rel_l2 <= c->bound_rel_l2 &&
                                e.max_rel <= c->bound_max_rel
                            ? BENCH_OK : BENCH_FAILED;
            if (c->status == BENCH_FAILED)
                snprintf(c->first, sizeof c->first, "relative L2 %.3g, max %.3g, %zu values not "
                         "finite", e.rel_l2, e.max_rel, e.non_finite);
        }
    }
    free(in), free(out), free(ref);
    spdrt_fft_plan_destroy(s->ctx, plan);
}

/* Each of two dispatches (a plan's passes, 2D rows and columns) timed on its own, so a
 * report can say which one falls short. Each reads what the whole run left in its input
 * (the scratch for the second), so the work is the same; nothing is checked here. */
static void time_dispatches_alone(fft_sweep *s, fft_kernel *k, fft_variant *v) {
    uint32_t i;
    v->dispatches = k->count;
    if (k->count < 2)
        return;
    for (i = 0; i < k->count && !s->ctx->hung; i++) {
        bench_work w = {NULL, fft_kernel_record, NULL, k};
        spdrt_result res;
        k->alone = i + 1;
        res = bench_time(&s->gpu, &w, &v->dispatch_time[i], NULL);
        if (res != SPDRT_OK)
            outcome(&v->dispatch_time[i], s->ctx, res, NULL);
    }
    k->alone = 0;
}

static void measure_variant(fft_sweep *s, const fft_group *g, fft_variant *v,
                            const fft_reference_1d *ref1, const double *ref2) {
    fft_shader sh[2];
    fft_kernel k;
    char err[512], shape[2][120];
    uint32_t i;
    spdrt_result res = SPDRT_OK;
    memset(sh, 0, sizeof sh);
    memset(&k, 0, sizeof k);
    k.ctx = s->ctx;
    v->command[0] = '\0';
    for (i = 0; i < v->requests; i++) {
        size_t used = strlen(v->command);
        if (i)
            snprintf(v->command + used, sizeof v->command - used, " + ");
        if (fft_generate(&s->spdgen, &v->req[i], i ? "cols" : "fft", &sh[i], v->command,
                         sizeof v->command, err, sizeof err) != 0) {
            v->time.status = BENCH_FAILED;
            snprintf(v->time.note, sizeof v->time.note, "%.250s", err);
            goto done;
        }
        fft_shader_shape(&sh[i], shape[i], sizeof shape[i]);
    }
    v->plan = sh[0].plan;
    if (v->requests == 2)
        snprintf(v->shape, sizeof v->shape, "rows %s; columns %s", shape[0], shape[1]);
    else
        snprintf(v->shape, sizeof v->shape, "%s", shape[0]);
    spdrt_take_statistics(s->ctx, NULL, 0);
    if (g->kind == FFT_GROUP_1D) {
        res = fft_kernel_add(&k, &sh[0], &s->src, &s->scratch, &s->dst, g->batch, 0, 0);
    } else {
        /* Rows (pairs of real rows with --real) into the scratch, then its columns. */
        int real = g->kind == FFT_GROUP_2D_REAL;
        uint32_t width = real ? g->n / 2 : g->n; /* complex values per row after the rows */
        res = fft_kernel_add(&k, &sh[0], &s->src, NULL, &s->scratch,
                             real ? g->rows / 2 : g->rows, 0, 0);
        if (res == SPDRT_OK)
            res = fft_kernel_add(&k, &sh[1], &s->scratch, NULL, &s->dst, width, 0, 0);
    }
    bench_take_statistics(s->ctx, v->command, &v->time);
    if (res != SPDRT_OK) {
        outcome(&v->time, s->ctx, res, "pipeline");
        goto done;
    }
    res = bench_submit(s->ctx, record_poison, s);
    if (res == SPDRT_OK) {
        bench_work w = {NULL, fft_kernel_record, NULL, &k};
        res = bench_time(&s->gpu, &w, &v->time, NULL);
    }
    if (res == SPDRT_OK) {
        readback_job j = {s, g->out_bytes};
        res = bench_submit(s->ctx, record_readback, &j);
    }
    if (res != SPDRT_OK) {
        outcome(&v->time, s->ctx, res, NULL);
        goto done;
    }
    if (g->kind == FFT_GROUP_1D)
        fft_check_1d(ref1, s->readback.map, &v->check);
    else if (ref2)
        fft_check_2d(ref2, s->readback.map, g->out_bytes / 8, &v->check);
    else {
        v->check.status = BENCH_FAILED;
        snprintf(v->check.first, sizeof v->check.first, "out of memory for the reference");
    }
    if (v->plan)
        runtime_plan_check(s, &sh[0], &v->runtime_check);
    time_dispatches_alone(s, &k, v);
done:
    fft_kernel_destroy(&k);
    for (i = 0; i < 2; i++)
        fft_shader_free(&sh[i]);
}

static const char *group_name(const fft_group *g, char *buf, size_t size) {
    if (g->kind == FFT_GROUP_1D)
        snprintf(buf, size, "N = %u x %u", g->n, g->batch);
    else
        snprintf(buf, size, "2D %ux%u%s", g->rows, g->n,
                 g->kind == FFT_GROUP_2D_REAL ? " real" : "");
    return buf;
}

/* The floor, every variant, the floor again. -1 if the device hung. */
static int run_group(fft_sweep *s, fft_group *g) {
    fft_reference_1d ref1;
    double *ref2 = NULL, *first, *last;
    uint32_t v;
    memset(&ref1, 0, sizeof ref1);
    first = calloc(s->gpu.cfg.reps, sizeof *first);
    last = calloc(s->gpu.cfg.reps, sizeof *last);
    if (!first || !last) {
        snprintf(g->error, sizeof g->error, "out of memory");
        free(first), free(last);
        return 0;
    }
    if (g->kind == FFT_GROUP_1D) {
        if (fft_reference_1d_make(s->opt->seed, g->n, g->batch, s->opt->sample_rows, &ref1))
            snprintf(g->error, sizeof g->error, "out of memory for the reference");
    } else {
        ref2 = fft_reference_2d(s->opt->seed, g->rows, g->n, g->kind == FFT_GROUP_2D_REAL);
        if (!ref2)
            snprintf(g->error, sizeof g->error, "out of memory for the reference");
    }
    if (!g->error[0]) {
        floor_run(s, g, &g->floor_first, first);
        for (v = 0; v < g->variant_count && !s->ctx->hung; v++)
            measure_variant(s, g, &g->variants[v], &ref1, ref2);
        if (!s->ctx->hung)
            floor_run(s, g, &g->floor_last, last);
        bench_pool_floor(s->gpu.cfg.reps, &g->floor_first, &g->floor_last, first, last, &g->floor);
    }
    if (s->ctx->hung)
        snprintf(g->error, sizeof g->error, "the device stopped responding: %.200s",
                 spdrt_last_error(s->ctx));
    fft_reference_1d_free(&ref1);
    free(ref2);
    free(first);
    free(last);
    return s->ctx->hung ? -1 : 0;
}

/* ---- main ----------------------------------------------------------------------------- */

/* 0, 4 and the device's own size (--quick: 0 and the device's size). */
static void choose_subgroups(const fft_options *o, fft_sweep *s) {
    uint32_t d = spdrt_device(s->ctx)->subgroup_size, i;
    s->device_subgroup = d >= 8 && d <= 64 && !(d & (d - 1)) ? d : 0;
    if (o->subgroup_count) {
        for (i = 0; i < o->subgroup_count; i++)
            s->subgroups[i] = o->subgroups[i];
        s->subgroup_count = o->subgroup_count;
        return;
    }
    s->subgroups[s->subgroup_count++] = 0;
    if (!o->common.quick)
        s->subgroups[s->subgroup_count++] = 4;
    if (s->device_subgroup)
        s->subgroups[s->subgroup_count++] = s->device_subgroup;
}

/* The report's writers as bench_write_file takes them (calling them through a cast to its
 * writer type would be undefined behaviour). */
static void write_markdown(const void *r, FILE *out) { fft_report_markdown(r, out); }
static void write_json(const void *r, FILE *out) { fft_report_json(r, out); }

static void sweep_all(fft_sweep *s, fft_report *r) {
    double start = bench_now_s();
    uint32_t g;
    char name[64];
    for (g = 0; g < r->group_count; g++) {
        double t0 = bench_now_s();
        fprintf(stderr, "fft_bench: [%u/%u] %s, %u variant(s) ...", g + 1, r->group_count,
                group_name(&r->groups[g], name, sizeof name), r->groups[g].variant_count);
        fflush(stderr);
        if (run_group(s, &r->groups[g]) != 0) {
            fprintf(stderr, " device hung\n");
            snprintf(r->error, sizeof r->error, "stopped at %s: the device hung", name);
            r->group_count = g + 1;
            break;
        }
        fprintf(stderr, " %.1f s (total %.1f s)\n", bench_now_s() - t0, bench_now_s() - start);
    }
    r->seconds = bench_now_s() - start;
}

int main(int argc, char **argv) {
    fft_options o;
    fft_report r;
    fft_sweep s;
    spdrt_options ro;
    spdrt_context *ctx = NULL;
    char err[1024], exe_dir[BENCH_PATH_MAX], path[BENCH_PATH_MAX + 32];
    uint32_t failures;
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    if (bench_exe_dir(argv[0], exe_dir, sizeof exe_dir) != 0) {
        fprintf(stderr, "fft_bench: cannot tell where this program lives\n");
        return 1;
    }
    memset(&ro, 0, sizeof ro);
    ro.validation = o.common.validation;
    ro.device = o.common.device;
    ro.capture_statistics = 1;
    if (spdrt_create(&ro, &ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "fft_bench: %s\n", err);
        return 1;
    }
    bench_run_info_fill(&r.run, ctx, &o.common, "fft_bench");
    r.batch_mib = o.batch_mib;
    if (r.run.cpu_device && !o.common.quick)
        fprintf(stderr, "fft_bench: warning: the full sweep on a CPU implementation takes a "
                "long time; --quick is the smoke run\n");
    s.ctx = ctx;
    s.opt = &o;
    choose_subgroups(&o, &s);
    r.groups = calloc(o.size_count + 2, sizeof *r.groups);
    snprintf(path, sizeof path, "%s/copy.spv", exe_dir);
    if (!r.groups) {
        snprintf(r.error, sizeof r.error, "out of memory");
    } else if (!(s.copy_spv = bench_read_spirv(path, &s.copy_words, err, sizeof err))) {
        snprintf(r.error, sizeof r.error, "%.200s (run make bench)", err);
    } else if (bench_spdgen_open(&s.spdgen, o.common.spdgen_path, exe_dir, err, sizeof err) != 0) {
        snprintf(r.error, sizeof r.error, "%.250s", err);
    } else {
        bench_gpu_config gc;
        snprintf(r.run.spdgen_version, sizeof r.run.spdgen_version, "%s", s.spdgen.version);
        make_groups(&s, &r);
        bench_run_info_gpu_config(&r.run, &gc);
        if (create_buffers(&s, &r) != SPDRT_OK) {
            snprintf(r.error, sizeof r.error, "buffers: %.230s", spdrt_last_error(ctx));
        } else if (bench_gpu_init(&s.gpu, ctx, &gc, exe_dir) != SPDRT_OK) {
            snprintf(r.error, sizeof r.error, "%.250s", spdrt_last_error(ctx));
        } else {
            bench_run_info_heat(&r.run, &s.gpu, "fft_bench");
            sweep_all(&s, &r);
        }
        if (!ctx->hung)
            bench_gpu_release(&s.gpu);
        destroy_buffers(&s);
        bench_spdgen_close(&s.spdgen);
    }
    free(s.copy_spv);
    if (o.common.validation && spdrt_validation_messages(ctx) && !r.error[0])
        snprintf(r.error, sizeof r.error, "the validation layer reported %u message(s) "
                 "(printed above)", spdrt_validation_messages(ctx));

    fft_report_mark_best(&r);
    fft_report_markdown(&r, stdout);
    failures = fft_report_failures(&r);
    failures += bench_write_file(o.common.markdown_path, &r, write_markdown) != 0;
    failures += bench_write_file(o.common.json_path, &r, write_json) != 0;
    free(r.groups);
    spdrt_destroy(ctx);
    if (failures)
        fprintf(stderr, "fft_bench: %u failure(s); see the notes under the table\n", failures);
    return failures ? 1 : 0;
}
