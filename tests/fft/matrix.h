/* tests/fft/matrix.h: the FFT per-config matrix, shared by matrix.c (runs every case on the
 * local Vulkan device) and list.c (prints every case's spdgen flags, one per line: the MSL and
 * SPIR-V checks run the same matrix). Each program defines run_strided(), what a case does.
 *
 * The matrix covers every listed value of each parameter at least once and every listed N
 * on both languages, without the full cross product (lavapipe runs on the CPU). */
#ifndef SPDGEN_FFT_MATRIX_H
#define SPDGEN_FFT_MATRIX_H

#include "common.h"
#include "tap.h"

static int list_only; /* list.c: the flags of each case once */

/* Runs one case with `count` FFTs and the given strides (0: packed); one TAP line. */
static void run_strided(const fft_case *c, uint32_t count, uint32_t in_stride, uint32_t out_stride);

static void run_case(const fft_case *c, uint32_t count) { run_strided(c, count, 0, 0); }

/* Every listed N with Nabla's shape (E = 2 up to 2 x 1024, then 1024 invocations), subgroup
 * shuffles of the device's size, both directions. */
static void sizes(void)
{
    static const uint32_t ns[] = {4, 8, 16, 64, 256, 1024, 2048, 4096, 8192, 16384};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        uint32_t n = ns[i], wg = n / 2 <= 1024 ? n / 2 : 1024;
        uint32_t sg = wg >= 8 ? 8 : 0;
        for (int inverse = 0; inverse < 2; inverse++) {
            fft_case c = {.n = n, .ept = n / wg, .wg = wg, .subgroup = sg, .inverse = inverse};
            run_case(&c, n <= 1024 ? 8 : 2);
        }
    }
}

/* Every E in {2, 4, ..., 64} and every workgroup size 2..1024 (with sizes()), each with
 * subgroups 0, 4 and 8 where they fit; E = 32 and 64 in the default shapes of N = 8192 and
 * 16384 (W = 256) and at W = 4 and 64. */
static void shapes(void)
{
    static const struct { uint32_t n, ept; } s[] = {
        {16, 8}, {64, 16}, {256, 4}, {1024, 8}, {4096, 16}, {16384, 16}, {2048, 2},
        {512, 4}, {8192, 8}, {64, 4}, {8192, 32}, {16384, 64}, {128, 32}, {256, 64},
        {2048, 32}, {4096, 64},
    };
    static const uint32_t sgs[] = {0, 4, 8};
    for (size_t i = 0; i < sizeof s / sizeof *s; i++)
        for (size_t k = 0; k < 3; k++) {
            uint32_t wg = s[i].n / s[i].ept;
            if (sgs[k] > wg) continue;
            fft_case c = {.n = s[i].n, .ept = s[i].ept, .wg = wg, .subgroup = sgs[k], .inverse = (int)(i & 1)};
            run_case(&c, s[i].n <= 1024 ? 4 : 1);
        }
    /* The smallest workgroup: W = 2. */
    fft_case w2 = {.n = 32, .ept = 16, .wg = 2};
    run_case(&w2, 4);
}

