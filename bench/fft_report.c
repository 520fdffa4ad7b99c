/* fft_report.c: markdown and JSON from the FFT benchmark's results. The derived figures are
 * computed here, once, from medians and byte counts:
 *   GB/s        = bytes / median time (bytes: the transform's input read + output written)
 *   % of floor  = floor median / FFT median, both per repetition with cold caches; the
 *                 floor copies the group's input bytes (reads them and writes as many)
 *   b2b %       = floor b2b / FFT b2b
 *   floor spread = slower / faster median of the floor's two runs - 1 */
#include <string.h>

#include "fft_bench.h"
#include "report_cells.h"

static int correct(const fft_variant *v) {
    return bench_timed(&v->time) && v->check.status == BENCH_OK &&
           v->runtime_check.status != BENCH_FAILED;
}

/* See bench_floor_spread: how far the group's two floor runs differ. */
static double floor_spread(const fft_group *g) {
    return bench_floor_spread(&g->floor_first, &g->floor_last);
}

/* The targets, as a fraction of the floor in the same run (1D only): issue 5's for powers
 * of two, issue 27's for other N (mixed radix >= 80%, Bluestein >= 30%). */
static double target(const fft_group *g) {
    if (g->kind != FFT_GROUP_1D)
        return 0.0;
    switch (fft_length_kind_of(g->n)) {
    case FFT_LENGTH_SMOOTH:
        return 0.80;
    case FFT_LENGTH_RADER:
    case FFT_LENGTH_BLUESTEIN:
        return 0.30;
    default:
        return g->n <= 8192 ? 0.90 : g->n <= 16384 ? 0.85 : 0.45;
    }
}

/* What users would pick instead, measured on the same H200 (../shared/FACTS.md), TB/s of
 * bytes read + written; quoted, not measured here. */
static const struct { uint32_t n; double cufft, vkfft; } anchors[] = {
    {256, 4.07, 1.18}, {1024, 4.11, 0.81}, {2048, 4.08, 0.63}, {4096, 4.08, 0.61},
    {8192, 4.05, 0.57}, {16384, 2.92, 0.57}, {32768, 2.10, 0.76}, {65536, 1.85, 1.27},
};
#define CUFFT_2D_US 21.7
#define CUFFT_RFFT2_US 15.4

void fft_report_mark_best(fft_report *r) {
    uint32_t g, v;
    for (g = 0; g < r->group_count; g++) {
        fft_group *gr = &r->groups[g];
        fft_variant *best = NULL;
        for (v = 0; v < gr->variant_count; v++) {
            fft_variant *x = &gr->variants[v];
            x->best = 0;
            if (correct(x) && (!best || x->time.median_us < best->time.median_us))
                best = x;
        }
        if (best)
            best->best = 1;
    }
}

uint32_t fft_report_failures(const fft_report *r) {
    uint32_t n = r->error[0] ? 1 : 0, g, v;
    for (g = 0; g < r->group_count; g++) {
        const fft_group *gr = &r->groups[g];
        n += gr->error[0] != 0;
        n += gr->floor.status == BENCH_FAILED;
        for (v = 0; v < gr->variant_count; v++) {
            const fft_variant *x = &gr->variants[v];
            n += x->time.status == BENCH_FAILED || x->check.status == BENCH_FAILED ||
                 x->runtime_check.status == BENCH_FAILED ||
                 x->dispatch_time[0].status == BENCH_FAILED ||
                 x->dispatch_time[1].status == BENCH_FAILED;
        }
    }
    return n;
}

/* ---- markdown ------------------------------------------------------------------------ */

static const char *check_word(const fft_variant *v) {
    if (v->check.status == BENCH_FAILED || v->runtime_check.status == BENCH_FAILED)
        return "**FAILED**";
    return v->check.status == BENCH_OK ? "ok" : "—";
}

static void cell_error(FILE *out, const fft_check *c) {
    if (c->status == BENCH_OK || c->status == BENCH_FAILED)
        fprintf(out, " %.2g / %.2g |", c->rel_l2, c->max_rel);
    else
        fprintf(out, " — |");
}

