#!/bin/sh
# spdgen --dmap resolve from HLSL on the local Vulkan device (tests/dmap/resolve.c).
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
SPDGEN_BUILD=$B exec "$B/tests/dmap/resolve" hlsl
