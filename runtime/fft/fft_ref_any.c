/* fft_ref_any.c: the double-precision DFT of any length, for the reference (fft_ref.c) of
 * lengths that are not powers of two, written apart from the shaders' algorithms (mixed
 * radix in registers, Bluestein through M-point FFTs):
 *   n <= DIRECT_MAX: the direct O(n^2) sum, X[f] = sum_j x[j] w^(j f mod n), the n
 *     twiddles computed once from the integer angle;
 *   larger n: Bluestein's chirp-z in double through the radix-2 double FFT
 *     (spdrt_fft_ref_transform) of the power of two M >= 2n - 1, the chirp exponents
 *     j^2 mod 2n exact in 64-bit integers; tests/fft/ref_any.t checks it against the
 *     direct sum.
 * And the tables a Bluestein shader reads (spdrt_fft_bluestein_tables) and a Rader shader
 * reads (spdrt_fft_rader_tables). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spdrt_fft.h"

#define DIRECT_MAX 2048

static const double TWO_PI = 6.28318530717958647692528676655900577;

static int direct(double *data, size_t n, int sign)
{
    double *w = malloc(2 * n * sizeof *w), *out = malloc(2 * n * sizeof *out);
    if (!w || !out) {
        free(w);
        free(out);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        double a = TWO_PI * (double)k / (double)n;
        w[2 * k] = cos(a);
        w[2 * k + 1] = sign * sin(a);
    }
    for (size_t f = 0; f < n; f++) {
        double re = 0, im = 0;
        size_t k = 0; /* j f mod n, stepped */
        for (size_t j = 0; j < n; j++) {
            double xr = data[2 * j], xi = data[2 * j + 1], wr = w[2 * k], wi = w[2 * k + 1];
            re += xr * wr - xi * wi;
            im += xr * wi + xi * wr;
            k += f;
            if (k >= n) k -= n;
        }
        out[2 * f] = re;
        out[2 * f + 1] = im;
    }
    memcpy(data, out, 2 * n * sizeof *data);
    free(w);
    free(out);
    return 0;
}

/* c[j] = exp(sign pi i (j^2 mod 2n) / n) for j < count (count <= n). */
static void chirp(double *c, size_t n, size_t count, int sign)
{
    for (size_t j = 0; j < count; j++) {
        uint64_t e = ((uint64_t)j * j) % (2 * (uint64_t)n);
        double a = TWO_PI * (double)e / (double)(2 * n);
        c[2 * j] = cos(a);
        c[2 * j + 1] = sign * sin(a);
    }
}

static size_t bluestein_length(size_t n)
{
    size_t m = 1;
    while (m < 2 * n - 1) m *= 2;
    return m;
}

static int bluestein(double *data, size_t n, int sign);

/* b[j] = conj c[j] for |j| < n, placed mod m; its m-point forward transform divided by m (a
 * power of two m by the radix-2 FFT, a plan's smooth m by the direct sum or Bluestein in
 * double). 0, or -1 when out of memory. */
static int kernel_spectrum(const double *c, size_t n, size_t m, double *b)
{
    memset(b, 0, 2 * m * sizeof *b);
    for (size_t j = 0; j < n; j++) {
        b[2 * j] = c[2 * j];
        b[2 * j + 1] = -c[2 * j + 1];
        if (j > 0) {
            b[2 * (m - j)] = c[2 * j];
            b[2 * (m - j) + 1] = -c[2 * j + 1];
        }
    }
    if (m & (m - 1)) {
        if ((m <= DIRECT_MAX ? direct(b, m, -1) : bluestein(b, m, -1)) != 0) return -1;
    } else {
        spdrt_fft_ref_transform(b, m, -1);
    }
    for (size_t k = 0; k < 2 * m; k++) b[k] /= (double)m;
    return 0;
}

