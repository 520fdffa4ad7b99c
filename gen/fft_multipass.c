/* fft_multipass.c: spdgen --fft N for N longer than one dispatch holds: the four-step plan.
 *
 * Each pass is generated from templates/fft.lua (cfg.fft.pass tells it which) and
 * validated like any shader; -o NAME.EXT then writes NAME.pass1.EXT, NAME.pass2.EXT and the
 * plan file NAME.fftplan that libspdrt's spdrt_fft_plan_load runs (with --target spirv),
 * atomically. --emit-header writes the plan's contract, --check and --selftest work as for
 * one shader. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fft_multipass.h"
#include "fft_selftest.h"
#include "lua_host.h"
#include "output.h"
#include "validate.h"

#define PASSES 2

typedef struct {
    sg_config cfg;       /* the pass's own configuration */
    sg_generated text;   /* its shader in the target language, and its contract header */
    sv_spirv module;     /* validated SPIR-V (of the GLSL twin for MSL) */
    long columns, shared, subgroup;
    char path[4096];     /* where it is written */
} pass_output;

static int usage_error(const char *msg, const sg_config *cfg)
{
    fprintf(stderr, "spdgen: error: %s (--fft %ld)\n", msg, cfg->fft.n);
    return SG_EXIT_USAGE;
}

/* A contract number from a pass's C header (the one place templates make them). */
static int contract_value(const char *header, const char *name, long *out)
{
    char key[96];
    snprintf(key, sizeof key, "#define %s ", name);
    const char *at = header ? strstr(header, key) : NULL;
    return at && sscanf(at + strlen(key), "%ld", out) == 1 ? 0 : -1;
}

static int generate_pass(const sg_config *cfg, int p, const char *dialect, sv_lang lang, pass_output *o)
{
    char *log = NULL;
    sg_generated twin = {0};
    o->cfg = *cfg;
    o->cfg.fft.pass = p + 1;
    o->cfg.fft.n = cfg->fft.pass_n[p];
    o->cfg.fft.ept = cfg->fft.pass_ept[p];
    o->cfg.fft.lanes = cfg->fft.pass_lanes[p];
    o->cfg.wg = cfg->fft.pass_wg[p];
    if (sg_generate(&o->cfg, dialect, 1, &o->text)) return -1;
    const sg_generated *checked = &o->text;
    if (cfg->target == SG_TARGET_MSL) { /* validate the GLSL twin, as main.c does */
        if (sg_generate(&o->cfg, "glsl", 0, &twin)) return -1;
        checked = &twin;
    }
    char name[64];
    snprintf(name, sizeof name, "fft.pass%d.%s", p + 1, lang == SV_LANG_HLSL ? "hlsl" : "comp");
    int rc = sv_compile(lang, cfg->env, name, checked->text, checked->text_size, &o->module, &log) ||
             sv_check_entry(&o->module, "main", checked->workgroup[0], 1, 1, &log);
    sg_generated_free(&twin);
    if (rc) {
        fprintf(stderr, "%s", log ? log : "spdgen: error: validation failed\n");
        free(log);
        return -1;
    }
    if (contract_value(o->text.header, "FFT_COLUMNS_PER_WORKGROUP", &o->columns) ||
        contract_value(o->text.header, "FFT_SHARED_MEMORY_BYTES", &o->shared) ||
        contract_value(o->text.header, "FFT_SUBGROUP_SIZE", &o->subgroup)) {
        fprintf(stderr, "spdgen: error: pass %d's contract header lacks its sizes\n", p + 1);
        return -1;
    }
    return 0;
}

/* NAME.EXT -> NAME.passP.EXT (the extension of the last path component only). */
static void pass_path(const char *output, int p, char *buf, size_t size)
{
    const char *base = strrchr(output, '/');
    const char *dot = strrchr(base ? base + 1 : output, '.');
    if (!dot || dot == (base ? base + 1 : output)) snprintf(buf, size, "%s.pass%d", output, p + 1);
    else snprintf(buf, size, "%.*s.pass%d%s", (int)(dot - output), output, p + 1, dot);
}

static void plan_path(const char *output, char *buf, size_t size)
{
    const char *base = strrchr(output, '/');
    const char *dot = strrchr(base ? base + 1 : output, '.');
    if (!dot || dot == (base ? base + 1 : output)) snprintf(buf, size, "%s.fftplan", output);
    else snprintf(buf, size, "%.*s.fftplan", (int)(dot - output), output);
}

