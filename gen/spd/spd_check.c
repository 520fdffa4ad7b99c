/* spd_check.c: the --spd parameters once every flag is known: defaults that depend on
 * other flags, then every combination the shader cannot honour, each a one-line error. */
#include <stdio.h>
#include <string.h>

#include "spd.h"
#include "wgsl.h"

#define usage_error sg_usage_error

/* The workgroup sizes a tile admits, largest first: each invocation reads a B x B block of
 * the tile, B = 2 or 4 (B <= T), so N = (T/B)^2, at most 256 invocations. */
int sg_spd_tile_workgroups(long tile, long out[2])
{
    int n = 0;
    for (long b = 2; b <= 4; b *= 2)
        if (b <= tile && (tile / b) * (tile / b) <= 256) out[n++] = (tile / b) * (tile / b);
    return n;
}

static int check_tile_wg(sg_run *run)
{
    sg_spd_params *s = run->params;
    long sizes[2] = {0, 0};
    int n = sg_spd_tile_workgroups(s->tile, sizes);
    /* The largest, or the largest within a WebGPU device's invocations. */
    int pick = sg_is_wgsl(run) && n == 2 && sizes[0] > run->common.wg_invocations;
    if (!sg_given(run, SPD_OPT_WG)) s->wg = sizes[pick];
    for (int i = 0; i < n; i++)
        if (s->wg == sizes[i]) return 0;
    if (n == 1)
        return usage_error("--wg %ld: --tile %ld takes only --wg %ld (each invocation reads a BxB "
                           "block, B = 2 or 4: N = (T/B)^2, at most 256)", s->wg, s->tile, sizes[0]);
    return usage_error("--wg %ld: --tile %ld takes --wg %ld or %ld (each invocation reads a BxB "
                       "block, B = 2 or 4: N = (T/B)^2, at most 256)", s->wg, s->tile, sizes[0],
                       sizes[1]);
}

/* Whether --tile 64 defaults to the hierarchy: where level 6 of --max-size spans more than
 * one 64x64 region (a side past 4096), which the loop's last workgroup would reduce one after
 * another, and nothing asks for the loop (--edge, passes, a level-6 stop, WGSL's hand-off
 * rules). Measured faster there (docs/spd.md, "Which options are fastest"). */
static int hierarchy_by_default(sg_run *run)
{
    const sg_spd_params *s = run->params;
    return (s->max_size[0] > 4096 || s->max_size[1] > 4096) && s->edge == SG_SPD_EDGE_DROP &&
           !sg_given(run, SPD_OPT_PER_PASS) && !(sg_given(run, SPD_OPT_MIPS) && s->mips <= 6) &&
           !sg_is_wgsl(run);
}

/* The loop is written for 64x64 tiles; smaller ones climb the hierarchy. */
static int check_tail(sg_run *run)
{
    sg_spd_params *s = run->params;
    if (!sg_given(run, SPD_OPT_TAIL))
        s->tail = s->tile == 64 && !hierarchy_by_default(run) ? SG_SPD_TAIL_LOOP
                                                              : SG_SPD_TAIL_HIERARCHY;
    if (s->tail == SG_SPD_TAIL_LOOP && s->tile != 64)
        return usage_error("--tail loop: needs --tile 64 (got --tile %ld, whose chain continues "
                           "only by --tail hierarchy)", s->tile);
    return 0;
}

/* floor(log2(n)): the levels below a source of n texels. */
static long chain_length(long n)
{
    long levels = 0;
    while (n > 1) {
        n >>= 1;
        levels++;
    }
    return levels;
}

static int check_mips(sg_run *run)
{
    sg_spd_params *s = run->params;
    long longest = s->max_size[0] > s->max_size[1] ? s->max_size[0] : s->max_size[1];
    long limit = chain_length(longest);
    if (!sg_given(run, SPD_OPT_MIPS)) s->mips = limit;
    if (limit == 0)
        return usage_error("--max-size %ldx%ld: a 1x1 source has no levels to make", s->max_size[0],
                           s->max_size[1]);
    if (s->mips > limit) {
        if (longest >= 16384)
            return usage_error("--mips %ld: must be 1..%ld (16384x16384 is the largest source)",
                               s->mips, limit);
        return usage_error("--mips %ld: must be 1..%ld for --max-size %ldx%ld (a %ldx%ld source "
                           "has %ld levels; raise --max-size, up to 16384x16384)", s->mips, limit,
                           s->max_size[0], s->max_size[1], 1L << s->mips, 1L << s->mips, s->mips);
    }
    if (!sg_given(run, SPD_OPT_PER_PASS)) s->mips_per_pass = s->mips;
    if (s->mips_per_pass > s->mips)
        return usage_error("--max-mips-per-pass %ld: must be 1..%ld (--mips)", s->mips_per_pass,
                           s->mips);
    /* A later pass would read its source level's (min, max) pairs as depth samples. */
    if (s->mips_per_pass < s->mips && s->op == SG_SPD_OP_MINMAX)
        return usage_error("--max-mips-per-pass %ld: not with --op minmax (a later pass would read "
                           "the stored (min, max) pairs as depth); use --mips %ld or less, or one "
                           "pass", s->mips_per_pass, s->mips_per_pass);
    return 0;
}

