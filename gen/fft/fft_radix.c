/* fft_radix.c: the mixed-radix planner (fft_radix.h). A plan is a list of stage radices;
 * stage s runs n / R_s butterflies of R_s points (a DFT written out in registers), invocation
 * t taking butterflies t, t + W, ..., and writes its outputs where a Stockham autosort puts
 * them, so the input and the output are in natural order. The search below picks the radices
 * and their order by an estimate of the cost: each exchange through shared memory, idle
 * invocations where a radix does not divide E, twiddles that cannot be shared by an
 * invocation's butterflies, and extra rounds where the exchange does not fit at once. */
#include <stdio.h>
#include <string.h>

#include "fft_radix.h"
#include "number.h"

/* The prime radices a stage writes out in registers (templates/fft/radix.lua's kernels). */
static const long primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31};
#define PRIMES 11

/* Cost units: one exchange through shared memory (a write and a read of every value and
 * two barriers) is EXCHANGE; idle invocations cost IDLE per stage's worth of values they
 * leave unused; a stage whose twiddles need an exponent per butterfly costs GENERAL; each
 * extra round of an exchange ROUND (two barriers). */
#define EXCHANGE 100
#define IDLE 30
#define GENERAL 40
#define ROUND 5
/* Measured (docs/fft.md, E and W; the any-N benchmark): a radix past 8 written out in
 * registers costs more than the exchange it saves (1000 as 10 x 10 x 10 ran at 99% of the
 * copy floor, as 40 x 25 at 73%), and so does E past 12 (fewer invocations in flight).
 * BIG_RADIX per point of radix past 8, WIDE_E per element per invocation past 12. */
#define BIG_RADIX 5
#define WIDE_E 10
/* Bluestein's convolution in one workgroup (SG_FFT_CONVOLUTION), fitted to 47 shapes of 1019,
 * 4099 and 7681 over 28 lengths M (docs/fft.md, "Bluestein's M"):
 * its time followed three things the loads hide in a single FFT. CONFLICT per extra way of
 * the worst bank conflict of an exchange's writes (M = 2187 as 9 x 243, conflict-free, ran 1019
 * 1.23x faster than 2048 as 8 x 256, 8-way); WIDE_W per 32 invocations past 256 (one such
 * workgroup fills a multiprocessor, and its barriers stall all of it: 15552 as 24 x 648 ran
 * 1.31x slower than as 36 x 432); TALL_E per element per invocation past 36 (the registers
 * run out). Any of 10-60, 30-160 and 40-100 picked the same lengths. CONFLICT alone
 * (SG_FFT_CONFLICTS) plans --conv's line passes (docs/conv.md, "Padded sizes"), and
 * HIDDEN_CONFLICT a single FFT of complex rows (SG_FFT_LOAD_BOUND; docs/fft.md, "Lengths
 * beyond powers of two": at 5, 11 of 15 lengths whose plans moved ran 1.02-1.18x faster, two
 * 4% slower; at 30 large radices past E moved in too and lost up to 1.23x). */
#define CONFLICT 30
#define HIDDEN_CONFLICT 5
#define WIDE_W 60
#define TALL_E 40
/* Exchanges by component (SG_FFT_COMPONENTS), measured on complex rows of 2058 to 8064 points
 * (docs/fft.md, "Exchanges by component"): they serve lengths whose rounds by element force E
 * past 40 (2400 as 60 x 40: 79% of the copy floor; by component as 16 x 150: 98%) or that no
 * one-dispatch shape made (4200: a four-step plan at 35%, by component 92%). Where a shape of
 * E <= ELEMENT_MAX_E exchanges by element it stays. A plan by component of E below
 * COMPONENT_MIN_E (a wide workgroup of few loads in flight: 5040 as 7 x 720 ran at 60%, as
 * 16 x 315 at 90%) costs NARROW_COMPONENTS more, so it is taken only where nothing else fits. */
#define ELEMENT_MAX_E 40
#define COMPONENT_MIN_E 16
#define NARROW_COMPONENTS 1000
/* Stop the search after this many orderings: plans are short, this is a guard. */
#define MAX_EVALS 400000