static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The plan file: "key value" lines, one line per pass (spdrt_fft_plan_load reads it): wg is
 * the pass's local size (C x W with its columns in lanes), subgroup the size its shuffles
 * need (0: none), ept its elements per invocation. */
static char *plan_text(const sg_config *cfg, const pass_output *o)
{
    const sg_fft_params *f = &cfg->fft;
    size_t size = 4096;
    char *t = malloc(size);
    if (!t) return NULL;
    int n = snprintf(t, size,
                     "# spdgen %s: a four-step FFT plan of N = %ld = %ld x %ld, run by libspdrt's\n"
                     "# spdrt_fft_plan_load. Generated; regenerate with:\n#   %s\n"
                     "spdgen-fft-plan 1\nn %ld\ndirection %s\nnorm %s\nstorage %s\npasses %d\n",
                     SPDGEN_VERSION, f->n, f->pass_n[0], f->pass_n[1], cfg->command, f->n,
                     f->direction == SG_FFT_INVERSE ? "inverse" : "forward",
                     f->norm == SG_FFT_NORM_NONE ? "none" : f->norm == SG_FFT_NORM_UNITARY ? "unitary" : "inverse",
                     f->storage == SG_FFT_STORAGE_F16 ? "f16" : "f32", PASSES);
    for (int p = 0; p < PASSES; p++)
        n += snprintf(t + n, size - (size_t)n,
                      "pass %d file %s n %ld wg %u subgroup %ld columns %ld shared %ld ffts %ld ept %d\n",
                      p + 1, file_name(o[p].path), f->pass_n[p], o[p].text.workgroup[0], o[p].subgroup,
                      o[p].columns, o[p].shared, f->n / f->pass_n[p], f->pass_ept[p]);
    return t;
}

/* The plan's contract as a C header. */
static char *plan_header(const sg_config *cfg, const pass_output *o)
{
    const sg_fft_params *f = &cfg->fft;
    size_t size = 8192;
    char *t = malloc(size);
    if (!t) return NULL;
    double scale = f->norm == SG_FFT_NORM_UNITARY ? 1.0 / sqrt((double)f->n)
                 : f->norm == SG_FFT_NORM_INVERSE && f->direction == SG_FFT_INVERSE ? 1.0 / (double)f->n : 1.0;
    int n = snprintf(t, size,
                     "/* spdgen %s: dispatch contract of a four-step FFT plan, N = %ld = %ld x %ld.\n"
                     " * Generated; regenerate with:\n *   %s\n"
                     " * Pass 1 reads the input rows (count transforms, in_stride apart) and writes the\n"
                     " * scratch (N fp32 complex values per transform); after a barrier pass 2 reads the\n"
                     " * scratch and writes the output rows (out_stride apart) in natural order. Both use\n"
                     " * set 0 binding 0 (src) and 1 (dst) and 16 bytes of push constants. */\n"
                     "#ifndef SPDGEN_FFT_PLAN_CONTRACT_H\n#define SPDGEN_FFT_PLAN_CONTRACT_H\n\n"
                     "#include <stdint.h>\n\n"
                     "#define FFT_N %ld\n#define FFT_PASSES %d\n"
                     "#define FFT_INVERSE %d\n#define FFT_SCALE %.17gf /* applied by the last pass */\n"
                     "#define FFT_F16 %d /* input and output as IEEE halves; the scratch is fp32 */\n"
                     "#define FFT_SUBGROUP_SIZE %ld /* the largest a pass's shuffles need */\n"
                     "#define FFT_SCRATCH_BYTES(count) ((uint64_t)(count) * %ldu * 8u)\n",
                     SPDGEN_VERSION, f->n, f->pass_n[0], f->pass_n[1], cfg->command, f->n, PASSES,
                     f->direction == SG_FFT_INVERSE, scale, f->storage == SG_FFT_STORAGE_F16,
                     o[0].subgroup > o[1].subgroup ? o[0].subgroup : o[1].subgroup, f->n);
    for (int p = 0; p < PASSES; p++) {
        long per = f->n / f->pass_n[p];
        n += snprintf(t + n, size - (size_t)n,
                      "\n/* Pass %d: %s */\n#define FFT_PASS%d_N %ld\n#define FFT_PASS%d_WORKGROUP_SIZE_X %u\n"
                      "#define FFT_PASS%d_COLUMNS_PER_WORKGROUP %ld\n#define FFT_PASS%d_SHARED_MEMORY_BYTES %ld\n"
                      "#define FFT_PASS%d_SUBGROUP_SIZE %ld\n"
                      "#define FFT_PASS%d_COUNT(count) ((count) * %ldu) /* push constant count */\n"
                      "#define FFT_PASS%d_GRID_X(count) (((count) * %ldu + %ldu) / %ldu)\n",
                      p + 1, file_name(o[p].path), p + 1, f->pass_n[p], p + 1, o[p].text.workgroup[0], p + 1,
                      o[p].columns, p + 1, o[p].shared, p + 1, o[p].subgroup, p + 1, per, p + 1, per,
                      o[p].columns - 1, o[p].columns);
    }
    snprintf(t + n, size - (size_t)n,
             "\ntypedef struct FftPushConstants {\n"
             "    uint32_t count;      /* FFT_PASSp_COUNT(transforms) */\n"
             "    uint32_t in_stride;  /* pass 1: between input rows, in elements (N when packed) */\n"
             "    uint32_t out_stride; /* pass 2: between output rows, in elements */\n"
             "    uint32_t unused;\n} FftPushConstants;\n\n#endif\n");
    return t;
}

