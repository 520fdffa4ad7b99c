#!/bin/sh
# --edge conservative and --edge weighted for glsl on the local Vulkan device
# (tests/spd/edge.c): footprint property, mean preservation, the CPU reference.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/spd/edge" glsl
