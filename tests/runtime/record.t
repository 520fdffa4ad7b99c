#!/bin/sh
# Recording the SPD into an application's command buffer on its own device
# (spdrt_vk.h, tests/runtime/record.c), under validation with synchronization validation.
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/runtime/record"
