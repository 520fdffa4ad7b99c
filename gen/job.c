/* job.c: the one loop every run goes through. The kernel names the job's shaders; each is
 * generated in the target language (with its GLSL twin for MSL and WGSL, which glslang does
 * not read), compiled and validated, and checked against its own contract. Then the job runs
 * on the local device (--selftest), or nothing is written (--check), or every output is
 * staged beside its destination and committed together (output.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "depfile.h"
#include "header.h"
#include "job.h"
#include "kernel.h"
#include "output.h"
#include "text.h"
#include "wgsl.h"

sg_job_shader *sg_job_add_shader(sg_job *job, const char *role, int index)
{
    if (job->count >= SG_JOB_MAX_SHADERS) return NULL;
    sg_job_shader *s = &job->shaders[job->count++];
    snprintf(s->role, sizeof s->role, "%s", role);
    s->index = index;
    return s;
}

const sg_contract *sg_job_contract(const sg_run *run, const sg_job *job, sg_contract *scratch)
{
    if (job->count == 1 || !run->kernel->job_contract) return &job->shaders[0].gen.contract;
    memset(scratch, 0, sizeof *scratch);
    run->kernel->job_contract(run, job, scratch);
    return scratch;
}

/* NAME.EXT -> NAME.<part>.EXT, or NAME.<part> where the last path component has no
 * extension; `replace`: NAME.<part> (the manifest replaces the extension). */
static void derived_path(const char *output, const char *part, int replace, char *buf, size_t size)
{
    const char *base = strrchr(output, '/');
    const char *dot = strrchr(base ? base + 1 : output, '.');
    if (!dot || dot == (base ? base + 1 : output))
        snprintf(buf, size, "%s.%s", output, part);
    else if (replace)
        snprintf(buf, size, "%.*s.%s", (int)(dot - output), output, part);
    else
        snprintf(buf, size, "%.*s.%s%s", (int)(dot - output), output, part, dot);
}

/* The name diagnostics give a shader: its output file where that is the compiled text,
 * else a stand-in such as spd.comp or fft.pass1.hlsl. */
static void source_name(const sg_run *run, const sg_job_shader *s, sv_lang lang, char *buf,
                        size_t size)
{
    int text_out = run->common.target == SG_TARGET_GLSL || run->common.target == SG_TARGET_HLSL;
    if (text_out && strcmp(s->path, "-") != 0) {
        snprintf(buf, size, "%s", s->path);
        return;
    }
    snprintf(buf, size, "%s%s%s.%s", run->kernel->name, s->role[0] ? "." : "", s->role,
             lang == SV_LANG_HLSL ? "hlsl" : "comp");
}

/* Compiles and validates one generated shader and checks its entry point and local size
 * against the contract the template returned with it. */
static int validate(const sg_run *run, sg_job_shader *s, const sg_generated *g, sv_lang lang)
{
    char *log = NULL, name[PATH_MAX + 32];
    const sg_contract *c = &g->contract;
    char stamp[3400];
    snprintf(stamp, sizeof stamp, "spdgen %s (%s): %s%s%s", SPDGEN_VERSION, sg_revision, run->command,
             run->overrides[0] ? "; made with template overrides: " : "", run->overrides);
    source_name(run, s, lang, name, sizeof name);
    if (sv_compile(lang, run->common.env, name, g->text, g->text_size, stamp, &s->module, &log) ||
        sv_check_entry(&s->module, "main", (uint32_t)c->workgroup[0], (uint32_t)c->workgroup[1],
                       (uint32_t)c->workgroup[2], &log)) {
        fprintf(stderr, "%s", log ? log : "spdgen: error: validation failed\n");
        if (log && log[0] && log[strlen(log) - 1] != '\n') fputc('\n', stderr);
        free(log);
        sv_free(&s->module);
        return SG_EXIT_FAILURE;
    }
    return 0;
}

/* Output made with --template-dir says so on its first line, whatever the override wrote:
 * the files and their hashes (every target's comments start with //). */
static int mark_overrides(const sg_run *run, sg_generated *g)
{
    if (!run->overrides[0]) return 0;
    sg_text t = {0};
    sg_text_printf(&t, "// spdgen: made with template overrides: %s\n", run->overrides);
    sg_text_append(&t, g->text, g->text_size);
    size_t len = t.len;
    char *text = sg_text_take(&t);
    if (!text) {
        fprintf(stderr, "spdgen: error: out of memory\n");
        return SG_EXIT_FAILURE;
    }
    free(g->text);
    g->text = text;
    g->text_size = len;
    return 0;
}

