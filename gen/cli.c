/* cli.c: spdgen's command line. Finds the kernel among the registry's flags, parses every
 * option from its declaration (the common table below and the kernel's own, option.c),
 * checks what is common to every kernel, lets the kernel check and resolve its parameters,
 * and renders the canonical regenerate command. Each error is one line on stderr naming the
 * flag, the value and what is allowed; usage errors exit 2. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "kernel.h"
#include "lua_host.h"
#include "wgsl.h"

static const char *const target_names[] = {"glsl", "hlsl", "msl", "spirv", "wgsl", NULL};
static const char *const env_names[] = {"vulkan1.1", "vulkan1.2", "vulkan1.3", NULL};
static const char *const lang_names[] = {"glsl", "hlsl", NULL};

static int spirv_from_shown(const void *p) { return ((const sg_common *)p)->target == SG_TARGET_SPIRV; }
static int template_dir_shown(const void *p) { return ((const sg_common *)p)->template_dir != NULL; }
static int name_shown(const void *p) { return ((const sg_common *)p)->name != NULL; }
static int embed_shown(const void *p) { return ((const sg_common *)p)->embed_spirv; }
static int wgsl_shown(const void *p) { return ((const sg_common *)p)->target == SG_TARGET_WGSL; }

#define COMMON(field) offsetof(sg_common, field)
static const sg_option common_options[] = {
    {.name = "--target", .kind = SG_OPT_CHOICE, .offset = COMMON(target), .choices = target_names,
     .meta = "T", .help = "the output: GLSL, HLSL, MSL or WGSL source, or validated SPIR-V",
     .default_text = "glsl", .lua = NULL},
    {.name = "--spirv-from", .kind = SG_OPT_CHOICE, .offset = COMMON(spirv_from),
     .choices = lang_names, .meta = "L", .help = "front end for --target spirv",
     .default_text = "glsl", .command = SG_CMD_WHEN, .shown = spirv_from_shown},
    {.name = "--target-env", .kind = SG_OPT_CHOICE, .offset = COMMON(env), .choices = env_names,
     .meta = "E", .help = "the Vulkan environment validated against (HLSL: vulkan1.1 only, a "
     "glslang 12 limit)", .default_text = "vulkan1.1"},
    {.name = "--wg-invocations", .kind = SG_OPT_UINT, .offset = COMMON(wg_invocations), .min = 1,
     .max = 1024, .meta = "N", .help = "--target wgsl: the device's maxComputeInvocationsPerWorkgroup "
     "(and maxComputeWorkgroupSizeX); default shapes fit it, larger ones are refused",
     .default_text = "256, WebGPU's default limit", .command = SG_CMD_WHEN, .shown = wgsl_shown},
    {.name = "--wg-storage", .kind = SG_OPT_UINT, .offset = COMMON(wg_storage), .min = 1024,
     .max = 65536, .meta = "BYTES", .help = "--target wgsl: the device's "
     "maxComputeWorkgroupStorageSize; default shapes fit it, larger ones are refused",
     .default_text = "16384, WebGPU's default limit", .command = SG_CMD_WHEN, .shown = wgsl_shown},
    {.name = "--storage-textures", .kind = SG_OPT_UINT, .offset = COMMON(storage_textures),
     .min = 1, .max = 64, .meta = "N", .help = "--target wgsl: the device's "
     "maxStorageTexturesPerShaderStage (an SPD pass writes one level per storage texture)",
     .default_text = "4, WebGPU's default limit", .command = SG_CMD_WHEN, .shown = wgsl_shown},
    {.name = "--features", .kind = SG_OPT_SET, .offset = COMMON(features), .choices = sg_wgsl_features,
     .meta = "F[,F]", .help = "--target wgsl: the optional WebGPU features the device enables, "
     "none or some of subgroups (--subgroup 4 and up), shader-f16 (--half), "
     "texture-formats-tier1 (storage formats r16f, rg16f, rg8, r8ui), float32-filterable "
     "(--sampler linear on 32-bit floats)", .default_text = "none: core WebGPU",
     .command = SG_CMD_WHEN, .shown = wgsl_shown},
    {.name = "-o", .kind = SG_OPT_PATH, .offset = COMMON(output), .meta = "FILE",
     .help = "output file, - for stdout", .default_text = "-", .command = SG_CMD_NEVER},
    {.name = "-MD", .kind = SG_OPT_FLAG, .offset = COMMON(depfile),
     .help = "also write a gcc-style depfile (FILE.d unless -MF)", .command = SG_CMD_NEVER},
    {.name = "-MF", .kind = SG_OPT_PATH, .offset = COMMON(depfile_path), .meta = "FILE",
     .help = "depfile path (implies -MD)", .command = SG_CMD_NEVER},
    {.name = "-MT", .kind = SG_OPT_PATH, .offset = COMMON(dep_target), .meta = "TARGET",
     .help = "target named in the depfile (default: the output file)", .command = SG_CMD_NEVER},
    {.name = "--emit-header", .kind = SG_OPT_PATH, .offset = COMMON(header_path), .meta = "FILE",
     .help = "also write a C header with the dispatch contract", .command = SG_CMD_NEVER},
    {.name = "--name", .kind = SG_OPT_IDENT, .offset = COMMON(name), .max = 32, .meta = "NAME",
     .help = "the names in the C header: macros NAME_* (in capitals), functions name_*, struct "
     "NamePushConstants and the include guard; --name spd gives the SPD_ names of earlier versions, "
     "--name fft the FFT_ ones",
     .default_text = "the kernel and 8 hex digits of a hash of the regenerate command, so two "
     "configurations never share names",
     .command = SG_CMD_WHEN, .shown = name_shown},
    {.name = "--embed-spirv", .kind = SG_OPT_FLAG, .offset = COMMON(embed_spirv),
     .help = "the header also holds each validated SPIR-V module as a C array, name_spirv[] of "
     "NAME_SPIRV_WORDS words (name_pass1_spirv[] ... for a plan)", .command = SG_CMD_WHEN,
     .shown = embed_shown},
    {.name = "--check", .kind = SG_OPT_FLAG, .offset = COMMON(check_only),
     .help = "generate and validate, write nothing", .command = SG_CMD_NEVER},
    {.name = "--selftest", .kind = SG_OPT_FLAG, .offset = COMMON(selftest),
     .help = "run the shader on the local Vulkan device on random data and compare it with "
     "the CPU reference (exit 1 on a mismatch; MSL and WGSL run their GLSL twin); writes nothing",
     .command = SG_CMD_NEVER},
    {.name = "--seed", .kind = SG_OPT_UINT, .offset = COMMON(seed), .min = 0, .max = 4294967295L,
     .meta = "N", .help = "--selftest data seed", .default_text = "1", .command = SG_CMD_NEVER},
    {.name = "--template-dir", .kind = SG_OPT_PATH, .offset = COMMON(template_dir), .meta = "DIR",
     .help = "load DIR/templates/**.lua and DIR/targets/*.lua where present, else the embedded "
     "ones (env SPDGEN_TEMPLATE_DIR); outputs made with overrides say so",
     .command = SG_CMD_WHEN, .shown = template_dir_shown},
    {.name = "--help", .kind = SG_OPT_FLAG, .offset = COMMON(help), .help = "this text (also -h)",
     .command = SG_CMD_NEVER},
    {.name = "-h", .kind = SG_OPT_FLAG, .offset = COMMON(help), .command = SG_CMD_NEVER},
    {.name = "--version", .kind = SG_OPT_FLAG, .offset = COMMON(version),
     .help = "spdgen's version and source revision", .command = SG_CMD_NEVER},
    {0},
};
enum { OPT_TARGET, OPT_SPIRV_FROM, OPT_ENV, OPT_WG_INVOCATIONS, OPT_WG_STORAGE,
       OPT_STORAGE_TEXTURES, OPT_FEATURES, OPT_OUTPUT, OPT_MD, OPT_MF, OPT_MT, OPT_HEADER,
       OPT_NAME, OPT_EMBED_SPIRV, OPT_CHECK, OPT_SELFTEST, OPT_SEED, OPT_TEMPLATE_DIR };

int sg_usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("spdgen: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return SG_EXIT_USAGE;
}

const char *sg_target_name(int target) { return target_names[target]; }
const char *sg_env_name(int env) { return env_names[env]; }

sv_lang sg_run_lang(const sg_run *run)
{
    if (run->common.target == SG_TARGET_HLSL) return SV_LANG_HLSL;
    if (run->common.target == SG_TARGET_SPIRV) return (sv_lang)run->common.spirv_from;
    return SV_LANG_GLSL;
}

const char *sg_run_dialect(const sg_run *run)
{
    if (run->common.target == SG_TARGET_MSL) return "msl";
    if (run->common.target == SG_TARGET_WGSL) return "wgsl";
    return sg_run_lang(run) == SV_LANG_HLSL ? "hlsl" : "glsl";
}

const char *sg_run_twin_of(const sg_run *run)
{
    if (run->common.target == SG_TARGET_MSL) return "MSL";
    if (run->common.target == SG_TARGET_WGSL) return "WGSL";
    return NULL;
}

static void print_help(void)
{
    printf("usage: spdgen");
    for (int i = 0; sg_kernels[i]; i++) {
        const sg_option *flag = sg_option_find(sg_kernels[i]->options, sg_kernels[i]->flag);
        printf("%s%s%s%s", i ? "|" : " ", sg_kernels[i]->flag, flag->meta ? " " : "",
               flag->meta ? flag->meta : "");
    }
    printf(" [options] [--target glsl|hlsl|msl|spirv|wgsl] [-o FILE]\n\n"
           "Emits compute shaders specialized to their parameters, validates them and writes "
           "them.\n\nKernels (exactly one):\n");
    for (int i = 0; sg_kernels[i]; i++) printf("%s", sg_kernels[i]->summary);
    for (int i = 0; sg_kernels[i]; i++) {
        printf("\n%s options:\n", sg_kernels[i]->flag);
        sg_option_help(stdout, sg_kernels[i]->options);
    }
    printf("\nCommon options:\n");
    sg_option_help(stdout, common_options);
    printf("\nExit status: 0 ok, 1 generation or validation failure, 2 usage error.\n\nExamples:\n");
    for (int i = 0; sg_kernels[i]; i++) printf("%s", sg_kernels[i]->examples);
}

/* "--flag=value" splits into flag and value; otherwise the whole argument is the flag. */
static const char *split(const char *arg, char *flag, size_t size)
{
    const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    if (eq && (size_t)(eq - arg) < size) {
        snprintf(flag, size, "%.*s", (int)(eq - arg), arg);
        return eq + 1;
    }
    snprintf(flag, size, "%s", arg);
    return NULL;
}