static const char *group_label(const fft_group *g, char *buf, size_t size) {
    if (g->kind == FFT_GROUP_1D)
        snprintf(buf, size, "%u", g->n);
    else
        snprintf(buf, size, "%ux%u%s", g->rows, g->n,
                 g->kind == FFT_GROUP_2D_REAL ? " real" : " complex");
    return buf;
}

/* A variant's spdgen command(s) for the table: "`--fft 2048 --subgroup 32`", and for 2D
 * "`rows` then `columns`", without the program's name. */
static const char *md_command(const fft_variant *v, char *buf, size_t size) {
    const char *p = v->command;
    size_t used = 0;
    buf[0] = '\0';
    if (!*p)
        return "—";
    while (*p && used + 1 < size) {
        const char *end = strstr(p, " + ");
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (!strncmp(p, "spdgen ", 7))
            p += 7, len -= 7;
        used += (size_t)snprintf(buf + used, size - used, "%s`%.*s`", used ? " then " : "",
                                 (int)len, p);
        if (!end || used >= size)
            break;
        p = end + 3;
    }
    return buf;
}

static void header(const fft_report *r, FILE *out) {
    const bench_run_info *ri = &r->run;
    fprintf(out, "# FFT benchmark\n\n");
    fprintf(out, "Device: %s (driver %s), Vulkan %s, subgroup size %u; %s; %s.\n\n",
            ri->device, ri->driver, ri->api_version, ri->subgroup_size,
            ri->spdgen_version[0] ? ri->spdgen_version : "spdgen", ri->date);
    if (ri->cpu_device)
        fprintf(out, "> **Smoke run on a CPU implementation (%s).** It proves the benchmark "
                "works end to end; its times are not GPU figures and the targets do not "
                "apply.\n\n", ri->device);
    if (ri->quick)
        fprintf(out, "> `--quick`: fewer sizes, variants and repetitions, and %u MiB per 1D "
                "transform instead of 512.\n\n", r->batch_mib);
    fprintf(out, "Method (bench/README.md, \"The FFT benchmark\"; the harness is the SPD "
            "benchmark's): ");
    bench_run_info_method(ri, out);
    fprintf(out, " 1D: batched complex fp32 forward FFTs, %u MiB of input per transform "
            "(batch = that / 8N rows). Bytes = input read + output written (1D: 2 x batch x "
            "8N); GB/s = bytes / us. **%% of floor = floor us / FFT us**: the floor is a "
            "compute copy of the transform's input bytes (the same bytes read and written), "
            "timed the same way in the same run, first and last in each group. A four-step "
            "plan (N > 16384) moves its data twice (input -> scratch -> output), so 50%% is "
            "its ceiling. Error = relative L2 / max|err| / max|ref| against the double "
            "reference.\n\n", r->batch_mib);
}

static const fft_variant *best_of(const fft_group *g) {
    uint32_t v;
    for (v = 0; v < g->variant_count; v++)
        if (g->variants[v].best)
            return &g->variants[v];
    return NULL;
}

/* The default choice with the device's subgroup size: no --ept/--wg/--max-wg, and (2D) no
 * --column-layout for the columns. */
static const fft_variant *default_at(const fft_group *g, uint32_t subgroup) {
    uint32_t v;
    for (v = 0; v < g->variant_count; v++) {
        const fft_request *q = &g->variants[v].req[0];
        const fft_variant *x = &g->variants[v];
        if (!q->ept && !q->wg && !q->max_wg && q->subgroup == subgroup && !q->column_layout &&
            !q->columns_per_wg && (x->requests < 2 || (!x->req[1].column_layout && !x->req[1].columns_per_wg)))
            return x;
    }
    return NULL;
}

/* " (mixed)", " (Rader)", " (Bluestein)" or "": a prime whose N - 1 is smooth is named by the
 * path its default took (spdgen's --prime auto). */
static const char *path_label(const fft_group *g) {
    const fft_variant *d = default_at(g, 0);
    switch (fft_length_kind_of(g->n)) {
    case FFT_LENGTH_SMOOTH:
        return " (mixed)";
    case FFT_LENGTH_RADER:
        return d && !strstr(d->shape, "Rader") ? " (Bluestein)" : " (Rader)";
    case FFT_LENGTH_BLUESTEIN:
        return " (Bluestein)";
    default:
        return "";
    }
}

