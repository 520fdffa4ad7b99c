#!/bin/sh
# The turnip model's properties (tests/dmap/model.c), built against libspdrt.
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$d/../../build}
make -s -f "$d/dmap.mk" B="$B/dmap" SPDGEN_BUILD="$B" "$B/dmap/model" >&2 ||
    { echo "not ok 1 - tests/dmap/model.c builds"; echo "1..1"; exit 1; }
exec "$B/dmap/model"