/* The declaration of `flag` in any table, for knowing whether it takes a value before the
 * kernel is known. */
static const sg_option *any_option(const char *flag)
{
    const sg_option *o = sg_option_find(common_options, flag);
    for (int i = 0; !o && sg_kernels[i]; i++) o = sg_option_find(sg_kernels[i]->options, flag);
    return o;
}

/* The kernel whose flag argv names; the first found. Two different kernels: an error. */
static int find_kernel(int argc, char **argv, const sg_kernel **out)
{
    *out = NULL;
    for (int i = 1; i < argc; i++) {
        char flag[64];
        const char *value = split(argv[i], flag, sizeof flag);
        const sg_option *o = any_option(flag);
        if (!o) continue;
        for (int k = 0; sg_kernels[k]; k++) {
            if (strcmp(sg_kernels[k]->flag, flag) != 0) continue;
            if (*out && *out != sg_kernels[k])
                return sg_usage_error("two kernels given (%s and %s): spdgen emits one kernel per run",
                                      (*out)->flag, sg_kernels[k]->flag);
            *out = sg_kernels[k];
        }
        if (sg_option_takes_value(o) && !value) i++;
    }
    return 0;
}

/* The kernels whose tables have `flag`, for "--op: only for --spd". */
static void owners(const char *flag, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int k = 0; sg_kernels[k]; k++)
        if (sg_option_find(sg_kernels[k]->options, flag))
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? " or " : "",
                     sg_kernels[k]->flag);
}

