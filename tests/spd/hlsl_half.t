#!/bin/sh
# --half (fp16 math) for hlsl on the local Vulkan device (tests/spd/half.h, the
# "half" mode of tests/spd/matrix.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/spd/matrix" hlsl half
