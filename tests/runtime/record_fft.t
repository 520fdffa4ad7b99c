#!/bin/sh
# Recording a single-shader FFT into an application's command buffer (spdrt_vk.h,
# tests/runtime/record_fft.c), under validation with synchronization validation.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/runtime/record_fft"
