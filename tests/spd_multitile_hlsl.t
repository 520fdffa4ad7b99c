#!/bin/sh
# SPD with several tiles per workgroup (tiles_per_workgroup; --tail loop and hierarchy) for hlsl
# on the local Vulkan device (tests/device/spd_multitile.h: spd_matrix's "multitile" mode).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../build}/tests/spd_matrix" hlsl multitile