static int is_half_format(int f) { return f == SG_SPD_R16F || f == SG_SPD_RG16F || f == SG_SPD_RGBA16F; }

/* Ops that only make sense with some formats, and the edge modes' limits. */
static int check_op_format(const sg_spd_params *s)
{
    const char *op = sg_spd_ops[s->op], *f = sg_spd_formats[s->format];
    const char *edge = sg_spd_edges[s->edge];
    if (s->format == SG_SPD_R32UI && s->op != SG_SPD_OP_MIN && s->op != SG_SPD_OP_MAX)
        return usage_error("--op %s: --format r32ui holds integers; use --op min or max", op);
    if (s->op == SG_SPD_OP_MINMAX && s->format != SG_SPD_RG16F && s->format != SG_SPD_RG32F)
        return usage_error("--op minmax: needs a two-channel --format for (min, max): rg16f or "
                           "rg32f (got %s)", f);
    if (s->sampler_linear && (s->op != SG_SPD_OP_MEAN || s->format == SG_SPD_R32UI))
        return usage_error("--sampler linear: only for --op mean on a float or rgba8 format (a "
                           "bilinear fetch averages; got --op %s --format %s)", op, f);
    /* fp16 math loses what a wider format stores, and r32ui holds integers. */
    if (s->half && !is_half_format(s->format))
        return usage_error("--half: only for the 16-bit float formats r16f | rg16f | rgba16f "
                           "(got --format %s)", f);
    if (s->edge == SG_SPD_EDGE_CONSERVATIVE && s->op != SG_SPD_OP_MIN && s->op != SG_SPD_OP_MAX &&
        s->op != SG_SPD_OP_MINMAX)
        return usage_error("--edge conservative: only for --op min, max or minmax (a bound "
                           "over the footprint; got --op %s); use --edge weighted for mean", op);
    if (s->edge == SG_SPD_EDGE_WEIGHTED && s->op != SG_SPD_OP_MEAN && s->op != SG_SPD_OP_SRGB_MEAN)
        return usage_error("--edge weighted: only for --op mean or srgb-mean (weights that keep "
                           "the mean; got --op %s); use --edge conservative for min/max", op);
    if (s->edge != SG_SPD_EDGE_DROP && s->tile != 64)
        return usage_error("--edge %s: needs --tile 64 (its strips and 5x5 reads are written for "
                           "64x64 tiles of 256 invocations; got --tile %ld)", edge, s->tile);
    if (s->edge != SG_SPD_EDGE_DROP && s->tail == SG_SPD_TAIL_HIERARCHY)
        return usage_error("--edge %s: needs --tail loop (its reads past level 6 are written for "
                           "the last workgroup's loop; got --tail hierarchy)", edge);
    if (s->edge != SG_SPD_EDGE_DROP && s->half)
        return usage_error("--edge %s: not with --half (the edge code computes in 32-bit floats)",
                           edge);
    if (s->sampler_linear && s->edge != SG_SPD_EDGE_DROP)
        return usage_error("--sampler linear: not with --edge %s (a bilinear fetch is the plain "
                           "2x2 mean; odd sizes need --sampler load)", edge);
    if (s->op == SG_SPD_OP_SRGB_MEAN && s->format != SG_SPD_RGBA8)
        return usage_error("--op srgb-mean: needs --format rgba8 (an sRGB image's UNORM view; "
                           "got %s)", f);
    return 0;
}

