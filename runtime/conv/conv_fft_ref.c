/* conv_fft_ref.c: the resampled path's reference, the same pipeline on the CPU in double
 * (its own FFT of any length): the PSF's centred spectrum at the spectrum's size, sampled
 * bilinearly at the padded image's frequencies, the image padded exactly as the shaders pad
 * it (any padded size) (the wrap-around of a resampled kernel reaches the padding), transformed, multiplied,
 * transformed back and cropped. And the centred spectrum of a PSF by an explicit shift, for
 * checking the shaders' FFTShift sign. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"

static const double TAU = 6.283185307179586476925286766559;

/* The DFT of n values of `in` (complex doubles, `step` complex values apart) into out (n
 * contiguous): split by the smallest prime factor p of n into p DFTs of n / p (decimation in
 * time), then X[k + q m] = sum_r w^(r (k + q m)) Y_r[k]; a prime n is its direct sum. Any
 * n, the padded sides of --pad-to smooth included. w: the N roots of unity of the whole
 * transform (w_n^j = w[j N / n]); work: 2n complex values of scratch. */
static void dft(const double *in, size_t n, size_t step, double *out, const double *w, size_t N, double *work)
{
    if (n == 1) {
        out[0] = in[0], out[1] = in[1];
        return;
    }
    size_t p = 2;
    while (n % p != 0 && p * p <= n) p++;
    if (n % p != 0) p = n;
    size_t m = n / p;
    double *y = work;
    for (size_t r = 0; r < p; r++) dft(in + 2 * r * step, m, step * p, y + 2 * r * m, w, N, work + 2 * n);
    for (size_t k = 0; k < m; k++)
        for (size_t q = 0; q < p; q++) {
            size_t f = k + q * m;
            double re = 0, im = 0;
            for (size_t r = 0; r < p; r++) {
                const double *t = w + 2 * (((r * f) % n) * (N / n)), *v = y + 2 * (r * m + k);
                re += v[0] * t[0] - v[1] * t[1];
                im += v[0] * t[1] + v[1] * t[0];
            }
            out[2 * f] = re, out[2 * f + 1] = im;
        }
}

/* In place, n complex doubles (interleaved) `stride` complex values apart, w the n roots of
 * unity of the transform's sign. scratch: 4n complex values. */
static void fft(double *d, size_t n, size_t stride, const double *w, double *scratch)
{
    double *in = scratch, *out = scratch + 2 * n;
    for (size_t i = 0; i < n; i++) in[2 * i] = d[2 * i * stride], in[2 * i + 1] = d[2 * i * stride + 1];
    dft(in, n, 1, out, w, n, scratch + 4 * n);
    for (size_t i = 0; i < n; i++) d[2 * i * stride] = out[2 * i], d[2 * i * stride + 1] = out[2 * i + 1];
}

/* The n roots of unity exp(sign 2 pi i j / n) into w. */
static void roots(double *w, size_t n, int sign)
{
    for (size_t j = 0; j < n; j++) {
        double a = sign * TAU * (double)j / (double)n;
        w[2 * j] = cos(a), w[2 * j + 1] = sin(a);
    }
}

/* sign -1 forward; 0, or -1 where the scratch could not be allocated. */
static int fft2(double *d, size_t nx, size_t ny, int sign)
{
    size_t most = nx > ny ? nx : ny;
    double *scratch = malloc((most * 4 + nx + ny) * 2 * sizeof *scratch);
    if (!scratch) return -1;
    double *wx = scratch + most * 8, *wy = wx + 2 * nx;
    roots(wx, nx, sign);
    roots(wy, ny, sign);
    for (size_t y = 0; y < ny; y++) fft(d + 2 * y * nx, nx, 1, wx, scratch);
    for (size_t x = 0; x < nx; x++) fft(d + 2 * x, ny, nx, wy, scratch);
    free(scratch);
    return 0;
}

/* The shaders' mirror padding: position p of a padded line of `padded` reads image index
 * p inside, the far edge mirrored up to the middle of the padding, the near edge beyond. */
static size_t padded_index(size_t p, size_t extent, size_t padded, int *inside, int mirror)
{
    *inside = p < extent;
    if (*inside) return p;
    if (!mirror) return 0;
    *inside = 1;
    size_t period = 2 * extent, split = extent + (padded - extent + 1) / 2;
    size_t m = p < split ? p % period : (period - (padded - p) % period) % period;
    return m < extent ? m : period - 1 - m;
}

/* The centred spectra of channel c of a PSF on an nx x ny grid, into d (complex). */
static int psf_spectrum(const float *psf, uint32_t w, uint32_t h, uint32_t channels, uint32_t c,
                        size_t nx, size_t ny, double *d)
{
    memset(d, 0, nx * ny * 2 * sizeof *d);
    for (uint32_t j = 0; j < h; j++)
        for (uint32_t i = 0; i < w; i++) {
            /* The centre (w/2, h/2) moves to the origin: an explicit circular shift. */
            size_t x = ((size_t)i + nx - w / 2) % nx, y = ((size_t)j + ny - h / 2) % ny;
            d[2 * (y * nx + x)] += psf[((size_t)j * w + i) * channels + c];
        }
    return fft2(d, nx, ny, -1);
}

