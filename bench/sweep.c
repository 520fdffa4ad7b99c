/* sweep.c: one (size, format) of the benchmark, start to finish. Resources are created once
 * per (size, format); each measured thing is cleared to the sentinel, timed, read back and
 * checked, so every figure in the report belongs to a run that produced the right levels.
 * Order: floor, SPD-shaped floor, vkCmdCopyBuffer, then per op the SPD variants, per-level
 * and blit, then the floor again (the floor reported pools both runs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "sweep.h"
#include "verify.h"

/* The largest side spdgen's --max-size accepts, i.e. the largest source one SPD dispatch
 * reduces to its last level (docs/spd.md, "Flags"). Beyond it the shader is generated for
 * 4096x4096 with 12 levels, which serves any size for levels 1-12. This is the one place
 * that decides it; change it when the generator's limit changes. */
#define SPD_FULL_CHAIN_MAX_SIDE 16384u
#define SPD_PARTIAL_LEVELS 12u

/* Blit filtering precision is implementation-defined: two rgba8 units catches wrong and
 * unwritten texels, not rounding. */
#define BLIT_BOUND (2.0 / 255.0 + 1e-7)

static void shader_plan(uint32_t w, uint32_t h, bench_group *g) {
    uint32_t full = spdrt_spd_mip_count(w, h, BENCH_MAX_LEVELS - 1);
    if (w <= SPD_FULL_CHAIN_MAX_SIDE && h <= SPD_FULL_CHAIN_MAX_SIDE) {
        snprintf(g->max_size, sizeof g->max_size, "%ux%u", w, h);
        g->levels = full;
    } else {
        snprintf(g->max_size, sizeof g->max_size, "4096x4096");
        g->levels = full < SPD_PARTIAL_LEVELS ? full : SPD_PARTIAL_LEVELS;
        snprintf(g->levels_note, sizeof g->levels_note,
                 "levels 1-%u of %u only: one dispatch makes a full chain for sources up to "
                 "%ux%u; baselines and floor count the same levels", g->levels, full,
                 SPD_FULL_CHAIN_MAX_SIDE, SPD_FULL_CHAIN_MAX_SIDE);
    }
}

static const char *format_arg(spdrt_format f) {
    return spdrt__format_name(f);
}

/* A measured thing's outcome from a runtime result: UNSUPPORTED is a skip, anything else
 * a failure; the context's message says why. */
static void outcome(bench_timing *t, spdrt_context *ctx, spdrt_result res, const char *what) {
    t->status = res == SPDRT_ERROR_UNSUPPORTED ? BENCH_SKIPPED : BENCH_FAILED;
    snprintf(t->note, sizeof t->note, "%s%s%s", what ? what : "", what ? ": " : "",
             spdrt_last_error(ctx));
}

/* Clear, time, read back: the common life of every measured thing. */
static spdrt_result measure_work(bench_sweep *s, bench_workload *wl, const bench_work *w,
                                 bench_timing *t, bench_sample *sample, double *samples) {
    spdrt_result res = bench_workload_clear(wl);
    if (res == SPDRT_OK)
        res = bench_time(&s->gpu, w, t, samples);
    if (res == SPDRT_OK && sample)
        res = bench_sample_read(wl, sample);
    if (res != SPDRT_OK)
        outcome(t, s->ctx, res, NULL);
    return res;
}

static spdrt_result measure(bench_sweep *s, bench_workload *wl, bench_record_fn fn, void *user,
                            bench_timing *t, bench_sample *sample) {
    bench_work w = {NULL, fn, NULL, user};
    return measure_work(s, wl, &w, t, sample, NULL);
}

