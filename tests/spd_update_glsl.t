#!/bin/sh
# SPD sub-rectangle updates for glsl on the local Vulkan device (tests/device/spd_update.h,
# the "update" mode of tests/device/spd_matrix.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../build}/tests/spd_matrix" glsl update
