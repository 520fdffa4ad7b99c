/* dmap_scene.c: test data for the content-adaptive rates: a previous frame with every kind
 * of content the decision tells apart, and motion from none to fast. */
#include "spdrt_dmap.h"

/* A small hash of a block and the seed, for the block's kind. */
static uint32_t kind_of(uint32_t bx, uint32_t by, uint32_t view, uint64_t seed, uint32_t kinds)
{
    uint64_t h = seed * 0x9E3779B97F4A7C15ull ^ ((uint64_t)bx << 40) ^ ((uint64_t)by << 20) ^ view;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return (uint32_t)(h % kinds);
}

static float value_at(uint32_t kind, uint32_t x, uint32_t y, uint32_t width, float noise)
{
    switch (kind) {
    case 0: return 0.02f;                        /* flat and dark */
    case 1: return 0.8f;                         /* flat and bright */
    case 2: return (float)x / (float)width;      /* a smooth ramp */
    case 3: return x % 2 ? 0.9f : 0.1f;          /* one-pixel columns: x differences */
    case 4: return y % 2 ? 0.7f : 0.2f;          /* one-pixel rows: y differences */
    default: return noise;                       /* noise */
    }
}

void spdrt_dmap_scene(uint32_t width, uint32_t height, uint32_t views, uint64_t seed, float *colour,
                      float *motion)
{
    for (uint32_t v = 0; v < views; v++)
        for (uint32_t y = 0; y < height; y++)
            for (uint32_t x = 0; x < width; x++) {
                size_t i = ((size_t)v * height + y) * width + x;
                float noise = spdrt_random_float(seed, i, 0.0f, 1.0f);
                float value = value_at(kind_of(x / 149, y / 107, v, seed, 6), x, y, width, noise);
                float *c = colour + 4 * i, *m = motion + 2 * i;
                c[0] = value, c[1] = value * 0.9f, c[2] = value * 0.75f, c[3] = 1.0f;
                switch (kind_of(x / 211 + 1000, y / 163, v, seed, 4)) {
                case 0: m[0] = m[1] = 0.0f; break;
                case 1: m[0] = 3.5f, m[1] = -2.25f; break;
                case 2:
                    m[0] = spdrt_random_float(seed + 1, i, -6.0f, 6.0f);
                    m[1] = spdrt_random_float(seed + 2, i, -6.0f, 6.0f);
                    break;
                default: m[0] = 40.0f, m[1] = 0.0f; break;
                }
            }
}
