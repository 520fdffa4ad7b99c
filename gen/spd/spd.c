/* spd.c: the --spd kernel: a single-pass downsampler after AMD FidelityFX SPD. Its options,
 * each declared once, and its entry in the registry. templates/spd/ writes the shader,
 * spd_check.c resolves and checks the parameters, spd_header.c adds the contract header's
 * helpers, spd_selftest.c runs the shader against runtime/spd's CPU reference. */
#include <stddef.h>

#include <lua.h>

#include "job.h"
#include "spd.h"

const char *const sg_spd_ops[] = {"min", "max", "mean", "minmax", "srgb-mean", "test-order", NULL};
const char *const sg_spd_formats[] = {"r16f", "rg16f", "rgba16f", "r32f", "rg32f", "rgba32f",
                                      "rgba8", "r32ui", NULL};
const char *const sg_spd_edges[] = {"drop", "conservative", "weighted", NULL};
const char *const sg_spd_tails[] = {"loop", "hierarchy", NULL};
const char *const sg_spd_level1s[] = {"interleaved", "blocks", NULL};
static const char *const samplers[] = {"load", "linear", NULL};
static const char *const coords[] = {"texel", "normalized", NULL};
static const long subgroups[] = {0, 4, 8, 16, 32, 64, -1};

static int coords_shown(const void *p) { return ((const sg_spd_params *)p)->sampler_linear; }

