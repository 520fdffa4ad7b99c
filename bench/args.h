/* args.h: what both benchmarks' command lines share besides the timing options
 * (timing_options.h): numbers, the usage error, and the options' help lines at the end. */
#ifndef BENCH_ARGS_H
#define BENCH_ARGS_H

#include <stdint.h>

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

/* A decimal number 0..max, all of s (strtoul's leading white space and '+' pass, a '-' does
 * not): 0, or -1 with *out untouched. */
int bench_parse_u32(const char *s, uint32_t max, uint32_t *out);

/* Prints "prog: error: flag value: allowed (see --help)" to stderr; returns 2, the exit
 * status of a usage error. */
int bench_usage(const char *prog, const char *flag, const char *value, const char *allowed);

#endif
