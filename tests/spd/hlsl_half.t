#!/bin/sh
# --half (fp16 math) for hlsl on the local Vulkan device (tests/spd/half.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/spd/half" hlsl
