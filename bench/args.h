/* args.h: what both benchmarks' command lines share: the common options (--quick,
 * --validate, the timing options of timing_options.h, --json, --markdown, --spdgen, --device,
 * --help) parsed in one place, numbers, the usage error, and the options' help lines at the
 * end. Each program's parser keeps only its own options and defaults. */
#ifndef BENCH_ARGS_H
#define BENCH_ARGS_H

#include <stdint.h>

#include "timing_options.h"

/* The --help lines of the options both benchmarks take last, after their own. */
#define BENCH_HELP_COMMON                                                                   \
    "  --json FILE       write every figure as JSON\n"                                      \
    "  --markdown FILE   write the table to FILE as well\n"                                 \
    "  --spdgen PATH     the spdgen binary (default: $SPDGEN_BUILD/spdgen, else\n"          \
    "                    ../spdgen or ./spdgen next to this program)\n"                     \
    "  --device NAME     Vulkan device: index or name substring (else $SPDGEN_DEVICE)\n"    \
    "  --validate        run under the Khronos validation layer with synchronization\n"     \
    "                    validation (slow; for checking the benchmark itself)\n"            \
    "  --help\n"

/* A decimal number 0..max, all of s digits (no sign, no space): 0, or -1 with *out
 * untouched. */
int bench_parse_u32(const char *s, uint32_t max, uint32_t *out);
/* "WxH", each 1..max (with square, also "N" for NxN), all of s: 0, or -1. */
int bench_parse_size(const char *s, uint32_t max, int square, uint32_t *w, uint32_t *h);

/* Calls item(token, user) for each comma-separated token of `list` (at most 511 bytes): 0,
 * or -1 when the list is too long, empty, holds an empty item, or an item returns nonzero. The one list parser of
 * both benchmarks' options. */
int bench_each_item(const char *list, int (*item)(const char *token, void *user), void *user);
/* The same with another separator and up to 2047 bytes (spd_bench --variants: ';'). */
int bench_each_sep(const char *list, char sep, int (*item)(const char *token, void *user),
                   void *user);

/* Prints "prog: error: flag value: allowed (see --help)" to stderr; returns 2, the exit
 * status of a usage error. */
int bench_usage(const char *prog, const char *flag, const char *value, const char *allowed);

/* The options both benchmarks take; each one's options struct embeds it as `common`. */
typedef struct {
    int quick, validation;
    bench_timing_options timing;     /* --reps, --warmup, --b2b, --heat-ms, --scrub-* */
    const char *json_path, *markdown_path, *spdgen_path, *device;
} bench_common_options;

/* The usage error of an option without its value: an unknown option last on the line, or a
 * known one whose value is missing (the parsers cannot tell the two apart). */
#define BENCH_MISSING_VALUE "unknown option, or its value is missing"

/* What bench_common_option made of an argument. HELP and USAGE are also what the parsers
 * return (exit 0 and 2), so a parser passes them on as they are. */
enum {
    BENCH_ARG_OWN = 0,   /* not a common option: the program's own, or an unknown one */
    BENCH_ARG_HELP = 1,  /* --help or -h: the help was printed */
    BENCH_ARG_USAGE = 2, /* a usage error, printed */
    BENCH_ARG_TAKEN = 3  /* a common option, taken with its value (*i moved past it) */
};

/* Takes argv[*i] if it is a common option; a parser's loop asks this first, so its own
 * checks see only its own options. `help` prints the program's --help. A common option that
 * needs a value and is last gets BENCH_MISSING_VALUE, the parsers' own error for that. */
int bench_common_option(bench_common_options *c, const char *prog, void (*help)(void),
                        int argc, char **argv, int *i);

#endif
