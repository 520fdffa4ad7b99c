/* conv_ref.c: the convolution's reference, a direct sum over the PSF in double, written from
 * the definition and sharing nothing with the FFT code: what the tests, --selftest and the
 * benchmarks compare the shaders with. Also the error measures. */
#include <math.h>
#include <stdlib.h>

#include "conv_internal.h"

/* Index of coordinate v in an image of n pixels extended symmetrically (period 2n:
 * ..., 1, 0 | 0, 1, ..., n-1 | n-1, ...), any v. */
static long mirror(long v, long n)
{
    long period = 2 * n;
    long m = v % period;
    if (m < 0) m += period;
    return m < n ? m : period - 1 - m;
}

/* The extended image's channel c at (x, y): 0 outside with zero padding. */
static double extended(const spdrt_conv_ref_config *c, const float *input, long x, long y, uint32_t ch)
{
    long w = c->width, h = c->height;
    if (c->mirror) {
        x = mirror(x, w);
        y = mirror(y, h);
    } else if (x < 0 || y < 0 || x >= w || y >= h) {
        return 0.0;
    }
    return input[((size_t)y * c->width + (size_t)x) * c->in_floats + ch];
}

/* The source's channel ch at (x, y) for the composite and the channels not convolved. */
static double source(const spdrt_conv_ref_config *c, const float *input, uint32_t x, uint32_t y, uint32_t ch)
{
    if (ch < c->in_floats) return input[((size_t)y * c->width + x) * c->in_floats + ch];
    return ch == 3 ? 1.0 : 0.0;
}

void spdrt_conv_reference_pixel(const spdrt_conv_ref_config *c, const float *input, const float *psf,
                                uint32_t x, uint32_t y, double *out)
{
    long cx = c->psf_width / 2, cy = c->psf_height / 2;
    for (uint32_t ch = 0; ch < c->out_floats; ch++) {
        double src = source(c, input, x, y, ch), v = src;
        if (ch < c->channels) {
            double sum = 0.0;
            for (uint32_t j = 0; j < c->psf_height; j++)
                for (uint32_t i = 0; i < c->psf_width; i++) {
                    double k = psf[((size_t)j * c->psf_width + i) * c->channels + ch];
                    if (k != 0.0) sum += k * extended(c, input, (long)x - (long)i + cx, (long)y - (long)j + cy, ch);
                }
            v = (1.0 - c->sharpen) * sum + c->sharpen * src;
        }
        if (c->composite) v = src + c->intensity * (v - src);
        out[ch] = v;
    }
}

int spdrt_conv_reference(const spdrt_conv_ref_config *c, const float *input, const float *psf, double *out)
{
    for (uint32_t y = 0; y < c->height; y++)
        for (uint32_t x = 0; x < c->width; x++)
            spdrt_conv_reference_pixel(c, input, psf, x, y, out + ((size_t)y * c->width + x) * c->out_floats);
    return 0;
}

void spdrt_conv_compare(const float *got, const double *ref, size_t count, spdrt_conv_error *e)
{
    double err2 = 0.0, ref2 = 0.0, max_err = 0.0, max_ref = 0.0;
    e->non_finite = 0;
    for (size_t i = 0; i < count; i++) {
        double r = ref[i], g = got[i];
        if (!isfinite(g)) {
            e->non_finite++;
            continue;
        }
        double d = fabs(g - r);
        err2 += d * d;
        ref2 += r * r;
        if (d > max_err) max_err = d;
        if (fabs(r) > max_ref) max_ref = fabs(r);
    }
    e->rel_l2 = ref2 > 0 ? sqrt(err2 / ref2) : sqrt(err2);
    e->max_rel = max_ref > 0 ? max_err / max_ref : max_err;
    e->max_abs = max_err;
}
