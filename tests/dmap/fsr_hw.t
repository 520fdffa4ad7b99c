#!/bin/sh
# The shading-rate attachment on real hardware (tests/dmap/fsr_hw.c): every pixel of a
# full-screen pass shades at its tile's generated rate. Without VK_KHR_fragment_shading_rate
# (lavapipe) the pass runs without rates and the rate checks are skipped with a message.
d=$(dirname "$0")
B=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
make -s -f "$d/dmap.mk" B="$B/dmap" SPDGEN_BUILD="$B" "$B/dmap/fsr_hw" >&2 ||
    { echo "not ok 1 - tests/dmap/fsr_hw.c builds"; echo "1..1"; exit 1; }
SPDGEN_BUILD=$B exec "$B/dmap/fsr_hw"
