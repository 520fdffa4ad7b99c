/* tests/runtime/ref.c: TAP test of the CPU reference (spd_ref.h) on properties that follow from
 * its definition: level sizes, constants staying constant, min/max footprints, the mean of
 * all texels, the 2x2 order, the drop and edge rules, quantization, layer independence.
 * No expected value here was copied from the program's output. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spdrt_spd.h"

#include "tap.h"

static const char *op_name[] = {"min", "max", "mean", "test-order"};

/* floor(log2(max(w, h))) by the definition: the largest k with 2^k <= max(w, h). */
static uint32_t full_chain(uint32_t w, uint32_t h) {
    uint32_t m = w > h ? w : h, k = 0;
    while ((2ull << k) <= m)
        k++;
    return k;
}

/* A deterministic pseudo-random image in [lo, hi) (the runtime's test data). */
static float *random_image(uint32_t w, uint32_t h, uint32_t layers, float lo, float hi,
                           uint32_t seed) {
    size_t n = (size_t)w * h * layers * 4;
    float *img = malloc(n * sizeof *img);
    if (img)
        spdrt_random_floats(img, n, seed, lo, hi);
    return img;
}

static float *constant_image(uint32_t w, uint32_t h, uint32_t layers, const float *rgba_per_layer) {
    size_t n = (size_t)w * h, i;
    uint32_t l, c;
    float *img = malloc(n * layers * 4 * sizeof *img);
    for (l = 0; img && l < layers; l++)
        for (i = 0; i < n; i++)
            for (c = 0; c < 4; c++)
                img[(l * n + i) * 4 + c] = rgba_per_layer[l * 4 + c];
    return img;
}

static const float *texel(const float *level, uint32_t w, uint32_t h, uint32_t layer, uint32_t x,
                          uint32_t y) {
    return level + (((size_t)layer * h + y) * w + x) * 4;
}

/* ---- level sizes --------------------------------------------------------------------- */

static void test_sizes(void) {
    static const uint32_t sizes[][2] = {{1, 1}, {2, 2}, {65, 65}, {127, 33}, {1, 300}, {4096, 1}};
    size_t s;
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint32_t w = sizes[s][0], h = sizes[s][1], mips = full_chain(w, h), k, good = 1;
        float *img = random_image(w, h, 1, 0, 1, 1);
        spdrt_spd_levels out;
        if (spd_ref_run(SPD_OP_MEAN, SPDRT_RGBA32F, w, h, 1, mips, img, &out) != 0) {
            ok(0, "sizes %ux%u: spd_ref_run failed", w, h);
            free(img);
            continue;
        }
        good = out.mip_count == mips && out.layers == 1 && out.level[0] == NULL;
        for (k = 0; k <= mips; k++) {
            uint32_t ew = w >> k ? w >> k : 1, eh = h >> k ? h >> k : 1;
            good &= out.width[k] == ew && out.height[k] == eh;
            good &= k == 0 || out.level[k] != NULL;
        }
        good &= out.width[mips] * out.height[mips] == (w > h ? out.width[mips] : out.height[mips]);
        ok(good, "sizes %ux%u: %u levels of max(1, n >> k), last one a row or column", w, h,
           mips);
        spdrt_spd_levels_free(&out);
        free(img);
    }
}

/* ---- constants ----------------------------------------------------------------------- */

static void test_constant(void) {
    /* Dyadic values: every op's arithmetic on them is exact, so "constant" means equal. */
    static const float rgba[4] = {0.25f, -3.0f, 7.5f, 1.0f};
    static const uint32_t sizes[][2] = {{1, 1}, {3, 3}, {65, 17}, {7, 128}, {300, 1}, {33, 65}};
    int op;
    for (op = SPD_OP_MIN; op <= SPD_OP_TEST_ORDER; op++) {
        size_t s;
        int good = 1;
        for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            uint32_t w = sizes[s][0], h = sizes[s][1], mips = full_chain(w, h), k;
            float *img = constant_image(w, h, 1, rgba);
            spdrt_spd_levels out;
            if (spd_ref_run((spd_op)op, SPDRT_RGBA32F, w, h, 1, mips, img, &out) != 0) {
                good = 0;
                free(img);
                continue;
            }
            for (k = 1; k <= mips; k++) {
                size_t n = (size_t)out.width[k] * out.height[k], i;
                for (i = 0; i < n * 4; i++)
                    good &= out.level[k][i] == rgba[i % 4];
            }
            spdrt_spd_levels_free(&out);
            free(img);
        }
        ok(good, "%s: a constant image stays constant at every level (odd, non-square, 1-wide)",
           op_name[op]);
    }
}

