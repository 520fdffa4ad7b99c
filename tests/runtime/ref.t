#!/bin/sh
# libspdrt's CPU reference (spd_ref.h) on properties that follow from its definition
# (tests/runtime/ref.c); no device needed.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/runtime/ref"
