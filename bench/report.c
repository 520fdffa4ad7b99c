/* report.c: markdown and JSON from the measured results. The derived figures are computed
 * here, once, from medians and byte counts:
 *   GB/s        = bytes moved / median time (bytes: level 0 read + every written level)
 *   % of floor  = floor median / SPD median, both per repetition with cold caches (both move
 *                 the same bytes); the b2b % the same with both back-to-back figures
 *   speed-up    = baseline median / SPD median
 *   floor spread = slower / faster median of the floor's two runs - 1 */
#include <string.h>

#include "core/internal.h"
#include "report.h"
#include "report_cells.h"

/* `--subgroup S [--sampler linear [--sampler-coords normalized] --fetch-ahead N] [--half]
 * [--tail hierarchy]`, and the tiles per workgroup the benchmark dispatched, after "default: "
 * where it is spdgen's default; a peer's name. The longest, with every option and 10-digit
 * numbers, is 158 characters: VARIANT_LABEL holds it. */
#define VARIANT_LABEL 176
static void variant_label(const bench_variant *x, char *out, size_t size) {
    char ahead[32] = "";
    if (x->maker != BENCH_SPDGEN) {
        snprintf(out, size, "FidelityFX SPD 2.0, %s, %u dispatch%s",
                 x->maker == BENCH_FFX_PACKED ? "packed fp16" : "texel loads, fp32", x->passes,
                 x->passes == 1 ? "" : "es");
        return;
    }
    if (x->is_default) {
        snprintf(out, size, "default (no flags: `--tail %s`), %u tile%s per workgroup",
                 x->hierarchy ? "hierarchy" : "loop", x->tiles_per_workgroup,
                 x->tiles_per_workgroup == 1 ? "" : "s");
        return;
    }
    if (x->extra[0]) {
        snprintf(out, size, "`%s`, %u tile%s per workgroup", x->extra, x->tiles_per_workgroup,
                 x->tiles_per_workgroup == 1 ? "" : "s");
        return;
    }
    if (x->sampler_linear) snprintf(ahead, sizeof ahead, " --fetch-ahead %u", x->fetch_ahead);
    snprintf(out, size, "`--subgroup %u%s%s%s%s%s`, %u tile%s per workgroup", x->subgroup,
             x->sampler_linear ? " --sampler linear" : "",
             x->normalized ? " --sampler-coords normalized" : "", ahead, x->half ? " --half" : "",
             x->hierarchy ? " --tail hierarchy" : "",
             x->tiles_per_workgroup,
             x->tiles_per_workgroup == 1 ? "" : "s");
}

/* See bench_floor_spread: how far the group's two floor runs differ. */
static double floor_spread(const bench_group *g) {
    return bench_floor_spread(&g->floor_first, &g->floor_last);
}

void bench_report_mark_best(bench_report *r) {
    uint32_t g, o, v;
    for (g = 0; g < r->group_count; g++)
        for (o = 0; o < r->groups[g].op_count; o++) {
            bench_op_result *op = &r->groups[g].ops[o];
            bench_variant *best = NULL;
            for (v = 0; v < op->variant_count; v++) {
                bench_variant *x = &op->variants[v];
                x->best = 0;
                if (x->maker == BENCH_SPDGEN && bench_timed(&x->time) &&
                    x->check.status == BENCH_OK &&
                    (!best || x->time.median_us < best->time.median_us))
                    best = x;
            }
            if (best)
                best->best = 1;
        }
}

uint32_t bench_report_failures(const bench_report *r) {
    uint32_t n = r->error[0] ? 1 : 0, g, o, v;
    for (g = 0; g < r->group_count; g++) {
        const bench_group *gr = &r->groups[g];
        n += gr->error[0] != 0;
        n += gr->floor.status == BENCH_FAILED;
        n += gr->shaped.status == BENCH_FAILED;
        n += gr->copy_buffer.status == BENCH_FAILED;
        for (o = 0; o < gr->op_count; o++) {
            const bench_op_result *op = &gr->ops[o];
            /* A peer's wrong levels are its own finding (the notes show them), not ours. */
            for (v = 0; v < op->variant_count; v++)
                n += op->variants[v].time.status == BENCH_FAILED ||
                     (op->variants[v].maker == BENCH_SPDGEN &&
                      op->variants[v].check.status == BENCH_FAILED);
            n += op->per_level.status == BENCH_FAILED ||
                 op->per_level_check.status == BENCH_FAILED;
            n += op->blit.status == BENCH_FAILED || op->blit_check.status == BENCH_FAILED;
        }
    }
    return n;
}

