/* fft_ref.c: the FFT reference in double precision, and the error metrics.
 *
 * The definition of what an spdgen --fft shader computes: an iterative radix-2 FFT in
 * double whose twiddles come from the integer angle 2 pi k / N (so they are correct to
 * double rounding, ~1e-16, six orders below the fp32 errors measured against it), scaled
 * by the norm and laid out as the contract in spdrt_fft.h says. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "fft_internal.h"

static const double TWO_PI = 6.28318530717958647692528676655900577;

uint32_t spdrt_fft_native_index(uint32_t k, uint32_t n)
{
    uint32_t r = 0;
    for (uint32_t bit = 1; bit < n; bit <<= 1) {
        r = (r << 1) | (k & 1u);
        k >>= 1;
    }
    return r;
}

void spdrt_fft_ref_transform(double *data, size_t n, int sign)
{
    /* Bit-reversal permutation, then decimation-in-time passes. */
    for (size_t i = 0; i < n; i++) {
        size_t j = spdrt_fft_native_index((uint32_t)i, (uint32_t)n);
        if (j > i) {
            double re = data[2 * i], im = data[2 * i + 1];
            data[2 * i] = data[2 * j];
            data[2 * i + 1] = data[2 * j + 1];
            data[2 * j] = re;
            data[2 * j + 1] = im;
        }
    }
    for (size_t half = 1; half < n; half *= 2) {
        size_t step = n / (2 * half); /* twiddle k = m * step of the N-point transform */
        for (size_t start = 0; start < n; start += 2 * half) {
            for (size_t m = 0; m < half; m++) {
                double angle = TWO_PI * (double)(m * step) / (double)n;
                double wr = cos(angle), wi = sign * sin(angle);
                double *a = data + 2 * (start + m), *b = data + 2 * (start + m + half);
                double br = b[0] * wr - b[1] * wi, bi = b[0] * wi + b[1] * wr;
                b[0] = a[0] - br;
                b[1] = a[1] - bi;
                a[0] += br;
                a[1] += bi;
            }
        }
    }
}

static double scale_of(const spdrt_fft_config *c)
{
    if (c->norm == SPDRT_FFT_NORM_UNITARY) return 1.0 / sqrt((double)c->n);
    if (c->norm == SPDRT_FFT_NORM_INVERSE && c->inverse) return 1.0 / (double)c->n;
    return 1.0;
}

/* The value the shader reads: the float, or the float rounded to half for f16 storage. */
static double stored(const spdrt_fft_config *c, float v)
{
    return c->f16 ? (double)spdrt__half_to_float(spdrt__float_to_half(v)) : (double)v;
}

void spdrt_fft_strides(const spdrt_fft_config *c, const spdrt_fft_params *p, uint32_t *in,
                       uint32_t *out)
{
    uint32_t complex_row = c->real ? c->n / 2 : c->n;
    *in = p->in_stride, *out = p->out_stride;
    if (c->strided) {
        if (!*in) *in = p->count;
        if (!*out) *out = p->count;
        return;
    }
    if (!*in) *in = c->real && !c->inverse ? c->n : complex_row;
    if (!*out) *out = c->real && c->inverse ? c->n : complex_row;
}

int spdrt__fft_strides_fit(const spdrt_fft_config *c, const spdrt_fft_params *p)
{
    spdrt_fft_params packed = *p;
    uint32_t in, out, packed_in, packed_out;
    packed.in_stride = packed.out_stride = 0;
    spdrt_fft_strides(c, &packed, &packed_in, &packed_out);
    spdrt_fft_strides(c, p, &in, &out);
    return in >= packed_in && out >= packed_out;
}

size_t spdrt_fft_input_floats(const spdrt_fft_config *c, const spdrt_fft_params *p)
{
    uint32_t in, out;
    spdrt_fft_strides(c, p, &in, &out);
    if (c->strided) return 2 * (size_t)in * c->n;
    if (c->real) return (size_t)2 * p->count * in * (c->inverse ? 2 : 1);
    return 2 * (size_t)p->count * in;
}

size_t spdrt_fft_output_floats(const spdrt_fft_config *c, const spdrt_fft_params *p)
{
    uint32_t in, out;
    spdrt_fft_strides(c, p, &in, &out);
    if (c->strided) return 2 * (size_t)out * c->n;
    if (c->real) return (size_t)2 * p->count * out * (c->inverse ? 1 : 2);
    return 2 * (size_t)p->count * out;
}

/* The transform of one row: radix-2 for powers of two, spdrt_fft_ref_any otherwise. */
static int transform(double *z, uint32_t n, int sign)
{
    if (n >= 4 && (n & (n - 1)) == 0) {
        spdrt_fft_ref_transform(z, n, sign);
        return 0;
    }
    return spdrt_fft_ref_any(z, n, sign);
}

