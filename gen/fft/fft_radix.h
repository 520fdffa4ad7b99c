/* fft_radix.h: lengths beyond powers of two. Which path a length takes (the power-of-two
 * plan, mixed radix over the primes 2 to 31, or Rader's or Bluestein's convolution for the
 * rest), and the mixed-radix shape: E x W and the stage radices, each stage's butterflies in registers, the
 * exchanges between stages through shared memory in rounds that fit its budget. */
#ifndef SPDGEN_FFT_RADIX_H
#define SPDGEN_FFT_RADIX_H

/* The most stages a plan has (2^20 = 2^14 x 64 is at most 14 stages of radix 2). */
#define SG_FFT_MAX_STAGES 24
/* The largest stage radix: one stage's DFT is written out in registers. */
#define SG_FFT_MAX_RADIX 64
/* Shared memory of one workgroup's exchanges below which two workgroups share a
 * multiprocessor. Measured: 6048 points by component ran at 94% of the copy floor with 24192
 * bytes, at 67% with the same code declaring 28000 (docs/fft.md, "Exchanges by component"). */
#define SG_FFT_PAIR_BYTES 24576
/* Registers per invocation a stage may hold (the power-of-two path's largest E). */
#define SG_FFT_MAX_REGISTERS 64

enum { SG_FFT_PATH_POW2, SG_FFT_PATH_MIXED, SG_FFT_PATH_BLUESTEIN };

/* A mixed-radix plan of one FFT of n points with W = n / E invocations: stage s runs n /
 * radix[s] butterflies of radix[s] points, ceil(E / radix[s]) per invocation (the last ones
 * idle where radix[s] does not divide E), and the exchange after it runs in rounds[s] rounds
 * (rounds > 1 by ranges of elements only where every radix divides E; components: every
 * exchange in two rounds instead, the real parts of all values, then the imaginary parts,
 * which any plan can do). registers: the most values an invocation holds; slots: the largest
 * round in complex values (a round of one component: half its floats), for all `ffts` FFTs
 * of a workgroup. */
typedef struct {
    int count;
    long radix[SG_FFT_MAX_STAGES];
    long rounds[SG_FFT_MAX_STAGES];
    int components;
    long registers;
    long slots;
    long cost; /* the search's estimate, for comparing shapes */
} sg_fft_stages;

/* The largest prime radix: a DFT of up to 31 points is written out in registers (the odd
 * primes as pairs x[l] +- x[R - l]); a length with a larger prime factor takes Rader's or
 * Bluestein's convolution. */
#define SG_FFT_LARGEST_PRIME 31

/* n has no prime factor above SG_FFT_LARGEST_PRIME. */
int sg_fft_is_smooth(long n);
/* Which path n takes: POW2 (a power of two >= 4), MIXED (smooth) or BLUESTEIN. */
int sg_fft_path(long n);
/* Bluestein's convolution length: the power of two >= 2n - 1. */
long sg_fft_bluestein_m(long n);
/* The smallest m >= n with no prime factor above `largest` (5: 2^a 3^b 5^c, 7: ... 7^d). */
long sg_fft_next_smooth(long n, long largest);
/* Rader's primitive root: for a prime n above SG_FFT_LARGEST_PRIME whose n - 1 is smooth,
 * the smallest g whose powers g^0 .. g^(n-2) mod n are every residue 1 .. n-1; 0 for any other n. */
long sg_fft_rader_root(long n);

/* What a shape must allow: EXACT, every radix divides E (every invocation busy in every
 * stage, so register k holds element t + W k between stages: real rows' unpack and
 * Bluestein's product need it); EVEN, an even E (real rows: N/2 = W E/2); JUNCTION, two FFTs
 * back to back (Rader's convolution): exact, or any plan plus one exchange between them.
 * ONE_SUBGROUP: complex rows, whose rows per workgroup stay within one subgroup of 32
 * (sg_fft_mixed_rows). CONFLICTS: the estimate also counts each exchange's bank conflicts;
 * LOAD_BOUND with it: at the lighter weight of a single FFT of complex rows, whose loads hide
 * most of its exchanges' time. CONVOLUTION: Bluestein's forward FFT, product and inverse FFT
 * in one workgroup, whose time is its own work rather than its loads: the conflicts,
 * invocations past 256 and E past 36 (fft_radix.c says why). COMPONENTS: where the exchange
 * does not fit at once and some radix does not divide E, exchange the real parts, then the
 * imaginary parts (each round all n values of 4 bytes, within twice the budget's slots). */
enum {
    SG_FFT_EXACT = 1,
    SG_FFT_EVEN = 2,
    SG_FFT_JUNCTION = 4,
    SG_FFT_ONE_SUBGROUP = 8,
    SG_FFT_CONFLICTS = 16,
    SG_FFT_CONVOLUTION = 32 | SG_FFT_CONFLICTS,
    SG_FFT_LOAD_BOUND = 64,
    SG_FFT_COMPONENTS = 128
};

/* The cheapest stage plan of an n-point FFT as E x W (E = n / W), `ffts` FFTs per
 * workgroup sharing `budget` complex slots of shared memory: 0, or -1 when none fits. */
int sg_fft_stage_plan(long n, long e, long ffts, long budget, int flags, sg_fft_stages *out);

/* FFTs per workgroup for rows of n = E x W (a power of two up to 32, at most max_wg
 * invocations, the exchange within the budget): with ONE_SUBGROUP in flags the most whose
 * invocations fit one subgroup of 32, else enough for two subgroups. */
long sg_fft_mixed_rows(long n, long wg, long max_wg, long budget, int flags);

/* The default shape of n: the E x W (W <= max_wg, E <= SG_FFT_MAX_REGISTERS) whose plan is
 * cheapest, with `lanes` FFTs per workgroup (0: the rows' own choice). 0, or -1 when none. */
int sg_fft_mixed_shape(long n, long max_wg, long lanes, long budget, int flags, long *ept, long *wg);
/* The same, also giving the chosen shape's estimate (*cost, where cost is not NULL). */
int sg_fft_mixed_shape_cost(long n, long max_wg, long lanes, long budget, int flags, long *ept, long *wg,
                            long *cost);

/* The same with E at most max_e (a caller holding several sets of E values per invocation). */
int sg_fft_mixed_shape_within(long n, long max_e, long max_wg, long lanes, long budget, int flags, long *ept,
                              long *wg, long *cost);

/* "E1xW1, E2xW2, ..." for the --ept/--wg pairs that make n with a plan, into buf. */
void sg_fft_mixed_pairs(long n, long max_wg, long lanes, long budget, int flags, char *buf,
                        unsigned long size);

/* "2 x 3 x 5" into buf: the stage radices of a plan. */
void sg_fft_stages_text(const sg_fft_stages *s, char *buf, unsigned long size);

#endif