static int parse_args(int argc, char **argv, sg_run *run)
{
    const sg_option *kernel_table = run->kernel ? run->kernel->options : NULL;
    for (int i = 1; i < argc; i++) {
        char flag[64];
        const char *arg = argv[i], *value = split(arg, flag, sizeof flag);
        const sg_option *o = sg_option_find(common_options, flag);
        void *base = &run->common;
        unsigned char *given = NULL;
        if (o) {
            given = &run->common_given[o - common_options];
        } else if (kernel_table && (o = sg_option_find(kernel_table, flag))) {
            base = run->params;
            given = &run->given[o - kernel_table];
        } else if (any_option(flag)) {
            char list[128];
            owners(flag, list, sizeof list);
            return sg_usage_error("%s: only for %s", flag, list);
        } else if (arg[0] == '-' && arg[1]) {
            return sg_usage_error("unknown option '%s' (see spdgen --help)", arg);
        } else {
            return sg_usage_error("unexpected argument '%s': spdgen reads no input files (see "
                                  "spdgen --help)", arg);
        }
        if (sg_option_takes_value(o) && !value) {
            if (i + 1 >= argc) return sg_usage_error("%s needs a value", flag);
            value = argv[++i];
        }
        int rc = sg_option_parse(o, value, base);
        if (rc) return rc;
        *given = 1;
        if (run->common.help) {
            print_help();
            return -1;
        }
        if (run->common.version) {
            printf("spdgen %s (%s)\n", SPDGEN_VERSION, sg_revision);
            return -1;
        }
    }
    return 0;
}

