/* fft_check.c: the FFT benchmark's input and the checks of its output (fft_bench.h).
 *
 * The input is one stream of floats that every group reads from the start of its input
 * buffer; float i is a hash of (seed, i), so the host makes any row again when it needs it
 * and keeps no copy of the 512 MiB it uploaded.
 *
 * A 1D run's output (read back whole) passes when
 *   - every value is finite (the output buffer is NaN-filled before each variant runs, so
 *     an element the run never writes shows),
 *   - every row keeps its energy: |sum |X|^2 - N sum |x|^2| <= 1e-5 N sum |x|^2 (Parseval;
 *     fp32 rounding moves it by ~1e-7; a missing, duplicated or wrong block of values does
 *     not survive it),
 *   - the sampled rows (the first, the last and some between, up to --sample-rows) match
 *     the double reference (spdrt_fft_reference) within spdrt_fft.h's bars: relative L2
 *     4e-7 (Bluestein's lengths: 1.5e-6, SPDRT_FFT_BOUND_BLUESTEIN_REL_L2) and max|err| /
 *     max|ref| 2e-6 over all of them together.
 * A 2D run's whole output is compared with a 2D reference in double (row transforms, then
 * column transforms, spdrt_fft_ref_transform) within the same bars. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_bench.h"

#define PARSEVAL_BOUND 1e-5

fft_length_kind fft_length_kind_of(uint32_t n) {
    static const uint32_t radices[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31};
    uint32_t i, m = n;
    if (n && !(n & (n - 1)))
        return FFT_LENGTH_POW2;
    for (i = 0; i < sizeof radices / sizeof radices[0]; i++)
        while (m % radices[i] == 0)
            m /= radices[i];
    if (m == 1)
        return FFT_LENGTH_SMOOTH;
    for (i = 2; i * i <= n; i++)
        if (n % i == 0)
            return FFT_LENGTH_BLUESTEIN;
    for (m = n - 1, i = 0; i < sizeof radices / sizeof radices[0]; i++)
        while (m % radices[i] == 0)
            m /= radices[i];
    return m == 1 ? FFT_LENGTH_RADER : FFT_LENGTH_BLUESTEIN;
}

float fft_input_value(uint64_t seed, uint64_t i) {
    return spdrt_random_float(seed, i, -1.0f, 1.0f);
}

void fft_input_fill(uint64_t seed, float *out, uint64_t first, uint64_t count) {
    uint64_t i;
    for (i = 0; i < count; i++)
        out[i] = fft_input_value(seed, first + i);
}

/* ---- 1D ------------------------------------------------------------------------------ */

void fft_reference_1d_free(fft_reference_1d *r) {
    free(r->rows);
    free(r->expected);
    free(r->energy);
    memset(r, 0, sizeof *r);
}

int fft_reference_1d_make(uint64_t seed, uint32_t n, uint32_t batch, uint32_t max_rows,
                          fft_reference_1d *out) {
    spdrt_fft_config c;
    spdrt_fft_params p;
    float *row;
    uint32_t k, count = batch < max_rows ? batch : max_rows;
    uint64_t b, j;
    memset(out, 0, sizeof *out);
    if (count == 0)
        count = 1;
    out->n = n, out->batch = batch, out->row_count = count;
    out->bluestein = fft_length_kind_of(n) >= FFT_LENGTH_RADER; /* Rader's and Bluestein's bar */
    out->rows = calloc(count, sizeof *out->rows);
    out->expected = malloc((size_t)count * 2 * n * sizeof *out->expected);
    out->energy = calloc(batch, sizeof *out->energy);
    row = malloc((size_t)2 * n * sizeof *row);
    if (!out->rows || !out->expected || !out->energy || !row) {
        free(row);
        fft_reference_1d_free(out);
        return -1;
    }
    /* The first and last rows and evenly spread ones between, each moved off its even
     * spacing by a different amount (so they do not all sit at one workgroup phase). */
    for (k = 0; k < count; k++) {
        uint64_t spacing = count > 1 ? (uint64_t)(batch - 1) / (count - 1) : 0;
        uint64_t r = count > 1 ? (uint64_t)k * (batch - 1) / (count - 1) : 0;
        if (k > 0 && k + 1 < count && spacing > 1)
            r += ((uint64_t)k * 7919u) % spacing;
        out->rows[k] = (uint32_t)r;
    }
    for (b = 0; b < batch; b++) {
        double e = 0.0;
        for (j = 0; j < 2 * (uint64_t)n; j++) {
            double v = fft_input_value(seed, b * 2 * n + j);
            e += v * v;
        }
        out->energy[b] = e;
    }
    memset(&c, 0, sizeof c);
    c.n = n;
    c.norm = SPDRT_FFT_NORM_INVERSE;
    memset(&p, 0, sizeof p);
    p.count = 1;
    for (k = 0; k < count; k++) {
        fft_input_fill(seed, row, (uint64_t)out->rows[k] * 2 * n, 2 * (uint64_t)n);
        if (spdrt_fft_reference(&c, &p, row, out->expected + (size_t)k * 2 * n) != 0) {
            free(row);
            fft_reference_1d_free(out);
            return -1;
        }
    }
    free(row);
    return 0;
}

static void bars(fft_check *c) {
    c->bound_rel_l2 = SPDRT_FFT_BOUND_REL_L2;
    c->bound_max_rel = SPDRT_FFT_BOUND_MAX_REL;
}

