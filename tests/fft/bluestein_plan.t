#!/bin/sh
# Bluestein's chirp-z beyond one dispatch (issue 27 item 2): N with a prime factor above 31
# whose convolution length M exceeds 16 x --max-wg runs as a plan of three passes over M =
# M1 x M2, loaded from the plan file spdgen writes (tests/fft/plan.c, `bluestein`): forward,
# inverse with each norm and round trips, GLSL and HLSL, against spdrt_fft_reference.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/fft/plan" bluestein