static void cell_variant_percent(FILE *out, const fft_group *g, const fft_variant *v) {
    if (v && correct(v) && bench_timed(&g->floor))
        fprintf(out, " %.1f us, %.1f%% |", v->time.median_us,
                100.0 * g->floor.median_us / v->time.median_us);
    else
        fprintf(out, " %s |", v ? "—" : "not run");
}

static void summary(const fft_report *r, FILE *out) {
    uint32_t g, a;
    int any = 0;
    for (g = 0; g < r->group_count; g++)
        any |= r->groups[g].kind == FFT_GROUP_1D;
    if (!any)
        return;
    fprintf(out, "## Summary: 1D\n\n");
    fprintf(out, "| N | batch | floor us | floor GB/s | default `--fft N` | default E, W at "
            "`--subgroup %u` | best variant | best us | best GB/s | best %% of floor | "
            "target | cuFFT / VkFFT on the H200 (quoted) |\n", r->run.subgroup_size);
    fprintf(out, "|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (g = 0; g < r->group_count; g++) {
        const fft_group *gr = &r->groups[g];
        const fft_variant *b = best_of(gr);
        double t = target(gr);
        if (gr->kind != FFT_GROUP_1D)
            continue;
        fprintf(out, "| %u%s | %u |", gr->n, path_label(gr), gr->batch);
        bench_cell_us(out, &gr->floor, "");
        bench_cell_gbps(out, gr->bytes, bench_median_us(&gr->floor));
        cell_variant_percent(out, gr, default_at(gr, 0));
        if (fft_length_kind_of(gr->n) != FFT_LENGTH_POW2)
            fprintf(out, " — (no shuffles) |"); /* mixed radix and Bluestein: shared memory */
        else
            cell_variant_percent(out, gr, default_at(gr, r->run.subgroup_size));
        if (b) {
            char cmd[400];
            fprintf(out, " %s (%s) | %.1f |", md_command(b, cmd, sizeof cmd), b->shape,
                    b->time.median_us);
            bench_cell_gbps(out, gr->bytes, b->time.median_us);
            bench_cell_percent(out, bench_median_us(&gr->floor), b->time.median_us);
        } else {
            fprintf(out, " — | — | — | — |");
        }
        if (r->run.cpu_device || !b || !bench_timed(&gr->floor))
            fprintf(out, " >= %.0f%% |", 100.0 * t);
        else
            fprintf(out, " >= %.0f%% %s |", 100.0 * t,
                    gr->floor.median_us / b->time.median_us >= t ? "✓ met" : "✗ missed");
        for (a = 0; a < sizeof anchors / sizeof anchors[0]; a++)
            if (anchors[a].n == gr->n)
                break;
        if (a < sizeof anchors / sizeof anchors[0])
            fprintf(out, " %.2f / %.2f TB/s |\n", anchors[a].cufft, anchors[a].vkfft);
        else
            fprintf(out, " — |\n");
    }
    fprintf(out, "\nbest = the fastest variant whose output passed every check. Targets "
            "(issue 5, ratios to the floor in the same run): N <= 8192 >= 90%%, N = 16384 >= "
            "85%%, N >= 32768 (four-step plans) >= 45%%; issue 27, N not a power of two: mixed "
            "radix >= 80%%, Bluestein >= 30%%. Anchors (powers of two only): ../shared/FACTS.md, cuFFT "
            "(CUDA 13) and VkFFT 1.3.4 on the same H200 with 512 MiB-1 GiB per transform, "
            "bytes read + written / time; not measured by this program.\n\n");
}

