/* fft_selftest.h: spdgen --fft ... --selftest, the generated FFT checked on the local Vulkan
 * device against the double-precision reference. */
#ifndef SPDGEN_FFT_SELFTEST_H
#define SPDGEN_FFT_SELFTEST_H

#include "config.h"
#include "validate.h"

/* Runs `module` (the SPIR-V of this configuration; for --target msl, of its GLSL twin) on
 * --batch FFTs of random data in [-1, 1] (--seed), compares with the reference and prints
 * the errors. Returns SG_EXIT_OK within the bounds, else SG_EXIT_FAILURE. */
int sg_fft_selftest(const sg_config *cfg, const sv_spirv *module);

/* One pass of a four-step plan: its SPIR-V and the sizes from its contract. */
typedef struct {
    const sv_spirv *module;
    long columns, shared;
    long wg, subgroup;   /* its local size and the subgroup size its shuffles need */
} sg_fft_plan_pass;

/* The same for a four-step plan (cfg->fft.passes = 2): passes[p] is pass p + 1. */
int sg_fft_selftest_plan(const sg_config *cfg, const sg_fft_plan_pass *passes);

#endif
