#!/bin/sh
# Structural properties of the FFT on the local Vulkan device, GLSL and HLSL
# (tests/fft/props.c): impulses, constants, tones, Hermitian symmetry, round trips.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/fft/props" glsl hlsl