static void variant_rows(const fft_report *r, FILE *out, int two_d) {
    uint32_t g, v;
    char label[64], cmd[400];
    if (two_d)
        fprintf(out, "| transform | variant | shape | us | GB/s | %% of floor | b2b us | "
                "b2b %% of floor | floor us | error | check | cuFFT on the H200 (quoted) |\n"
                "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
    else
        fprintf(out, "| N | variant | shape | batch | us | GB/s | %% of floor | b2b us | "
                "b2b %% of floor | floor us | error | check |\n"
                "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (g = 0; g < r->group_count; g++) {
        const fft_group *gr = &r->groups[g];
        if ((gr->kind != FFT_GROUP_1D) != two_d)
            continue;
        for (v = 0; v < gr->variant_count; v++) {
            const fft_variant *x = &gr->variants[v];
            fprintf(out, "| %s | %s%s%s | %s |", group_label(gr, label, sizeof label),
                    md_command(x, cmd, sizeof cmd), x->is_default ? " (default)" : "",
                    x->best ? " **best**" : "", x->shape[0] ? x->shape : "—");
            if (!two_d)
                fprintf(out, " %u |", gr->batch);
            bench_cell_us(out, &x->time, "");
            bench_cell_gbps(out, gr->bytes, bench_median_us(&x->time));
            bench_cell_percent(out, bench_median_us(&gr->floor), bench_median_us(&x->time));
            bench_cell_time(out, bench_b2b_us(&x->time)); /* — also where skipped */
            bench_cell_percent(out, bench_b2b_us(&gr->floor), bench_b2b_us(&x->time));
            if (bench_timed(&gr->floor))
                fprintf(out, " %.1f%s |", gr->floor.median_us,
                        floor_spread(gr) > BENCH_SPREAD_WARN ? " ⚠" : "");
            else
                fprintf(out, " — |");
            cell_error(out, &x->check);
            fprintf(out, " %s |", check_word(x));
            if (two_d)
                fprintf(out, " %.1f us |", gr->kind == FFT_GROUP_2D_REAL ? CUFFT_RFFT2_US
                                                                        : CUFFT_2D_US);
            fprintf(out, "\n");
        }
    }
    fprintf(out, "\n");
}

/* Every two-dispatch variant's dispatches, each timed alone. Each moves as many bytes as
 * the floor copies (a plan's pass reads and writes the whole transform; 2D rows and columns
 * read and write the whole image), so each has its own ratio to the floor: a plan meets
 * 45% only if its passes average 90%. */
static void dispatch_rows(const fft_report *r, FILE *out) {
    uint32_t g, v, i, rows = 0;
    char label[64], cmd[400];
    for (g = 0; g < r->group_count; g++)
        for (v = 0; v < r->groups[g].variant_count; v++)
            rows += r->groups[g].variants[v].dispatches == 2;
    if (!rows)
        return;
    fprintf(out, "## Each dispatch alone (four-step plans and 2D)\n\n"
            "Each of the two dispatches timed on its own, the same way, after the checks: "
            "pass 1 and pass 2 of a plan, rows and columns of a 2D transform. Each reads and "
            "writes as many bytes as the floor copies, so **%% of floor** is that dispatch's "
            "own; **together** = the whole run's time, barrier included.\n\n"
            "| transform | variant | first us | first %% of floor | second us | second %% of "
            "floor | sum us | together us |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (g = 0; g < r->group_count; g++) {
        const fft_group *gr = &r->groups[g];
        double floor_us = bench_median_us(&gr->floor), sum;
        for (v = 0; v < gr->variant_count; v++) {
            const fft_variant *x = &gr->variants[v];
            if (x->dispatches != 2)
                continue;
            fprintf(out, "| %s | %s%s |", group_label(gr, label, sizeof label),
                    md_command(x, cmd, sizeof cmd), x->is_default ? " (default)" : "");
            sum = 0.0;
            for (i = 0; i < 2; i++) {
                const bench_timing *t = &x->dispatch_time[i];
                bench_cell_us(out, t, "");
                bench_cell_percent(out, floor_us, bench_median_us(t));
                sum = sum >= 0.0 && bench_timed(t) ? sum + t->median_us : -1.0;
            }
            bench_cell_time(out, sum);
            bench_cell_us(out, &x->time, "");
            fprintf(out, "\n");
        }
    }
    fprintf(out, "\n");
}

static void floors(const fft_report *r, FILE *out) {
    uint32_t g, drifted = 0;
    char label[64];
    fprintf(out, "## Floors\n\n");
    fprintf(out, "| group | MB moved | floor us | floor GB/s | floor b2b us | b2b GB/s | floor "
            "1st / last run us (spread) |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (g = 0; g < r->group_count; g++) {
        const fft_group *gr = &r->groups[g];
        fprintf(out, "| %s%s | %.1f |", gr->kind == FFT_GROUP_1D ? "N = " : "",
                group_label(gr, label, sizeof label), (double)gr->bytes / 1e6);
        bench_cell_us(out, &gr->floor, "");
        bench_cell_gbps(out, gr->bytes, bench_median_us(&gr->floor));
        bench_cell_time(out, bench_b2b_us(&gr->floor)); /* — also where skipped */
        bench_cell_gbps(out, gr->bytes, bench_b2b_us(&gr->floor));
        bench_cell_floor_runs(out, &gr->floor_first, &gr->floor_last);
        fprintf(out, "\n");
        drifted += floor_spread(gr) > BENCH_SPREAD_WARN;
    }
    fprintf(out, "\nfloor = bench/shaders/copy.comp copying the group's input bytes from the "
            "input buffer to the output buffer the FFTs use (MB moved = read + written). ");
    bench_floor_drift_sentence(out, drifted, "group");
    fprintf(out, "\n\n");
}

static uint32_t note_count(const fft_report *r) {
    uint32_t n = 0, g, v;
    for (g = 0; g < r->group_count; g++) {
        const fft_group *gr = &r->groups[g];
        n += (gr->batch_note[0] != 0) + (gr->error[0] != 0) + (gr->floor.note[0] != 0);
        for (v = 0; v < gr->variant_count; v++) {
            const fft_variant *x = &gr->variants[v];
            n += (x->time.note[0] != 0) + (x->check.status == BENCH_FAILED) +
                 (x->dispatch_time[0].note[0] != 0) + (x->dispatch_time[1].note[0] != 0) +
                 (x->runtime_check.status == BENCH_FAILED ||
                  x->runtime_check.status == BENCH_SKIPPED);
        }
    }
    return n;
}

static void notes(const fft_report *r, FILE *out) {
    uint32_t g, v, i, checks = 0, passed = 0;
    char label[64], what[500], text[600], cmd[400];
    if (note_count(r))
        fprintf(out, "Notes:\n\n");
    for (g = 0; g < r->group_count; g++) {
        const fft_group *gr = &r->groups[g];
        group_label(gr, label, sizeof label);
        if (gr->batch_note[0])
            bench_note(out, label, gr->batch_note);
        if (gr->error[0])
            bench_note(out, label, gr->error);
        if (gr->floor.note[0]) {
            snprintf(what, sizeof what, "%s floor", label);
            bench_note(out, what, gr->floor.note);
        }
        for (v = 0; v < gr->variant_count; v++) {
            const fft_variant *x = &gr->variants[v];
            snprintf(what, sizeof what, "%s %s", label, md_command(x, cmd, sizeof cmd));
            if (x->time.note[0])
                bench_note(out, what, x->time.note);
            for (i = 0; i < 2; i++)
                if (x->dispatch_time[i].note[0]) {
                    snprintf(text, sizeof text, "dispatch %u alone: %s", i + 1,
                             x->dispatch_time[i].note);
                    bench_note(out, what, text);
                }
            if (x->check.status == BENCH_OK || x->check.status == BENCH_FAILED)
                checks++;
            passed += x->check.status == BENCH_OK;
            if (x->check.status == BENCH_FAILED) {
                snprintf(text, sizeof text, "**wrong result**: %s (checked: %s)",
                         x->check.first, x->check.what);
                bench_note(out, what, text);
            }
            if (x->runtime_check.status == BENCH_FAILED ||
                x->runtime_check.status == BENCH_SKIPPED) {
                snprintf(text, sizeof text, "the runtime's plan path %s: %s",
                         x->runtime_check.status == BENCH_FAILED ? "**failed**" : "skipped",
                         x->runtime_check.first);
                bench_note(out, what, text);
            }
        }
    }
    fprintf(out, "%sChecks: %u of %u timed variants produced the right output (1D: every "
            "value finite, every row's energy within 1e-5 of Parseval, up to the sampled rows "
            "against the double reference within relative L2 %.0e (Bluestein's lengths %.1e) "
            "and max %.0e; 2D: the whole "
            "output against a 2D double reference within the same bars; four-step plans also "
            "through spdrt_fft_plan_load + spdrt_fft_plan_run). %u failure(s) in all.\n",
            note_count(r) ? "\n" : "", passed, checks, SPDRT_FFT_BOUND_REL_L2,
            SPDRT_FFT_BOUND_BLUESTEIN_REL_L2, SPDRT_FFT_BOUND_MAX_REL,
            fft_report_failures(r));
    if (r->error[0])
        fprintf(out, "\n**Run failed:** %s\n", r->error);
}

void fft_report_markdown(const fft_report *r, FILE *out) {
    uint32_t g;
    int one_d = 0, two_d = 0;
    for (g = 0; g < r->group_count; g++) {
        one_d |= r->groups[g].kind == FFT_GROUP_1D;
        two_d |= r->groups[g].kind != FFT_GROUP_1D;
    }
    header(r, out);
    summary(r, out);
    if (one_d) {
        fprintf(out, "## 1D: batched complex fp32, forward\n\n");
        variant_rows(r, out, 0);
    }
    if (two_d) {
        fprintf(out, "## 2D: %ux%u (rows of %u, then columns of %u with `--stride`)\n\n"
                "complex: rows `--fft %u` (%u FFTs) into a scratch buffer, a barrier, columns "
                "`--fft %u --stride` (%u FFTs) into the output, timed together. real: rows "
                "`--fft %u --real` (%u FFTs of two real rows each, half spectra of %u complex "
                "values with X[0] and X[N/2] packed in element 0), then the %u columns of "
                "that. Bytes = input + output (complex %u MiB each; real %u MiB each).\n\n",
                FFT_BENCH_2D_ROWS, FFT_BENCH_2D_COLS, FFT_BENCH_2D_COLS, FFT_BENCH_2D_ROWS,
                FFT_BENCH_2D_COLS, FFT_BENCH_2D_ROWS, FFT_BENCH_2D_ROWS, FFT_BENCH_2D_COLS,
                FFT_BENCH_2D_COLS, FFT_BENCH_2D_ROWS / 2, FFT_BENCH_2D_COLS / 2,
                FFT_BENCH_2D_COLS / 2, FFT_BENCH_2D_ROWS * FFT_BENCH_2D_COLS * 8 >> 20,
                FFT_BENCH_2D_ROWS * FFT_BENCH_2D_COLS * 4 >> 20);
        variant_rows(r, out, 1);
    }
    dispatch_rows(r, out);
    floors(r, out);
    notes(r, out);
}

/* ---- JSON ---------------------------------------------------------------------------- */

static void json_check(FILE *out, const char *key, const fft_check *c) {
    fprintf(out, "\"%s\": {\"status\": \"%s\", \"rel_l2\": %.4g, \"max_rel\": %.4g, "
            "\"bound_rel_l2\": %.3g, \"bound_max_rel\": %.3g, \"parseval\": %.4g, "
            "\"parseval_bound\": %.3g, \"values\": %llu, \"non_finite\": %llu, "
            "\"rows_compared\": %u, \"what\": ", key, bench_status_name(c->status), c->rel_l2,
            c->max_rel, c->bound_rel_l2, c->bound_max_rel, c->parseval, c->parseval_bound,
            (unsigned long long)c->values, (unsigned long long)c->non_finite,
            c->rows_compared);
    bench_json_string(out, c->what);
    fprintf(out, ", \"problem\": ");
    bench_json_string(out, c->first);
    fprintf(out, "}");
}

static const char *kind_name(fft_group_kind k) {
    return k == FFT_GROUP_1D ? "1d" : k == FFT_GROUP_2D ? "2d" : "2d_real";
}

void fft_report_json(const fft_report *r, FILE *out) {
    uint32_t g, v, i;
    char batch[32];
    snprintf(batch, sizeof batch, "\"batch_mib\": %u, ", r->batch_mib);
    bench_run_info_json(&r->run, "fft", batch, out);
    fprintf(out, "  \"seconds\": %.1f,\n", r->seconds);
    fprintf(out, "  \"method\": \"bench/gpu.c's harness: one command buffer per measured "
            "thing: heat passes, then warmup + reps repetitions, each [scrub pass] barrier "
            "timestamp WORK timestamp; median_us = median of the reps; b2b_us = b2b_runs runs "
            "back to back (barrier after each, no scrub) / b2b_runs; fraction_of_floor = floor "
            "median / median; the floor (a compute copy of copy_bytes, reading and writing "
            "them) pools its two runs, first and last of its group\",\n");
    fprintf(out, "  \"bytes_counted\": \"input read + output written per transform\",\n"
            "  \"groups\": [");
    for (g = 0; g < r->group_count; g++) {
        const fft_group *gr = &r->groups[g];
        fprintf(out, "%s\n    {\"kind\": \"%s\", \"n\": %u, \"rows\": %u, \"batch\": %u, "
                "\"in_bytes\": %llu, \"out_bytes\": %llu, \"bytes\": %llu, \"copy_bytes\": "
                "%llu, \"target_fraction_of_floor\": ", g ? "," : "", kind_name(gr->kind),
                gr->n, gr->rows, gr->batch, (unsigned long long)gr->in_bytes,
                (unsigned long long)gr->out_bytes, (unsigned long long)gr->bytes,
                (unsigned long long)gr->copy_bytes);
        if (target(gr) > 0.0)
            fprintf(out, "%.2f", target(gr));
        else
            fprintf(out, "null");
        fprintf(out, ", \"path\": \"%s\"", gr->kind != FFT_GROUP_1D ? "power of two"
                : fft_length_kind_of(gr->n) == FFT_LENGTH_BLUESTEIN ? "bluestein"
                : fft_length_kind_of(gr->n) == FFT_LENGTH_RADER ? "rader"
                : fft_length_kind_of(gr->n) == FFT_LENGTH_SMOOTH ? "mixed radix" : "power of two");
        fprintf(out, ", \"batch_note\": ");
        bench_json_string(out, gr->batch_note);
        fprintf(out, ", \"error\": ");
        bench_json_string(out, gr->error);
        bench_json_floors(out, &gr->floor, &gr->floor_first, &gr->floor_last, gr->bytes);
        fprintf(out, ",\n     \"variants\": [");
        for (v = 0; v < gr->variant_count; v++) {
            const fft_variant *x = &gr->variants[v];
            fprintf(out, "%s\n      {\"spdgen\": ", v ? "," : "");
            bench_json_string(out, x->command);
            fprintf(out, ", \"shape\": ");
            bench_json_string(out, x->shape);
            fprintf(out, ", \"requests\": [");
            for (i = 0; i < x->requests; i++)
                fprintf(out, "%s{\"n\": %u, \"ept\": %u, \"wg\": %u, \"subgroup\": %u, "
                        "\"max_wg\": %u, \"strided\": %s, \"real\": %s, \"column_layout\": %s%s%s, "
                        "\"columns_per_wg\": %s%s%s}",
                        i ? ", " : "", x->req[i].n, x->req[i].ept, x->req[i].wg, x->req[i].subgroup,
                        x->req[i].max_wg, x->req[i].strided ? "true" : "false",
                        x->req[i].real ? "true" : "false", x->req[i].column_layout ? "\"" : "",
                        x->req[i].column_layout ? x->req[i].column_layout : "null",
                        x->req[i].column_layout ? "\"" : "", x->req[i].columns_per_wg ? "\"" : "",
                        x->req[i].columns_per_wg ? x->req[i].columns_per_wg : "null",
                        x->req[i].columns_per_wg ? "\"" : "");
            fprintf(out, "], \"default\": %s, \"plan\": %s, \"best\": %s,\n       ",
                    x->is_default ? "true" : "false", x->plan ? "true" : "false",
                    x->best ? "true" : "false");
            bench_json_timing(out, "time", &x->time, gr->bytes, &gr->floor);
            fprintf(out, ",\n       ");
            json_check(out, "check", &x->check);
            if (x->plan) {
                fprintf(out, ",\n       ");
                json_check(out, "runtime_plan_check", &x->runtime_check);
            }
            /* Each dispatch alone moves the group's bytes (dispatch_rows says why). */
            for (i = 0; i < x->dispatches && x->dispatches == 2; i++) {
                char key[32];
                snprintf(key, sizeof key, "dispatch%u_alone", i + 1);
                fprintf(out, ",\n       ");
                bench_json_timing(out, key, &x->dispatch_time[i], gr->bytes, &gr->floor);
            }
            fprintf(out, "}");
        }
        fprintf(out, "]}");
    }
    fprintf(out, "\n  ],\n  \"failures\": %u,\n  \"error\": ", fft_report_failures(r));
    bench_json_string(out, r->error);
    fprintf(out, "\n}\n");
}