int sg_fft_is_smooth(long n)
{
    if (n < 1) return 0;
    for (int i = 0; i < PRIMES; i++)
        while (n % primes[i] == 0) n /= primes[i];
    return n == 1;
}

int sg_fft_path(long n)
{
    if (n >= 4 && sg_is_pow2(n)) return SG_FFT_PATH_POW2;
    return sg_fft_is_smooth(n) ? SG_FFT_PATH_MIXED : SG_FFT_PATH_BLUESTEIN;
}

long sg_fft_bluestein_m(long n)
{
    long m = 1;
    while (m < 2 * n - 1) m *= 2;
    return m;
}

long sg_fft_next_smooth(long n, long largest)
{
    for (long m = n < 1 ? 1 : n;; m++) {
        long r = m;
        for (int i = 0; i < PRIMES && primes[i] <= largest; i++)
            while (r % primes[i] == 0) r /= primes[i];
        if (r == 1) return m;
    }
}

long sg_fft_rader_root(long n)
{
    if (n <= SG_FFT_LARGEST_PRIME || !sg_fft_is_smooth(n - 1)) return 0;
    for (long d = 2; d * d <= n; d++)
        if (n % d == 0) return 0;
    /* g is a primitive root iff g^((n-1)/p) != 1 for each prime p dividing n - 1; n - 1 is
     * smooth, so its primes are among primes[]. */
    for (long g = 2; g < n; g++) {
        int primitive = 1;
        for (int i = 0; i < PRIMES && primitive; i++) {
            if ((n - 1) % primes[i] != 0) continue;
            long e = (n - 1) / primes[i], r = 1, b = g;
            for (; e; e >>= 1, b = b * b % n)
                if (e & 1) r = r * b % n;
            primitive = r != 1;
        }
        if (primitive) return g;
    }
    return 0;
}

static long gcd(long a, long b)
{
    while (b) {
        long r = a % b;
        a = b;
        b = r;
    }
    return a;
}

typedef struct {
    long n, e, w, ffts, budget;
    int rounds_needed;          /* all of an FFT's values do not fit the budget at once */
    int exact;                  /* every radix must divide E */
    int components;             /* rounds by component where not by elements (SG_FFT_COMPONENTS) */
    long conflict;              /* per extra way of a bank conflict (0: not counted) */
    long cand[64];              /* radices to try: divisors of n, 2..SG_FFT_MAX_RADIX, descending */
    int ncand;
    long seq[SG_FFT_MAX_STAGES];
    int depth;
    sg_fft_stages best;
    int found, max_depth;
    long evals;
} search;

/* The worst bank conflict of the exchange after a stage of radix r whose butterflies' inputs
 * are p apart: output m of butterfly i goes to slot (i div p) p r + (i mod p) + p m, and the
 * 16 invocations of a half subgroup write 8-byte slots, which meet in a bank where they agree
 * mod 16. The first butterfly's first output stands for the rest (the others shift every
 * invocation's slot alike). */
static long write_conflict(long p, long r, long w)
{
    long count[16] = {0}, worst = 1;
    for (long t = 0; t < 16 && t < w; t++) {
        long c = ++count[((t / p) * p * r + t % p) % 16];
        if (c > worst) worst = c;
    }
    return worst;
}

