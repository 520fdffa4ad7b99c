/* spd_ref.c: the CPU reference of the single-pass downsampler (definition in spdrt_spd.h).
 *
 * Written for obviousness, not speed: one level at a time from the previous one, with the
 * clamped read P(i, j) spelled out. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "spd_passes.h"
#include "spdrt_spd.h"

#define MAX_LEVELS 16u

/* Kept as separate statements so each step rounds to float, as the shaders' do; C11 mode
 * (-std=c11) keeps GCC from contracting them into fused multiply-adds. */
float spd_ref_reduce(spd_op op, float a, float b, float c, float d) {
    float r;
    switch (op) {
    case SPD_OP_MIN:
        r = a < b ? a : b;
        r = r < c ? r : c;
        return r < d ? r : d;
    case SPD_OP_MAX:
        r = a > b ? a : b;
        r = r > c ? r : c;
        return r > d ? r : d;
    case SPD_OP_MEAN:
        r = a + b;
        r = r + c;
        r = r + d;
        return r * 0.25f;
    case SPD_OP_MINMAX:     /* per channel: see the channel's own op in reduce_level */
    case SPD_OP_SRGB_MEAN:  /* linear values by now: a plain mean */
        return spd_ref_reduce(SPD_OP_MEAN, a, b, c, d);
    case SPD_OP_TEST_ORDER: {
        float ha = 0.5f * a, qb = 0.25f * b, ec = 0.125f * c, ed = 0.125f * d;
        r = ha + qb;
        r = r + ec;
        return r + ed;
    }
    }
    return a;
}

