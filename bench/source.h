/* source.h: the benchmark's level 0, written directly in the storage format, and the exact
 * float values a shader (and the CPU reference) reads from it.
 *
 * Level 0 is random data in [0, 1] generated as stored bytes, so no float image of the
 * source ever exists on the host: at 16384x16384 that would be 4 GiB. Every stored value
 * is exactly representable, so the runtime's quantization of it is the identity and the CPU
 * reference sees exactly what the GPU samples. */
#ifndef BENCH_SOURCE_H
#define BENCH_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "spdrt.h"

/* Fills `texels` texels of `format` at dst with deterministic random values in [0, 1]: the
 * runtime's test data (spdrt_random_float) in [0, 1), rounded as the format stores it. */
void bench_source_fill(spdrt_format format, void *dst, size_t texels, uint64_t seed);

/* Unpacks n stored texels into n * channels floats (channels = spdrt_format_channels):
 * bit-identical to spdrt__texel_unpack, through lookup tables for speed. */
void bench_source_unpack(spdrt_format format, const void *texels, size_t n, float *out);

/* Checks the lookup tables against the runtime's own conversions. 0 = identical. */
int bench_source_selftest(char *err, size_t err_size);

#endif
