#!/bin/sh
# The turnip model's properties (tests/dmap/model.c), built against libspdrt.
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$d/../../build}
exec "$B/tests/dmap/model"
