/* conv_report.c: conv_bench's markdown table and JSON (conv_bench.h). */
#include <stdio.h>

#include "conv/conv_bench.h"
#include "report_cells.h"

static void row_name(FILE *out, const conv_row *r)
{
    fprintf(out, "%ux%u, PSF %u, %s, %s", r->width, r->height, r->psf, r->exact ? "exact" : "resampled",
            r->f16 ? "f16" : "f32");
}

static double check_ratio(const conv_row *r)
{
    return r->max_ref > 0 ? r->max_err / r->max_ref : r->max_err;
}

void conv_report_markdown(const void *report, FILE *out)
{
    const conv_report *rep = report;
    const bench_run_info *ri = &rep->run;
    fprintf(out, "# spdgen --conv on %s (%s), %s\n\n", ri->device, ri->driver, ri->spdgen_version);
    if (ri->cpu_device) fprintf(out, "**A CPU implementation: a smoke run; its times say nothing about a GPU.**\n\n");
    if (rep->extra[0]) fprintf(out, "**A variant:** every job generated with `%s` added.\n\n", rep->extra);
    fprintf(out, "3 channels, rgba16f image in and out, the composite src + 0.3 (conv - src); the kernel "
                 "spectrum set once, not timed. Method: ");
    bench_run_info_method(ri, out);
    fprintf(out, "\n\nEach pass is timed alone (spdrt_conv_record_pass); the pipeline is the three passes "
                 "with their barriers (spdrt_conv_record). A pass's bytes: every value it must read and "
                 "write once (pass 1: the image and the packed spectra; pass 2: those spectra, the kernel "
                 "spectrum and the image's lines of the product; pass 3: those, the source again for the "
                 "composite, and the output). Its floor: a compute copy moving as many bytes, half read "
                 "and half written, timed the same way right after it; **%% = floor us / pass us**. The "
                 "check: one more whole run into an output cleared to NaN, %s pixels against the CPU "
                 "reference in double (the direct sum for the exact spectrum, the resampled pipeline "
                 "otherwise), max|err| / max|ref| within docs/conv.md's bar + 2^-10 (the half output).\n\n",
            rep->row_count ? "64" : "sampled");
    fprintf(out, "| job | padded | pass 1 us | %% | pass 2 us | %% | pass 3 us | %% | pipeline us | b2b us "
                 "| sum of passes | MB moved | check |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (uint32_t k = 0; k < rep->row_count; k++) {
        const conv_row *r = &rep->rows[k];
        double sum = 0, mb = 0;
        fprintf(out, "| ");
        row_name(out, r);
        fprintf(out, " | %ux%u, %s first |", r->padded_width, r->padded_height, r->first_axis_y ? "y" : "x");
        for (int p = 0; p < 3; p++) {
            bench_cell_us(out, &r->pass[p], "");
            bench_cell_percent(out, bench_median_us(&r->floor[p]), bench_median_us(&r->pass[p]));
            sum += bench_median_us(&r->pass[p]);
            mb += r->bytes[p] / 1e6;
        }
        bench_cell_us(out, &r->pipeline, "");
        bench_cell_b2b(out, &r->pipeline);
        bench_cell_time(out, sum);
        fprintf(out, " %.1f | %.2g %s |\n", mb, check_ratio(r), r->checked ? "ok" : "**MISMATCH**");
    }
    fprintf(out, "\nFloors (us, of each pass's bytes):\n\n| job | pass 1 | pass 2 | pass 3 |\n|---|---|---|---|\n");
    for (uint32_t k = 0; k < rep->row_count; k++) {
        const conv_row *r = &rep->rows[k];
        fprintf(out, "| ");
        row_name(out, r);
        fprintf(out, " |");
        for (int p = 0; p < 3; p++) {
            fprintf(out, " %.1f MB:", r->floor_bytes[p] / 1e6);
            bench_cell_us(out, &r->floor[p], "");
        }
        fprintf(out, "\n");
    }
    int stats = 0;
    for (uint32_t k = 0; k < rep->row_count; k++)
        if (rep->rows[k].statistics[0]) {
            if (!stats++) fprintf(out, "\nThe driver's statistics of spectrum1 | spectrum2 | pass1 | pass2 | pass3:\n\n");
            fprintf(out, "- ");
            row_name(out, &rep->rows[k]);
            fprintf(out, ": %s\n", rep->rows[k].statistics);
        }
    int notes = 0;
    for (uint32_t k = 0; k < rep->row_count; k++)
        if (rep->rows[k].note[0]) {
            if (!notes++) fprintf(out, "\nNotes:\n\n");
            char what[96];
            snprintf(what, sizeof what, "%ux%u, PSF %u, %s, %s", rep->rows[k].width, rep->rows[k].height,
                     rep->rows[k].psf, rep->rows[k].exact ? "exact" : "resampled", rep->rows[k].f16 ? "f16" : "f32");
            bench_note(out, what, rep->rows[k].note);
        }
    if (rep->error[0]) fprintf(out, "\n**Error:** %s\n", rep->error);
}

void conv_report_json(const void *report, FILE *out)
{
    const conv_report *rep = report;
    static const char *const PASSES[3] = {"pass1", "pass2", "pass3"};
    bench_run_info_json(&rep->run, "conv_bench", NULL, out);
    fprintf(out, "  \"spdgen_args\": ");
    bench_json_string(out, rep->extra);
    fprintf(out, ",\n  \"error\": ");
    bench_json_string(out, rep->error);
    fprintf(out, ",\n  \"jobs\": [");
    for (uint32_t k = 0; k < rep->row_count; k++) {
        const conv_row *r = &rep->rows[k];
        fprintf(out, "%s\n    {\"image\": [%u, %u], \"psf\": %u, \"spectrum\": \"%s\", \"storage\": \"%s\", "
                     "\"padded\": [%u, %u], \"spectrum_size\": [%u, %u], \"first_axis\": \"%s\", \"spdgen\": ",
                k ? "," : "", r->width, r->height, r->psf, r->exact ? "exact" : "resampled", r->f16 ? "f16" : "f32",
                r->padded_width, r->padded_height, r->spectrum_width, r->spectrum_height,
                r->first_axis_y ? "y" : "x");
        bench_json_string(out, r->command);
        for (int p = 0; p < 3; p++) {
            fprintf(out, ",\n     \"%s_bytes\": %llu, ", PASSES[p], (unsigned long long)r->bytes[p]);
            char key[32];
            snprintf(key, sizeof key, "%s", PASSES[p]);
            bench_json_timing(out, key, &r->pass[p], r->bytes[p], &r->floor[p]);
            snprintf(key, sizeof key, "%s_floor", PASSES[p]);
            fprintf(out, ", ");
            bench_json_timing(out, key, &r->floor[p], r->floor_bytes[p], NULL);
        }
        fprintf(out, ",\n     ");
        bench_json_timing(out, "pipeline", &r->pipeline, r->bytes[0] + r->bytes[1] + r->bytes[2], NULL);
        fprintf(out, ",\n     \"check\": {\"ok\": %s, \"samples\": %u, \"max_err_over_max_ref\": %.6g, "
                     "\"bound\": %.6g}, \"note\": ",
                r->checked ? "true" : "false", r->samples, check_ratio(r), r->bound);
        bench_json_string(out, r->note);
        fprintf(out, ",\n     \"driver_statistics\": ");
        bench_json_string(out, r->statistics);
        fprintf(out, "}");
    }
    fprintf(out, "\n  ]\n}\n");
}