float spd_ref_srgb_decode(float c) {
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

float spd_ref_srgb_encode(float l) {
    return l <= 0.0031308f ? l * 12.92f : 1.055f * powf(l, 1.0f / 2.4f) - 0.055f;
}

float spd_ref_quantize(spdrt_format format, float value) {
    float in[4] = {value, value, value, value}, out[4];
    unsigned char texel[16];
    spdrt__texel_pack(format, in, texel);
    spdrt__texel_unpack(format, texel, out);
    return out[0];
}

/* The op each channel reduces with: minmax keeps min in R and max in G. */
static spd_op channel_op(spd_op op, uint32_t c) {
    if (op == SPD_OP_MINMAX)
        return c == 1 ? SPD_OP_MAX : SPD_OP_MIN;
    return op;
}

/* Level 0 as the shader starts from it: depth becomes (d, d); sRGB colour becomes linear. */
static void source_value(spd_op op, float t[4]) {
    uint32_t c;
    if (op == SPD_OP_MINMAX)
        t[1] = t[0];
    if (op == SPD_OP_SRGB_MEAN)
        for (c = 0; c < 3; c++)
            t[c] = spd_ref_srgb_decode(t[c]);
}

/* A level value as it is stored: sRGB-encoded for srgb-mean. */
static void stored_value(spd_op op, const float in[4], float out[4]) {
    uint32_t c;
    memcpy(out, in, 4 * sizeof *out);
    if (op == SPD_OP_SRGB_MEAN)
        for (c = 0; c < 3; c++)
            out[c] = spd_ref_srgb_encode(in[c]);
}

/* What storing an RGBA texel in `format` and reading it back gives (r32f: (r, 0, 0, 1)),
 * through the same conversions the GPU upload and readback use. */
static void quantize_texel(spdrt_format format, const float in[4], float out[4]) {
    unsigned char texel[16];
    spdrt__texel_pack(format, in, texel);
    spdrt__texel_unpack(format, texel, out);
}

/* The taps of output i along one axis of an input n texels long, and their weights for
 * --edge weighted: a copy when n = 1; (2i, 2i+1) with 1/2 each when n is even; for odd
 * n = 2m+1 >= 3 nvpro_pyramid's (2i, 2i+1, 2i+2) with (m-i, m, i+1) / (2m+1), which give
 * every input the same total weight, so the mean is kept. Taps past the edge are clamped and
 * weigh 0, as the shader spells it. Returns 1 when the axis is odd (3-tap). */
static int axis_taps(uint32_t i, uint32_t n, uint32_t tap[3], float weight[3]) {
    uint32_t t;
    for (t = 0; t < 3; t++)
        tap[t] = 2 * i + t < n - 1 ? 2 * i + t : n - 1;
    if (n == 1) {
        weight[0] = 1.0f, weight[1] = 0.0f, weight[2] = 0.0f;
        return 0;
    }
    if (n % 2 == 0) {
        weight[0] = 0.5f, weight[1] = 0.5f, weight[2] = 0.0f;
        return 0;
    }
    weight[0] = (float)(n / 2 - i) / (float)n;
    weight[1] = (float)(n / 2) / (float)n;
    weight[2] = (float)(i + 1) / (float)n;
    return 1;
}

/* One texel of level k for --edge weighted where some axis is odd: rows first, each row
 * (a * w0 + b * w1) + c * w2, then the rows the same way, in the shader's order. */
static void weighted_texel(const float *src, uint32_t pw, const uint32_t tx[3],
                           const float wx[3], const uint32_t ty[3], const float wy[3],
                           float out[4]) {
    uint32_t c, r;
    for (c = 0; c < 4; c++) {
        float row[3], v;
        for (r = 0; r < 3; r++) {
            const float *line = src + (size_t)ty[r] * pw * 4;
            v = line[tx[0] * 4 + c] * wx[0];
            v = v + line[tx[1] * 4 + c] * wx[1];
            row[r] = v + line[tx[2] * 4 + c] * wx[2];
        }
        v = row[0] * wy[0];
        v = v + row[1] * wy[1];
        out[c] = v + row[2] * wy[2];
    }
}

/* The level-(k-1) columns (or rows) output i reduces with --edge conservative: 2i and 2i+1
 * (clamped), and the last output of an odd input of 3 or more also takes 2i+2. */
static uint32_t conservative_taps(uint32_t i, uint32_t n_in, uint32_t n_out, uint32_t tap[3]) {
    tap[0] = 2 * i < n_in - 1 ? 2 * i : n_in - 1;
    tap[1] = 2 * i + 1 < n_in - 1 ? 2 * i + 1 : n_in - 1;
    tap[2] = 2 * i + 2;
    return i == n_out - 1 && n_in >= 3 && n_in % 2 == 1 ? 3 : 2;
}

/* Level k (w x h) from level k-1 (pw x ph), all layers, unquantized. */
static void reduce_level(spd_op op, spdrt_edge edge, const float *prev, uint32_t pw,
                         uint32_t ph, float *next, uint32_t w, uint32_t h, uint32_t layers) {
    uint32_t l, x, y, c, i, j;
    int weighted = edge == SPDRT_EDGE_WEIGHTED &&
                   ((pw >= 3 && pw % 2 == 1) || (ph >= 3 && ph % 2 == 1));
    for (l = 0; l < layers; l++) {
        const float *src = prev + (size_t)l * pw * ph * 4;
        float *dst = next + (size_t)l * w * h * 4;
        for (y = 0; y < h; y++) {
            /* P(i, j) clamps to the last row/column: drops an odd last one, repeats the
             * edge of a level one texel wide or high. */
            uint32_t y0 = 2 * y < ph - 1 ? 2 * y : ph - 1;
            uint32_t y1 = 2 * y + 1 < ph - 1 ? 2 * y + 1 : ph - 1;
            for (x = 0; x < w; x++) {
                uint32_t x0 = 2 * x < pw - 1 ? 2 * x : pw - 1;
                uint32_t x1 = 2 * x + 1 < pw - 1 ? 2 * x + 1 : pw - 1;
                const float *a = src + ((size_t)y0 * pw + x0) * 4;
                const float *b = src + ((size_t)y0 * pw + x1) * 4;
                const float *cc = src + ((size_t)y1 * pw + x0) * 4;
                const float *d = src + ((size_t)y1 * pw + x1) * 4;
                float *out = dst + ((size_t)y * w + x) * 4;
                for (c = 0; c < 4; c++)
                    out[c] = spd_ref_reduce(channel_op(op, c), a[c], b[c], cc[c], d[c]);
                if (weighted) {
                    uint32_t tx[3], ty[3];
                    float wx[3], wy[3];
                    axis_taps(x, pw, tx, wx);
                    axis_taps(y, ph, ty, wy);
                    weighted_texel(src, pw, tx, wx, ty, wy, out);
                } else if (edge == SPDRT_EDGE_CONSERVATIVE) {
                    /* min/max are idempotent: folding the extra taps into the 2x2 result in
                     * any order gives the reduction over the whole up-to-3x3 set. */
                    uint32_t tx[3], ty[3];
                    uint32_t nx = conservative_taps(x, pw, w, tx), ny = conservative_taps(y, ph, h, ty);
                    for (j = 0; j < ny; j++)
                        for (i = 0; i < nx; i++) {
                            const float *e = src + ((size_t)ty[j] * pw + tx[i]) * 4;
                            for (c = 0; c < 4; c++)
                                out[c] = spd_ref_reduce(channel_op(op, c), out[c], e[c], out[c], e[c]);
                        }
                }
            }
        }
    }
}

int spd_ref_run(spd_op op, spdrt_format format, uint32_t width, uint32_t height,
                uint32_t layers, uint32_t mip_count, const float *source,
                spdrt_spd_levels *out) {
    return spd_ref_run_edge(op, SPDRT_EDGE_DROP, format, width, height, layers, mip_count, 0,
                            source, out);
}

int spd_ref_run_edge(spd_op op, spdrt_edge edge, spdrt_format format, uint32_t width,
                     uint32_t height, uint32_t layers, uint32_t mip_count,
                     uint32_t mips_per_pass, const float *source, spdrt_spd_levels *out) {
    float *chain = NULL, *next;
    size_t n, i;
    uint32_t k, pass_end = mip_count;
    memset(out, 0, sizeof *out);
    out->gpu_ms = -1.0;
    if (!source || width == 0 || height == 0 || layers == 0 || mip_count >= MAX_LEVELS)
        return -1;
    out->mip_count = mip_count;
    out->layers = layers;
    for (k = 0; k <= mip_count; k++) {
        out->width[k] = width >> k ? width >> k : 1;
        out->height[k] = height >> k ? height >> k : 1;
    }
    /* Level 0 as the shader sees it: the upload stores the source in `format` too. */
    n = (size_t)width * height * layers;
    chain = malloc(n * 4 * sizeof(float));
    if (!chain)
        goto fail;
    for (i = 0; i < n; i++) {
        quantize_texel(format, source + 4 * i, chain + 4 * i);
        source_value(op, chain + 4 * i);
    }
    if (mips_per_pass)
        pass_end = spd_pass_end(width, height, 0, mip_count, mips_per_pass,
                                edge == SPDRT_EDGE_WEIGHTED);
    for (k = 1; k <= mip_count; k++) {
        n = (size_t)out->width[k] * out->height[k] * layers;
        next = malloc(n * 4 * sizeof(float));
        out->level[k] = malloc(n * 4 * sizeof(float));
        if (!next || !out->level[k]) {
            free(next);
            goto fail;
        }
        reduce_level(op, edge, chain, out->width[k - 1], out->height[k - 1], next,
                     out->width[k], out->height[k], layers);
        for (i = 0; i < n; i++) {
            float stored[4];
            stored_value(op, next + 4 * i, stored);
            quantize_texel(format, stored, out->level[k] + 4 * i);
        }
        free(chain);
        chain = next;  /* the chain goes on unquantized */
        if (k == pass_end && k < mip_count) {
            /* The next dispatch reads this level as stored (and decodes sRGB again). */
            for (i = 0; i < n; i++) {
                memcpy(chain + 4 * i, out->level[k] + 4 * i, 4 * sizeof(float));
                if (op == SPD_OP_SRGB_MEAN)
                    for (uint32_t c = 0; c < 3; c++)
                        chain[4 * i + c] = spd_ref_srgb_decode(chain[4 * i + c]);
            }
            pass_end = spd_pass_end(width, height, k, mip_count, mips_per_pass,
                                    edge == SPDRT_EDGE_WEIGHTED);
        }
    }
    free(chain);
    return 0;
fail:
    free(chain);
    spdrt_spd_levels_free(out);
    return -1;
}
