#!/bin/sh
# The FFT per-config matrix for GLSL on the local Vulkan device (tests/device/fft_matrix.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../build}/tests/fft_matrix" glsl
