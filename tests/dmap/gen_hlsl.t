#!/bin/sh
# spdgen --dmap fdm|fsr from HLSL (compiled by glslang) on the local Vulkan device (tests/dmap/gen.c).
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
SPDGEN_BUILD=$B exec "$B/tests/dmap/gen" hlsl
