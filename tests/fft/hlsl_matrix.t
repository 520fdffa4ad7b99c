#!/bin/sh
# The FFT per-config matrix for HLSL on the local Vulkan device (tests/fft/matrix.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/fft/matrix" hlsl