/* Orders, norms, real signals, columns, rows per workgroup, f16 storage and the twiddle table. */
static void options(void)
{
    static const fft_case cases[] = {
        {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .native = 1},
        {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .native = 1, .inverse = 1},
        {.n = 4096, .ept = 8, .wg = 512, .subgroup = 4, .native = 1},
        {.n = 4096, .ept = 8, .wg = 512, .subgroup = 0, .native = 1, .inverse = 1},
        {.n = 256, .ept = 2, .wg = 128, .norm = "none", .inverse = 1},
        {.n = 256, .ept = 2, .wg = 128, .norm = "unitary"},
        {.n = 256, .ept = 2, .wg = 128, .norm = "unitary", .inverse = 1},
        {.n = 512, .ept = 4, .wg = 128, .subgroup = 8, .real = 1},
        {.n = 512, .ept = 4, .wg = 128, .subgroup = 8, .real = 1, .inverse = 1},
        {.n = 8, .ept = 2, .wg = 4, .subgroup = 4, .real = 1},
        {.n = 8, .ept = 2, .wg = 4, .real = 1, .inverse = 1},
        {.n = 16384, .ept = 16, .wg = 1024, .subgroup = 8, .real = 1},
        {.n = 256, .ept = 4, .wg = 64, .subgroup = 8, .strided = 1},
        {.n = 1024, .ept = 16, .wg = 64, .subgroup = 4, .strided = 1, .inverse = 1},
        {.n = 64, .ept = 2, .wg = 32, .strided = 1, .native = 1},
        {.n = 64, .ept = 2, .wg = 32, .rows = 8},
        {.n = 128, .ept = 4, .wg = 32, .subgroup = 8, .rows = 4, .inverse = 1},
        {.n = 256, .ept = 8, .wg = 32, .subgroup = 4, .rows = 2, .native = 1},
        {.n = 16, .ept = 2, .wg = 8, .rows = 8, .f16 = 1, .inverse = 1},
        {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .f16 = 1},
        {.n = 2048, .ept = 8, .wg = 256, .f16 = 1, .inverse = 1, .native = 1},
        {.n = 512, .ept = 4, .wg = 128, .f16 = 1, .real = 1},
        {.n = 512, .ept = 4, .wg = 128, .subgroup = 8, .f16 = 1, .real = 1, .inverse = 1},
        {.n = 64, .ept = 2, .wg = 32, .f16 = 1, .real = 1, .inverse = 1},
        {.n = 16, .ept = 16, .wg = 1, .f16 = 1, .real = 1, .inverse = 1},
        {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .lut = 1},
        {.n = 4096, .ept = 16, .wg = 256, .subgroup = 4, .lut = 1, .inverse = 1},
        /* --shared-layout paired: every exchange through one float2 array. */
        {.n = 4096, .ept = 16, .wg = 256, .paired = 1},
        {.n = 1024, .ept = 4, .wg = 256, .subgroup = 8, .real = 1, .paired = 1},
        {.n = 512, .ept = 4, .wg = 128, .real = 1, .inverse = 1, .paired = 1},
        {.n = 2048, .ept = 8, .wg = 256, .f16 = 1, .inverse = 1, .native = 1, .paired = 1},
        {.n = 64, .ept = 2, .wg = 32, .rows = 8, .paired = 1},
        /* E = 32 and 64 with the other options. */
        {.n = 8192, .ept = 32, .wg = 256, .subgroup = 8, .native = 1, .inverse = 1},
        {.n = 2048, .ept = 64, .wg = 32, .subgroup = 4, .real = 1},
        {.n = 1024, .ept = 32, .wg = 32, .real = 1, .inverse = 1, .paired = 1},
        {.n = 4096, .ept = 64, .wg = 64, .f16 = 1, .native = 1},
        {.n = 8192, .ept = 32, .wg = 256, .lut = 1, .inverse = 1},
        {.n = 2048, .ept = 32, .wg = 64, .subgroup = 8, .strided = 1},
        {.n = 16384, .ept = 64, .wg = 256, .paired = 1}, /* the default shapes of 16384, 8192 */
        {.n = 8192, .ept = 32, .wg = 256, .subgroup = 4, .paired = 1, .inverse = 1},
        /* --prefetch-rows: rows in turn, the next one's loads in flight (9 rows: a partial
         * last workgroup, and one that runs a single row). */
        {.n = 4096, .ept = 16, .wg = 256, .prefetch = 2, .paired = 1},
        {.n = 4096, .ept = 16, .wg = 256, .subgroup = 8, .prefetch = 4, .inverse = 1, .native = 1},
        {.n = 1024, .ept = 8, .wg = 128, .subgroup = 4, .prefetch = 8, .f16 = 1},
        {.n = 256, .ept = 8, .wg = 32, .prefetch = 2, .lut = 1, .norm = "unitary"},
        /* Rows in registers up to E x R = 64 values: the default shapes of N = 4096 and 8192
         * (2 rows), 64 and 128 (8/E rows), 4 rows of E = 16 with shuffles and DIT, and 32 rows
         * of E = 2 (9 rows: a partial last workgroup). */
        {.n = 4096, .ept = 16, .wg = 256, .rows = 2, .paired = 1},
        {.n = 8192, .ept = 32, .wg = 256, .rows = 2, .paired = 1},
        {.n = 4096, .ept = 16, .wg = 256, .subgroup = 8, .rows = 4, .inverse = 1, .native = 1},
        {.n = 64, .ept = 2, .wg = 32, .subgroup = 8, .rows = 4},
        {.n = 128, .ept = 4, .wg = 32, .rows = 2, .inverse = 1},
        {.n = 256, .ept = 2, .wg = 128, .subgroup = 4, .rows = 32, .norm = "unitary"},
        /* --twiddles squared: every other register stage squares the twiddle before it (DIF:
         * forward and natural-order inverse), with rows in registers, rows in turn, shuffles
         * after the register stages, real rows, E = 64, and DIT (native inverse: no stage
         * squares, the flag is accepted). */
        {.n = 4096, .ept = 16, .wg = 256, .rows = 4, .paired = 1, .squared = 1},
        {.n = 2048, .ept = 16, .wg = 128, .prefetch = 2, .paired = 1, .squared = 1},
        {.n = 1024, .ept = 16, .wg = 64, .subgroup = 8, .inverse = 1, .squared = 1},
        {.n = 16384, .ept = 64, .wg = 256, .paired = 1, .inverse = 1, .squared = 1},
        {.n = 512, .ept = 16, .wg = 32, .subgroup = 4, .real = 1, .squared = 1},
        {.n = 256, .ept = 8, .wg = 32, .native = 1, .inverse = 1, .squared = 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint32_t count = cases[i].n <= 1024 ? 6 : 2;
        if (cases[i].strided || cases[i].rows || cases[i].prefetch) count = 9; /* a partial last group */
        run_case(&cases[i], count);
    }
}

/* Columns in lanes (--column-layout lanes, the default for --stride up to W = 64): counts
 * that are no multiple of C (1, C - 1, C + 1, 3C + 5: columns past count read zero and are
 * not written; the output is NaN-filled, so a stray or missing store shows), strides longer
 * than count (gaps that must stay unwritten), shuffles across C lanes (--subgroup above C;
 * quad swaps 2 lanes apart at C = 2), DIT (native inverse), f16, the twiddle table, C from 1
 * to 64, and the register layout kept reachable. */
static void columns(void)
{
    static const fft_case cases[] = {
        {.n = 256, .ept = 8, .wg = 32, .strided = 1},                      /* C = 16 (default) */
        {.n = 1024, .ept = 16, .wg = 64, .subgroup = 8, .strided = 1, .inverse = 1},
        {.n = 64, .ept = 2, .wg = 32, .subgroup = 8, .strided = 1, .f16 = 1},
        {.n = 128, .ept = 4, .wg = 32, .subgroup = 8, .strided = 1, .cols = 2},
        {.n = 256, .ept = 4, .wg = 64, .subgroup = 8, .strided = 1, .cols = 4, .native = 1, .inverse = 1},
        {.n = 128, .ept = 4, .wg = 32, .subgroup = 4, .strided = 1, .cols = 2, .native = 1},
        {.n = 512, .ept = 16, .wg = 32, .strided = 1, .cols = 32, .lut = 1, .inverse = 1},
        {.n = 4096, .ept = 16, .wg = 256, .subgroup = 8, .strided = 1, .layout = "lanes"}, /* C = 4 */
        {.n = 512, .ept = 16, .wg = 32, .subgroup = 8, .strided = 1, .cols = 1},
        {.n = 16, .ept = 2, .wg = 8, .subgroup = 4, .strided = 1, .cols = 64, .norm = "unitary"},
        {.n = 256, .ept = 4, .wg = 64, .subgroup = 8, .strided = 1, .layout = "registers"},
        {.n = 256, .ept = 8, .wg = 32, .strided = 1, .paired = 1},          /* C = 16, float2 slots */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const fft_case *c = &cases[i];
        uint32_t C = c->cols ? c->cols : c->layout && !strcmp(c->layout, "registers") ? 4 : 1024 / c->wg < 16 ? 1024 / c->wg : 16;
        uint32_t counts[] = {1, C - 1, C + 1, 3 * C + 5};
        if (list_only) { /* the flags once */
            run_case(c, 1);
            continue;
        }
        for (size_t k = 0; k < 4; k++) {
            if (counts[k] == 0 || (k > 0 && counts[k] == counts[k - 1])) continue;
            if (c->n >= 4096 && k != 2) continue; /* lavapipe: one count at N = 4096 */
            run_case(c, counts[k]);
        }
        /* Strides longer than count: columns c + j * stride with gaps between. */
        run_strided(c, C + 1, C + 1 + 7, C + 1 + 3);
    }
}

#endif
