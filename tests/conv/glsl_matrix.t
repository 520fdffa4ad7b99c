#!/bin/sh
# The --conv matrix for GLSL on the local Vulkan device (tests/conv/matrix.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/conv/matrix" glsl