/* The cost of the radices in seq[0..depth) in that order, filling *out; -1: infeasible. */
static long evaluate(search *s, sg_fft_stages *out)
{
    long p = 1, cost = 0, regs = 0, slots = 0;
    int divides = 1;
    for (int i = 0; i < s->depth; i++) divides = divides && s->e % s->seq[i] == 0;
    if (s->exact && !divides) return -1;
    /* An exchange that does not fit at once goes by ranges of elements where every radix
     * divides E, else by component (the real parts, then the imaginary) where one fits. */
    int components = s->rounds_needed && !divides;
    if (components && (!s->components || s->ffts * s->n > 2 * s->budget)) return -1;
    memset(out, 0, sizeof *out);
    out->count = s->depth;
    out->components = components;
    for (int i = 0; i < s->depth; i++) {
        long r = s->seq[i], b = (s->e + r - 1) / r, flies = s->n / r;
        if (b * r > regs) regs = b * r;
        if (regs > SG_FFT_MAX_REGISTERS) return -1;
        /* Idle butterfly slots, weighted by the values they would hold. */
        cost += IDLE * (b * s->w - flies) * r / s->n;
        if (r > 8) cost += BIG_RADIX * (r - 8);
        if (p > 1 && s->w % p != 0 && p % s->w != 0) cost += GENERAL;
        out->radix[i] = r;
        if (i + 1 < s->depth) {
            long q = 1, held = s->ffts * s->n;
            if (components) {
                q = 2;
                held = (held + 1) / 2;
            } else if (s->rounds_needed) {
                /* A round writes the outputs of a range of an invocation's butterflies and
                 * the next stage reads a range of its registers: both need every radix to
                 * divide E, and the rounds to divide the butterflies and what is left. */
                long g = gcd(b, s->n / (p * r));
                q = 0;
                for (long d = 1; d <= g; d++)
                    if (g % d == 0 && s->ffts * (s->n / d) <= s->budget) {
                        q = d;
                        break;
                    }
                if (!q) return -1;
                held /= q;
            }
            out->rounds[i] = q;
            cost += EXCHANGE + ROUND * (q - 1);
            if (s->conflict) cost += s->conflict * (write_conflict(p, r, s->w) - 1);
            if (held > slots) slots = held;
        }
        p *= r;
    }
    out->registers = regs;
    out->slots = slots;
    out->cost = cost;
    return cost;
}

/* Every distinct ordering of seq[from..depth): the multiset is fixed, the order decides the
 * twiddles, the idle invocations and the rounds. */
static void permute(search *s, int from)
{
    if (s->evals >= MAX_EVALS) return;
    if (from == s->depth) {
        sg_fft_stages st;
        s->evals++;
        long c = evaluate(s, &st);
        if (c >= 0 && (!s->found || c < s->best.cost)) {
            s->best = st;
            s->found = 1;
        }
        return;
    }
    for (int i = from; i < s->depth; i++) {
        int seen = 0;
        for (int k = from; k < i; k++) seen |= s->seq[k] == s->seq[i];
        if (seen) continue;
        long t = s->seq[from];
        s->seq[from] = s->seq[i];
        s->seq[i] = t;
        permute(s, from + 1);
        s->seq[i] = s->seq[from];
        s->seq[from] = t;
    }
}

/* Multisets of radices (non-increasing) whose product is m, each then ordered. */
static void multisets(search *s, long m, int first)
{
    if (m == 1) {
        long keep[SG_FFT_MAX_STAGES];
        memcpy(keep, s->seq, sizeof keep);
        permute(s, 0);
        memcpy(s->seq, keep, sizeof keep);
        return;
    }
    if (s->depth >= s->max_depth) return;
    for (int i = first; i < s->ncand; i++) {
        long r = s->cand[i];
        if (m % r != 0) continue;
        s->seq[s->depth++] = r;
        multisets(s, m / r, i);
        s->depth--;
    }
}

static int stage_search(long n, long e, long ffts, long budget, int flags, sg_fft_stages *out);

int sg_fft_stage_plan(long n, long e, long ffts, long budget, int flags, sg_fft_stages *out)
{
    /* Exchanges by element where some plan of this E makes them; by component only otherwise. */
    if ((flags & SG_FFT_COMPONENTS) && sg_fft_stage_plan(n, e, ffts, budget, flags & ~SG_FFT_COMPONENTS, out) == 0)
        return 0;
    if (!(flags & SG_FFT_JUNCTION)) return stage_search(n, e, ffts, budget, flags, out);
    /* Two FFTs back to back: an exact plan hands its registers straight over; any other costs
     * the exchange between them. */
    sg_fft_stages exact, any;
    int has_exact = stage_search(n, e, ffts, budget, flags | SG_FFT_EXACT, &exact) == 0;
    int has_any = stage_search(n, e, ffts, budget, flags & ~SG_FFT_JUNCTION, &any) == 0;
    if (has_any) {
        int is_exact = 1;
        for (int i = 0; i < any.count; i++) is_exact = is_exact && e % any.radix[i] == 0;
        if (!is_exact) any.cost += EXCHANGE;
    }
    if (!has_exact && !has_any) return -1;
    *out = has_exact && (!has_any || exact.cost <= any.cost) ? exact : any;
    return 0;
}

