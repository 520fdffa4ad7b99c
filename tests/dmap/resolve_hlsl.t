#!/bin/sh
# spdgen --dmap resolve from HLSL on the local Vulkan device (tests/dmap/resolve.c).
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
make -s -f "$d/dmap.mk" B="$B/dmap" SPDGEN_BUILD="$B" "$B/dmap/resolve" >&2 ||
    { echo "not ok 1 - tests/dmap/resolve.c builds"; echo "1..1"; exit 1; }
SPDGEN_BUILD=$B exec "$B/dmap/resolve" hlsl
