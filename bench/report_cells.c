/* report_cells.c: see report_cells.h. */
#define _DEFAULT_SOURCE /* readlink, lstat */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_cells.h"

int bench_timed(const bench_timing *t) {
    return t->status == BENCH_OK && t->median_us > 0.0;
}

int bench_timed_b2b(const bench_timing *t) {
    return t->status == BENCH_OK && t->b2b_runs && t->b2b_us > 0.0;
}

double bench_median_us(const bench_timing *t) {
    return bench_timed(t) ? t->median_us : 0.0;
}

double bench_b2b_us(const bench_timing *t) {
    return bench_timed_b2b(t) ? t->b2b_us : 0.0;
}

double bench_gbps(uint64_t bytes, double us) {
    return (double)bytes / (us * 1e3);
}

const char *bench_status_name(bench_status s) {
    switch (s) {
    case BENCH_OK: return "ok";
    case BENCH_SKIPPED: return "skipped";
    case BENCH_FAILED: return "failed";
    default: return "not run";
    }
}

double bench_floor_spread(const bench_timing *first, const bench_timing *last) {
    double a = first->median_us, b = last->median_us;
    if (!bench_timed(first) || !bench_timed(last))
        return -1.0;
    return (a > b ? a / b : b / a) - 1.0;
}

/* ---- markdown cells ------------------------------------------------------------------ */

void bench_cell_us(FILE *out, const bench_timing *t, const char *mark) {
    if (bench_timed(t))
        fprintf(out, " %.1f%s |", t->median_us, mark);
    else
        fprintf(out, " %s |", t->status == BENCH_SKIPPED ? "n/a" : "—");
}

void bench_cell_b2b(FILE *out, const bench_timing *t) {
    if (bench_timed_b2b(t))
        fprintf(out, " %.1f |", t->b2b_us);
    else
        fprintf(out, " %s |", t->status == BENCH_SKIPPED ? "n/a" : "—");
}

void bench_cell_time(FILE *out, double us) {
    if (us > 0.0)
        fprintf(out, " %.1f |", us);
    else
        fprintf(out, " — |");
}

void bench_cell_gbps(FILE *out, uint64_t bytes, double us) {
    double v;
    if (us <= 0.0) {
        fprintf(out, " — |");
        return;
    }
    v = bench_gbps(bytes, us);
    fprintf(out, v < 100.0 ? " %.1f |" : " %.0f |", v);
}

void bench_cell_percent(FILE *out, double floor_us, double us) {
    if (floor_us > 0.0 && us > 0.0)
        fprintf(out, " %.1f%% |", 100.0 * floor_us / us);
    else
        fprintf(out, " — |");
}

void bench_cell_floor_runs(FILE *out, const bench_timing *first, const bench_timing *last) {
    double spread = bench_floor_spread(first, last);
    if (spread < 0.0) {
        fprintf(out, " — |");
        return;
    }
    fprintf(out, spread > BENCH_SPREAD_WARN ? " **%.1f / %.1f (%.0f%%)** ⚠ |"
                                            : " %.1f / %.1f (%.0f%%) |",
            first->median_us, last->median_us, 100.0 * spread);
}

void bench_floor_drift_sentence(FILE *out, uint32_t drifted, const char *group) {
    if (drifted)
        fprintf(out, "⚠ = the floor's two runs differ by more than %.0f%%: the GPU's speed "
                "drifted during that %s, so its ratios are suspect.", 100.0 * BENCH_SPREAD_WARN,
                group);
    else
        fprintf(out, "The floor's two runs agree within %.0f%% everywhere.",
                100.0 * BENCH_SPREAD_WARN);
}

void bench_note(FILE *out, const char *what, const char *text) {
    fprintf(out, "- %s: %s\n", what, text);
}

/* ---- JSON ---------------------------------------------------------------------------- */

void bench_json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

