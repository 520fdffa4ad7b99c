/* fft_params.h: the parameters of the --fft kernel, filled by fft_cli.c. Kept apart from
 * config.h so the FFT's options live with the FFT (gen/fft_cli.c, templates/fft.lua). */
#ifndef SPDGEN_FFT_PARAMS_H
#define SPDGEN_FFT_PARAMS_H

typedef struct {
    long n; /* --fft N: transform length */
} sg_fft_params;

#endif
