#!/bin/sh
# SPD --tile T with every --wg it takes, glsl, on the local Vulkan device under the validation
# layer: every level equal to the CPU reference (tests/spd/tiles.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/spd/tiles" glsl
