#!/bin/sh
# spdgen --dmap fdm|fsr from GLSL on the local Vulkan device (tests/dmap/gen.c).
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
make -s -f "$d/dmap.mk" B="$B/dmap" SPDGEN_BUILD="$B" "$B/dmap/gen" >&2 ||
    { echo "not ok 1 - tests/dmap/gen.c builds"; echo "1..1"; exit 1; }
SPDGEN_BUILD=$B exec "$B/dmap/gen" glsl