static int generate_all(const sg_run *run, sg_job *job)
{
    sv_lang lang = sg_run_lang(run);
    for (int i = 0; i < job->count; i++) {
        sg_job_shader *s = &job->shaders[i];
        if (sg_generate(run, s, sg_run_dialect(run), &s->gen) || mark_overrides(run, &s->gen))
            return SG_EXIT_FAILURE;
        /* No open-source Metal compiler exists, and no WGSL compiler is linked in: validate
         * the GLSL twin of the same config (the same algorithm and plan, spelled for Vulkan);
         * the test suite compiles the MSL with clang++ against a Metal shim and the WGSL with
         * Tint. */
        if (sg_run_twin_of(run)) {
            if (sg_generate(run, s, "glsl", &s->twin) || validate(run, s, &s->twin, SV_LANG_GLSL))
                return SG_EXIT_FAILURE;
        } else if (validate(run, s, &s->gen, lang)) {
            return SG_EXIT_FAILURE;
        }
        int rc = sg_wgsl_check_contract(run, &s->gen.contract);
        if (rc) return rc;
    }
    return 0;
}

/* Where each shader and the manifest go. */
static int place_outputs(const sg_run *run, sg_job *job, char *manifest_path, size_t size)
{
    const char *output = run->common.output;
    int writes = !run->common.check_only && !run->common.selftest;
    if (job->count == 1) {
        snprintf(job->shaders[0].path, sizeof job->shaders[0].path, "%s", output);
        return 0;
    }
    if (writes && strcmp(output, "-") == 0) {
        char what[64] = "";
        sg_option_render(sg_option_find(run->kernel->options, run->kernel->flag), run->params, what,
                         sizeof what);
        return sg_usage_error("%s writes %d shaders and a .%s manifest, one file each: give -o FILE",
                              what + 1, job->count, run->kernel->manifest_ext);
    }
    /* The manifest names each shader file by its name on a "key value" line, which a space,
     * tab or line break would split (libspdrt could not load it). */
    const char *name = strrchr(output, '/') ? strrchr(output, '/') + 1 : output;
    if (writes && strpbrk(name, " \t\n\r"))
        return sg_usage_error("-o %s: the .%s manifest names the shader files by their file name, which "
                              "cannot hold a space, tab or line break here", output, run->kernel->manifest_ext);
    for (int i = 0; i < job->count; i++)
        derived_path(output, job->shaders[i].role, 0, job->shaders[i].path, sizeof job->shaders[i].path);
    derived_path(output, run->kernel->manifest_ext, 1, manifest_path, size);
    return 0;
}

/* Every file the job writes, staged; then committed together. */
static int write_outputs(const sg_run *run, sg_job *job, const char *manifest_path)
{
    const sg_common *c = &run->common;
    sg_outputs out;
    sg_output_init(&out);
    char *manifest = NULL, *header = NULL, *deps = NULL;
    int rc = SG_EXIT_FAILURE;
    for (int i = 0; i < job->count; i++) {
        sg_job_shader *s = &job->shaders[i];
        int spirv = c->target == SG_TARGET_SPIRV;
        if (sg_output_add(&out, s->path, spirv ? (const void *)s->module.words : s->gen.text,
                          spirv ? s->module.count * sizeof *s->module.words : s->gen.text_size))
            goto done;
    }
    if (job->count > 1) {
        if (!(manifest = run->kernel->manifest(run, job))) goto oom;
        if (sg_output_add(&out, manifest_path, manifest, strlen(manifest))) goto done;
    }
    if (c->header_path) {
        if (!(header = sg_header_render(run, job))) goto oom;
        if (sg_output_add(&out, c->header_path, header, strlen(header))) goto done;
    }
    if (c->depfile) {
        char default_path[PATH_MAX + 8];
        const char *first = job->count > 1 ? manifest_path : c->output;
        const char *path = c->depfile_path;
        if (!path) {
            snprintf(default_path, sizeof default_path, "%s.d", first);
            path = default_path;
        }
        if (!(deps = sg_depfile_for_job(c->dep_target ? c->dep_target : first, job))) goto oom;
        if (sg_output_add(&out, path, deps, strlen(deps))) goto done;
    }
    rc = sg_output_commit(&out) ? SG_EXIT_FAILURE : SG_EXIT_OK;
    goto done;
oom:
    fprintf(stderr, "spdgen: error: out of memory\n");
done:
    sg_output_abort(&out);
    free(manifest);
    free(header);
    free(deps);
    return rc;
}

int sg_job_run(const sg_run *run)
{
    sg_job *job = calloc(1, sizeof *job);
    char manifest_path[PATH_MAX];
    if (!job) {
        fprintf(stderr, "spdgen: error: out of memory\n");
        return SG_EXIT_FAILURE;
    }
    int rc = run->kernel->plan(run, job);
    if (rc == 0) rc = place_outputs(run, job, manifest_path, sizeof manifest_path);
    if (rc == 0) rc = generate_all(run, job);
    if (rc == 0) {
        if (run->common.selftest) rc = run->kernel->selftest(run, job);
        else if (!run->common.check_only) rc = write_outputs(run, job, manifest_path);
    }
    for (int i = 0; i < job->count; i++) {
        sg_generated_free(&job->shaders[i].gen);
        sg_generated_free(&job->shaders[i].twin);
        sv_free(&job->shaders[i].module);
    }
    free(job);
    return rc;
}
