#!/bin/sh
# SPD sub-rectangle updates for hlsl on the local Vulkan device (tests/spd/update.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/spd/update" hlsl
