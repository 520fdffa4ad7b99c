#!/bin/sh
# --half (fp16 math) for hlsl on the local Vulkan device (tests/device/spd_half.h, the
# "half" mode of tests/device/spd_matrix.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../build}/tests/spd_matrix" hlsl half
