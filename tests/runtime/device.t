#!/bin/sh
# libspdrt's context on the local Vulkan device under the validation layer: creation, device
# facts, SPDGEN_DEVICE, the contract's mip count, spdrt_spd_run's argument checks
# (tests/runtime/device.c).
exec "${SPDGEN_BUILD:-$(dirname "$0")/../../build}/tests/runtime/device"
