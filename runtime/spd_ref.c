/* spd_ref.c: the CPU reference of the single-pass downsampler (definition in spd_ref.h).
 *
 * Written for obviousness, not speed: one level at a time from the previous one, with the
 * clamped read P(i, j) spelled out. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "spd_ref.h"

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

/* Level k (w x h) from level k-1 (pw x ph), all layers, unquantized. */
static void reduce_level(spd_op op, const float *prev, uint32_t pw, uint32_t ph, float *next,
                         uint32_t w, uint32_t h, uint32_t layers) {
    uint32_t l, x, y, c;
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
                for (c = 0; c < 4; c++)
                    dst[((size_t)y * w + x) * 4 + c] =
                        spd_ref_reduce(channel_op(op, c), a[c], b[c], cc[c], d[c]);
            }
        }
    }
}

int spd_ref_run(spd_op op, spdrt_format format, uint32_t width, uint32_t height,
                uint32_t layers, uint32_t mip_count, const float *source,
                spdrt_spd_levels *out) {
    float *chain = NULL, *next;
    size_t n, i;
    uint32_t k;
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
    for (k = 1; k <= mip_count; k++) {
        n = (size_t)out->width[k] * out->height[k] * layers;
        next = malloc(n * 4 * sizeof(float));
        out->level[k] = malloc(n * 4 * sizeof(float));
        if (!next || !out->level[k]) {
            free(next);
            goto fail;
        }
        reduce_level(op, chain, out->width[k - 1], out->height[k - 1], next, out->width[k],
                     out->height[k], layers);
        for (i = 0; i < n; i++) {
            float stored[4];
            stored_value(op, next + 4 * i, stored);
            quantize_texel(format, stored, out->level[k] + 4 * i);
        }
        free(chain);
        chain = next;  /* the chain goes on unquantized */
    }
    free(chain);
    return 0;
fail:
    free(chain);
    spdrt_spd_levels_free(out);
    return -1;
}