/* ---- min/max footprints -------------------------------------------------------------- */

static void test_footprint_pot(spd_op op, uint32_t w, uint32_t h) {
    uint32_t mips = full_chain(w, h), k, x, y, c, i, j;
    float *img = random_image(w, h, 1, -5, 5, w * 7 + h);
    spdrt_spd_levels out;
    int good = spd_ref_run(op, SPDRT_RGBA32F, w, h, 1, mips, img, &out) == 0;
    for (k = 1; good && k <= mips; k++)
        for (y = 0; y < out.height[k]; y++)
            for (x = 0; x < out.width[k]; x++)
                for (c = 0; c < 4; c++) {
                    /* The 2^k x 2^k block, cut to the image where a side has reached 1. */
                    uint32_t x1 = (x + 1) << k, y1 = (y + 1) << k;
                    float e = texel(img, w, h, 0, x << k, y << k)[c];
                    for (j = y << k; j < (y1 < h ? y1 : h); j++)
                        for (i = x << k; i < (x1 < w ? x1 : w); i++) {
                            float v = texel(img, w, h, 0, i, j)[c];
                            e = op == SPD_OP_MIN ? (v < e ? v : e) : (v > e ? v : e);
                        }
                    good &= texel(out.level[k], out.width[k], out.height[k], 0, x, y)[c] == e;
                }
    ok(good, "%s %ux%u (power of two): level k = %s of its 2^k x 2^k level-0 block",
       op_name[op], w, h, op_name[op]);
    spdrt_spd_levels_free(&out);
    free(img);
}

/* Without powers of two the drop rule leaves texels out, so only the bounds hold. Mean and
 * the test order are convex combinations; float rounding may overshoot by an ulp or so. */
static void test_bounds_npot(spd_op op, uint32_t w, uint32_t h, uint32_t layers) {
    uint32_t mips = full_chain(w, h), k, l, c;
    float *img = random_image(w, h, layers, -2, 3, w * 13 + h);
    float lo[4], hi[4];
    size_t n = (size_t)w * h, i;
    spdrt_spd_levels out;
    int good = spd_ref_run(op, SPDRT_RGBA32F, w, h, layers, mips, img, &out) == 0;
    for (l = 0; good && l < layers; l++) {
        for (c = 0; c < 4; c++) {
            lo[c] = hi[c] = img[l * n * 4 + c];
            for (i = 0; i < n; i++) {
                float v = img[(l * n + i) * 4 + c];
                lo[c] = v < lo[c] ? v : lo[c];
                hi[c] = v > hi[c] ? v : hi[c];
            }
        }
        for (k = 1; k <= mips; k++) {
            size_t m = (size_t)out.width[k] * out.height[k];
            for (i = 0; i < m; i++)
                for (c = 0; c < 4; c++) {
                    float v = out.level[k][(l * m + i) * 4 + c];
                    float slack = 1e-6f * (fabsf(lo[c]) + fabsf(hi[c]));
                    good &= v >= lo[c] - slack && v <= hi[c] + slack;
                }
        }
    }
    ok(good, "%s %ux%ux%u: every level lies within [min, max] of its layer's level 0",
       op_name[op], w, h, layers);
    spdrt_spd_levels_free(&out);
    free(img);
}

/* ---- mean of a power of two ---------------------------------------------------------- */