static int stage_search(long n, long e, long ffts, long budget, int flags, sg_fft_stages *out)
{
    search s;
    if (n < 2 || e < 2 || n % e != 0 || !sg_fft_is_smooth(n)) return -1;
    if ((flags & SG_FFT_EVEN) && e % 2 != 0) return -1;
    memset(&s, 0, sizeof s);
    s.n = n, s.e = e, s.w = n / e, s.ffts = ffts, s.budget = budget;
    s.rounds_needed = ffts * n > budget;
    s.exact = (flags & SG_FFT_EXACT) != 0;
    s.components = (flags & SG_FFT_COMPONENTS) != 0;
    s.conflict = !(flags & SG_FFT_CONFLICTS) ? 0 : flags & SG_FFT_LOAD_BOUND ? HIDDEN_CONFLICT : CONFLICT;
    for (long r = SG_FFT_MAX_RADIX; r >= 2; r--)
        if (n % r == 0) s.cand[s.ncand++] = r;
    /* The fewest stages first; a plan of more stages is only looked for where it might cost
     * less (fewer idle invocations), up to two more than the fewest. */
    long rest = n;
    int least = 0;
    while (rest > 1) {
        long r = 0;
        for (int i = 0; i < s.ncand && !r; i++)
            if (rest % s.cand[i] == 0) r = s.cand[i];
        rest /= r;
        least++;
    }
    for (int d = least; d <= least + 2 && d <= SG_FFT_MAX_STAGES; d++) {
        s.max_depth = d;
        s.depth = 0;
        multisets(&s, n, 0);
    }
    if (!s.found) return -1;
    *out = s.best;
    return 0;
}

/* The share of a subgroup of 32 that `threads` invocations leave unused, in percent. */
static long lane_waste(long threads)
{
    long used = (threads + 31) / 32 * 32;
    return (used - threads) * 100 / used;
}

long sg_fft_mixed_rows(long n, long wg, long max_wg, long budget, int flags)
{
    /* A power of two up to 32, as --rows-per-wg takes (so the regenerate command runs); the
     * exchanges stay whole (one round). Complex rows: within one subgroup of 32, measured
     * faster than two subgroups at 18 of 24 lengths from 12 to 961 and at most 2% slower at
     * the rest (up to 1.65x with the large prime radices' registers; docs/fft.md, E and W).
     * Rader's and Bluestein's rows (measured both ways: faster at six lengths, 1.13-1.25x
     * slower at 41 and 61) and real rows keep at least two subgroups. */
    int one = flags & SG_FFT_ONE_SUBGROUP;
    long f = 1;
    while ((one ? 2 * f * wg <= 32 : f * wg < 64) && 2 * f <= 32 && 2 * f * wg <= max_wg &&
           2 * f * n <= budget)
        f *= 2;
    return f;
}

/* The estimate of a shape: its plan (into *st), the lanes its workgroup leaves idle, registers
 * past 32 and E past 12 (fewer invocations in flight), and a plan by component of E below
 * COMPONENT_MIN_E. */
static int shape_cost(long n, long e, long max_wg, long lanes, long budget, int flags, long *cost,
                      sg_fft_stages *st)
{
    long w = n / e;
    if (e > SG_FFT_MAX_REGISTERS || w > max_wg) return -1;
    long ffts = lanes ? lanes : sg_fft_mixed_rows(n, w, max_wg, budget, flags);
    if (ffts * w > max_wg) return -1;
    if (sg_fft_stage_plan(n, e, ffts, budget, flags, st) != 0) return -1;
    *cost = st->cost + lane_waste(ffts * w) / 2 + (st->registers > 32 ? st->registers - 32 : 0) +
            (e > 12 ? WIDE_E * (e - 12) : 0) + (st->components && e < COMPONENT_MIN_E ? NARROW_COMPONENTS : 0);
    if ((flags & SG_FFT_CONVOLUTION) == SG_FFT_CONVOLUTION)
        *cost += (ffts * w > 256 ? WIDE_W * (ffts * w - 256) / 32 : 0) + (e > 36 ? TALL_E * (e - 36) : 0);
    return 0;
}

