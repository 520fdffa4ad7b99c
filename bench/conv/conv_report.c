/* conv_report.c: the convolution benchmark's markdown and JSON (conv_bench.h). */
#include <string.h>

#include "conv/conv_bench.h"
#include "report_cells.h"

static const char *const ROW_NAMES[CONV_ROWS] = {"pass 1", "pass 2", "pass 3", "pipeline", "resample"};
static const char *const ROW_KEYS[CONV_ROWS] = {"pass1", "pass2", "pass3", "pipeline", "resample"};

static int job_failed(const conv_job_result *j)
{
    if (j->error[0] || j->check.status != BENCH_OK) return 1;
    for (int row = 0; row < CONV_ROWS; row++)
        if (CONV_ROW_PRESENT(j, row) && (j->time[row].status != BENCH_OK || j->floor[row].status != BENCH_OK))
            return 1;
    return 0;
}

uint32_t conv_report_failures(const conv_report *r)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->job_count; i++) n += (uint32_t)job_failed(&r->jobs[i]);
    return n;
}

void conv_report_markdown(const void *report, FILE *out)
{
    const conv_report *r = report;
    const bench_run_info *ri = &r->run;
    fprintf(out, "# spdgen --conv on %s (%s), %s\n\n", ri->device, ri->driver, ri->spdgen_version);
    if (ri->cpu_device)
        fprintf(out, "> A CPU implementation: a smoke run of the benchmark, not GPU figures.\n\n");
    fprintf(out, "Method (bench/README.md, \"The convolution benchmark\"; the harness is the SPD "
            "benchmark's): ");
    bench_run_info_method(ri, out);
    fprintf(out, " Each job (3 channels, rgba16f image in and out, the composite) stays on the device: "
            "the image uploaded and the kernel spectrum computed once, untimed. **pipeline** = the three "
            "passes with their barriers, what a frame pays; %s; **resample** (a resampled spectrum) = the kernel spectrum resampled to "
            "the image's frequencies, run when the PSF or psf_scale changes, not in the pipeline. MB = the "
            "bytes a row must move at least (the image's texels, each "
            "spectrum between the passes written once and read once, the kernel spectrum once); the "
            "pipeline's are the passes' sum. **floor** = a compute copy of the same bytes (half read, "
            "half written), timed the same way in the same run; **%% of floor = floor us / us**. "
            "check = the last timed pipeline run's output against the CPU reference.\n\n",
            r->passes_after ? "**pass k** (`--passes after`) = that dispatch, timed after the passes before it "
            "ran untimed in the same repetition, so it finds the caches as the pipeline leaves them"
            : "**pass k** = that dispatch alone, reading what the pipeline left");
    fprintf(out, "| job | row | us | min | max | b2b us | MB | GB/s | floor us | %% of floor | check |\n"
                 "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (uint32_t i = 0; i < r->job_count; i++) {
        const conv_job_result *j = &r->jobs[i];
        if (j->error[0]) {
            fprintf(out, "| `%s` | | | | | | | | | | FAILED: %s |\n", j->command, j->error);
            continue;
        }
        for (int row = 0; row < CONV_ROWS; row++) {
            const bench_timing *t = &j->time[row], *f = &j->floor[row];
            if (!CONV_ROW_PRESENT(j, row)) continue;
            if (row == 0) fprintf(out, "| `%s` (padded %ux%u, %s first) |", j->command, j->padded_width,
                                  j->padded_height, j->first_axis_y ? "y" : "x");
            else fprintf(out, "| |");
            fprintf(out, " %s |", ROW_NAMES[row]);
            bench_cell_us(out, t, "");
            bench_cell_time(out, bench_timed(t) ? t->min_us : 0);
            bench_cell_time(out, bench_timed(t) ? t->max_us : 0);
            bench_cell_b2b(out, t);
            fprintf(out, " %.1f |", (double)j->bytes[row] / 1e6);
            bench_cell_gbps(out, j->bytes[row], bench_median_us(t));
            bench_cell_us(out, f, "");
            bench_cell_percent(out, bench_median_us(f), bench_median_us(t));
            if (row != CONV_ROW_PIPELINE) fprintf(out, " |\n");
            else if (j->check.status == BENCH_OK)
                fprintf(out, " %.2g (bar %.2g) |\n", j->check.max_rel, j->check.bound);
            else fprintf(out, " **FAILED** %.2g (bar %.2g), %llu not finite |\n", j->check.max_rel, j->check.bound,
                         (unsigned long long)j->check.non_finite);
        }
    }
    uint32_t failures = conv_report_failures(r);
    fprintf(out, "\n%u job(s), %u failure(s), %.1f s.\n", r->job_count, failures, r->seconds);
    for (uint32_t i = 0; i < r->job_count; i++) {
        const conv_job_result *j = &r->jobs[i];
        for (int row = 0; row < CONV_ROWS; row++) {
            if (!CONV_ROW_PRESENT(j, row)) continue;
            if (j->time[row].note[0]) fprintf(out, "- `%s` %s: %s\n", j->command, ROW_NAMES[row], j->time[row].note);
            if (j->floor[row].note[0]) fprintf(out, "- `%s` floor of %s: %s\n", j->command, ROW_NAMES[row],
                                               j->floor[row].note);
        }
        if (j->check.status == BENCH_FAILED) fprintf(out, "- `%s` check: %s\n", j->command, j->check.what);
    }
}