static void test_mean_pot(uint32_t w, uint32_t h) {
    uint32_t mips = full_chain(w, h), c;
    float *img = random_image(w, h, 1, 0, 1, 99 + w);
    spdrt_spd_levels out;
    size_t n = (size_t)w * h, i;
    int good = spd_ref_run(SPD_OP_MEAN, SPDRT_RGBA32F, w, h, 1, mips, img, &out) == 0;
    good &= good && out.width[mips] == 1 && out.height[mips] == 1;
    for (c = 0; good && c < 4; c++) {
        double sum = 0, mean;
        for (i = 0; i < n; i++)
            sum += img[i * 4 + c];
        mean = sum / (double)n;
        good &= fabs(out.level[mips][c] - mean) <= 1e-6 * fabs(mean);
    }
    ok(good, "mean %ux%u: the 1x1 level is the average of all texels (1e-6 relative)", w, h);
    spdrt_spd_levels_free(&out);
    free(img);
}

/* ---- the 2x2 order, the drop rule, the edge rule ------------------------------------- */

static float level1_texel(spd_op op, uint32_t w, uint32_t h, const float *gray, uint32_t x,
                          uint32_t y) {
    float *img = malloc((size_t)w * h * 4 * sizeof *img), v = NAN;
    size_t i;
    spdrt_spd_levels out;
    for (i = 0; img && i < (size_t)w * h; i++)
        img[i * 4] = img[i * 4 + 1] = img[i * 4 + 2] = img[i * 4 + 3] = gray[i];
    if (img && spd_ref_run(op, SPDRT_RGBA32F, w, h, 1, 1, img, &out) == 0) {
        v = texel(out.level[1], out.width[1], out.height[1], 0, x, y)[0];
        spdrt_spd_levels_free(&out);
    }
    free(img);
    return v;
}

static void test_order(void) {
    /* Powers of two, so the weighted sum is exact and a swapped order shows. */
    float a = 16, b = 32, c = 64, d = 128;
    float two_by_two[4] = {a, b, c, d};  /* row-major: top left, top right, bottom ... */
    double expect = 0.5 * a + 0.25 * b + 0.125 * c + 0.125 * d;
    float got = level1_texel(SPD_OP_TEST_ORDER, 2, 2, two_by_two, 0, 0);
    ok(got == expect, "test-order 2x2 (a b / c d) gives 0.5a + 0.25b + 0.125c + 0.125d (%g, want %g)",
       got, expect);
    ok(spd_ref_reduce(SPD_OP_TEST_ORDER, a, b, c, d) == expect &&
           spd_ref_reduce(SPD_OP_MEAN, a, b, c, d) == (a + b + c + d) / 4 &&
           spd_ref_reduce(SPD_OP_MIN, b, a, d, c) == a && spd_ref_reduce(SPD_OP_MAX, d, c, a, b) == d,
       "spd_ref_reduce: each op on four values");
}

static void test_drop_rule(void) {
    /* 3x3: level 1 is 1x1 from the top-left 2x2; the last row and column must not count. */
    float img[9] = {1, 2, 100, 3, 4, 100, 100, 100, 100};
    ok(level1_texel(SPD_OP_MAX, 3, 3, img, 0, 0) == 4,
       "drop rule: the last odd row and column of a 3x3 do not reach level 1");
    {
        /* 5x2: level 1 is 2x1; texel 1 covers columns 2-3; column 4 is dropped. */
        float row[10] = {0, 0, 1, 2, 50, 0, 0, 3, 4, 50};
        ok(level1_texel(SPD_OP_MAX, 5, 2, row, 1, 0) == 4,
           "drop rule: the last odd column of a 5x2 does not reach level 1");
    }
}

static void test_edge_rule(void) {
    /* 1x4: level 1 is 1x2; texel (0, 0) reads P(0,0), P(1,0) -> (0,0), P(0,1), P(1,1) -> (0,1). */
    float col[4] = {16, 64, 0, 0};
    float expect = 0.5f * 16 + 0.25f * 16 + 0.125f * 64 + 0.125f * 64;
    ok(level1_texel(SPD_OP_TEST_ORDER, 1, 4, col, 0, 0) == expect,
       "edge rule: a 1-wide level repeats its column (test order on 1x4)");
    {
        float row[4] = {16, 64, 0, 0};  /* 4x1: P(0,1) -> (0,0), P(1,1) -> (1,0) */
        float e2 = 0.5f * 16 + 0.25f * 64 + 0.125f * 16 + 0.125f * 64;
        ok(level1_texel(SPD_OP_TEST_ORDER, 4, 1, row, 0, 0) == e2,
           "edge rule: a 1-high level repeats its row (test order on 4x1)");
    }
}