static int bluestein(double *data, size_t n, int sign)
{
    size_t m = bluestein_length(n);
    double *c = malloc(2 * n * sizeof *c), *a = calloc(2 * m, sizeof *a), *b = malloc(2 * m * sizeof *b);
    if (!c || !a || !b) {
        free(c);
        free(a);
        free(b);
        return -1;
    }
    chirp(c, n, n, sign);
    if (kernel_spectrum(c, n, m, b) != 0) { /* m is a power of two here: it cannot fail */
        free(c);
        free(a);
        free(b);
        return -1;
    }
    for (size_t j = 0; j < n; j++) { /* a[j] = x[j] c[j] */
        a[2 * j] = data[2 * j] * c[2 * j] - data[2 * j + 1] * c[2 * j + 1];
        a[2 * j + 1] = data[2 * j] * c[2 * j + 1] + data[2 * j + 1] * c[2 * j];
    }
    spdrt_fft_ref_transform(a, m, -1);
    for (size_t k = 0; k < m; k++) {
        double re = a[2 * k] * b[2 * k] - a[2 * k + 1] * b[2 * k + 1];
        double im = a[2 * k] * b[2 * k + 1] + a[2 * k + 1] * b[2 * k];
        a[2 * k] = re;
        a[2 * k + 1] = im;
    }
    spdrt_fft_ref_transform(a, m, 1);
    for (size_t f = 0; f < n; f++) { /* X[f] = c[f] (a * b)[f] */
        data[2 * f] = a[2 * f] * c[2 * f] - a[2 * f + 1] * c[2 * f + 1];
        data[2 * f + 1] = a[2 * f] * c[2 * f + 1] + a[2 * f + 1] * c[2 * f];
    }
    free(c);
    free(a);
    free(b);
    return 0;
}

int spdrt_fft_ref_any(double *data, size_t n, int sign)
{
    if (n >= 4 && (n & (n - 1)) == 0) {
        spdrt_fft_ref_transform(data, n, sign);
        return 0;
    }
    if (n == 1) return 0;
    return n <= DIRECT_MAX ? direct(data, n, sign) : bluestein(data, n, sign);
}

int spdrt_fft_ref_direct(double *data, size_t n, int sign) { return direct(data, n, sign); }

int spdrt_fft_bluestein_tables(uint32_t n, uint32_t m, int inverse, float *chirp_out, float *spectrum)
{
    if (n < 2 || m < 2 * (size_t)n - 1) return -1;
    double *c = malloc(2 * (size_t)n * sizeof *c), *b = malloc(2 * (size_t)m * sizeof *b);
    if (!c || !b) {
        free(c);
        free(b);
        return -1;
    }
    chirp(c, n, n, inverse ? 1 : -1);
    if (kernel_spectrum(c, n, m, b) != 0) {
        free(c);
        free(b);
        return -1;
    }
    for (size_t j = 0; j < 2 * (size_t)n; j++) chirp_out[j] = (float)c[j];
    for (size_t k = 0; k < 2 * (size_t)m; k++) spectrum[k] = (float)b[k];
    free(c);
    free(b);
    return 0;
}

int spdrt_fft_rader_tables(uint32_t n, uint32_t root, int inverse, float *spectrum)
{
    if (n < 3 || root < 2 || root >= n) return -1;
    for (uint32_t d = 2; (uint64_t)d * d <= n; d++)
        if (n % d == 0) return -1;
    size_t l = n - 1;
    uint64_t inv = 1, e = n - 2, base = root; /* root^-1 = root^(n - 2) mod n */
    for (; e; e >>= 1, base = base * base % n)
        if (e & 1) inv = inv * base % n;
    double *b = malloc(2 * l * sizeof *b);
    if (!b) return -1;
    uint64_t k = 1; /* root^-p mod n */
    for (size_t p = 0; p < l; p++) {
        if (p > 0 && k == 1) { /* a cycle shorter than n - 1: not a primitive root */
            free(b);
            return -1;
        }
        double a = TWO_PI * (double)k / (double)n;
        b[2 * p] = cos(a);
        b[2 * p + 1] = (inverse ? 1 : -1) * sin(a);
        k = k * inv % n;
    }
    if (spdrt_fft_ref_any(b, l, -1) != 0) {
        free(b);
        return -1;
    }
    for (size_t i = 0; i < 2 * l; i++) spectrum[i] = (float)(b[i] / (double)l);
    free(b);
    return 0;
}
