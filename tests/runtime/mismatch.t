#!/bin/sh
# libspdrt refuses a SPIR-V module given to a kernel it does not fit (another kernel's, another
# configuration's, a damaged one), naming what differs (tests/runtime/mismatch.c).
. "$(dirname "$0")/../lib.sh"
"$SPDGEN" --spd --op mean --format rgba32f --target spirv -o "$WORK/spd.spv" &&
    "$SPDGEN" --dmap fsr --texel 16 --foveation off --content --target spirv -o "$WORK/dmap.spv" &&
    "$SPDGEN" --dmap fsr --texel 16 --foveation gaze --target spirv -o "$WORK/gaze.spv" &&
    "$SPDGEN" --dmap fdm --texel 32 --foveation off --content --target spirv -o "$WORK/fdm.spv" &&
    "$SPDGEN" --fft 256 --target spirv -o "$WORK/fft.spv" || { echo "1..1"; echo "not ok 1 - spdgen"; exit 1; }
"$SPDGEN_BUILD/tests/runtime/mismatch" "$WORK"