/* ---- quantization -------------------------------------------------------------------- */

static void test_quantize(void) {
    float third = 1.0f / 3.0f;
    /* 0x3555: exponent 13 - 15 = -2, mantissa 0x155 = 341: (1 + 341/1024) / 4 = 1365/4096. */
    float half_third = (1.0f + 341.0f / 1024.0f) / 4.0f;
    float q = spd_ref_quantize(SPDRT_RGBA16F, third);
    ok(spd_ref_quantize(SPDRT_RGBA8, 0.5f) == 128.0f / 255.0f, "rgba8: 0.5 -> 128/255");
    ok(spd_ref_quantize(SPDRT_RGBA8, -1.0f) == 0.0f, "rgba8: -1 -> 0");
    ok(spd_ref_quantize(SPDRT_RGBA8, 2.0f) == 1.0f, "rgba8: 2 -> 1");
    ok(spd_ref_quantize(SPDRT_RGBA8, 1.0f / 255.0f) == 1.0f / 255.0f &&
           spd_ref_quantize(SPDRT_RGBA8, 0.4f / 255.0f) == 0.0f &&
           spd_ref_quantize(SPDRT_RGBA8, NAN) == 0.0f,
       "rgba8: codes round-trip, below half a code is 0, NaN is 0");
    ok(q == half_third && fabsf(q - third) <= ldexpf(1.0f, -13),
       "rgba16f: 1/3 -> half 0x3555 = 1365/4096, within half an ulp");
    ok(spd_ref_quantize(SPDRT_RGBA16F, 65519.0f) == 65504.0f &&
           isinf(spd_ref_quantize(SPDRT_RGBA16F, 65520.0f)) &&
           isinf(spd_ref_quantize(SPDRT_RGBA16F, INFINITY)) &&
           isnan(spd_ref_quantize(SPDRT_RGBA16F, NAN)),
       "rgba16f: 65519 -> 65504 (max), 65520 -> inf, inf and NaN kept");
    ok(spd_ref_quantize(SPDRT_RGBA16F, ldexpf(1, -24)) == ldexpf(1, -24) &&
           spd_ref_quantize(SPDRT_RGBA16F, ldexpf(1, -25)) == 0.0f &&
           spd_ref_quantize(SPDRT_RGBA16F, ldexpf(3, -26)) == ldexpf(1, -24) &&
           spd_ref_quantize(SPDRT_RGBA16F, ldexpf(3, -25)) == ldexpf(1, -23) &&
           spd_ref_quantize(SPDRT_RGBA16F, -ldexpf(1023, -24)) == -ldexpf(1023, -24),
       "rgba16f: subnormals, with ties to even");
    ok(spd_ref_quantize(SPDRT_RGBA16F, 1.0f + ldexpf(1, -11)) == 1.0f &&
           spd_ref_quantize(SPDRT_RGBA16F, 1.0f + ldexpf(3, -11)) == 1.0f + ldexpf(1, -9),
       "rgba16f: normal ties round to even");
    ok(spd_ref_quantize(SPDRT_R32F, third) == third && spd_ref_quantize(SPDRT_RGBA32F, third) == third,
       "r32f and rgba32f: identity");
}

/* The chain is unquantized: level 2 of an rgba8 image is the quantized mean of the
 * UNquantized level-1 means. Checked against that chain built here by hand (a power of two,
 * so no clamping), and the image must be one where quantizing level 1 first differs,
 * or the test would prove nothing. */
static float mean4(float a, float b, float c, float d) {
    return (((a + b) + c) + d) * 0.25f;
}

