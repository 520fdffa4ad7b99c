/* args.c: see args.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"

int bench_parse_u32(const char *s, uint32_t max, uint32_t *out) {
    char *end;
    unsigned long v;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int bench_usage(const char *prog, const char *flag, const char *value, const char *allowed) {
    fprintf(stderr, "%s: error: %s %s: %s (see --help)\n", prog, flag, value ? value : "",
            allowed);
    return 2;
}
