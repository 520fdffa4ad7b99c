#!/bin/sh
# The --conv job recorded into the application's own command buffer (spdrt_vk.h), whole and
# pass by pass, on its own images and buffers, against the CPU references (tests/conv/record.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/conv/record"