static void test_unquantized_chain(void) {
    enum { N = 32 };
    float *img = random_image(N, N, 1, 0, 1, 42);
    float l0[N][N], l1[N / 2][N / 2];
    uint32_t x, y, c, differs = 0;
    spdrt_spd_levels out;
    int good = img && spd_ref_run(SPD_OP_MEAN, SPDRT_RGBA8, N, N, 1, 2, img, &out) == 0;
    for (c = 0; good && c < 4; c++) {
        for (y = 0; y < N; y++)
            for (x = 0; x < N; x++)
                l0[y][x] = spd_ref_quantize(SPDRT_RGBA8, img[(y * N + x) * 4 + c]);
        for (y = 0; y < N / 2; y++)
            for (x = 0; x < N / 2; x++)
                l1[y][x] = mean4(l0[2 * y][2 * x], l0[2 * y][2 * x + 1], l0[2 * y + 1][2 * x],
                                 l0[2 * y + 1][2 * x + 1]);
        for (y = 0; y < N / 4; y++)
            for (x = 0; x < N / 4; x++) {
                float a = l1[2 * y][2 * x], b = l1[2 * y][2 * x + 1];
                float d = l1[2 * y + 1][2 * x], e = l1[2 * y + 1][2 * x + 1];
                float want = spd_ref_quantize(SPDRT_RGBA8, mean4(a, b, d, e));
                float other = spd_ref_quantize(
                    SPDRT_RGBA8,
                    mean4(spd_ref_quantize(SPDRT_RGBA8, a), spd_ref_quantize(SPDRT_RGBA8, b),
                          spd_ref_quantize(SPDRT_RGBA8, d), spd_ref_quantize(SPDRT_RGBA8, e)));
                good &= texel(out.level[2], N / 4, N / 4, 0, x, y)[c] == want;
                differs += want != other;
            }
    }
    ok(good && differs > 0,
       "rgba8: the chain is computed unquantized, only stored levels are quantized "
       "(%u of %u texels would differ otherwise)", differs, 4 * (N / 4) * (N / 4));
    if (img && out.level[2])
        spdrt_spd_levels_free(&out);
    free(img);
}

static void test_r32f_channels(void) {
    float *img = random_image(9, 5, 1, 0, 1, 3);
    spdrt_spd_levels out;
    uint32_t k;
    int good = spd_ref_run(SPD_OP_MAX, SPDRT_R32F, 9, 5, 1, 3, img, &out) == 0;
    for (k = 1; good && k <= 3; k++) {
        size_t n = (size_t)out.width[k] * out.height[k], i;
        for (i = 0; i < n; i++)
            good &= out.level[k][i * 4 + 1] == 0 && out.level[k][i * 4 + 2] == 0 &&
                    out.level[k][i * 4 + 3] == 1;
    }
    ok(good, "r32f: levels read back as (r, 0, 0, 1)");
    spdrt_spd_levels_free(&out);
    free(img);
}

/* ---- layers -------------------------------------------------------------------------- */

static void test_layers(void) {
    static const float consts[12] = {0.25f, 0.25f, 0.25f, 0.25f, 0.5f, 0.5f, 0.5f, 0.5f,
                                     0.75f, 0.75f, 0.75f, 0.75f};
    uint32_t w = 37, h = 20, mips = full_chain(w, h), k, l;
    float *img = constant_image(w, h, 3, consts);
    spdrt_spd_levels out;
    int op, good = 1;
    for (op = SPD_OP_MIN; op <= SPD_OP_TEST_ORDER; op++) {
        if (spd_ref_run((spd_op)op, SPDRT_RGBA16F, w, h, 3, mips, img, &out) != 0) {
            good = 0;
            continue;
        }
        for (k = 1; k <= mips; k++) {
            size_t n = (size_t)out.width[k] * out.height[k], i;
            for (l = 0; l < 3; l++)
                for (i = 0; i < n * 4; i++)
                    good &= out.level[k][l * n * 4 + i] == consts[l * 4];
        }
        spdrt_spd_levels_free(&out);
    }
    ok(good, "layers are independent: 3 constant layers keep their own constants");
    free(img);
}

