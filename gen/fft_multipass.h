/* fft_multipass.h: spdgen --fft N beyond one dispatch: the four-step plan's shaders and
 * plan file (gen/fft_multipass.c). */
#ifndef SPDGEN_FFT_MULTIPASS_H
#define SPDGEN_FFT_MULTIPASS_H

#include "config.h"

/* Generates, validates and writes (or checks, or --selftest runs) every pass of cfg's plan
 * (cfg->fft.passes > 0). Returns an SG_EXIT_ code. */
int sg_fft_multipass_run(const sg_config *cfg);

#endif
