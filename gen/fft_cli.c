/* fft_cli.c: the --fft kernel's options. The FFT generator is not written yet: --fft N is
 * recognized and refused with a clear message. */
#include <stdio.h>
#include <string.h>

#include "fft_cli.h"

int sg_fft_cli_is_option(const char *flag, int *takes_value)
{
    *takes_value = 1;
    return strcmp(flag, "--fft") == 0;
}

int sg_fft_cli_option(sg_config *cfg, const char *flag, const char *value)
{
    (void)flag;
    cfg->fft.n = 0;
    snprintf(cfg->fft_value, sizeof cfg->fft_value, "%s", value);
    return SG_EXIT_OK;
}

int sg_fft_cli_check(sg_config *cfg)
{
    fprintf(stderr, "spdgen: error: --fft %s: the FFT kernel is not supported yet (only --spd)\n",
            cfg->fft_value);
    return SG_EXIT_USAGE;
}

void sg_fft_cli_command(const sg_config *cfg, char *buf, size_t size)
{
    snprintf(buf, size, "spdgen --fft %s", cfg->fft_value);
}

void sg_fft_push_fields(struct lua_State *L, const sg_config *cfg)
{
    (void)L;
    (void)cfg;
}
