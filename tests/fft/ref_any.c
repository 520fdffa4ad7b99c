/* tests/fft/ref_any.c: libspdrt's double reference for lengths that are not powers of two
 * (runtime/fft/fft_ref_any.c), on the CPU: Bluestein's chirp-z in double (the path above
 * N = 2048) agrees with the direct O(N^2) sum, both directions, for primes and smooth N
 * beside the switch; the direct sum agrees with a closed form (an impulse at j0 transforms to
 * exp(-+2 pi i j0 f / N)); the Bluestein tables' chirp is exp(-+ pi i j^2 / N). */
#include <math.h>
#include <stdlib.h>

#include "spdrt_fft.h"
#include "tap.h"

static const double PI = 3.14159265358979323846264338327950288;

/* Max |a - b| / max |b| over n complex values. */
static double max_rel(const double *a, const double *b, size_t n)
{
    double err = 0, ref = 0;
    for (size_t i = 0; i < n; i++) {
        double d = hypot(a[2 * i] - b[2 * i], a[2 * i + 1] - b[2 * i + 1]);
        double r = hypot(b[2 * i], b[2 * i + 1]);
        if (d > err) err = d;
        if (r > ref) ref = r;
    }
    return err / ref;
}

int main(void)
{
    static const size_t sizes[] = {2049, 2310, 3001, 4099};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        for (int sign = -1; sign <= 1; sign += 2) {
            double *a = malloc(2 * n * sizeof *a), *b = malloc(2 * n * sizeof *b);
            uint64_t x = 88172645463325252ull + n;
            for (size_t i = 0; i < 2 * n; i++) { /* xorshift data in [-1, 1) */
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                a[i] = b[i] = (double)(x >> 11) / 4503599627370496.0 - 1.0;
            }
            int rc = spdrt_fft_ref_any(a, n, sign) | spdrt_fft_ref_direct(b, n, sign);
            double e = max_rel(a, b, n);
            ok(rc == 0 && e < 1e-12, "N = %zu, sign %+d: Bluestein in double vs the direct sum, max rel %.2e "
               "(< 1e-12)", n, sign, e);
            free(a);
            free(b);
        }
    }
    /* The direct sum against the closed form of an impulse. */
    size_t n = 15, j0 = 4;
    double z[30] = {0}, want[30];
    z[2 * j0] = 1;
    for (size_t f = 0; f < n; f++) {
        want[2 * f] = cos(2 * PI * (double)(j0 * f) / (double)n);
        want[2 * f + 1] = -sin(2 * PI * (double)(j0 * f) / (double)n);
    }
    ok(spdrt_fft_ref_direct(z, n, -1) == 0 && max_rel(z, want, n) < 1e-14,
       "the direct sum of an impulse at 4 (N = 15) is exp(-2 pi i 4 f / 15)");
    /* The chirp table. */
    uint32_t bn = 97, bm = 256;
    float *chirp = malloc(2 * bn * sizeof *chirp), *spectrum = malloc(2 * bm * sizeof *spectrum);
    int rc = spdrt_fft_bluestein_tables(bn, bm, 0, chirp, spectrum);
    double worst = 0;
    for (uint32_t j = 0; rc == 0 && j < bn; j++) {
        double a = PI * (double)((uint64_t)j * j % (2 * bn)) / bn;
        worst = fmax(worst, hypot(chirp[2 * j] - cos(a), chirp[2 * j + 1] + sin(a)));
    }
    ok(rc == 0 && worst < 1e-7, "spdrt_fft_bluestein_tables(97, 256): chirp[j] = exp(-pi i j^2 / 97) to float (%.1e)",
       worst);
    ok(spdrt_fft_bluestein_tables(97, 128, 0, chirp, spectrum) == -1, "M = 128 < 2N - 1 is refused");
    free(chirp);
    free(spectrum);
    return tap_plan();
}
