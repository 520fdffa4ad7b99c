/* main.c: spdgen's driver. argv -> config -> Lua templates -> validation -> atomic output.
 * Exit 0 on success, 1 when generation or validation fails, 2 for usage errors. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fft_multipass.h"
#include "lua_host.h"
#include "output.h"
#include "selftest.h"
#include "validate.h"

/* The name diagnostics give the emitted shader: the output file, or a stand-in. */
static const char *source_name(const sg_config *cfg, sv_lang lang)
{
    if (strcmp(cfg->output, "-") != 0 && cfg->target != SG_TARGET_SPIRV && cfg->target != SG_TARGET_MSL)
        return cfg->output;
    /* e.g. spd.comp, fft.hlsl */
    if (cfg->kernel == SG_KERNEL_FFT) return lang == SV_LANG_HLSL ? "fft.hlsl" : "fft.comp";
    return lang == SV_LANG_HLSL ? "spd.hlsl" : "spd.comp";
}

/* Compiles and validates one generated shader; fills *module. */
static int validate(const sg_config *cfg, const sg_generated *g, sv_lang lang, sv_spirv *module)
{
    char *log = NULL;
    if (sv_compile(lang, cfg->env, source_name(cfg, lang), g->text, g->text_size, module, &log) ||
        sv_check_entry(module, "main", g->workgroup[0], g->workgroup[1], g->workgroup[2], &log)) {
        fprintf(stderr, "%s", log ? log : "spdgen: error: validation failed\n");
        if (log && log[0] && log[strlen(log) - 1] != '\n') fputc('\n', stderr);
        free(log);
        sv_free(module);
        return SG_EXIT_FAILURE;
    }
    return 0;
}

int main(int argc, char **argv)
{
    sg_config cfg;
    int rc = sg_cli_parse(argc, argv, &cfg);
    if (rc < 0) return SG_EXIT_OK; /* --help or --version */
    if (rc) return rc;
    /* An FFT longer than one dispatch holds is a set of shaders and a plan file. */
    if (cfg.kernel == SG_KERNEL_FFT && cfg.fft.passes > 0) return sg_fft_multipass_run(&cfg);

    sv_lang lang = cfg.target == SG_TARGET_HLSL ? SV_LANG_HLSL
                 : cfg.target == SG_TARGET_SPIRV ? cfg.spirv_from : SV_LANG_GLSL;
    const char *dialect = cfg.target == SG_TARGET_MSL ? "msl" : lang == SV_LANG_HLSL ? "hlsl" : "glsl";

    sg_generated g, twin = {0};
    sv_spirv module = {0};
    char *depfile = NULL;
    sg_outputs outputs = {0};
    if (sg_generate(&cfg, dialect, cfg.header_path != NULL, &g)) return SG_EXIT_FAILURE;

    rc = SG_EXIT_FAILURE;
    if (cfg.target == SG_TARGET_MSL) {
        /* No open-source Metal compiler exists: validate the GLSL twin of the same config
         * (the same algorithm and plan, spelled for Vulkan). The MSL spelling itself is
         * checked by the test suite with clang++ against a Metal shim. */
        if (sg_generate(&cfg, "glsl", 0, &twin) || validate(&cfg, &twin, SV_LANG_GLSL, &module))
            goto done;
    } else if (validate(&cfg, &g, lang, &module)) {
        goto done;
    }
    if (cfg.selftest) {
        rc = sg_selftest(&cfg, &module);
        goto done;
    }
    if (cfg.check_only) {
        rc = SG_EXIT_OK;
        goto done;
    }

    if (cfg.target == SG_TARGET_SPIRV) {
        if (sg_output_stage(&outputs, cfg.output, module.words, module.count * sizeof *module.words))
            goto done;
    } else if (sg_output_stage(&outputs, cfg.output, g.text, g.text_size)) {
        goto done;
    }
    if (cfg.header_path && sg_output_stage(&outputs, cfg.header_path, g.header, g.header_size))
        goto done;
    if (cfg.depfile) {
        char default_path[4096];
        const char *path = cfg.depfile_path;
        if (!path) {
            snprintf(default_path, sizeof default_path, "%s.d", cfg.output);
            path = default_path;
        }
        const sg_generated *made[2] = {&g, cfg.target == SG_TARGET_MSL ? &twin : NULL};
        depfile = sg_generated_depfile(cfg.dep_target ? cfg.dep_target : cfg.output, made, 2);
        if (!depfile || sg_output_stage(&outputs, path, depfile, strlen(depfile))) goto done;
    }
    rc = sg_output_commit(&outputs) ? SG_EXIT_FAILURE : SG_EXIT_OK;

done:
    sg_output_abort(&outputs);
    free(depfile);
    sv_free(&module);
    sg_generated_free(&g);
    sg_generated_free(&twin);
    return rc;
}