static char *depfile_text(const sg_config *cfg, const char *target, const pass_output *o)
{
    const sg_generated *made[PASSES];
    for (int p = 0; p < PASSES; p++) made[p] = &o[p].text;
    return sg_generated_depfile(cfg->dep_target ? cfg->dep_target : target, made, PASSES);
}

int sg_fft_multipass_run(const sg_config *cfg)
{
    sv_lang lang = cfg->target == SG_TARGET_HLSL ? SV_LANG_HLSL
                 : cfg->target == SG_TARGET_SPIRV ? cfg->spirv_from : SV_LANG_GLSL;
    const char *dialect = cfg->target == SG_TARGET_MSL ? "msl" : lang == SV_LANG_HLSL ? "hlsl" : "glsl";
    pass_output o[PASSES];
    sg_outputs files = {0}, extras = {0};
    char plan[4096];
    char *plan_txt = NULL, *header = NULL, *deps = NULL;
    int rc = SG_EXIT_FAILURE;
    memset(o, 0, sizeof o);

    int writes = !cfg->check_only && !cfg->selftest;
    if (writes && strcmp(cfg->output, "-") == 0) {
        rc = usage_error("a four-step FFT writes two shaders and a plan: give -o FILE", cfg);
        goto done;
    }
    for (int p = 0; p < PASSES; p++) {
        if (generate_pass(cfg, p, dialect, lang, &o[p])) goto done;
        pass_path(cfg->output, p, o[p].path, sizeof o[p].path);
    }
    if (cfg->selftest) {
        sg_fft_plan_pass passes[PASSES];
        for (int p = 0; p < PASSES; p++) {
            passes[p].module = &o[p].module;
            passes[p].columns = o[p].columns;
            passes[p].shared = o[p].shared;
            passes[p].wg = (long)o[p].text.workgroup[0];
            passes[p].subgroup = o[p].subgroup;
        }
        rc = sg_fft_selftest_plan(cfg, passes);
        goto done;
    }
    if (cfg->check_only) {
        rc = SG_EXIT_OK;
        goto done;
    }
    plan_path(cfg->output, plan, sizeof plan);
    for (int p = 0; p < PASSES; p++) {
        const void *data = cfg->target == SG_TARGET_SPIRV ? (const void *)o[p].module.words : o[p].text.text;
        size_t size = cfg->target == SG_TARGET_SPIRV ? o[p].module.count * 4 : o[p].text.text_size;
        if (sg_output_stage(&files, o[p].path, data, size)) goto done;
    }
    if (!(plan_txt = plan_text(cfg, o)) || sg_output_stage(&files, plan, plan_txt, strlen(plan_txt))) goto done;
    if (cfg->header_path &&
        (!(header = plan_header(cfg, o)) || sg_output_stage(&extras, cfg->header_path, header, strlen(header))))
        goto done;
    if (cfg->depfile) {
        char default_path[4200];
        const char *path = cfg->depfile_path;
        if (!path) {
            snprintf(default_path, sizeof default_path, "%s.d", plan);
            path = default_path;
        }
        if (!(deps = depfile_text(cfg, plan, o)) || sg_output_stage(&extras, path, deps, strlen(deps))) goto done;
    }
    rc = sg_output_commit(&files) || sg_output_commit(&extras) ? SG_EXIT_FAILURE : SG_EXIT_OK;
done:
    sg_output_abort(&files);
    sg_output_abort(&extras);
    for (int p = 0; p < PASSES; p++) {
        sg_generated_free(&o[p].text);
        sv_free(&o[p].module);
    }
    free(plan_txt);
    free(header);
    free(deps);
    return rc;
}
