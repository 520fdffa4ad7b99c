#!/bin/sh
# The --dmap generator's rules against answers derived by hand (tests/dmap/known.c), GLSL.
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
SPDGEN_BUILD=$B exec "$B/tests/dmap/known" glsl