#define F(field) offsetof(sg_spd_params, field)
static const sg_option options[] = {
    [SPD_OPT_SPD] = {.name = "--spd", .kind = SG_OPT_FLAG, .offset = F(spd)}, /* the summary */
    [SPD_OPT_OP] = {.name = "--op", .kind = SG_OPT_CHOICE, .offset = F(op), .choices = sg_spd_ops,
        .hidden_choices = 1, .meta = "OP", .lua = "op", .default_text = "mean",
        .help = "the 2x2 reduction: min | max | mean | minmax (one-channel depth to (min, max): "
        "rg16f or rg32f) | srgb-mean (average in linear light: rgba8)"},
    [SPD_OPT_FORMAT] = {.name = "--format", .kind = SG_OPT_CHOICE, .offset = F(format),
        .choices = sg_spd_formats, .meta = "F", .lua = "format", .default_text = "rgba32f",
        .help = "storage format of the mips (r32ui holds integers: min, max)"},
    [SPD_OPT_MAX_SIZE] = {.name = "--max-size", .kind = SG_OPT_SIZE, .offset = F(max_size), .min = 1,
        .max = 16384, .meta = "WxH", .lua = "max_size", .default_text = "4096x4096",
        .help = "the largest source the shader serves, up to 16384x16384 (14 levels, one "
        "dispatch)"},
    [SPD_OPT_MIPS] = {.name = "--mips", .kind = SG_OPT_UINT, .offset = F(mips), .min = 1, .max = 14,
        .meta = "N", .default_text = "the full chain of --max-size",
        .why = "16384x16384; the default --max-size 4096x4096 allows 1..12",
        .help = "levels to produce"},
    [SPD_OPT_PER_PASS] = {.name = "--max-mips-per-pass", .kind = SG_OPT_UINT,
        .offset = F(mips_per_pass), .min = 1, .max = 14, .meta = "K", .default_text = "--mips",
        .why = "levels per dispatch, at most --mips",
        .help = "split the chain into dispatches of K levels, for engines that bind fewer "
        "storage images; K <= log2(--tile) needs no atomic counter"},
    [SPD_OPT_TILE] = {.name = "--tile", .kind = SG_OPT_POW2, .offset = F(tile), .min = 2, .max = 64,
        .meta = "T", .lua = "tile", .default_text = "64",
        .why = "T = 2^M: one workgroup reduces a TxT tile by M levels",
        .help = "one workgroup reduces a TxT tile by log2(T) levels; below 64 a hierarchy of "
        "counters finishes the chain"},
    [SPD_OPT_WG] = {.name = "--wg", .kind = SG_OPT_UINT, .offset = F(wg), .min = 1, .max = 256,
        .meta = "N", .lua = "wg", .default_text = "the largest",
        .why = "(T/B)^2 for --tile T, B = 2 or 4",
        .help = "invocations per workgroup: each reads a BxB block, B = 2 or 4, N = (T/B)^2 <= "
        "256: --tile 64: 256; 32: 256, 64; 16: 64, 16; 8: 16, 4; 4: 4, 1; 2: 1"},
    [SPD_OPT_TAIL] = {.name = "--tail", .kind = SG_OPT_CHOICE, .offset = F(tail),
        .choices = sg_spd_tails, .meta = "T", .lua = "tail",
        .default_text = "hierarchy below --tile 64 and past 4096 texels a side (without "
                        "--edge, --max-mips-per-pass or --target wgsl), else loop",
        .help = "how the chain continues past one tile: loop (the last workgroup loops over "
        "64x64 regions of level 6; needed by updates and --edge) | hierarchy (a hierarchy of "
        "counters reduces the regions in parallel)"},
    [SPD_OPT_LEVEL1] = {.name = "--level1", .kind = SG_OPT_CHOICE, .offset = F(level1),
        .choices = sg_spd_level1s, .meta = "L", .lua = "level1",
        .default_text = "interleaved; blocks with --edge and for rgba8 past 2048x2048",
        .help = "how invocations reading 4x4 blocks read level 0: interleaved (four 2x2 blocks "
        "T/2 apart, dense fetches, one shared-memory exchange) | blocks (each its own 4x4)"},
    [SPD_OPT_SAMPLER] = {.name = "--sampler", .kind = SG_OPT_CHOICE, .offset = F(sampler_linear),
        .choices = samplers, .meta = "S", .default_text = "load",
        .help = "level 1 by texel loads, or for --op mean on a float format or rgba8 one "
        "bilinear fetch per 2x2 block (binds a sampler; 8/16-bit formats within 2 units: the "
        "filter rounds)"},
    [SPD_OPT_SAMPLER_COORDS] = {.name = "--sampler-coords", .kind = SG_OPT_CHOICE,
        .offset = F(sampler_normalized), .choices = coords, .meta = "C",
        .command = SG_CMD_WHEN, .shown = coords_shown,
        .default_text = "texel; normalized with --array",
        .help = "with --sampler linear: texel (an unnormalized sampler, any size) | normalized "
        "(power-of-two sources only; the only choice with --array)"},
    [SPD_OPT_FETCH_AHEAD] = {.name = "--fetch-ahead", .kind = SG_OPT_UINT, .offset = F(fetch_ahead),
        .min = 0, .max = 4, .meta = "N", .lua = "fetch_ahead",
        .default_text = "2 with --sampler linear --tail hierarchy at --tile 64, else 0",
        .why = "bilinear fetches of the next tile per invocation",
        .help = "with --sampler linear and several tiles per workgroup: N of each invocation's "
        "fetches of the next tile go out before this tile's reduction, so loads overlap it"},
    [SPD_OPT_EDGE] = {.name = "--edge", .kind = SG_OPT_CHOICE, .offset = F(edge),
        .choices = sg_spd_edges, .meta = "E", .lua = "edge", .default_text = "drop",
        .help = "odd level sizes: drop (the last odd row/column is left out, as FidelityFX "
        "does) | conservative (min, max, minmax: folded into the last texel, for Hi-Z culling) "
        "| weighted (mean: nvpro_pyramid's 3-tap weights keep the mean; may take several "
        "dispatches); conservative and weighted need --tile 64 --tail loop"},
    [SPD_OPT_SUBGROUP] = {.name = "--subgroup", .kind = SG_OPT_ONE_OF, .offset = F(subgroup),
        .numbers = subgroups, .meta = "S", .lua = "subgroup", .default_text = "0",
        .why = "0: shared memory only, 4: quad operations, 8+: shuffles",
        .help = "0 = shared memory only; 4 = quad operations; 8..64 = subgroup shuffles for "
        "subgroups of at least S"},
    [SPD_OPT_ARRAY] = {.name = "--array", .kind = SG_OPT_FLAG, .offset = F(array), .lua = "array",
        .help = "texture arrays and cube faces: one dispatch for all slices, a counter per slice"},
    [SPD_OPT_HALF] = {.name = "--half", .kind = SG_OPT_FLAG, .offset = F(half), .lua = "half",
        .help = "fp16 math for r16f | rg16f | rgba16f (registers, exchanges, shared memory, "
        "the hand-off); needs shaderFloat16 and 16-bit storage"},
    [SPD_OPT_UNFENCED] = {.name = "--unfenced-handoff", .kind = SG_OPT_FLAG, .offset = F(unfenced),
        .lua = "unfenced",
        .help = "--target wgsl: allow passes of more than log2(--tile) levels, whose last "
        "workgroup reads what the others wrote in the same dispatch; WGSL has no device-scope "
        "fence to order that, so it works only where the implementation makes those writes "
        "visible in time (docs/wgsl.md)"},
    [SPD_OPT_SIZE] = {.name = "--size", .kind = SG_OPT_SIZE3, .offset = F(size), .min = 1,
        .max = 16384, .max_layers = 2048, .meta = "WxH[xL]", .command = SG_CMD_NEVER,
        .default_text = "1920x1080 within --max-size; 6 layers with --array",
        .help = "the --selftest source"},
    {0},
};