void bench_json_timing(FILE *out, const char *key, const bench_timing *t, uint64_t bytes,
                       const bench_timing *floor) {
    fprintf(out, "\"%s\": {\"status\": \"%s\"", key, bench_status_name(t->status));
    if (bench_timed(t)) {
        fprintf(out, ", \"median_us\": %.3f, \"min_us\": %.3f, \"max_us\": %.3f, "
                "\"samples\": %u, \"gbps\": %.2f", t->median_us, t->min_us, t->max_us,
                t->samples, bench_gbps(bytes, t->median_us));
        if (floor && bench_timed(floor))
            fprintf(out, ", \"fraction_of_floor\": %.4f", floor->median_us / t->median_us);
    }
    if (bench_timed_b2b(t)) {
        fprintf(out, ", \"b2b_us\": %.3f, \"b2b_runs\": %u, \"b2b_gbps\": %.2f", t->b2b_us,
                t->b2b_runs, bench_gbps(bytes, t->b2b_us));
        if (floor && bench_timed_b2b(floor))
            fprintf(out, ", \"b2b_fraction_of_floor\": %.4f", floor->b2b_us / t->b2b_us);
    }
    fprintf(out, ", \"note\": ");
    bench_json_string(out, t->note);
    if (t->driver_statistics[0]) {
        fprintf(out, ", \"driver_statistics\": ");
        bench_json_string(out, t->driver_statistics);
    }
    fprintf(out, "}");
}

void bench_json_floors(FILE *out, const bench_timing *floor, const bench_timing *first,
                       const bench_timing *last, uint64_t bytes) {
    double spread = bench_floor_spread(first, last);
    fprintf(out, ",\n     ");
    bench_json_timing(out, "floor", floor, bytes, NULL);
    fprintf(out, ",\n     ");
    bench_json_timing(out, "floor_first", first, bytes, NULL);
    fprintf(out, ",\n     ");
    bench_json_timing(out, "floor_last", last, bytes, NULL);
    if (spread >= 0.0)
        fprintf(out, ",\n     \"floor_spread\": %.4f", spread);
    else
        fprintf(out, ",\n     \"floor_spread\": null");
}

/* ---- files --------------------------------------------------------------------------- */

/* The report written to `to` (path names it in messages): 0, or -1 after saying why. fclose
 * flushes, so a full disk shows there, not in the writer's fprintf calls. */
static int write_report(const char *path, const char *to, const void *report,
                        void (*writer)(const void *report, FILE *out)) {
    FILE *f = fopen(to, "w");
    int failed;
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    errno = 0;
    writer(report, f);
    failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        fprintf(stderr, "%s: %s\n", path, errno ? strerror(errno) : "write error");
        return -1;
    }
    return 0;
}

int bench_write_file(const char *path, const void *report,
                     void (*writer)(const void *report, FILE *out)) {
    char tmp[4096], real[PATH_MAX], resolved[PATH_MAX];
    struct stat st;
    if (!path)
        return 0;
    /* A device or FIFO (/dev/null, a pipe) is written through, never replaced. */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (!S_ISDIR(st.st_mode))
            return write_report(path, path, report, writer);
        fprintf(stderr, "%s: is a directory\n", path);
        return -1;
    }
    /* A link, even one to a file not there yet, names the file to replace. */
    for (int hops = 0; hops < 40; hops++) {
        char link[PATH_MAX];
        struct stat ls;
        ssize_t n;
        if (lstat(path, &ls) != 0 || !S_ISLNK(ls.st_mode) || (n = readlink(path, link, sizeof link - 1)) < 0)
            break;
        link[n] = '\0';
        const char *slash = strrchr(path, '/');
        int dir = link[0] == '/' || !slash ? 0 : (int)(slash - path) + 1;
        if (dir + strlen(link) >= sizeof real)
            break;
        memcpy(real, path, (size_t)dir);
        strcpy(real + dir, link);
        path = strcpy(resolved, real);
    }
    /* Written beside the target and renamed over it, so a run that fails half-way leaves the
     * file of the run before whole rather than a cut one. */
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, "%s: path too long\n", path);
        return -1;
    }
    if (write_report(path, tmp, report, writer)) {
        remove(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
