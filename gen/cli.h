/* cli.h: one spdgen run as the command line describes it: the kernel, its parameters (the
 * kernel's own struct, filled from its option table) and the options every kernel shares
 * (target, outputs, --check, --selftest). cli.c knows no kernel by name: it reads the
 * registry (kernels.c). */
#ifndef SPDGEN_CLI_H
#define SPDGEN_CLI_H

#include "option.h"
#include "validate.h"

#define SPDGEN_VERSION "0.2.0"
/* The source revision spdgen was built from (git describe at build time; "unknown" outside
 * git), in --version and in every output's stamp. */
extern const char sg_revision[];

/* Exit codes. */
enum { SG_EXIT_OK = 0, SG_EXIT_FAILURE = 1, SG_EXIT_USAGE = 2 };

typedef enum { SG_TARGET_GLSL, SG_TARGET_HLSL, SG_TARGET_MSL, SG_TARGET_SPIRV, SG_TARGET_WGSL } sg_target;

/* The WebGPU features --features names (bits of sg_common.features), in sg_wgsl_features'
 * order (wgsl.c). */
enum {
    SG_WGSL_SUBGROUPS = 1 << 0,          /* "subgroups": enable subgroups; */
    SG_WGSL_SHADER_F16 = 1 << 1,         /* "shader-f16": enable f16; */
    SG_WGSL_FORMATS_TIER1 = 1 << 2,      /* "texture-formats-tier1": more storage formats */
    SG_WGSL_FLOAT32_FILTERABLE = 1 << 3, /* "float32-filterable": filtering of 32-bit floats */
};

/* The options every kernel takes (cli.c's table). */
typedef struct {
    int target;               /* sg_target */
    int spirv_from;           /* sv_lang: the front end for --target spirv */
    int env;                  /* sv_env */
    const char *output;       /* -o; "-" = stdout */
    int depfile;              /* -MD */
    const char *depfile_path; /* -MF (default: the output + ".d") */
    const char *dep_target;   /* -MT (default: the output) */
    const char *header_path;  /* --emit-header */
    const char *name;         /* --name: the header's prefix; NULL = derived (sg_header_name) */
    int embed_spirv;          /* --embed-spirv: the module as a C array in the header */
    int check_only;           /* --check */
    int selftest;             /* --selftest */
    long seed;                /* --seed: the selftest's data */
    const char *template_dir; /* --template-dir, or env SPDGEN_TEMPLATE_DIR; NULL = embedded */
    /* --target wgsl: the WebGPU device's limits and features the shader may rely on. */
    long wg_invocations;      /* --wg-invocations: maxComputeInvocationsPerWorkgroup */
    long wg_storage;          /* --wg-storage: maxComputeWorkgroupStorageSize, bytes */
    long storage_textures;    /* --storage-textures: maxStorageTexturesPerShaderStage */
    int features;             /* --features: SG_WGSL_* bits */
    int help, version;
} sg_common;

struct sg_kernel;

typedef struct sg_run {
    const struct sg_kernel *kernel;
    void *params;              /* the kernel's parameters (kernel->params_size bytes) */
    unsigned char *given;      /* per entry of kernel->options: on the command line */
    sg_common common;
    unsigned char common_given[32];
    char command[1280];        /* the canonical command: every resolved generation option */
    /* With --template-dir: the override files and their hashes (lua_host.c), which every
     * output names; "" without overrides. */
    char overrides[2048];
} sg_run;

/* Prints "spdgen: error: <message>" as one line on stderr; returns SG_EXIT_USAGE. */
int sg_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses and checks argv into *run (kernel parameters resolved by the kernel's check).
 * Returns SG_EXIT_OK; SG_EXIT_USAGE after a one-line error; or -1 when --help or --version
 * was printed (exit 0). sg_run_free releases what it allocated. */
int sg_cli_parse(int argc, char **argv, sg_run *run);
void sg_run_free(sg_run *run);

/* Was the kernel option `index` (its position in the kernel's table) on the command line? */
static inline int sg_given(const sg_run *run, int index) { return run->given[index]; }

const char *sg_target_name(int target);
const char *sg_env_name(int env);
/* The front end that compiles this run's shaders (GLSL for the twin of MSL and WGSL) and
 * the dialect (targets/<name>.lua) that spells the output. */
sv_lang sg_run_lang(const sg_run *run);
const char *sg_run_dialect(const sg_run *run);
/* MSL and WGSL are validated, and --selftest runs, through their GLSL twin: the same
 * algorithm and plan spelled for Vulkan. The language's name for messages, or NULL. */
const char *sg_run_twin_of(const sg_run *run);

#endif