/* The shared test data: in range, any value made alone equals the stream's, the integers are
 * the [0, 1) stream's 24 bits, and a seed always gives the same values. */
static void test_random(void) {
    enum { N = 4096 };
    static float a[N], b[N], n[N];
    size_t i, in_range = 0, alone = 0, ints = 0;
    spdrt_random_floats(a, N, 5, -2.0f, 3.0f);
    spdrt_random_floats(b, N, 5, 0.0f, 1.0f);
    spdrt_random_integers(n, N, 5);
    for (i = 0; i < N; i++) {
        in_range += a[i] >= -2.0f && a[i] < 3.0f && b[i] >= 0.0f && b[i] < 1.0f;
        alone += spdrt_random_float(5, i, -2.0f, 3.0f) == a[i];
        ints += n[i] == b[i] * 16777216.0f && n[i] == (float)(uint32_t)n[i];
    }
    ok(in_range == N && alone == N && ints == N,
       "spdrt_random_*: %zu/%d in range, %zu/%d equal made alone, %zu/%d integers = 2^24 x [0, 1)",
       in_range, N, alone, N, ints, N);
    /* Pinned values: a changed generator would silently change every test's data. */
    spdrt_random_integers(n, 1, 1);
    ok(n[0] == 16034049.0f &&
       spdrt_random_float(1, 1000, -1.0f, 1.0f) == 8622187.0f / 8388608.0f - 1.0f &&
       spdrt_random_float(7, 123456789, -1.0f, 1.0f) == 6273545.0f / 8388608.0f - 1.0f,
       "spdrt_random_*: the stream of a seed is the pinned one");
}

/* The stated bounds (docs/spd.md "Error bounds"), as spd_ref_bound_level computes them: one
 * unit per format, one more with --sampler linear on the 8/16-bit formats, none on fp32. */
static void test_stated_bounds(void) {
    const double unit16 = 1.0 / 2048.0, unit8 = 1.0 / 255.0;
    int good = 1;
    for (uint32_t k = 1; k <= 14; k++) {
        good &= spd_ref_bound_level(SPD_OP_MEAN, SPDRT_RGBA16F, 0, 0, k) == unit16;
        good &= spd_ref_bound_level(SPD_OP_MEAN, SPDRT_RGBA16F, 0, 1, k) == 2 * unit16;
        good &= spd_ref_bound_level(SPD_OP_MEAN, SPDRT_R16F, 0, 1, k) == 2 * unit16;
        good &= fabs(spd_ref_bound_level(SPD_OP_MEAN, SPDRT_RGBA8, 0, 1, k) - 2 * unit8) < 1e-6;
        good &= spd_ref_bound_level(SPD_OP_MEAN, SPDRT_RGBA32F, 0, 1, k) == 1.0 / 1048576.0;
        good &= spd_ref_bound_level(SPD_OP_MAX, SPDRT_R32F, 0, 0, k) == 0.0;
    }
    ok(good, "stated bounds: 16-bit floats 2^-11, x2 with --sampler linear; rgba8 1/255, x2; "
             "fp32 mean 2^-20 with or without the sampler; max r32f exact");
}

int main(void) {
    int op;
    test_sizes();
    test_constant();
    for (op = SPD_OP_MIN; op <= SPD_OP_MAX; op++) {
        test_footprint_pot((spd_op)op, 64, 64);
        test_footprint_pot((spd_op)op, 32, 8);
        test_footprint_pot((spd_op)op, 4, 128);
    }
    for (op = SPD_OP_MIN; op <= SPD_OP_TEST_ORDER; op++) {
        test_bounds_npot((spd_op)op, 65, 65, 1);
        test_bounds_npot((spd_op)op, 127, 33, 2);
    }
    test_mean_pot(256, 256);
    test_mean_pot(128, 32);
    test_order();
    test_drop_rule();
    test_edge_rule();
    test_quantize();
    test_unquantized_chain();
    test_r32f_channels();
    test_layers();
    test_random();
    test_stated_bounds();
    return tap_plan();
}
