/* source.c: random level-0 data in the storage format and its exact float values. */
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "source.h"

/* Built once from the runtime's own conversions, so the tables cannot disagree with them. */
static float half_value[65536];      /* half bits -> float */
static float unorm8_value[256];
static int tables_ready;

static void build_tables(void) {
    uint32_t i;
    if (tables_ready)
        return;
    for (i = 0; i < 65536; i++)
        half_value[i] = spdrt__half_to_float((uint16_t)i);
    for (i = 0; i < 256; i++) {
        uint8_t b = (uint8_t)i;
        float rgba[4];
        unsigned char texel[4] = {b, b, b, b};
        spdrt__texel_unpack(SPDRT_RGBA8, texel, rgba);
        unorm8_value[i] = rgba[0];
    }
    tables_ready = 1;
}

/* Channel c of texel i is value i x channels + c of the runtime's test data, packed as the
 * runtime packs it: one texel at a time, straight into the stored bytes. */
void bench_source_fill(spdrt_format format, void *dst, size_t texels, uint64_t seed) {
    uint32_t texel = spdrt__format_texel_size(format), ch = spdrt_format_channels(format), c;
    unsigned char *bytes = dst;
    size_t i;
    for (i = 0; i < texels; i++) {
        float rgba[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (c = 0; c < ch; c++)
            rgba[c] = spdrt_random_float(seed, (uint64_t)i * ch + c, 0.0f, 1.0f);
        spdrt__texel_pack(format, rgba, bytes + (size_t)texel * i);
    }
}

void bench_source_unpack(spdrt_format format, const void *texels, size_t n, float *out) {
    const unsigned char *b = texels;
    size_t i;
    build_tables();
    switch (format) {
    case SPDRT_RGBA8:
        for (i = 0; i < 4 * n; i++)
            out[i] = unorm8_value[b[i]];
        break;
    case SPDRT_RGBA16F:
        for (i = 0; i < 4 * n; i++) {
            uint16_t h;
            memcpy(&h, b + 2 * i, 2);
            out[i] = half_value[h];
        }
        break;
    case SPDRT_R32F:
        memcpy(out, b, n * sizeof(float));
        break;
    default: { /* the runtime's own conversion, keeping the channels the shader computes */
        uint32_t texel = spdrt__format_texel_size(format), ch = spdrt_format_channels(format);
        float rgba[4];
        for (i = 0; i < n; i++) {
            spdrt__texel_unpack(format, b + (size_t)texel * i, rgba);
            memcpy(out + (size_t)ch * i, rgba, ch * sizeof(float));
        }
        break;
    }
    }
}

int bench_source_selftest(char *err, size_t err_size) {
    static const spdrt_format formats[] = {SPDRT_RGBA8, SPDRT_RGBA16F, SPDRT_R32F};
    unsigned char data[64 * 16];
    float mine[64 * 4], theirs[4];
    size_t f, i, c;
    for (f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        spdrt_format fmt = formats[f];
        uint32_t texel = spdrt__format_texel_size(fmt), ch = spdrt_format_channels(fmt);
        bench_source_fill(fmt, data, 64, 7 + f);
        bench_source_unpack(fmt, data, 64, mine);
        for (i = 0; i < 64; i++) {
            spdrt__texel_unpack(fmt, data + i * texel, theirs);
            for (c = 0; c < ch; c++)
                if (memcmp(&mine[i * ch + c], &theirs[c], sizeof(float)) != 0 ||
                    !(theirs[c] >= 0.0f && theirs[c] <= 1.0f)) {
                    snprintf(err, err_size, "source %s texel %zu channel %zu: %.9g, runtime %.9g",
                             spdrt__format_name(fmt), i, c, mine[i * ch + c], theirs[c]);
                    return -1;
                }
        }
    }
    /* Every half, not just the sampled ones: the reference unpacks GPU output with it too. */
    for (i = 0; i < 65536; i++) {
        uint16_t h = (uint16_t)i;
        float v = spdrt__half_to_float(h);
        bench_source_unpack(SPDRT_RGBA16F, (const uint16_t[4]){h, h, h, h}, 1, mine);
        if (memcmp(&mine[0], &v, sizeof v) != 0) {
            snprintf(err, err_size, "half 0x%04zx unpacks to %.9g, runtime %.9g", i, mine[0], v);
            return -1;
        }
    }
    return 0;
}