/* ---- markdown ------------------------------------------------------------------------ */

static void cell_ratio(FILE *out, const bench_timing *base, const bench_timing *spd) {
    if (bench_timed(base) && bench_timed(spd))
        fprintf(out, " %.2fx |", base->median_us / spd->median_us);
    else
        fprintf(out, " — |");
}

static const char *check_word(const bench_check *c) {
    return c->status == BENCH_OK ? "ok" : c->status == BENCH_FAILED ? "**FAILED**"
                                                                      : "unchecked";
}

static void header(const bench_report *r, FILE *out) {
    const bench_run_info *ri = &r->run;
    fprintf(out, "# SPD benchmark\n\n");
    fprintf(out, "Device: %s (driver %s), Vulkan %s; %s; %s.\n\n", ri->device, ri->driver,
            ri->api_version, ri->spdgen_version[0] ? ri->spdgen_version : "spdgen", ri->date);
    if (ri->cpu_device)
        fprintf(out, "> **Smoke run on a CPU implementation (%s).** It proves the benchmark "
                "works end to end; its times are not GPU figures.\n\n", ri->device);
    if (ri->quick)
        fprintf(out, "> `--quick`: fewer sizes and repetitions than the real benchmark.\n\n");
    fprintf(out, "Method (bench/README.md, \"Timing\"): ");
    bench_run_info_method(ri, out);
    fprintf(out, " Bytes moved: level 0 read + every written level, in the format's bytes; "
            "GB/s = bytes / time. **%% of floor = floor us / SPD us**, both per repetition%s; "
            "b2b %% = floor b2b / SPD b2b. The floor is timed first and last in each "
            "(size, format); its us is the median of both runs' repetitions. Speed-ups = "
            "baseline us / SPD us.\n\n", ri->scrub_bytes ? " with cold caches" : "");
}

