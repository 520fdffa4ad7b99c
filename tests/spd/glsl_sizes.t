#!/bin/sh
# SPD sizes on the local Vulkan device: every (w, h) in 1..130 x 1..130, long thin sources,
# and sources beyond 4096x4096 in one dispatch (tests/spd/sizes.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/spd/sizes" glsl
