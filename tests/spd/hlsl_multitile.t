#!/bin/sh
# SPD with several tiles per workgroup (tiles_per_workgroup; --tail loop and hierarchy) for hlsl
# on the local Vulkan device (tests/spd/multitile.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/spd/multitile" hlsl
