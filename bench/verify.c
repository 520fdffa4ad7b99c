/* verify.c: the streamed CPU reference, the link-by-link check, and their self-test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "verify.h"

/* ---- comparing one row --------------------------------------------------------------- */

static void check_begin(bench_check *chk, double bound, const char *what) {
    memset(chk, 0, sizeof *chk);
    chk->bound = bound;
    snprintf(chk->what, sizeof chk->what, "%s", what);
}

static void check_end(bench_check *chk) {
    if (chk->status == BENCH_FAILED) /* an error already said why */
        return;
    if (chk->mismatches || chk->unwritten)
        chk->status = BENCH_FAILED;
    else
        chk->status = chk->values ? BENCH_OK : BENCH_SKIPPED;
}

/* gpu: the unpacked stored row; want: the exact (unquantized) values it must store. */
static void compare_row(bench_check *chk, double bound, spdrt_format format, uint32_t k,
                        uint32_t y, uint32_t w, uint32_t ch, const float *gpu, const float *want) {
    float sentinel = spd_ref_quantize(format, BENCH_SENTINEL);
    int sentinel_visible = format != SPDRT_RGBA8; /* rgba8 stores it as 0, a real value */
    uint32_t i;
    for (i = 0; i < w * ch; i++) {
        float g = gpu[i], r = spd_ref_quantize(format, want[i]);
        double err = fabs((double)g - (double)r);
        int bad = bound == 0 ? memcmp(&g, &r, sizeof g) != 0 : !(err <= bound);
        if (isnan(err))
            err = INFINITY;
        if (err > chk->max_error)
            chk->max_error = err;
        if (sentinel_visible && g == sentinel)
            chk->unwritten++;
        if (bad && chk->mismatches++ == 0)
            snprintf(chk->first, sizeof chk->first,
                     "level %u (%u, %u) channel %u: got %.9g, want %.9g", k, i / ch, y, i % ch,
                     g, r);
    }
    chk->values += (uint64_t)w * ch;
}

/* Texel x of level k from rows top (2y) and bottom (2y+1) of level k-1, clamped: the
 * definition in runtime/include/spdrt_spd.h. */
static void reduce_row(spd_op op, uint32_t ch, uint32_t pw, uint32_t w, const float *top,
                       const float *bottom, float *out) {
    uint32_t x, c;
    for (x = 0; x < w; x++) {
        uint32_t x0 = 2 * x < pw - 1 ? 2 * x : pw - 1;
        uint32_t x1 = 2 * x + 1 < pw - 1 ? 2 * x + 1 : pw - 1;
        for (c = 0; c < ch; c++)
            out[x * ch + c] = spd_ref_reduce(op, top[x0 * ch + c], top[x1 * ch + c],
                                             bottom[x0 * ch + c], bottom[x1 * ch + c]);
    }
}

/* ---- SPD: the streamed reference ----------------------------------------------------- */

typedef struct {
    const bench_chain *c;
    spd_op op;
    uint32_t ch;
    float *pending[BENCH_MAX_LEVELS]; /* [k]: the even row of level k-1 awaiting its partner */
    float *made[BENCH_MAX_LEVELS];    /* [k]: the row of level k just made */
    float *gpu;                       /* one unpacked sample row */
    const bench_sample *const *samples;
    bench_check *const *checks;
    uint32_t count;
} stream;

/* Row y of level k exists (unquantized): compare it, then feed it to level k+1. Rows of
 * level k-1 pair up as (2y, 2y+1); a level one row high pairs its row with itself, and an
 * odd last row (y = h - 1 with h odd > 1) makes nothing: SPD drops it. */
static void emit(stream *st, uint32_t k, uint32_t y, const float *row) {
    const bench_chain *c = st->c;
    uint32_t i, n = k + 1;
    for (i = 0; k > 0 && i < st->count; i++) {
        const unsigned char *g = bench_sample_row(st->samples[i], k, y);
        if (!g)
            continue;
        bench_source_unpack(c->format, g, c->w[k], st->gpu);
        bench_check *chk = st->checks[i];
        double bound = spd_ref_bound_level(st->op, c->format, chk->half, chk->sampler_linear, k);
        compare_row(chk, bound, c->format, k, y, c->w[k], st->ch, st->gpu, row);
    }
    if (k == c->levels)
        return;
    if (y % 2) {
        reduce_row(st->op, st->ch, c->w[k], c->w[n], st->pending[n], row, st->made[n]);
        emit(st, n, y / 2, st->made[n]);
    } else if (y + 1 == c->h[k]) {
        if (y / 2 < c->h[n]) { /* h[k] == 1 */
            reduce_row(st->op, st->ch, c->w[k], c->w[n], row, row, st->made[n]);
            emit(st, n, y / 2, st->made[n]);
        }
    } else {
        memcpy(st->pending[n], row, (size_t)c->w[k] * st->ch * sizeof(float));
    }
}

