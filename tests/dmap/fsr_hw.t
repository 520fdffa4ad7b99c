#!/bin/sh
# The shading-rate attachment on real hardware (tests/dmap/fsr_hw.c): every pixel of a
# full-screen pass shades at its tile's generated rate. Without VK_KHR_fragment_shading_rate
# (lavapipe) the pass runs without rates and the rate checks are skipped with a message.
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
SPDGEN_BUILD=$B exec "$B/tests/dmap/fsr_hw"
