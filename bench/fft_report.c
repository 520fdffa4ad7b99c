/* fft_report.c: markdown and JSON from the FFT benchmark's results. The derived figures are
 * computed here, once, from medians and byte counts:
 *   GB/s        = bytes / median time (bytes: the transform's input read + output written)
 *   % of floor  = floor median / FFT median, both per repetition with cold caches; the
 *                 floor copies the group's input bytes (reads them and writes as many)
 *   b2b %       = floor b2b / FFT b2b
 *   floor spread = slower / faster median of the floor's two runs - 1 */
#include <string.h>

#include "fft_bench.h"

#define SPREAD_WARN 0.10

static int timed(const bench_timing *t) {
    return t->status == BENCH_OK && t->median_us > 0.0;
}

static int timed_b2b(const bench_timing *t) {
    return t->status == BENCH_OK && t->b2b_runs && t->b2b_us > 0.0;
}

static double gbps(uint64_t bytes, double us) {
    return (double)bytes / (us * 1e3);
}

static int correct(const fft_variant *v) {
    return timed(&v->time) && v->check.status == BENCH_OK &&
           v->runtime_check.status != BENCH_FAILED;
}

static double floor_spread(const fft_group *g) {
    double a = g->floor_first.median_us, b = g->floor_last.median_us;
    if (!timed(&g->floor_first) || !timed(&g->floor_last))
        return -1.0;
    return (a > b ? a / b : b / a) - 1.0;
}

static const char *status_name(bench_status s) {
    switch (s) {
    case BENCH_OK: return "ok";
    case BENCH_SKIPPED: return "skipped";
    case BENCH_FAILED: return "failed";
    default: return "not run";
    }
}