static int compare(const float *got, const double *ref, uint64_t complex_values, fft_check *c) {
    spdrt_fft_error e;
    spdrt_fft_compare(got, ref, 2 * complex_values, 1, &e);
    c->rel_l2 = e.rel_l2;
    c->max_rel = e.max_rel;
    if (e.non_finite) {
        snprintf(c->first, sizeof c->first, "%zu values compared with the reference are not "
                 "finite", e.non_finite);
        return -1;
    }
    if (e.rel_l2 > c->bound_rel_l2 || e.max_rel > c->bound_max_rel) {
        snprintf(c->first, sizeof c->first, "relative L2 error %.3g (bound %.3g), max|err| / "
                 "max|ref| %.3g (bound %.3g)", e.rel_l2, c->bound_rel_l2, e.max_rel,
                 c->bound_max_rel);
        return -1;
    }
    return 0;
}

void fft_check_1d(const fft_reference_1d *r, const float *out, fft_check *c) {
    uint64_t n2 = 2 * (uint64_t)r->n, b, j;
    uint32_t k, worst_row = 0;
    float *sampled = malloc((size_t)r->row_count * n2 * sizeof *sampled);
    int bad = 0;
    memset(c, 0, sizeof *c);
    bars(c);
    if (r->bluestein)
        c->bound_rel_l2 = SPDRT_FFT_BOUND_BLUESTEIN_REL_L2;
    c->parseval_bound = PARSEVAL_BOUND;
    c->values = (uint64_t)r->batch * r->n;
    c->rows_compared = r->row_count;
    snprintf(c->what, sizeof c->what, "%u of %u rows against the double reference; every "
             "row finite and within %.0e of Parseval", r->row_count, r->batch, PARSEVAL_BOUND);
    if (!sampled) {
        c->status = BENCH_FAILED;
        snprintf(c->first, sizeof c->first, "out of memory");
        return;
    }
    for (b = 0; b < r->batch; b++) {
        const float *row = out + b * n2;
        double e = 0.0, want = r->energy[b] * r->n, rel;
        uint64_t bad_values = 0;
        for (j = 0; j < n2; j++) {
            double v = row[j];
            if (!isfinite(v))
                bad_values++;
            else
                e += v * v;
        }
        c->non_finite += bad_values;
        rel = want > 0.0 ? fabs(e - want) / want : fabs(e);
        if (bad_values == 0 && rel > c->parseval) {
            c->parseval = rel;
            worst_row = (uint32_t)b;
        }
        if (bad_values && !bad) {
            snprintf(c->first, sizeof c->first, "row %llu holds %llu values that are not "
                     "finite (never written?)", (unsigned long long)b,
                     (unsigned long long)bad_values);
            bad = 1;
        }
    }
    if (!bad && c->parseval > c->parseval_bound) {
        snprintf(c->first, sizeof c->first, "row %u: sum |X|^2 is %.3g away from N sum |x|^2 "
                 "(relative; bound %.0e)", worst_row, c->parseval, c->parseval_bound);
        bad = 1;
    }
    for (k = 0; k < r->row_count; k++)
        memcpy(sampled + (size_t)k * n2, out + (uint64_t)r->rows[k] * n2, n2 * sizeof *sampled);
    {
        char earlier[sizeof c->first];
        memcpy(earlier, c->first, sizeof earlier);
        if (compare(sampled, r->expected, (uint64_t)r->row_count * r->n, c) != 0) {
            if (bad) /* report the first problem found */
                memcpy(c->first, earlier, sizeof earlier);
            bad = 1;
        }
    }
    free(sampled);
    c->status = bad ? BENCH_FAILED : BENCH_OK;
}

/* ---- 2D ------------------------------------------------------------------------------ */

double *fft_reference_2d(uint64_t seed, uint32_t rows, uint32_t cols, int real) {
    uint32_t width = real ? cols / 2 : cols; /* complex values per output row */
    double *z = malloc((size_t)rows * width * 2 * sizeof *z);
    double *line = malloc((size_t)2 * (cols > rows ? cols : rows) * sizeof *line);
    uint32_t r, c;
    if (!z || !line) {
        free(z), free(line);
        return NULL;
    }
    for (r = 0; r < rows; r++) {
        double *out = z + (size_t)r * width * 2;
        for (c = 0; c < cols; c++) {
            if (real) {
                line[2 * c] = fft_input_value(seed, (uint64_t)r * cols + c);
                line[2 * c + 1] = 0.0;
            } else {
                line[2 * c] = fft_input_value(seed, ((uint64_t)r * cols + c) * 2);
                line[2 * c + 1] = fft_input_value(seed, ((uint64_t)r * cols + c) * 2 + 1);
            }
        }
        spdrt_fft_ref_transform(line, cols, -1);
        memcpy(out, line, (size_t)width * 2 * sizeof *out);
        if (real)
            out[1] = line[cols]; /* the real X[N/2] in element 0's imaginary part */
    }
    for (c = 0; c < width; c++) {
        for (r = 0; r < rows; r++) {
            line[2 * r] = z[((size_t)r * width + c) * 2];
            line[2 * r + 1] = z[((size_t)r * width + c) * 2 + 1];
        }
        spdrt_fft_ref_transform(line, rows, -1);
        for (r = 0; r < rows; r++) {
            z[((size_t)r * width + c) * 2] = line[2 * r];
            z[((size_t)r * width + c) * 2 + 1] = line[2 * r + 1];
        }
    }
    free(line);
    return z;
}

void fft_check_2d(const double *expected, const float *out, uint64_t complex_values,
                  fft_check *c) {
    uint64_t i;
    memset(c, 0, sizeof *c);
    bars(c);
    c->values = complex_values;
    snprintf(c->what, sizeof c->what, "the whole output against a 2D reference in double");
    for (i = 0; i < 2 * complex_values; i++)
        c->non_finite += !isfinite(out[i]);
    c->status = compare(out, expected, complex_values, c) == 0 ? BENCH_OK : BENCH_FAILED;
}
