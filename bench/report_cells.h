/* report_cells.h: the pieces both benchmarks' reports (report.c, fft_report.c) build their
 * markdown and JSON from: whether a timing counts, its GB/s, the floor's spread, table cells,
 * notes, and JSON strings and timings. One spelling of each, so the two reports agree. Also
 * how both mains write a finished report to the file --markdown or --json names. */
#ifndef BENCH_REPORT_CELLS_H
#define BENCH_REPORT_CELLS_H

#include <stdint.h>
#include <stdio.h>

#include "results.h"

/* The floor's two runs differing by more than this marks the group's ratios as suspect. */
#define BENCH_SPREAD_WARN 0.10

/* Whether t holds a median (or a back-to-back figure) that the report may use. */
int bench_timed(const bench_timing *t);
int bench_timed_b2b(const bench_timing *t);
/* The median (the back-to-back figure) where there is one, else 0: what the cells below and
 * the percentages take, 0 meaning "not measured". */
double bench_median_us(const bench_timing *t);
double bench_b2b_us(const bench_timing *t);

double bench_gbps(uint64_t bytes, double us);
const char *bench_status_name(bench_status s);

/* The floor's drift: how much slower its slower run was than its faster one. Negative when
 * either run is missing. */
double bench_floor_spread(const bench_timing *first, const bench_timing *last);

/* ---- markdown cells: each " value |" ------------------------------------------------- */

/* The median with `mark` after it; n/a where skipped, — where not measured. */
void bench_cell_us(FILE *out, const bench_timing *t, const char *mark);
/* The back-to-back figure; n/a where skipped, — where not measured. */
void bench_cell_b2b(FILE *out, const bench_timing *t);
/* A time in us, — where us is not above 0. */
void bench_cell_time(FILE *out, double us);
/* Whole GB/s on a GPU; a decimal where the figure is small (CPU smoke runs). */
void bench_cell_gbps(FILE *out, uint64_t bytes, double us);
/* floor_us / us as a percentage. */
void bench_cell_percent(FILE *out, double floor_us, double us);
/* "first / last (spread%)", bold with ⚠ beyond BENCH_SPREAD_WARN. */
void bench_cell_floor_runs(FILE *out, const bench_timing *first, const bench_timing *last);

/* The sentence under a floor table: whether any floor drifted (`drifted` groups) during its
 * `group` ("(size, format)", "group"). */
void bench_floor_drift_sentence(FILE *out, uint32_t drifted, const char *group);

/* A "- what: text" line of the notes. */
void bench_note(FILE *out, const char *what, const char *text);

/* ---- JSON ---------------------------------------------------------------------------- */

void bench_json_string(FILE *out, const char *s);
/* "key": {status, the median and its GB/s over `bytes`, the back-to-back figure, each as a
 * fraction of `floor`'s where floor is given and timed, the note, the driver's statistics}. */
void bench_json_timing(FILE *out, const char *key, const bench_timing *t, uint64_t bytes,
                       const bench_timing *floor);
/* A group's floor: ",\n     " and its pooled timing, the same for each of its two runs, then
 * "floor_spread" (bench_floor_spread, null where a run is missing). */
void bench_json_floors(FILE *out, const bench_timing *floor, const bench_timing *first,
                       const bench_timing *last, uint64_t bytes);

/* ---- files --------------------------------------------------------------------------- */

/* Writes `report` to the file `path` through `writer` (the program's markdown or JSON writer,
 * taking the void pointer as its own report type); nothing where path is NULL (the option was
 * not given). Atomic: written to path.tmp, then renamed over path. 0, or -1 with "path:
 * reason" on stderr where it could not write or rename the file (path.tmp removed, path as
 * it was). */
int bench_write_file(const char *path, const void *report,
                     void (*writer)(const void *report, FILE *out));

#endif
