/* header.c: the one renderer of C contract headers (header.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "header.h"
#include "job.h"
#include "kernel.h"
#include "wgsl.h"

#define WIDTH 100

unsigned long long sg_fnv1a64(const void *data, unsigned long size)
{
    const unsigned char *p = data;
    unsigned long long h = 0xcbf29ce484222325ull;
    for (unsigned long i = 0; i < size; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

void sg_header_name(const sg_run *run, char *buf, unsigned long size)
{
    char key[sizeof run->command + sizeof run->overrides + 2];
    if (run->common.name) {
        snprintf(buf, size, "%s", run->common.name);
        return;
    }
    int len = snprintf(key, sizeof key, "%s\n%s", run->command, run->overrides);
    snprintf(buf, size, "%s_%08llx", run->kernel->name, sg_fnv1a64(key, (unsigned long)len) & 0xffffffffull);
}

/* Words of `text` after `first`, continued after `lead` (" * "), wrapped at WIDTH. */
static void wrapped(sg_text *t, const char *first, const char *lead, const char *text)
{
    size_t col = strlen(first);
    sg_text_printf(t, "%s", first);
    int at_start = 1;
    for (const char *p = text; *p;) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, " ");
        if (!len) break;
        if (!at_start && col + 1 + len > WIDTH - 3) {
            sg_text_printf(t, "\n%s", lead);
            col = strlen(lead);
            at_start = 1;
        }
        sg_text_printf(t, "%s%.*s", at_start ? "" : " ", (int)len, p);
        col += len + (at_start ? 0 : 1);
        at_start = 0;
        p += len;
    }
}

/* The end of the shell word at p: a space outside single quotes ('\'' inside a quoted path
 * is a close quote, an escaped quote and an open quote). */
static const char *word_end(const char *p)
{
    int quoted = 0;
    for (; *p && (quoted || *p != ' '); p++) {
        if (!quoted && *p == '\\' && p[1]) p++;
        else if (*p == '\'') quoted = !quoted;
    }
    return p;
}

void sg_text_command(sg_text *t, const char *head, const char *pad, const char *command)
{
    size_t col = strlen(head);
    sg_text_printf(t, "%s", head);
    for (const char *p = command; *p;) {
        while (*p == ' ') p++;
        /* A group: an option with its value ("--op max"), or a lone word. */
        const char *end = word_end(p);
        if (*end == ' ' && strncmp(p, "--", 2) == 0 && strncmp(end + 1, "--", 2) != 0 && end[1])
            end = word_end(end + 1);
        size_t len = (size_t)(end - p);
        if (!len) break;
        if (col > strlen(head) && col + 1 + len + 2 > WIDTH) {
            sg_text_printf(t, " \\\n%s", pad);
            col = strlen(pad);
        } else if (col > strlen(head)) {
            sg_text_printf(t, " ");
            col++;
        }
        sg_text_printf(t, "%.*s", (int)len, p);
        col += len;
        p = end;
    }
    sg_text_printf(t, "\n");
}

void sg_header_comment(sg_text *t, const char *text)
{
    wrapped(t, "/* ", " * ", text);
    sg_text_printf(t, " */\n");
}

void sg_header_define(sg_text *t, const char *prefix, const char *name, const char *value,
                      const char *doc)
{
    int len = snprintf(NULL, 0, "#define %s%s %s", prefix, name, value);
    if (doc && *doc && len + 7 + (int)strlen(doc) <= WIDTH)
        sg_text_printf(t, "#define %s%s %s /* %s */\n", prefix, name, value, doc);
    else {
        if (doc && *doc) sg_header_comment(t, doc);
        sg_text_printf(t, "#define %s%s %s\n", prefix, name, value);
    }
}

/* A float as a C float literal: always with a point or an exponent ("1.0f", never "1f"). */
static void float_literal(double v, char *buf, size_t size)
{
    snprintf(buf, size, "%.9g", v);
    if (!strpbrk(buf, ".eEn")) snprintf(buf + strlen(buf), size - strlen(buf), ".0");
    snprintf(buf + strlen(buf), size - strlen(buf), "f");
}

static void render_values(sg_text *t, const char *prefix, const sg_contract *c)
{
    char value[64];
    for (int i = 0; i < c->value_count; i++) {
        const sg_contract_value *v = &c->values[i];
        if (v->is_float) float_literal(v->fvalue, value, sizeof value);
        else snprintf(value, sizeof value, "%lld", v->value);
        sg_header_define(t, prefix, v->name, value, v->doc);
    }
}