static void references(const bench_report *r, FILE *out) {
    uint32_t g, drifted = 0;
    fprintf(out, "## Floor and references\n\n");
    fprintf(out, "| size | format | levels | MB moved | floor us | floor GB/s | floor b2b us | "
            "b2b GB/s | floor 1st / last run us (spread) | shaped floor us | shaped b2b us | "
            "vkCmdCopyBuffer us | vkCmdCopyBuffer b2b us |\n");
    fprintf(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (g = 0; g < r->group_count; g++) {
        const bench_group *gr = &r->groups[g];
        fprintf(out, "| %ux%u | %s | %u |", gr->width, gr->height,
                spdrt__format_name(gr->format), gr->levels);
        fprintf(out, gr->bytes ? " %.2f |" : " — |", (double)gr->bytes / 1e6);
        bench_cell_us(out, &gr->floor, "");
        bench_cell_gbps(out, gr->floor_bytes, bench_median_us(&gr->floor));
        bench_cell_b2b(out, &gr->floor);
        bench_cell_gbps(out, gr->floor_bytes, bench_b2b_us(&gr->floor));
        bench_cell_floor_runs(out, &gr->floor_first, &gr->floor_last);
        bench_cell_us(out, &gr->shaped, "");
        bench_cell_b2b(out, &gr->shaped);
        bench_cell_us(out, &gr->copy_buffer, "");
        bench_cell_b2b(out, &gr->copy_buffer);
        fprintf(out, "\n");
        drifted += floor_spread(gr) > BENCH_SPREAD_WARN;
    }
    fprintf(out, "\nfloor = compute copy of the same bytes (half read, half written). shaped "
            "floor = the same kernel reading level 0's bytes and writing the mips' bytes (an "
            "SPD's traffic: reads ~3/4, writes ~1/4), same total. ");
    bench_floor_drift_sentence(out, drifted, "(size, format)");
    fprintf(out, "\n\n");
}

static void spd_rows(const bench_report *r, FILE *out) {
    uint32_t g, o, v;
    fprintf(out, "## SPD\n\n");
    fprintf(out, "| size | format | op | variant | SPD us | GB/s | %% of floor | SPD b2b us | "
            "b2b %% of floor | floor us | blit us | per-level us | vs blit | vs per-level | "
            "check |\n");
    fprintf(out, "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (g = 0; g < r->group_count; g++) {
        const bench_group *gr = &r->groups[g];
        for (o = 0; o < gr->op_count; o++) {
            const bench_op_result *op = &gr->ops[o];
            const char *blit_mark = op->blit_linear ? "" : " †";
            for (v = 0; v < op->variant_count; v++) {
                const bench_variant *x = &op->variants[v];
                char label[VARIANT_LABEL];
                variant_label(x, label, sizeof label);
                fprintf(out, "| %ux%u | %s | %s | %s%s |", gr->width, gr->height,
                        spdrt__format_name(gr->format), bench_op_name(op->op), label,
                        x->best ? " **best**" : "");
                bench_cell_us(out, &x->time, "");
                bench_cell_gbps(out, gr->bytes, bench_median_us(&x->time));
                bench_cell_percent(out, bench_median_us(&gr->floor), bench_median_us(&x->time));
                bench_cell_b2b(out, &x->time);
                bench_cell_percent(out, bench_b2b_us(&gr->floor), bench_b2b_us(&x->time));
                bench_cell_us(out, &gr->floor,
                              floor_spread(gr) > BENCH_SPREAD_WARN ? " ⚠" : "");
                bench_cell_us(out, &op->blit, blit_mark);
                bench_cell_us(out, &op->per_level, "");
                if (op->blit_linear)
                    cell_ratio(out, &op->blit, &x->time);
                else
                    fprintf(out, " n/a |");
                cell_ratio(out, &op->per_level, &x->time);
                fprintf(out, " %s |\n", check_word(&x->check));
            }
        }
    }
    fprintf(out, "\n");
}

static void notes(const bench_report *r, FILE *out) {
    uint32_t g, o, v, checks = 0, passed = 0, has_max = 0;
    char what[160];
    fprintf(out, "Notes:\n\n");
    for (g = 0; g < r->group_count; g++)
        for (o = 0; o < r->groups[g].op_count; o++)
            has_max |= !r->groups[g].ops[o].blit_linear;
    if (has_max)
        fprintf(out, "- † max: vkCmdBlitImage cannot compute a max. The blit column times a "
                "NEAREST chain (one texel of each 2x2 block) only to show what a blit costs; "
                "no speed-up is computed over it and its output is not checked. max's "
                "baseline is the per-level compute chain.\n");
    fprintf(out, "- Baselines: blit = one vkCmdBlitImage per level (LINEAR for mean) with an "
            "image barrier between levels; per-level = one 8x8-workgroup compute dispatch per "
            "level (texelFetch of level k, imageStore to level k+1) with a barrier between.\n");
    for (g = 0; g < r->group_count; g++) {
        const bench_group *gr = &r->groups[g];
        snprintf(what, sizeof what, "%ux%u %s", gr->width, gr->height,
                 spdrt__format_name(gr->format));
        if (gr->levels_note[0])
            bench_note(out, what, gr->levels_note);
        if (gr->error[0])
            bench_note(out, what, gr->error);
        if (gr->skipped[0])
            bench_note(out, what, gr->skipped);
        if (gr->floor.note[0])
            bench_note(out, "floor", gr->floor.note);
        if (gr->shaped.note[0])
            bench_note(out, "shaped floor", gr->shaped.note);
        if (gr->copy_buffer.note[0])
            bench_note(out, "vkCmdCopyBuffer", gr->copy_buffer.note);
        for (o = 0; o < gr->op_count; o++) {
            const bench_op_result *op = &gr->ops[o];
            const bench_check *all[BENCH_MAX_VARIANTS + 2];
            const bench_timing *times[BENCH_MAX_VARIANTS + 2];
            const char *names[BENCH_MAX_VARIANTS + 2];
            char labels[BENCH_MAX_VARIANTS][VARIANT_LABEL];
            uint32_t n = 0, i;
            for (v = 0; v < op->variant_count; v++) {
                variant_label(&op->variants[v], labels[v], sizeof labels[v]);
                all[n] = &op->variants[v].check, times[n] = &op->variants[v].time;
                names[n++] = labels[v];
            }
            all[n] = &op->per_level_check, times[n] = &op->per_level, names[n++] = "per-level";
            all[n] = &op->blit_check, times[n] = &op->blit, names[n++] = "blit";
            for (i = 0; i < n; i++) {
                snprintf(what, sizeof what, "%ux%u %s %s %s", gr->width, gr->height,
                         spdrt__format_name(gr->format), bench_op_name(op->op), names[i]);
                if (times[i]->note[0])
                    bench_note(out, what, times[i]->note);
                if (all[i]->status == BENCH_OK || all[i]->status == BENCH_FAILED)
                    checks++;
                passed += all[i]->status == BENCH_OK;
                if (all[i]->status == BENCH_FAILED) {
                    char text[512];
                    snprintf(text, sizeof text, "**wrong result**: %llu of %llu values outside "
                             "%.3g, %llu unwritten; first: %s",
                             (unsigned long long)all[i]->mismatches,
                             (unsigned long long)all[i]->values, all[i]->bound,
                             (unsigned long long)all[i]->unwritten, all[i]->first);
                    bench_note(out, what, text);
                }
            }
        }
    }
    fprintf(out, "\nChecks: %u of %u checked runs match (SPD: the CPU reference, within one "
            "unit of rgba8/rgba16f, 2^-20 for r32f mean, bit-exact for r32f max; --half: level k "
            "within (5k+2)/4 x 2^-11 for mean, bit-exact for max; rgba8 with --sampler linear: "
            "two units; baselines: each level "
            "against its stored predecessor). %u failure(s) in all.\n",
            passed, checks, bench_report_failures(r));
    if (r->error[0])
        fprintf(out, "\n**Run failed:** %s\n", r->error);
}

/* The fastest timed variant of an op that `pick` accepts, or NULL: spdgen's only where they
 * passed their check, a peer's also where it did not (the table marks it). */
static const bench_variant *fastest(const bench_op_result *op,
                                    int (*pick)(const bench_variant *)) {
    const bench_variant *best = NULL;
    uint32_t v;
    for (v = 0; v < op->variant_count; v++) {
        const bench_variant *x = &op->variants[v];
        if (pick(x) && bench_timed(&x->time) &&
            (x->maker != BENCH_SPDGEN || x->check.status == BENCH_OK) &&
            (!best || x->time.median_us < best->time.median_us))
            best = x;
    }
    return best;
}
static int is_ffx(const bench_variant *x) { return x->maker == BENCH_FFX; }
static int is_ffx_packed(const bench_variant *x) { return x->maker == BENCH_FFX_PACKED; }
static int is_default(const bench_variant *x) { return x->is_default; }
/* Exact: texel loads and fp32 math, as spdgen's defaults (no --half, no --sampler linear). */
static int is_exact(const bench_variant *x) {
    return x->maker == BENCH_SPDGEN && !x->half && !x->sampler_linear;
}
static int is_spdgen(const bench_variant *x) { return x->maker == BENCH_SPDGEN; }

/* One "time (ratio)" cell: the peer's median over x's, > 1 where spdgen is faster. */
static void cell_against(FILE *out, const bench_variant *peer, const bench_variant *x) {
    if (!x || !peer)
        fprintf(out, " — |");
    else
        fprintf(out, " %.1f (%.3fx) |", x->time.median_us,
                peer->time.median_us / x->time.median_us);
}

/* Issue 29's table: FidelityFX SPD against spdgen's default, its fastest exact variant and
 * its fastest variant of any kind, each with the peer's time over spdgen's; † marks a peer
 * whose levels failed the check (the notes say where). */
static void against_ffx(const bench_report *r, FILE *out) {
    uint32_t g, o, rows = 0;
    for (g = 0; g < r->group_count; g++)
        for (o = 0; o < r->groups[g].op_count; o++) {
            const bench_op_result *op = &r->groups[g].ops[o];
            const bench_group *gr = &r->groups[g];
            const bench_variant *ffx = fastest(op, is_ffx), *packed = fastest(op, is_ffx_packed);
            if (!ffx)
                continue;
            if (!rows++)
                fprintf(out, "## Against FidelityFX SPD\n\nus (FidelityFX us / spdgen us; "
                        "above 1 spdgen is faster), medians of the same run; exact = texel "
                        "loads and fp32 math, spdgen's default path.\n\n"
                        "| size | format | op | FidelityFX us | its %% of floor | spdgen default "
                        "| fastest exact spdgen | fastest spdgen | FidelityFX packed fp16 us | "
                        "fastest spdgen against it |\n"
                        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
            fprintf(out, "| %ux%u | %s | %s |", gr->width, gr->height,
                    spdrt__format_name(gr->format), bench_op_name(op->op));
            bench_cell_us(out, &ffx->time, ffx->check.status == BENCH_OK ? "" : " †");
            bench_cell_percent(out, bench_median_us(&gr->floor), bench_median_us(&ffx->time));
            cell_against(out, ffx, fastest(op, is_default));
            cell_against(out, ffx, fastest(op, is_exact));
            cell_against(out, ffx, fastest(op, is_spdgen));
            if (packed)
                bench_cell_us(out, &packed->time, packed->check.status == BENCH_OK ? "" : " †");
            else
                fprintf(out, " — |");
            cell_against(out, packed, fastest(op, is_spdgen));
            fprintf(out, "\n");
        }
    if (rows)
        fprintf(out, "\nThe fastest rows' flags are in the SPD table above (marked best for "
                "all of spdgen's). FidelityFX runs two dispatches where level 6 is larger than "
                "64x64 (its one dispatch leaves levels past 6 wrong there). † FidelityFX's "
                "levels failed the check: it rounds level 6 to the format and reduces the rest "
                "from it, and reads past a level one texel wide or high (the notes say "
                "where).\n\n");
}

void bench_report_markdown(const bench_report *r, FILE *out) {
    header(r, out);
    references(r, out);
    spd_rows(r, out);
    against_ffx(r, out);
    notes(r, out);
}

/* ---- JSON ---------------------------------------------------------------------------- */

static void json_check(FILE *out, const bench_check *c) {
    fprintf(out, "\"check\": {\"status\": \"%s\", \"values\": %llu, \"mismatches\": %llu, "
            "\"unwritten\": %llu, \"max_error\": %.9g, \"bound\": %.9g, \"what\": ",
            bench_status_name(c->status), (unsigned long long)c->values,
            (unsigned long long)c->mismatches, (unsigned long long)c->unwritten, c->max_error,
            c->bound);
    bench_json_string(out, c->what);
    fprintf(out, ", \"first_mismatch\": ");
    bench_json_string(out, c->first);
    fprintf(out, "}");
}

static void json_speedup(FILE *out, const char *key, const bench_timing *base,
                         const bench_timing *spd) {
    if (bench_timed(base) && bench_timed(spd))
        fprintf(out, ", \"%s\": %.3f", key, base->median_us / spd->median_us);
    else
        fprintf(out, ", \"%s\": null", key);
}

static void json_op(FILE *out, const bench_group *gr, const bench_op_result *op) {
    uint32_t v;
    fprintf(out, "{\"op\": \"%s\", \"variants\": [", bench_op_name(op->op));
    for (v = 0; v < op->variant_count; v++) {
        const bench_variant *x = &op->variants[v];
        fprintf(out, "%s\n        {\"maker\": \"%s\", \"dispatches\": %u, \"default\": %s, "
                "\"subgroup\": %u, \"sampler_linear\": %s, "
                "\"sampler_normalized\": %s, \"half\": %s, "
                "\"hierarchy\": %s, \"fetch_ahead\": %u, \"tiles_per_workgroup\": %u, "
                "\"best\": %s, \"spdgen\": ",
                v ? "," : "",
                x->maker == BENCH_FFX          ? "fidelityfx-spd"
                : x->maker == BENCH_FFX_PACKED ? "fidelityfx-spd-packed"
                                               : "spdgen",
                x->maker == BENCH_SPDGEN ? 1 : x->passes, x->is_default ? "true" : "false",
                x->subgroup, x->sampler_linear ? "true" : "false",
                x->normalized ? "true" : "false",
                x->half ? "true" : "false", x->hierarchy ? "true" : "false", x->fetch_ahead,
                x->tiles_per_workgroup, x->best ? "true" : "false");
        bench_json_string(out, x->command);
        fprintf(out, ", ");
        bench_json_timing(out, "time", &x->time, gr->bytes, &gr->floor);
        if (op->blit_linear)
            json_speedup(out, "speedup_over_blit", &op->blit, &x->time);
        json_speedup(out, "speedup_over_per_level", &op->per_level, &x->time);
        fprintf(out, ", ");
        json_check(out, &x->check);
        fprintf(out, "}");
    }
    fprintf(out, "],\n      \"per_level\": {");
    bench_json_timing(out, "time", &op->per_level, gr->bytes, NULL);
    fprintf(out, ", ");
    json_check(out, &op->per_level_check);
    fprintf(out, "},\n      \"blit\": {\"filter\": \"%s\", \"computes_the_op\": %s, ",
            op->blit_linear ? "linear" : "nearest", op->blit_linear ? "true" : "false");
    bench_json_timing(out, "time", &op->blit, gr->bytes, NULL);
    fprintf(out, ", ");
    json_check(out, &op->blit_check);
    fprintf(out, "}}");
}

void bench_report_json(const bench_report *r, FILE *out) {
    uint32_t g, o;
    bench_run_info_json(&r->run, "spd", NULL, out);
    fprintf(out, "  \"method\": \"one command buffer per measured thing: heat passes, then "
            "warmup + reps repetitions, each [scrub pass] barrier timestamp WORK timestamp; "
            "median_us = median of the reps; b2b_us = b2b_runs runs back to back (barrier "
            "after each, no scrub) / b2b_runs; fraction_of_floor = floor median / median, "
            "b2b_fraction_of_floor = floor b2b / b2b; the floor pools its two runs (first and "
            "last of its group)\",\n");
    fprintf(out, "  \"bytes_counted\": \"level 0 read + every written level, in the format's "
            "bytes\",\n  \"groups\": [");
    for (g = 0; g < r->group_count; g++) {
        const bench_group *gr = &r->groups[g];
        fprintf(out, "%s\n    {\"width\": %u, \"height\": %u, \"format\": \"%s\", "
                "\"levels\": %u, \"max_size\": ", g ? "," : "", gr->width, gr->height,
                spdrt__format_name(gr->format), gr->levels);
        bench_json_string(out, gr->max_size);
        fprintf(out, ", \"levels_note\": ");
        bench_json_string(out, gr->levels_note);
        fprintf(out, ", \"bytes\": %llu, \"floor_bytes\": %llu, \"error\": ",
                (unsigned long long)gr->bytes, (unsigned long long)gr->floor_bytes);
        bench_json_string(out, gr->error);
        fprintf(out, ", \"skipped\": ");
        bench_json_string(out, gr->skipped);
        bench_json_floors(out, &gr->floor, &gr->floor_first, &gr->floor_last, gr->floor_bytes);
        fprintf(out, ",\n     \"shaped_read_bytes\": %llu, \"shaped_write_bytes\": %llu, ",
                (unsigned long long)gr->shaped_read_bytes,
                (unsigned long long)gr->shaped_write_bytes);
        bench_json_timing(out, "shaped_floor", &gr->shaped,
                    gr->shaped_read_bytes + gr->shaped_write_bytes, NULL);
        fprintf(out, ",\n     ");
        bench_json_timing(out, "copy_buffer", &gr->copy_buffer, gr->floor_bytes, NULL);
        fprintf(out, ",\n     \"ops\": [");
        for (o = 0; o < gr->op_count; o++) {
            fprintf(out, "%s\n      ", o ? "," : "");
            json_op(out, gr, &gr->ops[o]);
        }
        fprintf(out, "]}");
    }
    fprintf(out, "\n  ],\n  \"failures\": %u,\n  \"error\": ", bench_report_failures(r));
    bench_json_string(out, r->error);
    fprintf(out, "\n}\n");
}
