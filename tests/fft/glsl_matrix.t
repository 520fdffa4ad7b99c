#!/bin/sh
# The FFT per-config matrix for GLSL on the local Vulkan device (tests/fft/matrix.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/fft/matrix" glsl
