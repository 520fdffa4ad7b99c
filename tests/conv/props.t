#!/bin/sh
# Properties of --conv jobs on the local Vulkan device (tests/conv/props.c): a delta PSF, the
# sum and the mean kept, shift, the FFTShift sign against an explicit shift.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/conv/props"