/* One complex FFT b: gathers its input, transforms, scatters the output. */
static int complex_fft(const spdrt_fft_config *c, uint32_t b, uint32_t in_stride,
                        uint32_t out_stride, const float *input, double *expected, double *z)
{
    uint32_t n = c->n;
    double s = scale_of(c);
    for (uint32_t j = 0; j < n; j++) {
        /* Native-order input (an inverse): element j holds X[bitreverse(j)]. */
        uint32_t src_j = c->native && c->inverse ? spdrt_fft_native_index(j, n) : j;
        size_t at = c->strided ? (size_t)b + (size_t)src_j * in_stride : (size_t)b * in_stride + src_j;
        z[2 * j] = stored(c, input[2 * at]);
        z[2 * j + 1] = stored(c, input[2 * at + 1]);
    }
    if (transform(z, n, c->inverse ? 1 : -1) != 0) return -1;
    for (uint32_t f = 0; f < n; f++) {
        uint32_t dst_j = c->native && !c->inverse ? spdrt_fft_native_index(f, n) : f;
        size_t at = c->strided ? (size_t)b + (size_t)dst_j * out_stride : (size_t)b * out_stride + dst_j;
        expected[2 * at] = s * z[2 * f];
        expected[2 * at + 1] = s * z[2 * f + 1];
    }
    return 0;
}

/* Two real rows x, y -> their half spectra X, Y (element 0 packs X[0], X[N/2]). */
static int real_forward(const spdrt_fft_config *c, uint32_t b, uint32_t in_stride,
                         uint32_t out_stride, const float *input, double *expected, double *z)
{
    uint32_t n = c->n;
    double s = scale_of(c);
    for (int row = 0; row < 2; row++) {
        const float *x = input + (size_t)(2 * b + row) * in_stride;
        for (uint32_t j = 0; j < n; j++) {
            z[2 * j] = stored(c, x[j]);
            z[2 * j + 1] = 0.0;
        }
        if (transform(z, n, -1) != 0) return -1;
        double *out = expected + 2 * (size_t)(2 * b + row) * out_stride;
        for (uint32_t f = 0; f < n / 2; f++) {
            out[2 * f] = s * z[2 * f];
            out[2 * f + 1] = s * z[2 * f + 1];
        }
        out[1] = s * z[n]; /* the real X[N/2] in element 0's imaginary part */
    }
    return 0;
}

/* Two half spectra -> two real rows: the inverse of real_forward, with the norm. */
static int real_inverse(const spdrt_fft_config *c, uint32_t b, uint32_t in_stride,
                         uint32_t out_stride, const float *input, double *expected, double *z)
{
    uint32_t n = c->n;
    double s = scale_of(c);
    for (int row = 0; row < 2; row++) {
        const float *h = input + 2 * (size_t)(2 * b + row) * in_stride;
        for (uint32_t f = 0; f <= n / 2; f++) {
            double re, im;
            if (f == 0) re = stored(c, h[0]), im = 0.0;
            else if (f == n / 2) re = stored(c, h[1]), im = 0.0;
            else re = stored(c, h[2 * f]), im = stored(c, h[2 * f + 1]);
            z[2 * f] = re;
            z[2 * f + 1] = im;
            if (f > 0 && f < n / 2) { /* Hermitian: X[N - f] = conj X[f] */
                z[2 * (n - f)] = re;
                z[2 * (n - f) + 1] = -im;
            }
        }
        if (transform(z, n, 1) != 0) return -1;
        double *out = expected + (size_t)(2 * b + row) * out_stride;
        for (uint32_t j = 0; j < n; j++) out[j] = s * z[2 * j];
    }
    return 0;
}

int spdrt_fft_reference(const spdrt_fft_config *c, const spdrt_fft_params *p, const float *input,
                        double *expected)
{
    uint32_t in, out;
    if (!spdrt__fft_strides_fit(c, p)) return -1;
    double *z = malloc(2 * sizeof *z * c->n);
    if (!z) return -1;
    spdrt_fft_strides(c, p, &in, &out);
    memset(expected, 0, spdrt_fft_output_floats(c, p) * sizeof *expected);
    int rc = 0;
    for (uint32_t b = 0; b < p->count && rc == 0; b++) {
        if (c->real && !c->inverse) rc = real_forward(c, b, in, out, input, expected, z);
        else if (c->real) rc = real_inverse(c, b, in, out, input, expected, z);
        else rc = complex_fft(c, b, in, out, input, expected, z);
    }
    free(z);
    return rc;
}

void spdrt_fft_compare(const float *got, const double *ref, size_t count, int complex_values,
                       spdrt_fft_error *err)
{
    double diff2 = 0, ref2 = 0, max_ref = 0, max_diff = 0;
    size_t step = complex_values ? 2 : 1;
    memset(err, 0, sizeof *err);
    for (size_t i = 0; i + step <= count; i += step) {
        double d2 = 0, r2 = 0;
        int finite = 1;
        for (size_t c = 0; c < step; c++) {
            double g = got[i + c], r = ref[i + c];
            finite &= isfinite(g) != 0;
            d2 += (g - r) * (g - r);
            r2 += r * r;
        }
        if (!finite) {
            err->non_finite++;
            continue;
        }
        diff2 += d2;
        ref2 += r2;
        if (sqrt(d2) > max_diff) max_diff = sqrt(d2);
        if (sqrt(r2) > max_ref) max_ref = sqrt(r2);
    }
    err->rel_l2 = ref2 > 0 ? sqrt(diff2 / ref2) : sqrt(diff2);
    err->max_rel = max_ref > 0 ? max_diff / max_ref : max_diff;
    err->max_abs = max_diff;
}
