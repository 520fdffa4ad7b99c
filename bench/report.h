/* report.h: the benchmark's results as a markdown table and as JSON. */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include <stdio.h>

#include "results.h"

/* Marks the fastest correct variant of every (size, format, op). */
void bench_report_mark_best(bench_report *r);

void bench_report_markdown(const bench_report *r, FILE *out);
void bench_report_json(const bench_report *r, FILE *out);

/* Failed timings, failed checks and failed groups: the run fails if this is not 0. */
uint32_t bench_report_failures(const bench_report *r);

#endif
