#!/bin/sh
# libspdrt's double reference for lengths that are not powers of two, on the CPU
# (tests/fft/ref_any.c): Bluestein in double against the direct sum, the direct sum against
# a closed form, the Bluestein tables.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/fft/ref_any"
