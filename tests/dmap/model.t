#!/bin/sh
# The turnip model's properties (tests/dmap/model.c), built against libspdrt.
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$d/../../build}
make -s -f "$d/dmap.mk" B="$B/dmap" SPDGEN_BUILD="$B" "$B/dmap/model" >&2 || { echo "1..0 # SKIP model.c did not build"; exit 1; }
exec "$B/dmap/model"
