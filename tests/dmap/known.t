#!/bin/sh
# The --dmap generator's rules against answers derived by hand (tests/dmap/known.c), GLSL.
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
make -s -f "$d/dmap.mk" B="$B/dmap" SPDGEN_BUILD="$B" "$B/dmap/known" >&2 ||
    { echo "not ok 1 - tests/dmap/known.c builds"; echo "1..1"; exit 1; }
SPDGEN_BUILD=$B exec "$B/dmap/known" glsl
