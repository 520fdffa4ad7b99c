/* tests/fft/list.c: the spdgen flags of every case of the FFT per-config matrix (matrix.h),
 * one per line, for the checks that run the same matrix elsewhere (tests/fft/msl_compile.t,
 * tests/fft/spirv_entry.t, tests/msl/fft.t, tests/fft/cli.t).
 *
 * usage: list */
#include "matrix.h"

static void run_strided(const fft_case *c, uint32_t count, uint32_t in_stride, uint32_t out_stride)
{
    char flags[512];
    fft_case_flags(c, flags, sizeof flags);
    printf("%s\n", flags);
}

int main(void)
{
    list_only = 1;
    sizes();
    shapes();
    options();
    columns();
    return 0;
}
