/* tap.h: hand-written TAP for the C tests (prove reads it): ok() prints one test line,
 * tap_plan() prints the plan last (so it cannot go stale) and gives the exit status. */
#ifndef SPDGEN_TESTS_TAP_H
#define SPDGEN_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_tests, tap_failed;

static int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3), unused));
static int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    printf("%sok %d - ", cond ? "" : "not ", ++tap_tests);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    if (!cond) tap_failed++;
    return cond;
}

static int tap_plan(void) __attribute__((unused));
static int tap_plan(void)
{
    printf("1..%d\n", tap_tests);
    return tap_failed != 0;
}

#endif