/* Local size, grid, shared memory and subgroup of one shader. */
static void render_shape(sg_text *t, const char *prefix, const sg_contract *c)
{
    static const char axis[] = "XYZ";
    char name[64], value[128];
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "WORKGROUP_SIZE_%c", axis[i]);
        snprintf(value, sizeof value, "%ld", c->workgroup[i]);
        sg_header_define(t, prefix, name, value, NULL);
    }
    if (c->grid_doc[0]) sg_header_comment(t, c->grid_doc);
    for (int i = 0; i < 3; i++) {
        const sg_contract_grid *g = &c->grid[i];
        if (!g->arg[0]) continue; /* one workgroup along this axis */
        snprintf(name, sizeof name, "GRID_%c(%s)", axis[i], g->arg);
        if (g->constant) snprintf(value, sizeof value, "(%ldu)", g->constant);
        else if (g->per == 1) snprintf(value, sizeof value, "(%s)", g->arg);
        else snprintf(value, sizeof value, "(((%s) + %ldu) / %ldu)", g->arg, g->per - 1, g->per);
        sg_header_define(t, prefix, name, value, NULL);
    }
    snprintf(value, sizeof value, "%ld", c->shared_bytes);
    sg_header_define(t, prefix, "SHARED_MEMORY_BYTES", value, NULL);
    snprintf(value, sizeof value, "%ld", c->subgroup);
    sg_header_define(t, prefix, "SUBGROUP_SIZE", value,
                     "subgroup size the shader's exchanges assume: 0 none, 4 quad operations, "
                     "8+ full subgroups of at least this many invocations (required size where "
                     "the device can set one)");
}

/* The bindings of a job's shaders, each macro once (the shaders of a job that share a
 * resource name it alike; those of different resources name them apart). */
static void render_bindings(sg_text *t, const sg_run *run, const char *prefix, const char *type,
                            const sg_job *job)
{
    char name[64], value[16], doc[480];
    if (run->common.target == SG_TARGET_WGSL) {
        snprintf(doc, sizeof doc, "Bindings (WebGPU: bind group 0 at these numbers; an array of several "
                 "storage textures binds element i at group %d, binding i; the parameter block, "
                 "struct %s, is a uniform buffer at group 0, binding %sWGSL_PARAMS_BINDING).",
                 SG_WGSL_ARRAY_GROUP, type, prefix);
        sg_text_printf(t, "\n");
        sg_header_comment(t, doc);
        snprintf(value, sizeof value, "%d", SG_WGSL_PARAMS_BINDING);
        sg_header_define(t, prefix, "WGSL_PARAMS_BINDING", value, NULL);
        snprintf(value, sizeof value, "%d", SG_WGSL_ARRAY_GROUP);
        sg_header_define(t, prefix, "WGSL_ARRAY_GROUP", value, NULL);
    } else {
        sg_text_printf(t, "\n/* Bindings (descriptor set 0). */\n");
    }
    for (int s = 0; s < job->count; s++) {
        const sg_contract *c = &job->shaders[s].gen.contract;
        for (int i = 0; i < c->binding_count; i++) {
            const sg_contract_binding *b = &c->bindings[i];
            int seen = 0;
            for (int e = 0; e < s && !seen; e++)
                for (int j = 0; j < job->shaders[e].gen.contract.binding_count; j++)
                    if (!strcmp(job->shaders[e].gen.contract.bindings[j].macro, b->macro)) seen = 1;
            if (seen) continue;
            snprintf(name, sizeof name, "BINDING_%s", b->macro);
            snprintf(value, sizeof value, "%ld", b->binding);
            snprintf(doc, sizeof doc, "%s%s: %s", b->kind, b->count > 1 ? " array" : "", b->doc);
            sg_header_define(t, prefix, name, value, doc);
        }
    }
}

static void render_push(sg_text *t, const char *type, const sg_contract *c)
{
    sg_text_printf(t, "\ntypedef struct %s {\n", type);
    for (int i = 0; i < c->push_count; i++) {
        const sg_contract_push *p = &c->push[i];
        char head[80];
        snprintf(head, sizeof head, "    uint32_t %s; /* offset %ld: ", p->name, p->offset);
        wrapped(t, head, "     * ", p->doc);
        sg_text_printf(t, " */\n");
    }
    sg_text_printf(t, "} %s;\n", type);
}

static int same_push(const sg_contract *a, const sg_contract *b)
{
    if (a->push_count != b->push_count) return 0;
    for (int i = 0; i < a->push_count; i++)
        if (strcmp(a->push[i].name, b->push[i].name) != 0) return 0;
    return 1;
}

/* The module hash: of the file each shader is written as. */
static unsigned long long module_hash(const sg_run *run, const sg_job_shader *s)
{
    if (run->common.target == SG_TARGET_SPIRV)
        return sg_fnv1a64(s->module.words, (unsigned long)(s->module.count * sizeof *s->module.words));
    return sg_fnv1a64(s->gen.text, (unsigned long)s->gen.text_size);
}

static void render_shader(sg_text *t, const sg_run *run, const sg_job_shader *s, const char *prefix)
{
    char value[40];
    snprintf(value, sizeof value, "0x%016llxull", module_hash(run, s));
    sg_header_define(t, prefix, "MODULE_FNV1A64", value,
                     "FNV-1a 64 of the shader file this header was generated with");
    render_shape(t, prefix, &s->gen.contract);
    render_values(t, prefix, &s->gen.contract);
}

