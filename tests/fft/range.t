#!/bin/sh
# An FFT batch whose buffers would pass the device's maxStorageBufferRange is refused, naming
# the limit (tests/fft/range.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/fft/range"
