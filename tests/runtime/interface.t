#!/bin/sh
# libspdrt's reader of a module's interface answers damaged and hostile modules without a
# crash or a hang (tests/runtime/interface.c).
. "$(dirname "$0")/../lib.sh"
"$SPDGEN" --spd --op mean --format rgba32f --target spirv -o "$WORK/spd.spv" &&
    "$SPDGEN" --dmap fsr --texel 16 --foveation off --content --target spirv -o "$WORK/dmap.spv" &&
    "$SPDGEN" --fft 256 --target spirv -o "$WORK/fft.spv" &&
    "$SPDGEN" --conv --image 64x48 --psf 9x9 --target spirv -o "$WORK/conv.spv" ||
    { echo "1..1"; echo "not ok 1 - spdgen"; exit 1; }
"$SPDGEN_BUILD/tests/runtime/interface" "$WORK"