/* --level1, --sampler-coords and --fetch-ahead: defaults, then their limits. */
static int check_level1_and_sampler(sg_run *run)
{
    sg_spd_params *s = run->params;
    /* rgba8 interleaved holds more registers, which costs past 2048x2048 and pays below
     * (docs/spd.md, "Which options are fastest"). */
    int large_rgba8 = s->format == SG_SPD_RGBA8 && s->max_size[0] * s->max_size[1] > 2048L * 2048L;
    if (!sg_given(run, SPD_OPT_LEVEL1))
        s->level1 = s->edge != SG_SPD_EDGE_DROP || large_rgba8 ||
                    !sg_spd_wgsl_interleaved_fits(run) ? SG_SPD_LEVEL1_BLOCKS : SG_SPD_LEVEL1_INTERLEAVED;
    if (s->level1 == SG_SPD_LEVEL1_INTERLEAVED && s->edge != SG_SPD_EDGE_DROP)
        return usage_error("--level1 interleaved: not with --edge %s (its 5x5 reads and strips "
                           "are written for 4x4 blocks); use --level1 blocks", sg_spd_edges[s->edge]);
    int coords_given = sg_given(run, SPD_OPT_SAMPLER_COORDS);
    if (coords_given && !s->sampler_linear)
        return usage_error("--sampler-coords %s: needs --sampler linear (the texel-load path "
                           "reads integer coordinates)", s->sampler_normalized ? "normalized" : "texel");
    if (coords_given && !s->sampler_normalized && s->array)
        return usage_error("--sampler-coords texel: not with --array (Vulkan and Metal sample at "
                           "unnormalized coordinates only single-layer views); use normalized");
    if (coords_given && !s->sampler_normalized && sg_is_wgsl(run))
        return usage_error("--sampler-coords texel: WebGPU samplers take normalized coordinates "
                           "only (GPUSamplerDescriptor has no unnormalized mode); use normalized");
    /* Vulkan and Metal sample unnormalized coordinates only on single-layer views, WebGPU
     * never. */
    if (s->sampler_linear && (s->array || sg_is_wgsl(run))) s->sampler_normalized = 1;
    if (!sg_given(run, SPD_OPT_FETCH_AHEAD))
        s->fetch_ahead = s->sampler_linear && s->tile == 64 && s->tail == SG_SPD_TAIL_HIERARCHY ? 2 : 0;
    if (s->fetch_ahead && !s->sampler_linear)
        return usage_error("--fetch-ahead %ld: needs --sampler linear (the texel-load path's 16 "
                           "values per invocation would not fit in registers); use 0",
                           s->fetch_ahead);
    /* Invocations reading 2x2 blocks make one level-1 texel: one fetch. */
    long fetches = (s->tile / 2) * (s->tile / 2) == s->wg ? 1 : 4;
    if (s->fetch_ahead > fetches)
        return usage_error("--fetch-ahead %ld: at most %ld with --tile %ld --wg %ld (an invocation "
                           "makes %ld level-1 texel%s, one bilinear fetch each)", s->fetch_ahead,
                           fetches, s->tile, s->wg, fetches, fetches == 1 ? "" : "s");
    return 0;
}

static int is_pow2(long v) { return v > 0 && (v & (v - 1)) == 0; }

/* --size belongs to --selftest and must fit the shader. */
static int check_selftest(sg_run *run)
{
    sg_spd_params *s = run->params;
    int given = sg_given(run, SPD_OPT_SIZE);
    if (!run->common.selftest) return given ? usage_error("--size: only meaningful with --selftest") : 0;
    if (!given) {
        /* A 1080p frame; with normalized sampler coordinates, which need powers of two,
         * 2048x1024. */
        int pot = s->sampler_linear && s->sampler_normalized;
        long w = pot ? 2048 : 1920, h = pot ? 1024 : 1080;
        s->size[0] = s->max_size[0] < w ? s->max_size[0] : w;
        s->size[1] = s->max_size[1] < h ? s->max_size[1] : h;
    }
    if (s->sampler_linear && s->sampler_normalized && (!is_pow2(s->size[0]) || !is_pow2(s->size[1])))
        return usage_error("--size %ldx%ld: normalized sampler coordinates (--sampler-coords "
                           "normalized, the default with --array) need power-of-two sides",
                           s->size[0], s->size[1]);
    if (!s->size[2]) s->size[2] = s->array ? 6 : 1;
    if (s->size[2] > 1 && !s->array)
        return usage_error("--size %ldx%ldx%ld: layers need --array", s->size[0], s->size[1], s->size[2]);
    if (s->size[0] > s->max_size[0] || s->size[1] > s->max_size[1])
        return usage_error("--size %ldx%ld: larger than --max-size %ldx%ld, the largest source this "
                           "shader serves", s->size[0], s->size[1], s->max_size[0], s->max_size[1]);
    if (s->size[0] == 1 && s->size[1] == 1)
        return usage_error("--size 1x1: a 1x1 source has no levels, so the self-test would check nothing");
    return 0;
}

int sg_spd_check(sg_run *run)
{
    sg_spd_wgsl_shape(run);
    int rc = check_tile_wg(run);
    if (!rc) rc = check_tail(run);
    if (!rc) rc = check_mips(run);
    if (!rc) rc = sg_spd_wgsl_passes(run);
    if (!rc) rc = check_level1_and_sampler(run);
    if (!rc) rc = check_op_format(run->params);
    if (!rc) rc = sg_spd_wgsl_check(run);
    if (!rc) rc = check_selftest(run);
    return rc;
}