static void load_shader(bench_sweep *s, const char *name, uint32_t **words, size_t *count,
                        char *err, size_t err_size) {
    char path[BENCH_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", s->exe_dir, name);
    *words = bench_read_spirv(path, count, err, err_size);
}

/* The floor's destination poisoned before each floor run, so its check sees what it wrote. */
static void record_poison(VkCommandBuffer cb, void *user) {
    bench_workload *wl = user;
    vkCmdFillBuffer(cb, wl->copy_dst.buffer, 0, VK_WHOLE_SIZE, 0xdeadbeefu);
}

void bench_sweep_floor(bench_sweep *s, bench_workload *wl, uint64_t read_bytes,
                       uint64_t write_bytes, bench_timing *t, double *samples) {
    bench_copy_kernel ck;
    uint32_t *spv;
    size_t words;
    char err[512];
    spdrt_result res;
    load_shader(s, "copy.spv", &spv, &words, err, sizeof err);
    if (!spv) {
        t->status = BENCH_FAILED;
        snprintf(t->note, sizeof t->note, "%.200s (run make bench)", err);
        return;
    }
    res = bench_copy_kernel_create(wl, spv, words, read_bytes, write_bytes, &ck);
    if (res == SPDRT_OK)
        res = bench_submit(s->ctx, record_poison, wl);
    if (res == SPDRT_OK) {
        bench_work w = {NULL, bench_copy_kernel_record, NULL, &ck};
        if (measure_work(s, wl, &w, t, NULL, samples) == SPDRT_OK &&
            bench_copy_kernel_check(&ck, err, sizeof err) != 0) {
            t->status = BENCH_FAILED;
            snprintf(t->note, sizeof t->note, "%.250s", err);
        }
    } else {
        outcome(t, s->ctx, res, NULL);
    }
    bench_copy_kernel_destroy(&ck);
    free(spv);
}

int bench_sweep_workload(bench_sweep *s, uint32_t w, uint32_t h, uint32_t levels,
                         uint32_t min_tile, bench_workload *wl, bench_chain *chain, FILE *out) {
    int too_big = w > 16384 || h > 16384 || levels == 0;
    if (too_big || bench_workload_create(s->ctx, w, h, s->opt->formats[0], levels, min_tile,
                                         (uint64_t)w * 65537u + h * 31u, wl) != SPDRT_OK) {
        fprintf(out, "not run: %s\n", too_big ? "one dispatch serves 2x2 .. 16384x16384"
                                               : spdrt_last_error(s->ctx));
        return -1;
    }
    chain->format = wl->format, chain->levels = wl->levels, chain->w = wl->w, chain->h = wl->h;
    chain->level0 = wl->source.map;
    return 0;
}

static void copy_buffer(bench_sweep *s, bench_workload *wl, bench_group *g) {
    measure(s, wl, bench_copy_buffer_record, wl, &g->copy_buffer, NULL);
}

/* Appends one SPD variant to the plan (up to BENCH_MAX_VARIANTS). */
static void plan_variant(bench_variant *plan, uint32_t *count, uint32_t subgroup, int linear,
                         int half, int hierarchy, uint32_t tiles_per_workgroup,
                         uint32_t fetch_ahead) {
    if (*count >= BENCH_MAX_VARIANTS)
        return;
    plan[*count].subgroup = subgroup;
    plan[*count].fetch_ahead = fetch_ahead;
    plan[*count].sampler_linear = linear;
    plan[*count].half = half;
    plan[*count].hierarchy = hierarchy;
    plan[(*count)++].tiles_per_workgroup = tiles_per_workgroup;
}

/* What `spdgen --spd --op --format --max-size` alone makes and libspdrt dispatches by
 * default: --subgroup 0, the hierarchy past 4096 texels a side (gen/spd/spd_check.c,
 * hierarchy_by_default: the one rule the bench mirrors), the runtime's tiles per workgroup. */
static bench_variant default_variant(const bench_group *g) {
    bench_variant d;
    spdrt_spd_params p;
    memset(&d, 0, sizeof d);
    memset(&p, 0, sizeof p);
    d.is_default = 1;
    d.hierarchy = g->width > 4096 || g->height > 4096;
    p.width = g->width, p.height = g->height, p.layers = 1, p.format = g->format;
    p.mips_bound = g->levels, p.hierarchy = d.hierarchy;
    d.tiles_per_workgroup = spdrt__spd_tiles_per_workgroup(&p);
    return d;
}

/* The same shader at the same tiles per workgroup as an earlier row (the default row and
 * `--subgroup 0` spelled out; the device's subgroup when it is 0): planned once, timed once.
 * Returns the new count. */
static uint32_t distinct_variants(bench_variant *plan, uint32_t count) {
    uint32_t v, w, n = 0;
    for (v = 0; v < count; v++) {
        const bench_variant *x = &plan[v];
        int seen = 0;
        for (w = 0; w < n && !seen; w++)
            seen = plan[w].subgroup == x->subgroup &&
                   plan[w].sampler_linear == x->sampler_linear &&
                   plan[w].normalized == x->normalized && plan[w].half == x->half &&
                   plan[w].hierarchy == x->hierarchy && plan[w].fetch_ahead == x->fetch_ahead &&
                   plan[w].tiles_per_workgroup == x->tiles_per_workgroup;
        if (!seen)
            plan[n++] = *x;
    }
    return n;
}

/* spd_bench --variants: spdgen's default first (plan[0], as spd_variants plans it), then
 * each "FLAGS[@K]" as given. The fields the bench acts on (the pipeline's subgroup size, the
 * check's bounds, the tiles per workgroup) are read from FLAGS. Returns the plan's length. */
static uint32_t given_variants(const bench_options *opt, const bench_variant *def,
                               bench_variant *plan) {
    uint32_t v, count = 1;
    for (v = 0; v < opt->variant_count && count < BENCH_MAX_VARIANTS - 2; v++) {
        bench_variant *x = &plan[count++];
        const char *at = strrchr(opt->variants[v], '@'), *sub;
        memset(x, 0, sizeof *x);
        snprintf(x->extra, sizeof x->extra, "%.*s",
                 (int)(at ? (size_t)(at - opt->variants[v]) : strlen(opt->variants[v])),
                 opt->variants[v]);
        sub = strstr(x->extra, "--subgroup ");
        x->subgroup = sub ? (uint32_t)strtoul(sub + 11, NULL, 10) : 0;
        x->hierarchy = strstr(x->extra, "--tail") ? strstr(x->extra, "--tail hierarchy") != NULL
                                                  : def->hierarchy;
        x->sampler_linear = strstr(x->extra, "--sampler linear") != NULL;
        x->normalized = strstr(x->extra, "--sampler-coords normalized") != NULL;
        x->half = strstr(x->extra, "--half") != NULL;
        x->tiles_per_workgroup = at ? (uint32_t)strtoul(at + 1, NULL, 10)
                                    : x->hierarchy == def->hierarchy ? def->tiles_per_workgroup
                                    : x->hierarchy ? SPDRT_DEFAULT_HIERARCHY_TILES_PER_WORKGROUP
                                                   : SPDRT_DEFAULT_TILES_PER_WORKGROUP;
        if (!x->tiles_per_workgroup)
            x->tiles_per_workgroup = 1;
    }
    return count;
}

/* FidelityFX SPD 2.0 beside spdgen's variants, for mean, where `make bench-peers` compiled
 * it (bench/peers/README.md): its exact path and, for rgba16f, its packed fp16 path. Timed,
 * read back and checked like a variant; returns how many samples it added. */
static uint32_t ffx_peers(bench_sweep *s, bench_workload *wl, bench_group *g,
                          bench_op_result *op, bench_sample *samples,
                          const bench_sample **checked, bench_check **checks) {
    static const bench_maker makers[2] = {BENCH_FFX, BENCH_FFX_PACKED};
    uint32_t m, n = 0;
    if (op->op != SPD_OP_MEAN)
        return 0;
    for (m = 0; m < 2 && op->variant_count < BENCH_MAX_VARIANTS && !s->ctx->hung; m++) {
        bench_variant *x;
        bench_ffx_kernel k;
        uint32_t *spv;
        size_t words;
        char name[64], err[512];
        spdrt_result res;
        if (makers[m] == BENCH_FFX_PACKED && g->format != SPDRT_RGBA16F)
            continue;
        snprintf(name, sizeof name, "ffx_spd_%s%s.spv", format_arg(g->format),
                 makers[m] == BENCH_FFX_PACKED ? "_packed" : "");
        load_shader(s, name, &spv, &words, err, sizeof err);
        if (!spv)
            continue; /* not built: the run has no peer rows */
        x = &op->variants[op->variant_count++];
        memset(x, 0, sizeof *x);
        x->maker = makers[m];
        x->check.half = x->half = makers[m] == BENCH_FFX_PACKED;
        snprintf(x->command, sizeof x->command, "%s", name);
        spdrt_take_statistics(s->ctx, NULL, 0);
        res = bench_ffx_kernel_create(wl, spv, words, &k);
        x->passes = k.passes;
        bench_take_statistics(s->ctx, name, &x->time);
        if (res != SPDRT_OK)
            outcome(&x->time, s->ctx, res, "pipeline");
        else if (measure(s, wl, bench_ffx_kernel_record, &k, &x->time, &samples[n]) ==
                 SPDRT_OK) {
            checked[n] = &samples[n];
            checks[n++] = &x->check;
        }
        bench_ffx_kernel_destroy(&k);
        free(spv);
    }
    return n;
}

static void spd_variants(bench_sweep *s, bench_workload *wl, const bench_chain *chain,
                         bench_group *g, bench_op_result *op) {
    bench_sample samples[BENCH_MAX_VARIANTS];
    const bench_sample *checked[BENCH_MAX_VARIANTS];
    bench_check *checks[BENCH_MAX_VARIANTS];
    bench_variant plan[BENCH_MAX_VARIANTS];
    uint32_t v, n = 0, count = 0;
    /* Every subgroup plan with the runtime's default tiles per workgroup (more than 6 levels:
     * a hand-off to share); for mean --sampler linear at the last (device-sized) subgroup
     * (8/16-bit formats checked within one unit more); then at that subgroup one tile per workgroup
     * (the contract's grid), with and without the sampler, and with the sampler 4. For
     * rgba16f also --half (fp16 math, checked against its own per-level bound): the fastest
     * of these on the H200 were no subgroup operations with the default tiles, the device's
     * subgroup with one tile (1920x1080) and --sampler linear. The sampler's rows name
     * --fetch-ahead (0, and 4 with 4 tiles: rgba16f without --half gained most from it; 2
     * with the default tiles below 4096 texels a side). */
    int linear = op->op == SPD_OP_MEAN;
    int half = g->format == SPDRT_RGBA16F;
    uint32_t per_wg = g->levels > 6 ? SPDRT_DEFAULT_TILES_PER_WORKGROUP : 1;
    uint32_t last = s->subgroups[s->subgroup_count - 1];
    memset(plan, 0, sizeof plan);
    plan[count++] = default_variant(g);
    for (v = 0; v < s->subgroup_count; v++)
        plan_variant(plan, &count, s->subgroups[v], 0, 0, 0, per_wg, 0);
    if (linear)
        plan_variant(plan, &count, last, 1, 0, 0, per_wg, 0);
    if (per_wg > 1) {
        /* The default's other tile counts (1: the contract's grid; 4: fewer, longer
         * workgroups), candidates for a default chosen by size. */
        plan_variant(plan, &count, 0, 0, 0, 0, 1, 0);
        plan_variant(plan, &count, 0, 0, 0, 0, 4, 0);
        plan_variant(plan, &count, last, 0, 0, 0, 1, 0);
        if (linear) {
            plan_variant(plan, &count, last, 1, 0, 0, 1, 0);
            plan_variant(plan, &count, last, 1, 0, 0, 4, 0);
            plan_variant(plan, &count, last, 1, 0, 0, 4, 4);
            /* Below 4096 texels a side also the runtime's default tiles with 2 fetches
             * ahead: rgba8 at 1920x1080 took 9.6 us against 10.3-10.8 without them (H200,
             * a probe); at 2560x1440 and 3840x2160 it was level or slower. */
            if (g->width < 4096 && g->height < 4096)
                plan_variant(plan, &count, last, 1, 0, 0, per_wg, 2);
        }
    }
    if (half) {
        plan_variant(plan, &count, 0, 0, 1, 0, per_wg, 0);
        if (per_wg > 1)
            plan_variant(plan, &count, last, 0, 1, 0, 1, 0);
        if (linear) {
            plan_variant(plan, &count, last, 1, 1, 0, per_wg, 0);
            if (per_wg > 1)
                plan_variant(plan, &count, last, 1, 1, 0, 1, 0);
        }
    }
    /* From 4096 texels a side (more than one 64x64 region of level 6 past it): --tail
     * hierarchy reduces the regions in parallel instead of one after another in the last
     * workgroup, with the fastest level-1 path of the loop rows above and the runtime's 4
     * tiles per workgroup; with the sampler also its default --fetch-ahead 2, and that at
     * --subgroup 8 (shuffles within 8 lanes, shared memory past them), which the H200 ran
     * fastest (rgba8 8192^2 99.6 against 104.6 us at 32, in probes the same day). */
    if (g->width >= 4096 || g->height >= 4096) {
        /* The exact path (texel loads, fp32) with the hierarchy, the candidate default at
         * these sizes: at --subgroup 0 (runs anywhere) and at the device's size. */
        if (linear) {
            plan_variant(plan, &count, 0, 0, 0, 1, 4, 0);
            plan_variant(plan, &count, last, 0, 0, 1, 4, 0);
        }
        plan_variant(plan, &count, last, linear, half && linear, 1, 4, 0);
        if (linear) {
            plan_variant(plan, &count, last, 1, half, 1, 4, 2);
            if (last > 8)
                plan_variant(plan, &count, 8, 1, half, 1, 4, 2);
        }
    }
    /* On power-of-two sizes the sampler's rows that fetch ahead again with --sampler-coords
     * normalized: the same fetches at (2x + 1) / size, which the H200 ran faster with 4
     * fetches ahead and in the hierarchy (rgba8 8192^2 at --subgroup 8: 99.3 against 106.3
     * us with texel coordinates, in probes of both builds the same day). */
    if (linear && !(g->width & (g->width - 1)) && !(g->height & (g->height - 1))) {
        uint32_t planned = count;
        for (v = 0; v < planned; v++)
            if (plan[v].sampler_linear && (plan[v].fetch_ahead || plan[v].hierarchy) &&
                count < BENCH_MAX_VARIANTS) {
                plan[count] = plan[v];
                plan[count++].normalized = 1;
            }
    }
    if (s->opt->variant_count)
        count = given_variants(s->opt, &plan[0], plan);
    else
        count = distinct_variants(plan, count);
    memset(samples, 0, sizeof samples);
    for (v = 0; v < count && op->variant_count < BENCH_MAX_VARIANTS; v++) {
        bench_variant *x = &op->variants[op->variant_count++];
        bench_spd_kernel k;
        uint32_t *spv = NULL;
        size_t words = 0;
        char err[512];
        spdrt_result res;
        *x = plan[v];
        x->check.half = x->half;
        x->check.sampler_linear = x->sampler_linear;
        bench_spd_options o = {.subgroup = x->subgroup, .hierarchy = x->hierarchy,
                               .sampler_linear = x->sampler_linear, .half = x->half,
                               .fetch_ahead = x->fetch_ahead, .normalized = x->normalized};
        if (x->extra[0] || x->is_default) /* the flags as given (none: spdgen's defaults) */
            o = (bench_spd_options){.subgroup = x->subgroup, .extra = x->extra};
        if (bench_spdgen_spd(&s->spdgen, bench_op_name(op->op), format_arg(g->format), &o,
                             g->max_size, g->levels, &spv, &words, x->command,
                             sizeof x->command, err, sizeof err) != 0) {
            x->time.status = BENCH_FAILED;
            snprintf(x->time.note, sizeof x->time.note, "%.250s", err);
            continue;
        }
        spdrt_take_statistics(s->ctx, NULL, 0);
        res = bench_spd_kernel_create(wl, spv, words, g->levels, x->subgroup, 64, x->normalized,
                                      &k);
        k.tiles_per_workgroup = x->tiles_per_workgroup;
        bench_take_statistics(s->ctx, x->command, &x->time);
        if (res != SPDRT_OK)
            outcome(&x->time, s->ctx, res, "pipeline");
        else if (measure(s, wl, bench_spd_kernel_record, &k, &x->time, &samples[n]) ==
                 SPDRT_OK) {
            checked[n] = &samples[n];
            checks[n++] = &x->check;
        }
        bench_spd_kernel_destroy(&k);
        free(spv);
        if (s->ctx->hung)
            break;
    }
    n += ffx_peers(s, wl, g, op, samples + n, checked + n, checks + n);
    if (n)
        bench_verify_spd(chain, op->op, checked, checks, n);
    for (v = 0; v < n; v++)
        bench_sample_free(&samples[v]);
}

static void per_level(bench_sweep *s, bench_workload *wl, const bench_chain *chain,
                      bench_group *g, bench_op_result *op) {
    bench_level_kernel k;
    bench_sample sample;
    uint32_t *spv;
    size_t words;
    char name[64], err[512];
    spdrt_result res;
    snprintf(name, sizeof name, "level_%s_%s.spv", bench_op_name(op->op),
             format_arg(g->format));
    load_shader(s, name, &spv, &words, err, sizeof err);
    if (!spv) {
        op->per_level.status = BENCH_FAILED;
        snprintf(op->per_level.note, sizeof op->per_level.note, "%.200s (run make bench)", err);
        return;
    }
    res = bench_level_kernel_create(wl, spv, words, &k);
    if (res != SPDRT_OK)
        outcome(&op->per_level, s->ctx, res, "pipeline");
    else if (measure(s, wl, bench_level_kernel_record, &k, &op->per_level, &sample) ==
             SPDRT_OK) {
        bench_verify_chain(chain, op->op, &sample, spd_ref_bound(op->op, g->format), 0,
                           &op->per_level_check);
        bench_sample_free(&sample);
    }
    bench_level_kernel_destroy(&k);
    free(spv);
}

static void blit_chain(bench_sweep *s, bench_workload *wl, const bench_chain *chain,
                       bench_op_result *op) {
    bench_blit_chain bc;
    bench_sample sample;
    bench_work w;
    spdrt_result res;
    bc.wl = wl;
    op->blit_linear = op->op == SPD_OP_MEAN;
    bc.filter = op->blit_linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    res = bench_blit_supported(wl, bc.filter);
    if (res != SPDRT_OK) {
        outcome(&op->blit, s->ctx, res, NULL);
        return;
    }
    w.before = bench_blit_before, w.work = bench_blit_record, w.after = bench_blit_after;
    w.user = &bc;
    if (measure_work(s, wl, &w, &op->blit, &sample, NULL) != SPDRT_OK)
        return;
    if (op->blit_linear) {
        bench_verify_chain(chain, op->op, &sample, BLIT_BOUND, 1, &op->blit_check);
    } else {
        op->blit_check.status = BENCH_SKIPPED;
        snprintf(op->blit_check.what, sizeof op->blit_check.what,
                 "not checked: a NEAREST blit is not a max");
    }
    bench_sample_free(&sample);
}

int bench_sweep_group(bench_sweep *s, uint32_t width, uint32_t height, spdrt_format format,
                      bench_group *g) {
    bench_workload wl;
    bench_chain chain;
    spdrt_result res;
    double *first, *last;
    uint32_t o;
    memset(g, 0, sizeof *g);
    g->width = width, g->height = height, g->format = format;
    shader_plan(width, height, g);
    res = bench_workload_create(s->ctx, width, height, format, g->levels, 64,
                                (uint64_t)width * 65537u + height * 31u + (uint32_t)format, &wl);
    if (res != SPDRT_OK) { /* UNSUPPORTED: beyond the device's limits, a skip */
        if (res == SPDRT_ERROR_UNSUPPORTED)
            snprintf(g->skipped, sizeof g->skipped, "not run: %s", spdrt_last_error(s->ctx));
        else
            snprintf(g->error, sizeof g->error, "%s", spdrt_last_error(s->ctx));
        return s->ctx->hung ? -1 : 0;
    }
    g->bytes = wl.bytes;
    g->floor_bytes = 2 * wl.copy_bytes;
    chain.format = format, chain.levels = wl.levels, chain.w = wl.w, chain.h = wl.h;
    chain.level0 = wl.source.map;

    g->shaped_read_bytes = wl.shaped_read_bytes;
    g->shaped_write_bytes = wl.shaped_write_bytes;
    first = calloc(s->gpu.cfg.reps, sizeof *first);
    last = calloc(s->gpu.cfg.reps, sizeof *last);
    if (!first || !last) {
        snprintf(g->error, sizeof g->error, "out of memory");
        free(first), free(last);
        bench_workload_destroy(&wl);
        return 0;
    }
    /* The floor first and last, everything else between: drift shows as their spread. */
    bench_sweep_floor(s, &wl, wl.copy_bytes, wl.copy_bytes, &g->floor_first, first);
    if (!s->ctx->hung)
        bench_sweep_floor(s, &wl, wl.shaped_read_bytes, wl.shaped_write_bytes, &g->shaped, NULL);
    if (!s->ctx->hung)
        copy_buffer(s, &wl, g);
    for (o = 0; o < s->opt->op_count && !s->ctx->hung; o++) {
        bench_op_result *op = &g->ops[g->op_count++];
        op->op = s->opt->ops[o];
        spd_variants(s, &wl, &chain, g, op);
        if (!s->ctx->hung)
            per_level(s, &wl, &chain, g, op);
        if (!s->ctx->hung)
            blit_chain(s, &wl, &chain, op);
    }
    if (!s->ctx->hung)
        bench_sweep_floor(s, &wl, wl.copy_bytes, wl.copy_bytes, &g->floor_last, last);
    bench_pool_floor(s->gpu.cfg.reps, &g->floor_first, &g->floor_last, first, last, &g->floor);
    free(first);
    free(last);
    if (s->ctx->hung)
        snprintf(g->error, sizeof g->error, "the device stopped responding: %s",
                 spdrt_last_error(s->ctx));
    bench_workload_destroy(&wl);
    return s->ctx->hung ? -1 : 0;
}
