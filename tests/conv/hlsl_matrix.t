#!/bin/sh
# The --conv matrix for HLSL (through glslang) on the local Vulkan device (tests/conv/matrix.c):
# the jobs that hold every construct the dialects spell differently.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/conv/matrix" hlsl