/* --embed-spirv: each validated module as `static const uint32_t <fn>spirv[]`, eight words a
 * line, what glslangValidator --vn writes. */
static void render_spirv(sg_text *t, const sg_job_shader *s, const char *prefix, const char *fn)
{
    sg_text_printf(t, "\n/* The validated SPIR-V module%s%s, %zu words. */\n", s->role[0] ? " of " : "",
                   s->role, s->module.count);
    sg_text_printf(t, "#define %sSPIRV_WORDS %zu\n", prefix, s->module.count);
    sg_text_printf(t, "static const uint32_t %sspirv[%sSPIRV_WORDS] = {", fn, prefix);
    for (size_t i = 0; i < s->module.count; i++)
        sg_text_printf(t, "%s0x%08xu,", i % 8 ? " " : "\n    ", s->module.words[i]);
    sg_text_printf(t, "\n};\n");
}

char *sg_header_render(const sg_run *run, const sg_job *job)
{
    const sg_kernel *k = run->kernel;
    char name[48], prefix[64], fn[64], type[96];
    sg_contract *scratch = calloc(1, sizeof *scratch);
    if (!scratch) return NULL;
    const sg_contract *whole = sg_job_contract(run, job, scratch);
    sg_header_name(run, name, sizeof name);
    for (size_t i = 0; name[i]; i++) prefix[i] = (char)toupper((unsigned char)name[i]), prefix[i + 1] = '\0';
    snprintf(prefix + strlen(prefix), sizeof prefix - strlen(prefix), "_");
    snprintf(fn, sizeof fn, "%s_", name);
    snprintf(type, sizeof type, "%c%sPushConstants", toupper((unsigned char)name[0]), name + 1);

    sg_text t = {0};
    char title[512];
    snprintf(title, sizeof title, "spdgen %s (%s): dispatch contract of %s.", SPDGEN_VERSION,
             sg_revision, whole->title);
    wrapped(&t, "/* ", " * ", title);
    sg_text_printf(&t, "\n");
    sg_text_printf(&t, " * Generated; regenerate with:\n");
    sg_text_command(&t, " *   ", " *       ", run->command);
    if (run->overrides[0]) {
        wrapped(&t, " * Made with template overrides: ", " *   ", run->overrides);
        sg_text_printf(&t, "\n");
    }
    sg_text_printf(&t, " * Entry point \"%s\"; push constants are %ld bytes (struct %s).",
                   job->shaders[0].gen.contract.entry, job->shaders[0].gen.contract.push_bytes, type);
    if (whole->doc[0]) wrapped(&t, "\n * ", " * ", whole->doc);
    sg_text_printf(&t, " */\n#ifndef SPDGEN_%sCONTRACT_H\n#define SPDGEN_%sCONTRACT_H\n\n", prefix, prefix);
    sg_text_printf(&t, "#include <stdint.h>\n\n");
    if (job->count == 1) {
        render_shader(&t, run, &job->shaders[0], prefix);
    } else {
        render_values(&t, prefix, whole);
        for (int i = 0; i < job->count; i++) {
            const sg_job_shader *s = &job->shaders[i];
            const char *file = strrchr(s->path, '/');
            char sub[64];
            snprintf(sub, sizeof sub, "%s%s_", prefix, s->role);
            for (char *c = sub; *c; c++) *c = (char)toupper((unsigned char)*c);
            sg_text_printf(&t, "\n/* %s: %s */\n", s->role, file ? file + 1 : s->path);
            render_shader(&t, run, s, sub);
        }
    }
    render_bindings(&t, run, prefix, type, job);
    render_push(&t, type, &job->shaders[0].gen.contract);
    for (int i = 1; i < job->count; i++)
        if (!same_push(&job->shaders[0].gen.contract, &job->shaders[i].gen.contract)) {
            char role_type[sizeof type + sizeof job->shaders[i].role];
            snprintf(role_type, sizeof role_type, "%s_%s", type, job->shaders[i].role);
            render_push(&t, role_type, &job->shaders[i].gen.contract);
        }
    if (k->header) k->header(&t, run, job, prefix, fn);
    for (int i = 0; run->common.embed_spirv && i < job->count; i++) {
        char sub_prefix[96], sub_fn[96];
        const char *role = job->shaders[i].role;
        snprintf(sub_fn, sizeof sub_fn, "%s%s%s", fn, role, role[0] ? "_" : "");
        snprintf(sub_prefix, sizeof sub_prefix, "%s", sub_fn);
        for (char *c = sub_prefix; *c; c++) *c = (char)toupper((unsigned char)*c);
        render_spirv(&t, &job->shaders[i], sub_prefix, sub_fn);
    }
    sg_text_printf(&t, "\n#endif\n");
    free(scratch);
    return sg_text_take(&t);
}
