/* selftest.h: spdgen --selftest, the generated shader checked on the local Vulkan device. */
#ifndef SPDGEN_SELFTEST_H
#define SPDGEN_SELFTEST_H

#include "config.h"
#include "validate.h"

/* Runs `module` (the SPIR-V of this configuration; for --target msl, of its GLSL twin) on
 * the local Vulkan device on random data, compares every level with the CPU reference and
 * prints one line per level. Returns SG_EXIT_OK when every level is within the bound, else
 * SG_EXIT_FAILURE. */
int sg_selftest(const sg_config *cfg, const sv_spirv *module);

#endif