int spdrt_conv_reference_spectrum(const float *psf, uint32_t width, uint32_t height, uint32_t channels,
                                  uint32_t nx, uint32_t ny, double *out)
{
    for (uint32_t c = 0; c < channels; c++)
        if (psf_spectrum(psf, width, height, channels, c, nx, ny, out + (size_t)c * nx * ny * 2)) return -1;
    return 0;
}

/* Bilinear sample of spectrum s (qx x qy complex) at (ux, uy), indices wrapping. */
static void sample(const double *s, size_t qx, size_t qy, double ux, double uy, double out[2])
{
    double fx = floor(ux), fy = floor(uy), tx = ux - fx, ty = uy - fy;
    size_t x0 = (size_t)((long)fx & (long)(qx - 1)), x1 = (x0 + 1) & (qx - 1);
    size_t y0 = (size_t)((long)fy & (long)(qy - 1)), y1 = (y0 + 1) & (qy - 1);
    for (int k = 0; k < 2; k++) {
        double h0 = s[2 * (y0 * qx + x0) + k] + (s[2 * (y0 * qx + x1) + k] - s[2 * (y0 * qx + x0) + k]) * tx;
        double h1 = s[2 * (y1 * qx + x0) + k] + (s[2 * (y1 * qx + x1) + k] - s[2 * (y1 * qx + x0) + k]) * tx;
        out[k] = h0 + (h1 - h0) * ty;
    }
}

static double signed_frequency(size_t k, size_t n) { return k < n / 2 ? (double)k : (double)k - (double)n; }

/* The sampled kernel at frequency (kx, ky) of a px x py spectrum: a Nyquist frequency
 * (k = n / 2) is both +n/2 and -n/2, so its samples at +u and -u are averaged (1, 2 or 4
 * samples), which keeps the sampled spectrum Hermitian (a real PSF's spectrum sampled at
 * -u is the conjugate of the sample at u) and the result real. */
static void sample_at(const double *s, size_t qx, size_t qy, size_t kx, size_t ky, size_t px, size_t py,
                      double scale, double out[2])
{
    double ux = signed_frequency(kx, px) * qx / px * scale, uy = signed_frequency(ky, py) * qy / py * scale;
    int nx = kx == px / 2 && px > 1 ? 2 : 1, ny = ky == py / 2 && py > 1 ? 2 : 1;
    out[0] = out[1] = 0.0;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) {
            double h[2];
            sample(s, qx, qy, i ? -ux : ux, j ? -uy : uy, h);
            out[0] += h[0] / (nx * ny);
            out[1] += h[1] / (nx * ny);
        }
}

int spdrt_conv_reference_resampled(const spdrt_conv_ref_config *c, uint32_t px, uint32_t py, uint32_t qx,
                                   uint32_t qy, double psf_scale, const float *input, const float *psf,
                                   double *out)
{
    double *s = malloc((size_t)qx * qy * 2 * sizeof *s), *d = malloc((size_t)px * py * 2 * sizeof *d);
    if (!s || !d) {
        free(s);
        free(d);
        return -1;
    }
    int failed = 0;
    for (uint32_t ch = 0; ch < c->out_floats && !failed; ch++) {
        int convolved = ch < c->channels;
        if (convolved) {
            failed |= psf_spectrum(psf, c->psf_width, c->psf_height, c->channels, ch, qx, qy, s);
            memset(d, 0, (size_t)px * py * 2 * sizeof *d);
            for (size_t y = 0; y < py; y++)
                for (size_t x = 0; x < px; x++) {
                    int in_x, in_y;
                    size_t sx = padded_index(x, c->width, px, &in_x, c->mirror);
                    size_t sy = padded_index(y, c->height, py, &in_y, c->mirror);
                    if (in_x && in_y) d[2 * (y * px + x)] = input[(sy * c->width + sx) * c->in_floats + ch];
                }
            failed |= fft2(d, px, py, -1);
            for (size_t ky = 0; ky < py; ky++)
                for (size_t kx = 0; kx < px; kx++) {
                    double h[2], *v = d + 2 * (ky * px + kx);
                    sample_at(s, qx, qy, kx, ky, px, py, psf_scale, h);
                    h[0] += c->sharpen * (1.0 - h[0]);
                    h[1] -= c->sharpen * h[1];
                    double re = v[0] * h[0] - v[1] * h[1], im = v[0] * h[1] + v[1] * h[0];
                    v[0] = re, v[1] = im;
                }
            failed |= fft2(d, px, py, 1);
        }
        for (uint32_t y = 0; y < c->height; y++)
            for (uint32_t x = 0; x < c->width; x++) {
                double src = ch < c->in_floats ? input[((size_t)y * c->width + x) * c->in_floats + ch]
                                               : ch == 3 ? 1.0 : 0.0;
                double v = convolved ? d[2 * ((size_t)y * px + x)] / ((double)px * py) : src;
                if (c->composite) v = src + c->intensity * (v - src);
                out[((size_t)y * c->width + x) * c->out_floats + ch] = v;
            }
    }
    free(s);
    free(d);
    return failed ? -1 : 0;
}
