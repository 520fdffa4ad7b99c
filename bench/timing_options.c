/* timing_options.c: see timing_options.h. */
#include <string.h>

#include "args.h"
#include "timing_options.h"

enum { GIVEN_REPS = 1, GIVEN_WARMUP = 2, GIVEN_B2B = 4, GIVEN_HEAT = 8, GIVEN_SCRUB = 16 };

/* The timing options' numbers start with a digit: no sign, no leading space. */
static int parse_u32(const char *s, uint32_t max, uint32_t *out) {
    return s && *s >= '0' && *s <= '9' ? bench_parse_u32(s, max, out) : -1;
}

int bench_timing_option(bench_timing_options *t, const char *flag, const char *value,
                        const char **allowed) {
    uint32_t v;
    if (!strcmp(flag, "--reps")) {
        *allowed = "1..10000";
        if (parse_u32(value, 10000, &v) || v == 0)
            return -1;
        t->reps = v, t->given |= GIVEN_REPS;
    } else if (!strcmp(flag, "--warmup")) {
        *allowed = "0..10000";
        if (parse_u32(value, 10000, &t->warmup))
            return -1;
        t->given |= GIVEN_WARMUP;
    } else if (!strcmp(flag, "--b2b")) {
        *allowed = "0..10000";
        if (parse_u32(value, 10000, &t->b2b))
            return -1;
        t->given |= GIVEN_B2B;
    } else if (!strcmp(flag, "--heat-ms")) {
        *allowed = "0..10000";
        if (parse_u32(value, 10000, &t->heat_ms))
            return -1;
        t->given |= GIVEN_HEAT;
    } else if (!strcmp(flag, "--scrub-mode")) {
        *allowed = "read or write";
        if (!value || (strcmp(value, "read") && strcmp(value, "write")))
            return -1;
        t->scrub_write = !strcmp(value, "write");
    } else if (!strcmp(flag, "--scrub-mib")) {
        *allowed = "0..4096";
        if (parse_u32(value, 4096, &v))
            return -1;
        t->scrub_bytes = (uint64_t)v << 20, t->given |= GIVEN_SCRUB;
    } else {
        return 0;
    }
    return 1;
}

void bench_timing_defaults(bench_timing_options *t, bench_timing_options defaults) {
    if (!(t->given & GIVEN_REPS))
        t->reps = defaults.reps;
    if (!(t->given & GIVEN_WARMUP))
        t->warmup = defaults.warmup;
    if (!(t->given & GIVEN_B2B))
        t->b2b = defaults.b2b;
    if (!(t->given & GIVEN_HEAT))
        t->heat_ms = defaults.heat_ms;
    if (!(t->given & GIVEN_SCRUB))
        t->scrub_bytes = defaults.scrub_bytes;
}
