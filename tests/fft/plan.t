#!/bin/sh
# Four-step FFT plans (N = 32768 .. 2^20, two passes; mixed-radix plans 8704 .. 18000) on the
# local Vulkan device, loaded from the plan file spdgen writes (tests/fft/plan.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/fft/plan" glsl hlsl