static void defaults(void *p)
{
    sg_spd_params *s = p;
    s->op = SG_SPD_OP_MEAN;
    s->format = SG_SPD_RGBA32F;
    s->max_size[0] = s->max_size[1] = 4096;
    s->tile = 64;
}

/* Fields the templates read besides the options: the sampler as booleans, and with
 * --max-mips-per-pass `mips` as the levels one dispatch writes, `total_mips` the chain. */
static void push(lua_State *L, const sg_run *run, const sg_job_shader *shader)
{
    const sg_spd_params *s = run->params;
    lua_pushboolean(L, s->sampler_linear);
    lua_setfield(L, -2, "sampler_linear");
    lua_pushboolean(L, s->sampler_normalized);
    lua_setfield(L, -2, "sampler_normalized");
    lua_pushinteger(L, s->mips_per_pass);
    lua_setfield(L, -2, "mips");
    lua_pushinteger(L, s->mips);
    lua_setfield(L, -2, "total_mips");
    (void)shader;
}

static int plan(const sg_run *run, sg_job *job)
{
    (void)run;
    sg_job_add_shader(job, "", 0);
    return 0;
}

const sg_kernel sg_spd_kernel = {
    .name = "spd",
    .flag = "--spd",
    .title = "single-pass downsampler (SPD)",
    .summary =
        "  --spd                 single-pass downsampler: every mip level of an image in one\n"
        "                        dispatch (64x64 tiles per 256-invocation workgroup; the last\n"
        "                        workgroup of each slice, elected by an atomic counter,\n"
        "                        finishes the chain)\n",
    .examples =
        "  spdgen --spd --op max --format r32f --edge conservative -o hiz.comp  # Hi-Z\n"
        "  spdgen --spd --subgroup 32 --target hlsl -o spd.hlsl\n"
        "  spdgen --spd --array --target msl -o spd.metal --emit-header spd_contract.h\n"
        "  spdgen --spd --target spirv -o spd.spv -MD               # + spd.spv.d\n"
        "  spdgen --spd --op max --format r32f --selftest --size 2560x1440\n"
        "  spdgen --spd --edge weighted --format rgba16f -o bloom.comp  # mean kept at odd sizes\n"
        "  spdgen --spd --max-size 16384x16384 --tail hierarchy -o spd16k.comp\n"
        "  spdgen --spd --target wgsl -o spd.wgsl --emit-header spd.h  # WebGPU: passes of 4\n",
    .options = options,
    .params_size = sizeof(sg_spd_params),
    .defaults = defaults,
    .check = sg_spd_check,
    .plan = plan,
    .push = push,
    .header = sg_spd_header,
    .selftest = sg_spd_selftest,
};
