#!/bin/sh
# FFT lengths beyond powers of two in one dispatch on the local Vulkan device (issue 27;
# tests/fft/mixed.c), against a direct DFT in double:
# - GLSL, forward: every smooth N (no prime factor above 31) from 2 to 64 that is not a
#   power of two;
# - GLSL, forward, inverse and round trip: the issue's sample of every radix and mixed pairs
#   up to 16384, the prime radices 17 to 31 alone and in pairs (391 = 17 x 23, 1984 = 31 x 64),
#   primes through Bluestein (41, 47: spdgen's estimate picks it) and Rader (43, 97, 257,
#   1009), 3969 = 63 x 63 and 2400 = 16 x 150, whose exchanges go by component (the real
#   parts, then the imaginary) in rounds of 16 KB, and 4200 = 20 x 210 in rounds of 32 KB;
# - HLSL: a subset, forward, inverse and round trip;
# - GLSL: the options beside complex rows (norms, shapes given, --real, --stride,
#   --storage f16, the paired shared-memory layout), against spdrt_fft_reference.
# The sample is chosen to stay within the suite's time: each shader costs an spdgen run and
# a lavapipe pipeline.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/fft/mixed" glsl \
    forward 2 3 5 6 7 9 10 11 12 13 14 18 20 22 24 25 26 27 28 30 33 36 39 40 42 44 45 48 49 50 \
    52 54 55 56 60 63 34 38 46 51 57 58 62 \
    all 15 21 35 77 143 169 1000 1536 2310 3000 4860 6561 10000 15625 3969 2400 4200 17 19 23 29 31 \
    391 1984 \
    41 47 43 97 257 1009 \
    options \
    hlsl all 35 1000 23 31 47 97 2400
