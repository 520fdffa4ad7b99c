#!/bin/sh
# The SPD per-config matrix for glsl on the local Vulkan device (tests/spd/matrix.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/spd/matrix" glsl