int bench_verify_spd(const bench_chain *c, spd_op op, const bench_sample *const *samples,
                     bench_check *const *checks, uint32_t count) {
    stream st;
    uint32_t i, k, y;
    size_t row0 = (size_t)c->w[0] * spdrt__format_texel_size(c->format);
    int rc = 0;
    char what[160];
    memset(&st, 0, sizeof st);
    st.c = c;
    st.op = op;
    st.ch = spdrt_format_channels(c->format);
    st.samples = samples;
    st.checks = checks;
    st.count = count;
    snprintf(what, sizeof what,
             "levels 1-%u against the CPU reference (spd_ref), levels of up to %u texels "
             "whole, larger ones by rows", c->levels, BENCH_FULL_TEXELS);
    for (i = 0; i < count; i++) {
        int half = checks[i]->half, linear = checks[i]->sampler_linear;
        int filter = linear && spd_ref_filter_bound(c->format) > 0;
        check_begin(checks[i], spd_ref_bound_level(op, c->format, half, linear, c->levels), what);
        checks[i]->half = half;
        checks[i]->sampler_linear = linear;
        if (half || filter)
            snprintf(checks[i]->what, sizeof checks[i]->what, "%s%s%s", what,
                     half ? "; --half: level k within the fp16 bound of spd_ref_bound_level" : "",
                     filter ? "; --sampler linear: one unit more (spd_ref_filter_bound)" : "");
    }
    /* Row buffers sized for level 0's width serve every level. */
    st.gpu = malloc((size_t)c->w[0] * st.ch * sizeof(float));
    for (k = 0; k <= c->levels; k++) {
        st.pending[k] = malloc((size_t)c->w[0] * st.ch * sizeof(float));
        st.made[k] = malloc((size_t)c->w[0] * st.ch * sizeof(float));
        if (!st.pending[k] || !st.made[k])
            rc = -1;
    }
    if (!st.gpu || rc) {
        rc = -1;
    } else {
        for (y = 0; y < c->h[0]; y++) {
            bench_source_unpack(c->format, c->level0 + y * row0, c->w[0], st.made[0]);
            emit(&st, 0, y, st.made[0]);
        }
    }
    for (i = 0; i < count; i++) {
        if (rc) {
            checks[i]->status = BENCH_FAILED;
            snprintf(checks[i]->first, sizeof checks[i]->first, "out of memory checking");
        }
        check_end(checks[i]);
    }
    free(st.gpu);
    for (k = 0; k <= c->levels; k++)
        free(st.pending[k]), free(st.made[k]);
    return rc;
}

/* ---- baselines: link by link --------------------------------------------------------- */

/* Row y of level k unpacked into out, from level 0 or the sample; 0 if not available. */
static int stored_row(const bench_chain *c, const bench_sample *s, uint32_t k, uint32_t y,
                      float *out) {
    const unsigned char *bytes;
    if (k == 0)
        bytes = c->level0 + (size_t)y * c->w[0] * spdrt__format_texel_size(c->format);
    else
        bytes = bench_sample_row(s, k, y);
    if (!bytes)
        return 0;
    bench_source_unpack(c->format, bytes, c->w[k], out);
    return 1;
}

