#!/bin/sh
# SPD with several 64x64 tiles per workgroup (tiles_per_workgroup) for hlsl on the local Vulkan
# device (tests/device/spd_multitile.h, the "multitile" mode of tests/device/spd_matrix.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../build}/tests/spd_matrix" hlsl multitile