/* The cheapest shape of E <= max_e whose largest round holds at most max_slots (0: any). */
static int cheapest_shape(long n, long max_e, long max_wg, long lanes, long budget, int flags, long max_slots,
                          long *ept, long *wg, long *cost)
{
    long best = -1, best_e = 0;
    for (long e = 2; e <= max_e && e <= SG_FFT_MAX_REGISTERS && e <= n; e++) {
        long c;
        sg_fft_stages st;
        if (n % e != 0 || shape_cost(n, e, max_wg, lanes, budget, flags, &c, &st) != 0) continue;
        if (max_slots && st.slots > max_slots) continue;
        /* Ties: E nearest 16, the power-of-two path's default. */
        long d = e > 16 ? e - 16 : 16 - e, bd = best_e > 16 ? best_e - 16 : 16 - best_e;
        if (best < 0 || c < best || (c == best && d < bd)) best = c, best_e = e;
    }
    if (best < 0) return -1;
    *ept = best_e;
    *wg = n / best_e;
    if (cost) *cost = best;
    return 0;
}

int sg_fft_mixed_shape_cost(long n, long max_wg, long lanes, long budget, int flags, long *ept, long *wg,
                            long *cost)
{
    return sg_fft_mixed_shape_within(n, SG_FFT_MAX_REGISTERS, max_wg, lanes, budget, flags, ept, wg, cost);
}

int sg_fft_mixed_shape_within(long n, long max_e, long max_wg, long lanes, long budget, int flags, long *ept,
                              long *wg, long *cost)
{
    if (flags & SG_FFT_COMPONENTS) {
        /* Shapes by component only where no shape of E <= ELEMENT_MAX_E exchanges by element;
         * and where a round by component would pass SG_FFT_PAIR_BYTES, only where no shape by
         * element keeps its rounds within them. */
        int by_element = flags & ~SG_FFT_COMPONENTS;
        if (cheapest_shape(n, max_e < ELEMENT_MAX_E ? max_e : ELEMENT_MAX_E, max_wg, lanes, budget, by_element, 0,
                           ept, wg, cost) == 0)
            return 0;
        if (n * 4 > SG_FFT_PAIR_BYTES && cheapest_shape(n, max_e, max_wg, lanes, budget, by_element,
                                                        SG_FFT_PAIR_BYTES / 8, ept, wg, cost) == 0)
            return 0;
    }
    return cheapest_shape(n, max_e, max_wg, lanes, budget, flags, 0, ept, wg, cost);
}

int sg_fft_mixed_shape(long n, long max_wg, long lanes, long budget, int flags, long *ept, long *wg)
{
    return sg_fft_mixed_shape_cost(n, max_wg, lanes, budget, flags, ept, wg, NULL);
}

void sg_fft_mixed_pairs(long n, long max_wg, long lanes, long budget, int flags, char *buf,
                        unsigned long size)
{
    buf[0] = '\0';
    for (long e = 2; e <= SG_FFT_MAX_REGISTERS && e <= n; e++) {
        long c;
        sg_fft_stages st;
        if (n % e != 0 || shape_cost(n, e, max_wg, lanes, budget, flags, &c, &st) != 0) continue;
        snprintf(buf + strlen(buf), size - strlen(buf), "%s--ept %ld --wg %ld", buf[0] ? ", " : "",
                 e, n / e);
    }
}

void sg_fft_stages_text(const sg_fft_stages *s, char *buf, unsigned long size)
{
    buf[0] = '\0';
    for (int i = 0; i < s->count; i++)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%ld", i ? " x " : "", s->radix[i]);
}