void bench_verify_chain(const bench_chain *c, spd_op op, const bench_sample *s, double bound,
                        int exact_halving_only, bench_check *out) {
    uint32_t ch = spdrt_format_channels(c->format), k, i, skipped = 0;
    size_t n = (size_t)c->w[0] * ch;
    float *top = malloc(n * sizeof(float)), *bottom = malloc(n * sizeof(float));
    float *want = malloc(n * sizeof(float)), *gpu = malloc(n * sizeof(float));
    char what[160];
    snprintf(what, sizeof what, "levels 1-%u: each sampled texel against the reduce of its "
             "stored 2x2 block one level up", c->levels);
    check_begin(out, bound, what);
    if (!top || !bottom || !want || !gpu) {
        out->status = BENCH_FAILED;
        snprintf(out->first, sizeof out->first, "out of memory checking");
    }
    for (k = 1; out->status != BENCH_FAILED && k <= c->levels; k++) {
        uint32_t pw = c->w[k - 1], ph = c->h[k - 1];
        if (exact_halving_only && !((pw == 2 * c->w[k] || pw == 1) &&
                                    (ph == 2 * c->h[k] || ph == 1))) {
            skipped++;
            continue;
        }
        for (i = 0; i < s->row_count[k]; i++) {
            uint32_t y = s->rows[k][i];
            uint32_t y0 = 2 * y < ph - 1 ? 2 * y : ph - 1;
            uint32_t y1 = 2 * y + 1 < ph - 1 ? 2 * y + 1 : ph - 1;
            if (!stored_row(c, s, k - 1, y0, top) || !stored_row(c, s, k - 1, y1, bottom))
                continue; /* its footprint was not read back */
            reduce_row(op, ch, pw, c->w[k], top, bottom, want);
            stored_row(c, s, k, y, gpu);
            compare_row(out, out->bound, c->format, k, y, c->w[k], ch, gpu, want);
        }
    }
    if (skipped) {
        size_t len = strlen(out->what);
        snprintf(out->what + len, sizeof out->what - len,
                 "; %u level(s) not halving exactly skipped", skipped);
    }
    check_end(out);
    free(top), free(bottom), free(want), free(gpu);
}

/* ---- self-test ----------------------------------------------------------------------- */

/* A sample holding spd_ref_run's levels as stored, planned with a small full-level limit so
 * the row-sampling path is exercised too. */
static int sample_from_reference(const spdrt_spd_levels *ref, spdrt_format format,
                                 bench_sample *s) {
    uint32_t k, i, x, texel = spdrt__format_texel_size(format);
    if (bench_sample_plan(s, format, ref->mip_count, ref->width, ref->height, 24) != 0)
        return -1;
    for (k = 1; k <= ref->mip_count; k++)
        for (i = 0; i < s->row_count[k]; i++) {
            uint32_t y = s->rows[k][i];
            unsigned char *dst = s->data + s->offset[k] + (uint64_t)i * s->w[k] * texel;
            for (x = 0; x < s->w[k]; x++)
                spdrt__texel_pack(format, ref->level[k] + ((size_t)y * s->w[k] + x) * 4,
                                  dst + (size_t)x * texel);
        }
    return 0;
}