/* Issue 5's targets, as a fraction of the floor in the same run (1D only). */
static double target(const fft_group *g) {
    if (g->kind != FFT_GROUP_1D)
        return 0.0;
    return g->n <= 8192 ? 0.90 : g->n <= 16384 ? 0.85 : 0.45;
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

static void cell_us(FILE *out, const bench_timing *t) {
    if (timed(t))
        fprintf(out, " %.1f |", t->median_us);
    else
        fprintf(out, " %s |", t->status == BENCH_SKIPPED ? "n/a" : "—");
}

static void cell_b2b(FILE *out, const bench_timing *t) {
    if (timed_b2b(t))
        fprintf(out, " %.1f |", t->b2b_us);
    else
        fprintf(out, " — |");
}

static void cell_gbps(FILE *out, uint64_t bytes, double us) {
    double v;
    if (us <= 0.0) {
        fprintf(out, " — |");
        return;
    }
    v = gbps(bytes, us);
    fprintf(out, v < 100.0 ? " %.1f |" : " %.0f |", v);
}

static void cell_percent(FILE *out, double floor_us, double us) {
    if (floor_us > 0.0 && us > 0.0)
        fprintf(out, " %.1f%% |", 100.0 * floor_us / us);
    else
        fprintf(out, " — |");
}

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
    fprintf(out, "# FFT benchmark\n\n");
    fprintf(out, "Device: %s (driver %s), Vulkan %s, subgroup size %u; %s; %s.\n\n", r->device,
            r->driver, r->api_version, r->subgroup_size,
            r->spdgen_version[0] ? r->spdgen_version : "spdgen", r->date);
    if (r->cpu_device)
        fprintf(out, "> **Smoke run on a CPU implementation (%s).** It proves the benchmark "
                "works end to end; its times are not GPU figures and the targets do not "
                "apply.\n\n", r->device);
    if (r->quick)
        fprintf(out, "> `--quick`: fewer sizes, variants and repetitions, and %u MiB per 1D "
                "transform instead of 512.\n\n", r->batch_mib);
    fprintf(out, "Method (bench/README.md, \"The FFT benchmark\"; the harness is the SPD "
            "benchmark's): each measured thing is one command buffer, one submit. ");
    if (r->heat_ms > 0 && r->heat_passes)
        fprintf(out, "It starts with %u read passes over a %llu MiB buffer (~%.0f ms of GPU "
                "work: clocks up; one pass %.1f us) and then runs ", r->heat_passes,
                (unsigned long long)(r->heat_bytes >> 20), r->heat_ms, r->heat_pass_us);
    else
        fprintf(out, "No heat-up (`--heat-ms 0`). It runs ");
    fprintf(out, "%u untimed and %u timed repetitions", r->warmup, r->reps);
    if (r->scrub_bytes)
        fprintf(out, ", each after a compute %s pass over a %llu MiB buffer (cold caches) and "
                "a full barrier", r->scrub_write ? "write" : "read",
                (unsigned long long)(r->scrub_bytes >> 20));
    else
        fprintf(out, ", each after a full barrier (no scrub: warm caches)");
    fprintf(out, ", with GPU timestamps around the work alone; **us = median of the "
            "repetitions**.");
    if (r->b2b_runs)
        fprintf(out, " **b2b us** = %u runs back to back (a barrier after each, no scrub), "
                "total / %u.", r->b2b_runs, r->b2b_runs);
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

static void cell_variant_percent(FILE *out, const fft_group *g, const fft_variant *v) {
    if (v && correct(v) && timed(&g->floor))
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
            "target | cuFFT / VkFFT on the H200 (quoted) |\n", r->subgroup_size);
    fprintf(out, "|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (g = 0; g < r->group_count; g++) {
        const fft_group *gr = &r->groups[g];
        const fft_variant *b = best_of(gr);
        double t = target(gr);
        if (gr->kind != FFT_GROUP_1D)
            continue;
        fprintf(out, "| %u | %u |", gr->n, gr->batch);
        cell_us(out, &gr->floor);
        cell_gbps(out, gr->bytes, timed(&gr->floor) ? gr->floor.median_us : 0.0);
        cell_variant_percent(out, gr, default_at(gr, 0));
        cell_variant_percent(out, gr, default_at(gr, r->subgroup_size));
        if (b) {
            char cmd[400];
            fprintf(out, " %s (%s) | %.1f |", md_command(b, cmd, sizeof cmd), b->shape,
                    b->time.median_us);
            cell_gbps(out, gr->bytes, b->time.median_us);
            cell_percent(out, timed(&gr->floor) ? gr->floor.median_us : 0.0,
                         b->time.median_us);
        } else {
            fprintf(out, " — | — | — | — |");
        }
        if (r->cpu_device || !b || !timed(&gr->floor))
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
            "85%%, N >= 32768 (four-step plans) >= 45%%. Anchors: ../shared/FACTS.md, cuFFT "
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
            cell_us(out, &x->time);
            cell_gbps(out, gr->bytes, timed(&x->time) ? x->time.median_us : 0.0);
            cell_percent(out, timed(&gr->floor) ? gr->floor.median_us : 0.0,
                         timed(&x->time) ? x->time.median_us : 0.0);
            cell_b2b(out, &x->time);
            cell_percent(out, timed_b2b(&gr->floor) ? gr->floor.b2b_us : 0.0,
                         timed_b2b(&x->time) ? x->time.b2b_us : 0.0);
            if (timed(&gr->floor))
                fprintf(out, " %.1f%s |", gr->floor.median_us,
                        floor_spread(gr) > SPREAD_WARN ? " ⚠" : "");
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
        double floor_us = timed(&gr->floor) ? gr->floor.median_us : 0.0, sum;
        for (v = 0; v < gr->variant_count; v++) {
            const fft_variant *x = &gr->variants[v];
            if (x->dispatches != 2)
                continue;
            fprintf(out, "| %s | %s%s |", group_label(gr, label, sizeof label),
                    md_command(x, cmd, sizeof cmd), x->is_default ? " (default)" : "");
            sum = 0.0;
            for (i = 0; i < 2; i++) {
                const bench_timing *t = &x->dispatch_time[i];
                cell_us(out, t);
                cell_percent(out, floor_us, timed(t) ? t->median_us : 0.0);
                sum = sum >= 0.0 && timed(t) ? sum + t->median_us : -1.0;
            }
            if (sum > 0.0)
                fprintf(out, " %.1f |", sum);
            else
                fprintf(out, " — |");
            cell_us(out, &x->time);
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
        double spread = floor_spread(gr);
        fprintf(out, "| %s%s | %.1f |", gr->kind == FFT_GROUP_1D ? "N = " : "",
                group_label(gr, label, sizeof label), (double)gr->bytes / 1e6);
        cell_us(out, &gr->floor);
        cell_gbps(out, gr->bytes, timed(&gr->floor) ? gr->floor.median_us : 0.0);
        cell_b2b(out, &gr->floor);
        cell_gbps(out, gr->bytes, timed_b2b(&gr->floor) ? gr->floor.b2b_us : 0.0);
        if (spread < 0.0)
            fprintf(out, " — |\n");
        else
            fprintf(out, spread > SPREAD_WARN ? " **%.1f / %.1f (%.0f%%)** ⚠ |\n"
                                              : " %.1f / %.1f (%.0f%%) |\n",
                    gr->floor_first.median_us, gr->floor_last.median_us, 100.0 * spread);
        drifted += spread > SPREAD_WARN;
    }
    fprintf(out, "\nfloor = bench/shaders/copy.comp copying the group's input bytes from the "
            "input buffer to the output buffer the FFTs use (MB moved = read + written). ");
    if (drifted)
        fprintf(out, "⚠ = the floor's two runs differ by more than %.0f%%: the GPU's speed "
                "drifted during that group, so its ratios are suspect.", 100.0 * SPREAD_WARN);
    else
        fprintf(out, "The floor's two runs agree within %.0f%% everywhere.", 100.0 * SPREAD_WARN);
    fprintf(out, "\n\n");
}

static void note(FILE *out, const char *what, const char *text) {
    fprintf(out, "- %s: %s\n", what, text);
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
            note(out, label, gr->batch_note);
        if (gr->error[0])
            note(out, label, gr->error);
        if (gr->floor.note[0]) {
            snprintf(what, sizeof what, "%s floor", label);
            note(out, what, gr->floor.note);
        }
        for (v = 0; v < gr->variant_count; v++) {
            const fft_variant *x = &gr->variants[v];
            snprintf(what, sizeof what, "%s %s", label, md_command(x, cmd, sizeof cmd));
            if (x->time.note[0])
                note(out, what, x->time.note);
            for (i = 0; i < 2; i++)
                if (x->dispatch_time[i].note[0]) {
                    snprintf(text, sizeof text, "dispatch %u alone: %s", i + 1,
                             x->dispatch_time[i].note);
                    note(out, what, text);
                }
            if (x->check.status == BENCH_OK || x->check.status == BENCH_FAILED)
                checks++;
            passed += x->check.status == BENCH_OK;
            if (x->check.status == BENCH_FAILED) {
                snprintf(text, sizeof text, "**wrong result**: %s (checked: %s)",
                         x->check.first, x->check.what);
                note(out, what, text);
            }
            if (x->runtime_check.status == BENCH_FAILED ||
                x->runtime_check.status == BENCH_SKIPPED) {
                snprintf(text, sizeof text, "the runtime's plan path %s: %s",
                         x->runtime_check.status == BENCH_FAILED ? "**failed**" : "skipped",
                         x->runtime_check.first);
                note(out, what, text);
            }
        }
    }
    fprintf(out, "%sChecks: %u of %u timed variants produced the right output (1D: every "
            "value finite, every row's energy within 1e-5 of Parseval, up to the sampled rows "
            "against the double reference within relative L2 %.0e and max %.0e; 2D: the whole "
            "output against a 2D double reference within the same bars; four-step plans also "
            "through spdrt_fft_plan_load + spdrt_fft_plan_run). %u failure(s) in all.\n",
            note_count(r) ? "\n" : "", passed, checks, SPDRT_FFT_BOUND_REL_L2, SPDRT_FFT_BOUND_MAX_REL,
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

static void json_string(FILE *out, const char *s) {
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

static void json_timing(FILE *out, const char *key, const bench_timing *t, uint64_t bytes,
                        const bench_timing *floor) {
    fprintf(out, "\"%s\": {\"status\": \"%s\"", key, status_name(t->status));
    if (timed(t)) {
        fprintf(out, ", \"median_us\": %.3f, \"min_us\": %.3f, \"max_us\": %.3f, "
                "\"samples\": %u, \"gbps\": %.2f", t->median_us, t->min_us, t->max_us,
                t->samples, gbps(bytes, t->median_us));
        if (floor && timed(floor))
            fprintf(out, ", \"fraction_of_floor\": %.4f", floor->median_us / t->median_us);
    }
    if (timed_b2b(t)) {
        fprintf(out, ", \"b2b_us\": %.3f, \"b2b_runs\": %u, \"b2b_gbps\": %.2f", t->b2b_us,
                t->b2b_runs, gbps(bytes, t->b2b_us));
        if (floor && timed_b2b(floor))
            fprintf(out, ", \"b2b_fraction_of_floor\": %.4f", floor->b2b_us / t->b2b_us);
    }
    fprintf(out, ", \"note\": ");
    json_string(out, t->note);
    if (t->driver_statistics[0]) {
        fprintf(out, ", \"driver_statistics\": ");
        json_string(out, t->driver_statistics);
    }
    fprintf(out, "}");
}

static void json_check(FILE *out, const char *key, const fft_check *c) {
    fprintf(out, "\"%s\": {\"status\": \"%s\", \"rel_l2\": %.4g, \"max_rel\": %.4g, "
            "\"bound_rel_l2\": %.3g, \"bound_max_rel\": %.3g, \"parseval\": %.4g, "
            "\"parseval_bound\": %.3g, \"values\": %llu, \"non_finite\": %llu, "
            "\"rows_compared\": %u, \"what\": ", key, status_name(c->status), c->rel_l2,
            c->max_rel, c->bound_rel_l2, c->bound_max_rel, c->parseval, c->parseval_bound,
            (unsigned long long)c->values, (unsigned long long)c->non_finite,
            c->rows_compared);
    json_string(out, c->what);
    fprintf(out, ", \"problem\": ");
    json_string(out, c->first);
    fprintf(out, "}");
}

static const char *kind_name(fft_group_kind k) {
    return k == FFT_GROUP_1D ? "1d" : k == FFT_GROUP_2D ? "2d" : "2d_real";
}

void fft_report_json(const fft_report *r, FILE *out) {
    uint32_t g, v, i;
    fprintf(out, "{\n  \"benchmark\": \"fft\",\n  \"date\": ");
    json_string(out, r->date);
    fprintf(out, ",\n  \"device\": {\"name\": ");
    json_string(out, r->device);
    fprintf(out, ", \"driver\": ");
    json_string(out, r->driver);
    fprintf(out, ", \"vulkan_api\": ");
    json_string(out, r->api_version);
    fprintf(out, ", \"vendor_id\": %u, \"device_id\": %u, \"subgroup_size\": %u, "
            "\"timestamp_period_ns\": %.6g, \"cpu_implementation\": %s},\n", r->vendor_id,
            r->device_id, r->subgroup_size, r->timestamp_period_ns,
            r->cpu_device ? "true" : "false");
    fprintf(out, "  \"smoke_run\": %s,\n  \"spdgen\": ", r->cpu_device ? "true" : "false");
    json_string(out, r->spdgen_version);
    fprintf(out, ",\n  \"settings\": {\"warmup\": %u, \"reps\": %u, \"b2b_runs\": %u, "
            "\"scrub_bytes\": %llu, \"scrub_mode\": \"%s\", \"heat_ms\": %.0f, "
            "\"heat_passes\": %u, \"heat_pass_us\": %.3f, \"heat_bytes\": %llu, "
            "\"batch_mib\": %u, \"quick\": %s, \"validation\": %s},\n", r->warmup, r->reps,
            r->b2b_runs, (unsigned long long)r->scrub_bytes, r->scrub_write ? "write" : "read",
            r->heat_ms, r->heat_passes, r->heat_pass_us, (unsigned long long)r->heat_bytes,
            r->batch_mib, r->quick ? "true" : "false", r->validation ? "true" : "false");
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
        fprintf(out, ", \"batch_note\": ");
        json_string(out, gr->batch_note);
        fprintf(out, ", \"error\": ");
        json_string(out, gr->error);
        fprintf(out, ",\n     ");
        json_timing(out, "floor", &gr->floor, gr->bytes, NULL);
        fprintf(out, ",\n     ");
        json_timing(out, "floor_first", &gr->floor_first, gr->bytes, NULL);
        fprintf(out, ",\n     ");
        json_timing(out, "floor_last", &gr->floor_last, gr->bytes, NULL);
        if (floor_spread(gr) >= 0.0)
            fprintf(out, ",\n     \"floor_spread\": %.4f", floor_spread(gr));
        else
            fprintf(out, ",\n     \"floor_spread\": null");
        fprintf(out, ",\n     \"variants\": [");
        for (v = 0; v < gr->variant_count; v++) {
            const fft_variant *x = &gr->variants[v];
            fprintf(out, "%s\n      {\"spdgen\": ", v ? "," : "");
            json_string(out, x->command);
            fprintf(out, ", \"shape\": ");
            json_string(out, x->shape);
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
            json_timing(out, "time", &x->time, gr->bytes, &gr->floor);
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
                json_timing(out, key, &x->dispatch_time[i], gr->bytes, &gr->floor);
            }
            fprintf(out, "}");
        }
        fprintf(out, "]}");
    }
    fprintf(out, "\n  ],\n  \"failures\": %u,\n  \"error\": ", fft_report_failures(r));
    json_string(out, r->error);
    fprintf(out, "\n}\n");
}
