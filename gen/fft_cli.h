/* fft_cli.h: the --fft kernel's command-line options. cli.c hands every option it does not
 * know to sg_fft_cli_option(), calls sg_fft_cli_check() once all flags are read when the
 * kernel is --fft, and lua_host.c adds the FFT fields to the config table. */
#ifndef SPDGEN_FFT_CLI_H
#define SPDGEN_FFT_CLI_H

#include <stddef.h>
#include "config.h"

struct lua_State;

/* Is `flag` an FFT option? *takes_value tells whether it is followed by a value. */
int sg_fft_cli_is_option(const char *flag, int *takes_value);
/* Records one FFT option (--fft N included). Returns SG_EXIT_OK, or prints a one-line usage
 * error and returns SG_EXIT_USAGE. */
int sg_fft_cli_option(sg_config *cfg, const char *flag, const char *value);
/* Derives and checks the FFT parameters once every flag is known (cfg->wg, cfg->wg_given and
 * cfg->subgroup are parsed by cli.c). Returns SG_EXIT_OK or SG_EXIT_USAGE. */
int sg_fft_cli_check(sg_config *cfg);
/* The first FFT-only option given when the kernel is not --fft (NULL if none), so the
 * caller can refuse it: "--ept: only for --fft". */
const char *sg_fft_cli_stray_option(const sg_config *cfg);
/* The canonical regenerate command of an FFT configuration. */
void sg_fft_cli_command(const sg_config *cfg, char *buf, size_t size);
/* Adds the FFT fields to the config table on top of L's stack. */
void sg_fft_push_fields(struct lua_State *L, const sg_config *cfg);

#endif
