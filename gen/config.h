/* config.h: the parameters of one spdgen run. Filled and checked by cli.c; the single
 * source of truth handed to the Lua templates (lua_host.c) and to validation/output. */
#ifndef SPDGEN_CONFIG_H
#define SPDGEN_CONFIG_H

#include "fft_params.h"
#include "validate.h"

#define SPDGEN_VERSION "0.1.0"

typedef enum { SG_KERNEL_NONE, SG_KERNEL_SPD, SG_KERNEL_FFT } sg_kernel;
typedef enum { SG_TARGET_GLSL, SG_TARGET_HLSL, SG_TARGET_MSL, SG_TARGET_SPIRV } sg_target;

typedef struct {
    sg_kernel kernel;

    /* --spd */
    const char *op;      /* min | max | mean | test-order */
    int mips;            /* levels produced, storage images bound: 1..log2(max_size) */
    int mips_given;      /* --mips was on the command line (else: the full chain) */
    int max_width, max_height; /* --max-size: the largest source the shader serves */
    int max_mips_per_pass; /* --max-mips-per-pass K: levels per dispatch (0: all in one) */
    int sampler_linear;  /* --sampler linear: level 1 by one bilinear fetch per 2x2 (mean) */
    int sampler_normalized; /* --sampler-coords normalized (the default with --array): the
                            fetches at normalized coordinates, power-of-two sources only;
                            else texel coordinates through an unnormalized sampler */
    int sampler_coords_given;
    int fetch_ahead;     /* --fetch-ahead N: with the sampler, N of an invocation's level-1
                            fetches of the next tile go out before this tile is reduced */
    const char *edge;    /* --edge drop | conservative | weighted: odd edges (spd_edge.lua) */
    const char *level1;  /* --level1 interleaved | blocks: how a workgroup reads level 0 (NULL
                            until cli.c resolves the default: interleaved, blocks with --edge) */
    const char *format;  /* r32f | rgba32f | rgba16f | rgba8 */
    int tile;            /* --tile T: one workgroup reduces a T x T tile by log2(T) levels */
    const char *tail;    /* --tail loop | hierarchy: how the chain continues past one tile
                            (loop: --tile 64 only; NULL until cli.c resolves the default) */
    int wg;              /* workgroup size (--spd: one of spd_tile_workgroups(tile)) */
    int wg_given;        /* --wg was on the command line */
    int subgroup;        /* 0, 4, 8, 16, 32, 64 */
    int array;           /* texture arrays: one dispatch for all slices */
    int half;            /* --half: fp16 math (16-bit float formats only) */

    /* --fft */
    sg_fft_params fft;
    char fft_value[32];       /* --fft's value as given, for messages */

    /* output */
    sg_target target;
    sv_lang spirv_from;       /* front end for --target spirv */
    sv_env env;               /* --target-env */
    const char *output;       /* "-" = stdout */
    int depfile;              /* -MD */
    const char *depfile_path; /* -MF (default: output + ".d") */
    const char *dep_target;   /* -MT (default: output) */
    int check_only;           /* --check */
    const char *template_dir; /* --template-dir or SPDGEN_TEMPLATE_DIR, NULL = embedded */
    const char *header_path;  /* --emit-header */

    /* --selftest [--size WxH[xLAYERS]] [--seed N] */
    int selftest;
    int selftest_width, selftest_height, selftest_layers;
    unsigned seed;

    char max_size[32];        /* "WxH", for the templates */
    char command[512];        /* canonical command that regenerates the output */
} sg_config;

/* Exit codes. */
enum { SG_EXIT_OK = 0, SG_EXIT_FAILURE = 1, SG_EXIT_USAGE = 2 };

/* Prints "spdgen: error: <message>" as one line on stderr; returns SG_EXIT_USAGE. */
int sg_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses and checks argv. Returns SG_EXIT_OK with *cfg filled; SG_EXIT_USAGE after printing a
 * one-line error; or -1 when --help/--version was printed (exit 0). */
int sg_cli_parse(int argc, char **argv, sg_config *cfg);

const char *sg_target_name(sg_target target);
const char *sg_env_name(sv_env env);

#endif