/* One (size, format, op): returns 0 or -1 with err set. */
static int selftest_case(uint32_t w, uint32_t h, spdrt_format format, spd_op op, char *err,
                         size_t err_size) {
    uint32_t texel = spdrt__format_texel_size(format), ch = spdrt_format_channels(format);
    uint32_t levels = spdrt_spd_mip_count(w, h, BENCH_MAX_LEVELS - 1), i;
    size_t n = (size_t)w * h;
    unsigned char *level0 = malloc(n * texel);
    float *unpacked = malloc(n * ch * sizeof(float)), *rgba = malloc(n * 4 * sizeof(float));
    spdrt_spd_levels ref;
    bench_sample s;
    bench_check chk;
    bench_check *checks[1] = {&chk};
    const bench_sample *samples[1] = {&s};
    bench_chain c;
    int rc = -1, exact_links = op == SPD_OP_MAX || format == SPDRT_R32F;
    memset(&ref, 0, sizeof ref);
    memset(&s, 0, sizeof s);
    memset(&chk, 0, sizeof chk); /* chk.half = 0: bench_verify_spd keeps it */
    snprintf(err, err_size, "out of memory");
    if (!level0 || !unpacked || !rgba)
        goto done;
    bench_source_fill(format, level0, n, w * 31u + h);
    bench_source_unpack(format, level0, n, unpacked);
    for (i = 0; i < n; i++) { /* as RGBA; r32f reads (r, 0, 0, 1) */
        float *t = rgba + 4 * (size_t)i;
        t[0] = unpacked[i * ch];
        t[1] = ch == 4 ? unpacked[i * ch + 1] : 0.0f;
        t[2] = ch == 4 ? unpacked[i * ch + 2] : 0.0f;
        t[3] = ch == 4 ? unpacked[i * ch + 3] : 1.0f;
    }
    if (spd_ref_run(op, format, w, h, 1, levels, rgba, &ref) != 0 ||
        sample_from_reference(&ref, format, &s) != 0)
        goto done;
    c.format = format, c.levels = levels, c.w = ref.width, c.h = ref.height, c.level0 = level0;

    /* The streamed reference must reproduce spd_ref_run bit for bit, on every sampled texel. */
    snprintf(err, err_size, "%ux%u %s op %d: ", w, h, spdrt__format_name(format), (int)op);
    bench_verify_spd(&c, op, samples, checks, 1);
    if (chk.status != BENCH_OK || chk.max_error != 0.0) {
        size_t len = strlen(err);
        snprintf(err + len, err_size - len,
                 "streamed reference differs from spd_ref_run (max error %g): %s",
                 chk.max_error, chk.first);
        goto done;
    }
    /* Where storing commutes with reducing (max; r32f), the link check must pass too. */
    if (exact_links) {
        bench_verify_chain(&c, op, &s, 0.0, 0, &chk);
        if (chk.status != BENCH_OK) {
            size_t len = strlen(err);
            snprintf(err + len, err_size - len, "link check fails a correct chain: %s",
                     chk.first);
            goto done;
        }
    }
    /* --half variants: the bound grows per level. An error of 2 x 2^-11 is outside the fp32
     * bound (one rgba16f unit, 2^-11) everywhere, outside the fp16 bound of level 1 (7/4 x
     * 2^-11) and inside that of every level from 2 ((5k+2)/4 x 2^-11). */
    if (format == SPDRT_RGBA16F && op == SPD_OP_MEAN && levels >= 2) {
        uint32_t k;
        for (k = 1; k <= levels; k += levels - 1) {
            unsigned char *texel0 = s.data + s.offset[k];
            unsigned char saved[8];
            float value[4];
            int fp32_caught, half_ok;
            memcpy(saved, texel0, texel);
            spdrt__texel_unpack(format, texel0, value);
            value[0] += value[0] >= 0.5f ? -1.0f / 1024.0f : 1.0f / 1024.0f; /* exact in fp16 */
            spdrt__texel_pack(format, value, texel0);
            chk.half = 0;
            bench_verify_spd(&c, op, samples, checks, 1);
            fp32_caught = chk.mismatches == 1;
            chk.half = 1;
            bench_verify_spd(&c, op, samples, checks, 1);
            half_ok = chk.status == BENCH_OK && chk.max_error > 0.0;
            chk.half = 0;
            memcpy(texel0, saved, texel);
            if (!fp32_caught || half_ok != (k > 1)) {
                size_t len = strlen(err);
                snprintf(err + len, err_size - len, "an error of 2^-10 in level %u %s", k,
                         !fp32_caught ? "passed the fp32 bound"
                         : k > 1      ? "failed the --half bound"
                                      : "passed level 1's --half bound");
                goto done;
            }
        }
    }
    /* A planted error in the last level must be caught by both (with --half's bound too). */
    {
        uint32_t k = levels;
        float bad[4] = {-0.5f, -0.5f, -0.5f, -0.5f}; /* rgba8: 0 */
        spdrt__texel_pack(format, bad, s.data + s.offset[k]);
        chk.half = format == SPDRT_RGBA16F;
        bench_verify_spd(&c, op, samples, checks, 1);
        if (chk.mismatches == 0) {
            size_t len = strlen(err);
            snprintf(err + len, err_size - len, "a planted error went unnoticed");
            goto done;
        }
        if (exact_links) {
            bench_verify_chain(&c, op, &s, 0.0, 0, &chk);
            if (chk.mismatches == 0) {
                size_t len = strlen(err);
                snprintf(err + len, err_size - len, "a planted error passed the link check");
                goto done;
            }
        }
    }
    rc = 0;
done:
    spdrt_spd_levels_free(&ref);
    bench_sample_free(&s);
    free(level0), free(unpacked), free(rgba);
    return rc;
}

int bench_verify_selftest(char *err, size_t err_size) {
    static const struct { uint32_t w, h; } sizes[] = {
        {67, 33}, {1, 19}, {130, 2}, {64, 64}, {9, 200}, {300, 97},
    };
    static const spdrt_format formats[] = {SPDRT_RGBA8, SPDRT_RGBA16F, SPDRT_R32F};
    static const spd_op ops[] = {SPD_OP_MEAN, SPD_OP_MAX};
    size_t z, f, o;
    if (bench_source_selftest(err, err_size) != 0)
        return -1;
    for (z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (f = 0; f < sizeof formats / sizeof formats[0]; f++)
            for (o = 0; o < sizeof ops / sizeof ops[0]; o++)
                if (selftest_case(sizes[z].w, sizes[z].h, formats[f], ops[o], err, err_size))
                    return -1;
    return 0;
}