/* --template-dir and SPDGEN_TEMPLATE_DIR name a directory that exists, or the run stops:
 * a typo must not fall back to the embedded templates unnoticed. */
static int check_template_dir(sg_run *run)
{
    const char *dir = run->common.template_dir;
    const char *from = run->common_given[OPT_TEMPLATE_DIR] ? "--template-dir" : "SPDGEN_TEMPLATE_DIR";
    struct stat st;
    if (!dir) return 0;
    if (strlen(dir) > PATH_MAX - 256)
        return sg_usage_error("%s %.40s...: longer than %d characters", from, dir, PATH_MAX - 256);
    /* The regenerate command names it on comment lines, which a line break would end. */
    for (const char *p = dir; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return sg_usage_error("%s: a path with a line break or another control character (byte "
                                  "%d) cannot be named in the regenerate command", from, *p);
    if (stat(dir, &st) != 0)
        return sg_usage_error("%s %s: no such directory", from, dir);
    if (!S_ISDIR(st.st_mode))
        return sg_usage_error("%s %s: not a directory", from, dir);
    if (sg_template_overrides(dir, run->overrides, sizeof run->overrides)) {
        fprintf(stderr, "spdgen: error: %s %s: cannot read its templates\n", from, dir);
        return SG_EXIT_FAILURE;
    }
    return 0;
}

static int check_common(sg_run *run)
{
    const sg_common *c = &run->common;
    if (run->common_given[OPT_SPIRV_FROM] && c->target != SG_TARGET_SPIRV)
        return sg_usage_error("--spirv-from: only meaningful with --target spirv (target is %s)",
                              target_names[c->target]);
    if (sg_run_lang(run) == SV_LANG_HLSL && c->env != SV_ENV_VULKAN_1_1)
        return sg_usage_error("--target-env %s: HLSL through glslang 12 supports only vulkan1.1 "
                              "(later environments emit BufferBlock, which spirv-val rejects)",
                              env_names[c->env]);
    if (c->check_only && (c->depfile || c->depfile_path || c->header_path))
        return sg_usage_error("--check writes nothing: drop -MD/-MF/--emit-header or --check");
    if (c->depfile_path) run->common.depfile = 1;
    if (c->depfile && strcmp(c->output, "-") == 0 && !c->dep_target)
        return sg_usage_error("-MD with output to stdout needs -MT TARGET to name the target");
    if (c->depfile && !c->depfile_path && strcmp(c->output, "-") == 0)
        return sg_usage_error("-MD with output to stdout needs -MF FILE for the depfile");
    const char *dep_target = c->dep_target ? c->dep_target : c->output;
    if (c->depfile && strpbrk(dep_target, "\n\r\t"))
        return sg_usage_error("%s: a depfile cannot name a target with a line break or a tab (Make has no "
                              "escape for them)", c->dep_target ? "-MT" : "-o");
    if (c->embed_spirv && (c->target == SG_TARGET_MSL || c->target == SG_TARGET_WGSL))
        return sg_usage_error("--embed-spirv: not with --target %s (%s compiles the %s itself; "
                              "use --target spirv, glsl or hlsl)", target_names[c->target],
                              c->target == SG_TARGET_MSL ? "Metal" : "WebGPU",
                              c->target == SG_TARGET_MSL ? "MSL" : "WGSL");
    static const int webgpu_options[] = {OPT_WG_INVOCATIONS, OPT_WG_STORAGE, OPT_STORAGE_TEXTURES,
                                         OPT_FEATURES};
    for (size_t i = 0; i < sizeof webgpu_options / sizeof *webgpu_options; i++)
        if (run->common_given[webgpu_options[i]] && c->target != SG_TARGET_WGSL)
            return sg_usage_error("%s: only meaningful with --target wgsl (a WebGPU device's limits "
                                  "and features; target is %s)",
                                  common_options[webgpu_options[i]].name, target_names[c->target]);
    if (run->common_given[OPT_SEED] && !c->selftest)
        return sg_usage_error("--seed: only meaningful with --selftest");
    return check_template_dir(run);
}

/* Every option of the kernel, then the common ones, as resolved: the command pins the
 * output (run it again and the same bytes come out). */
static int build_command(sg_run *run)
{
    snprintf(run->command, sizeof run->command, "spdgen");
    const sg_option *tables[2] = {run->kernel->options, common_options};
    const void *bases[2] = {run->params, &run->common};
    for (int t = 0; t < 2; t++)
        for (const sg_option *o = tables[t]; o->name; o++) {
            if (o->command == SG_CMD_NEVER) continue;
            if (o->command == SG_CMD_WHEN && !o->shown(bases[t])) continue;
            if (sg_option_render(o, bases[t], run->command, sizeof run->command)) {
                fprintf(stderr, "spdgen: error: the regenerate command is longer than %zu "
                        "characters\n", sizeof run->command - 1);
                return SG_EXIT_FAILURE;
            }
        }
    return 0;
}

int sg_cli_parse(int argc, char **argv, sg_run *run)
{
    memset(run, 0, sizeof *run);
    run->common.output = "-";
    run->common.seed = 1;
    sg_wgsl_defaults(&run->common);
    const char *env_dir = getenv("SPDGEN_TEMPLATE_DIR");
    run->common.template_dir = env_dir && *env_dir ? env_dir : NULL;

    int rc = find_kernel(argc, argv, &run->kernel);
    if (rc) return rc;
    if (run->kernel) {
        int n = sg_option_count(run->kernel->options);
        run->params = calloc(1, run->kernel->params_size);
        run->given = calloc((size_t)n + 1, 1);
        if (!run->params || !run->given) {
            fprintf(stderr, "spdgen: error: out of memory\n");
            return SG_EXIT_FAILURE;
        }
        run->kernel->defaults(run->params);
    }
    if ((rc = parse_args(argc, argv, run))) return rc;
    if (!run->kernel) {
        char list[128] = "";
        for (int k = 0; sg_kernels[k]; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? " or " : "",
                     sg_kernels[k]->flag);
        return sg_usage_error("no kernel given: pass %s (see spdgen --help)", list);
    }
    if ((rc = check_common(run)) || (rc = run->kernel->check(run))) return rc;
    return build_command(run);
}

void sg_run_free(sg_run *run)
{
    free(run->params);
    free(run->given);
    run->params = NULL;
    run->given = NULL;
}
