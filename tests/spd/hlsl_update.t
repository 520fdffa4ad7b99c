#!/bin/sh
# SPD sub-rectangle updates for hlsl on the local Vulkan device (tests/spd/update.h,
# the "update" mode of tests/spd/matrix.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/spd/matrix" hlsl update
