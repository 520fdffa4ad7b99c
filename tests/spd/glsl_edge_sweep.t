#!/bin/sh
# --op max --edge conservative on every (w, h) in 1..130 x 1..130 on the local Vulkan device
# (tests/spd/edge_sweep.c): bit-exact and the max of every footprint.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/spd/edge_sweep" glsl
