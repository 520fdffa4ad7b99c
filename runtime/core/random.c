/* random.c: the test data every self-test, test and benchmark makes. A counter-based
 * generator (splitmix64's finalizer of the seed and the index), so a value needs only its
 * index: a benchmark checks a sampled row of a large input without making the rest. */
#include <math.h>

#include "spdrt.h"

/* 24 random bits: exact in a float, as value / 2^24 and as a whole number. */
static uint32_t bits24(uint64_t seed, uint64_t index) {
    uint64_t z = seed * 0xd1342543de82ef95ull + (index + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (uint32_t)(z >> 40);
}

float spdrt_random_float(uint64_t seed, uint64_t index, float lo, float hi) {
    /* In double, so [0, 1) and [-1, 1) come out exact; rounding to float must not reach hi. */
    float v = (float)((double)lo + ((double)hi - lo) * (double)bits24(seed, index) / 16777216.0);
    return v < hi || hi <= lo ? v : nextafterf(hi, lo);
}

void spdrt_random_floats(float *out, size_t count, uint64_t seed, float lo, float hi) {
    for (size_t i = 0; i < count; i++)
        out[i] = spdrt_random_float(seed, i, lo, hi);
}

void spdrt_random_integers(float *out, size_t count, uint64_t seed) {
    for (size_t i = 0; i < count; i++)
        out[i] = (float)bits24(seed, i);
}