void conv_report_json(const void *report, FILE *out)
{
    const conv_report *r = report;
    bench_run_info_json(&r->run, "conv_bench", r->passes_after ? "\"passes\": \"after\", " :
                        "\"passes\": \"alone\", ", out);
    fprintf(out, "  \"seconds\": %.1f,\n  \"failures\": %u,\n  \"jobs\": [", r->seconds, conv_report_failures(r));
    for (uint32_t i = 0; i < r->job_count; i++) {
        const conv_job_result *j = &r->jobs[i];
        fprintf(out, "%s\n    {\"command\": ", i ? "," : "");
        bench_json_string(out, j->command);
        fprintf(out, ", \"width\": %u, \"height\": %u, \"psf\": %u, \"spectrum\": \"%s\", \"storage\": \"%s\", "
                "\"subgroup\": %u, \"padded_width\": %u, \"padded_height\": %u, \"first_axis\": \"%s\", \"error\": ",
                j->c.width, j->c.height, j->c.psf, j->exact ? "exact" : "resampled", j->f16 ? "f16" : "f32",
                j->subgroup, j->padded_width, j->padded_height, j->first_axis_y ? "y" : "x");
        bench_json_string(out, j->error);
        fprintf(out, ",\n     \"check\": {\"status\": \"%s\", \"samples\": %u, \"max_rel\": %.4g, \"bound\": %.4g, "
                "\"non_finite\": %llu, \"reference\": ", bench_status_name(j->check.status), j->check.samples,
                j->check.max_rel, j->check.bound, (unsigned long long)j->check.non_finite);
        bench_json_string(out, j->check.what);
        fprintf(out, "}");
        for (int row = 0; row < CONV_ROWS; row++) {
            char key[32];
            if (!CONV_ROW_PRESENT(j, row)) continue;
            fprintf(out, ",\n     \"%s_bytes\": %llu, ", ROW_KEYS[row], (unsigned long long)j->bytes[row]);
            bench_json_timing(out, ROW_KEYS[row], &j->time[row], j->bytes[row], &j->floor[row]);
            snprintf(key, sizeof key, "%s_floor", ROW_KEYS[row]);
            fprintf(out, ",\n     ");
            bench_json_timing(out, key, &j->floor[row], j->bytes[row], NULL);
        }
        fprintf(out, "}");
    }
    fprintf(out, "\n  ]\n}\n");
}
