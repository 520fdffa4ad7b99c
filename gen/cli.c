/* cli.c: spdgen's command line. Parses argv into an sg_config and checks every parameter,
 * so nothing downstream ever sees a value it must second-guess. Each error is one line on
 * stderr naming the flag, the value and what is allowed; usage errors exit 2. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fft_cli.h"

static const char *const spd_ops[] = {"min", "max", "mean", "minmax", "srgb-mean", "test-order",
                                      NULL};
static const char *const spd_formats[] = {"r16f", "rg16f", "rgba16f", "r32f", "rg32f", "rgba32f",
                                          "rgba8", "r32ui", NULL};
static const char *const edge_modes[] = {"drop", "conservative", "weighted", NULL};
static const char *const tail_modes[] = {"loop", "hierarchy", NULL};
static const char *const level1_modes[] = {"interleaved", "blocks", NULL};
static const char *const target_names[] = {"glsl", "hlsl", "msl", "spirv", NULL};
static const char *const env_names[] = {"vulkan1.1", "vulkan1.2", "vulkan1.3", NULL};
static const char *const lang_names[] = {"glsl", "hlsl", NULL};
static const int subgroup_sizes[] = {0, 4, 8, 16, 32, 64};

static const char usage_text[] =
    "usage: spdgen --spd|--fft N [options] [--target glsl|hlsl|msl|spirv] [-o FILE]\n"
    "\n"
    "Emits one compute shader specialized to its parameters, validates it and writes it.\n"
    "\n"
    "Kernels (exactly one):\n"
    "  --spd                 single-pass downsampler: all mips of an image in one dispatch\n"
    "                        (64x64 tiles per 256-invocation workgroup; the last workgroup of\n"
    "                        each slice, elected by an atomic counter, finishes levels 7..12)\n"
    "  --fft N               workgroup FFT of N = 4..16384 complex points (a power of two)\n"
    "                        per workgroup, E per invocation in registers, subgroup shuffles\n"
    "                        and shared memory (at most 32 KB) between them; longer N up to\n"
    "                        2^20 as a four-step plan: -o NAME.EXT writes NAME.pass1.EXT,\n"
    "                        NAME.pass2.EXT and the plan file NAME.fftplan\n"
    "\n"
    "SPD parameters:\n"
    "  --op OP               min | max | mean (default) | minmax (one-channel depth to min in\n"
    "                        R, max in G: --format rg16f or rg32f) | srgb-mean (average in\n"
    "                        linear light: --format rgba8); test-order is a test-only,\n"
    "                        order-sensitive weighted sum\n"
    "  --mips N              levels to produce, 1..log2 of --max-size (default: all of them,\n"
    "                        12 for 4096x4096)\n"
    "  --max-size WxH        the largest source the shader serves, up to 16384x16384 (14\n"
    "                        levels, still one dispatch) (default 4096x4096)\n"
    "  --level1 L            how a workgroup reads level 0 (invocations reading 4x4 blocks):\n"
    "                        interleaved (default; four 2x2 blocks T/2 apart, so a subgroup's\n"
    "                        fetches are dense, and level 1 exchanged through shared memory,\n"
    "                        16 KB at --tile 64) | blocks (each invocation its 4x4 block; the\n"
    "                        default for rgba8 and with --edge conservative|weighted)\n"
    "  --sampler load|linear level 1 by texel loads (default) or, for --op mean on a float\n"
    "                        format or rgba8, one bilinear fetch per 2x2 block (binds a linear\n"
    "                        clamp-to-edge sampler; rgba8: within 2 units instead of 1, the\n"
    "                        filter's own rounding)\n"
    "  --sampler-coords C    with --sampler linear: texel (default: unnormalized sampler, any\n"
    "                        size) | normalized (power-of-two sources only; the default and\n"
    "                        the only choice with --array; on the H200 faster than texel for\n"
    "                        rgba8 with --fetch-ahead 4 or --tail hierarchy, equal for the\n"
    "                        other formats)\n"
    "  --fetch-ahead N       with --sampler linear and several tiles per workgroup: N of\n"
    "                        each invocation's bilinear fetches of the next tile (0..4; 1\n"
    "                        with 2x2 blocks) go out before this tile's levels 2..6 and\n"
    "                        their barriers, so a workgroup's loads overlap its reductions,\n"
    "                        for up to 4 registers each (default 2 with --tail hierarchy at\n"
    "                        --tile 64, else 0)\n"
    "  --max-mips-per-pass K split the chain into dispatches of K levels each (1..--mips),\n"
    "                        for engines that bind fewer storage images; K <= log2(--tile)\n"
    "                        needs no atomic counter\n"
    "  --edge E              odd level sizes: drop (default: the last odd row/column of a\n"
    "                        level is left out, as FidelityFX SPD does) | conservative (min,\n"
    "                        max, minmax: the last texel also folds that row/column in, so\n"
    "                        every texel bounds its whole footprint; Hi-Z culling) |\n"
    "                        weighted (mean, srgb-mean: nvpro_pyramid's 3-tap weights on odd\n"
    "                        sizes, which keep the image's mean; may take extra dispatches);\n"
    "                        conservative and weighted need --tile 64 --tail loop\n"
    "  --format F            storage format of the mips: r16f | rg16f | rgba16f | r32f |\n"
    "                        rg32f | rgba32f (default) | rgba8 | r32ui (integers: min, max)\n"
    "  --tile T              one workgroup reduces a TxT tile by log2(T) levels: 2, 4, 8, 16,\n"
    "                        32, 64 (default 64). Below 64 a hierarchy of counters (one per\n"
    "                        block of TxT workgroups per stage) finishes the chain\n"
    "  --tail loop|hierarchy how the chain continues past one tile: loop (default for --tile\n"
    "                        64: the last workgroup loops over 64x64 regions of level 6;\n"
    "                        needed by sub-rectangle updates and --edge) | hierarchy (the\n"
    "                        only tail below 64: a hierarchy of counters reduces the regions\n"
    "                        in parallel; measured faster at 8192x8192 and up with 4 tiles\n"
    "                        per workgroup, the runtime's tiles_per_workgroup)\n"
    "  --wg N                invocations per workgroup: each reads a BxB block, B = 2 or 4, so\n"
    "                        N = (T/B)^2, at most 256 (default the largest): --tile 64: 256;\n"
    "                        32: 256, 64; 16: 64, 16; 8: 16, 4; 4: 4, 1; 2: 1\n"
    "  --subgroup S          0 = shared memory only; 4 = quad operations; 8, 16, 32, 64 =\n"
    "                        subgroup shuffles for a subgroup of at least S (default 0)\n"
    "  --array               texture arrays / cube faces: one dispatch for all slices,\n"
    "                        one counter per slice\n"
    "  --half                fp16 math from the level-0 fetch on (registers, subgroup\n"
    "                        exchanges, shared memory, the level-6 hand-off) for --format\n"
    "                        r16f | rg16f | rgba16f; the device needs shaderFloat16,\n"
    "                        storageBuffer16BitAccess and, with --subgroup 4+,\n"
    "                        shaderSubgroupExtendedTypes\n"
    "\n"
    "FFT parameters (N = E x W; one dispatch holds N <= 16 x --max-wg: 16384 at 1024,\n"
    "4096 at 256; beyond, a four-step plan whose passes pick E and W):\n"
    "  --ept E               elements per invocation: 2, 4, ..., 64 (held in registers)\n"
    "  --wg W                invocations per workgroup, a power of two. Given one of E and\n"
    "                        W the other follows; given neither, E = 16 while W = N/16\n"
    "                        is at least 32 (else W = 32, or N/2 below N = 64); complex\n"
    "                        rows keep W <= 256 with a larger E (N = 8192: E 32 x W 256,\n"
    "                        16384: E 64 x W 256); W at most --max-wg (the fastest\n"
    "                        shapes measured on the H200)\n"
    "  --max-wg W            the largest workgroup the rule may pick (default 1024)\n"
    "  --subgroup S          0 = shared memory only; 4 = quad swaps; 8, 16, 32, 64 = XOR\n"
    "                        shuffles for butterflies less than S apart (full subgroups of\n"
    "                        S; S <= W) (default 0)\n"
    "  --direction D         forward (default) | inverse: exp(-2 pi i jk/N) | exp(+...)\n"
    "  --norm M              inverse (default: 1/N on the inverse) | none | unitary\n"
    "                        (1/sqrt(N) both ways)\n"
    "  --order O             natural (default) | native: skip the reorder; the forward's\n"
    "                        output and the inverse's input are in bit-reversed order\n"
    "  --storage T           f32 (default) | f16: buffers of IEEE halves, fp32 math\n"
    "  --stride              FFTs along columns (element j of column c at c + j * stride);\n"
    "                        each workgroup runs neighbouring columns so reads coalesce\n"
    "  --column-layout L     columns of --stride and of a four-step plan's passes: lanes\n"
    "                        (C x W invocations, invocation t runs column t mod C: each load\n"
    "                        of a subgroup covers C neighbouring columns) | registers (W\n"
    "                        invocations, 16/E columns side by side in registers) (default:\n"
    "                        lanes where C >= 8 fits, i.e. W <= --max-wg / 8, else registers)\n"
    "  --columns-per-wg C    columns per workgroup in lanes, C x W <= --max-wg (default: the\n"
    "                        largest up to 16 that fits; implies --column-layout lanes);\n"
    "                        a four-step plan: C for both passes or C1,C2 (default 4,4)\n"
    "  --real                two real rows per complex FFT; forward: real rows -> N/2\n"
    "                        complex half spectra (X[0], X[N/2] packed in element 0);\n"
    "                        inverse: the reverse\n"
    "  --twiddles T          device (computed from integer exponents) | lut (a table\n"
    "                        computed in double on the host, binding 2) | squared\n"
    "                        (device, but of two register stages in a row the second\n"
    "                        squares the first's twiddle: half the polynomials, ~1 ulp\n"
    "                        more error) (default: squared for complex rows in the\n"
    "                        default shape at --subgroup 0 and N = 2048 or 4096, measured\n"
    "                        faster there; else device)\n"
    "  --shared-layout L     split (exchanges through two float arrays; default below\n"
    "                        N = 1024) | paired (one float2 array: half the shared-memory\n"
    "                        instructions; default from N = 1024, measured faster there)\n"
    "  --rows-per-wg R       R consecutive rows per workgroup, each invocation holding its\n"
    "                        E elements of every row (E x R <= 64 values): more loads in\n"
    "                        flight, R rows per exchange barrier (default for complex rows\n"
    "                        in the default shape: 8/E at N <= 128, 2 at N = 8192, 4 at\n"
    "                        4096 with --subgroup 0 and 2 with 4, else 1)\n"
    "  --prefetch-rows R     R consecutive rows per workgroup, one after another: while\n"
    "                        one row is transformed, the next row's loads are in flight\n"
    "                        (E more registers; E <= 16) (default: 2 for complex rows in\n"
    "                        the default shape at N = 1024, 2048 and 4096 with --subgroup\n"
    "                        8+, else 1; given, the default --rows-per-wg is 1)\n"
    "  --batch B             FFTs run by --selftest (default 4)\n"
    "\n"
    "Output:\n"
    "  --target T            glsl | hlsl | msl | spirv (default glsl)\n"
    "  --spirv-from L        front end for --target spirv: glsl | hlsl (default glsl)\n"
    "  --target-env E        vulkan1.1 | vulkan1.2 | vulkan1.3 (default vulkan1.1; HLSL:\n"
    "                        vulkan1.1 only, a glslang 12 limit)\n"
    "  -o FILE               output file, - for stdout (default -)\n"
    "  -MD                   also write a gcc-style depfile (FILE.d unless -MF)\n"
    "  -MF FILE              depfile path (implies -MD)\n"
    "  -MT TARGET            target named in the depfile (default: the output file)\n"
    "  --emit-header FILE    also write a C header with the dispatch contract\n"
    "  --check               generate and validate, write nothing\n"
    "  --selftest            also run the shader on the local Vulkan device on random data and\n"
    "                        compare every level with the CPU reference (exit 1 on a mismatch;\n"
    "                        MSL runs its GLSL twin); writes nothing\n"
    "  --size WxH[xLAYERS]   --selftest source size (default 1920x1080 within --max-size;\n"
    "                        6 layers with --array)\n"
    "  --seed N              --selftest data seed (default 1)\n"
    "  --template-dir DIR    load templates/*.lua and targets/*.lua from DIR where present,\n"
    "                        else the embedded ones (env SPDGEN_TEMPLATE_DIR)\n"
    "  -h, --help            this text\n"
    "  --version             spdgen's version\n"
    "\n"
    "Exit status: 0 ok, 1 generation or validation failure, 2 usage error.\n"
    "\n"
    "Examples:\n"
    "  spdgen --spd --op max --format r32f -o hiz.comp          # GLSL depth pyramid\n"
    "  spdgen --spd --subgroup 32 --target hlsl -o spd.hlsl\n"
    "  spdgen --spd --array --target msl -o spd.metal --emit-header spd_contract.h\n"
    "  spdgen --spd --target spirv -o spd.spv -MD               # + spd.spv.d\n"
    "  spdgen --spd --op max --format r32f --selftest --size 2560x1440\n"
    "  spdgen --spd --format rgba16f --half --subgroup 8 -o spd_half.comp\n"
    "  spdgen --spd --op max --format r32f --edge conservative -o hiz.comp  # culling\n"
    "  spdgen --spd --edge weighted --format rgba16f -o bloom.comp  # mean kept at odd sizes\n"
    "  spdgen --spd --max-size 16384x16384 --tail hierarchy -o spd16k.comp  # large images\n"
    "  spdgen --fft 2048 --wg 512 --target msl -o fft.metal    # E = 4\n"
    "  spdgen --fft 16384 --subgroup 32 --target spirv -o fft.spv --emit-header fft.h\n"
    "  spdgen --fft 1024 --real --subgroup 8 --selftest\n"
    "  spdgen --fft 262144 --subgroup 32 --target spirv -o fft.spv   # two passes + plan\n";

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

/* "a | b | c" for error messages. */
#define usage_error sg_usage_error

static const char *list_of(const char *const *names)
{
    static char buf[256];
    buf[0] = '\0';
    for (int i = 0; names[i]; i++) {
        if (i) strncat(buf, " | ", sizeof buf - strlen(buf) - 1);
        strncat(buf, names[i], sizeof buf - strlen(buf) - 1);
    }
    return buf;
}

static int index_of(const char *const *names, const char *value)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], value) == 0) return i;
    return -1;
}

/* Strict decimal: the whole string, no sign, no overflow. */
static int parse_uint(const char *s, long *out)
{
    char *end;
    if (*s < '0' || *s > '9') return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

const char *sg_target_name(sg_target target) { return target_names[target]; }
const char *sg_env_name(sv_env env) { return env_names[env]; }

/* The workgroup sizes a tile admits, largest first: each invocation reads a B x B block of
 * the tile, B = 2 or 4 (B <= T), so N = (T/B)^2, at most 256 invocations. Returns the count. */
static int tile_workgroups(int tile, int out[2])
{
    int n = 0;
    for (int b = 2; b <= 4; b *= 2)
        if (b <= tile && (tile / b) * (tile / b) <= 256) out[n++] = (tile / b) * (tile / b);
    return n;
}

/* --wg against --tile; without --wg the largest workgroup the tile admits. */
static int check_tile_wg(sg_config *cfg)
{
    int sizes[2] = {0, 0}, n = tile_workgroups(cfg->tile, sizes);
    if (!cfg->wg_given) cfg->wg = sizes[0];
    for (int i = 0; i < n; i++)
        if (cfg->wg == sizes[i]) return SG_EXIT_OK;
    if (n == 1)
        return usage_error("--wg %d: --tile %d takes only --wg %d (each invocation reads a BxB "
                           "block, B = 2 or 4: N = (T/B)^2, at most 256)", cfg->wg, cfg->tile,
                           sizes[0]);
    return usage_error("--wg %d: --tile %d takes --wg %d or %d (each invocation reads a BxB "
                       "block, B = 2 or 4: N = (T/B)^2, at most 256)", cfg->wg, cfg->tile,
                       sizes[0], sizes[1]);
}

/* --tail against --tile: the loop is written for 64x64 tiles, smaller ones always climb the
 * hierarchy; without --tail, loop for 64 (the default output stays as it was). */
static int check_tail(sg_config *cfg)
{
    if (!cfg->tail) cfg->tail = cfg->tile == 64 ? "loop" : "hierarchy";
    if (!strcmp(cfg->tail, "loop") && cfg->tile != 64)
        return usage_error("--tail loop: needs --tile 64 (got --tile %d, whose chain continues "
                           "only by --tail hierarchy)", cfg->tile);
    return SG_EXIT_OK;
}

static void set_defaults(sg_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->op = "mean";
    cfg->edge = "drop";
    cfg->mips = 12;
    cfg->max_width = cfg->max_height = 4096;
    cfg->format = "rgba32f";
    cfg->tile = 64;
    cfg->fetch_ahead = -1; /* resolved by default_fetch_ahead once the other flags are known */
    cfg->wg = 256;
    cfg->subgroup = 0;
    cfg->target = SG_TARGET_GLSL;
    cfg->spirv_from = SV_LANG_GLSL;
    cfg->env = SV_ENV_VULKAN_1_1;
    cfg->output = "-";
    cfg->template_dir = getenv("SPDGEN_TEMPLATE_DIR");
    if (cfg->template_dir && !*cfg->template_dir) cfg->template_dir = NULL;
}

/* --fetch-ahead without the flag: 2 with --sampler linear --tail hierarchy at --tile 64,
 * where the H200 measured it fastest (bench/RESULTS.md: rgba8 16384^2 404 -> 374 us); the
 * loop tail's rows were mixed (rgba8 8192^2 slower with 2, --half slower with 4), so there
 * it stays 0. */
static int default_fetch_ahead(const sg_config *cfg)
{
    return cfg->sampler_linear && cfg->tile == 64 && cfg->tail && !strcmp(cfg->tail, "hierarchy") ? 2 : 0;
}

/* The canonical command: every generation parameter in a fixed order, defaults included,
 * output paths excluded (they do not change the output). Deterministic by construction. */
static void build_command(sg_config *cfg)
{
    char passes[40] = "", tile[48] = "", edge[24] = "", ahead[24] = "";
    if (cfg->fetch_ahead != default_fetch_ahead(cfg))
        snprintf(ahead, sizeof ahead, " --fetch-ahead %d", cfg->fetch_ahead);
    if (strcmp(cfg->edge, "drop")) snprintf(edge, sizeof edge, " --edge %s", cfg->edge);
    /* --level1 is named where it is not the default (blocks with --edge or rgba8). */
    else if (strcmp(cfg->level1, strcmp(cfg->format, "rgba8") ? "interleaved" : "blocks"))
        snprintf(edge, sizeof edge, " --level1 %s", cfg->level1);
    if (cfg->max_mips_per_pass && cfg->max_mips_per_pass < cfg->mips)
        snprintf(passes, sizeof passes, " --max-mips-per-pass %d", cfg->max_mips_per_pass);
    if (cfg->tile != 64) /* the default stays out, so 64x64 shaders keep their text */
        snprintf(tile, sizeof tile, " --tile %d", cfg->tile);
    else if (!strcmp(cfg->tail, "hierarchy")) /* below 64 the hierarchy is implied */
        snprintf(tile, sizeof tile, " --tail hierarchy");
    snprintf(cfg->command, sizeof cfg->command,
             "spdgen --spd --op %s%s --mips %d%s --max-size %s --format %s%s%s%s%s --wg %d --subgroup %d%s --target %s%s%s%s%s",
             cfg->op, edge, cfg->mips, passes, cfg->max_size, cfg->format, cfg->half ? " --half" : "",
             !cfg->sampler_linear ? ""
             : cfg->sampler_normalized && !cfg->array ? " --sampler linear --sampler-coords normalized"
                                                      : " --sampler linear",
             ahead, tile, cfg->wg, cfg->subgroup,
             cfg->array ? " --array" : "", target_names[cfg->target],
             cfg->target == SG_TARGET_SPIRV ? " --spirv-from " : "",
             cfg->target == SG_TARGET_SPIRV ? lang_names[cfg->spirv_from] : "",
             cfg->env != SV_ENV_VULKAN_1_1 ? " --target-env " : "",
             cfg->env != SV_ENV_VULKAN_1_1 ? env_names[cfg->env] : "");
}

/* Ops that only make sense with some formats. */
static int check_op_format(const sg_config *cfg)
{
    const char *op = cfg->op, *f = cfg->format;
    if (!strcmp(f, "r32ui") && strcmp(op, "min") && strcmp(op, "max"))
        return usage_error("--op %s: --format r32ui holds integers; use --op min or max", op);
    if (!strcmp(op, "minmax") && strcmp(f, "rg16f") && strcmp(f, "rg32f"))
        return usage_error("--op minmax: needs a two-channel --format for (min, max): rg16f or "
                           "rg32f (got %s)", f);
    if (cfg->sampler_linear && (strcmp(op, "mean") || !strcmp(f, "r32ui")))
        return usage_error("--sampler linear: only for --op mean on a float or rgba8 format (a "
                           "bilinear fetch averages; got --op %s --format %s)", op, f);
    /* --half computes in the precision the 16-bit formats store; with a wider format it
     * would lose precision the storage keeps; rgba8 ran slower with it on an H200 (its best
     * rows 5-27% slower, bench/RESULTS.md), and r32ui holds integers. */
    if (cfg->half && strcmp(f, "r16f") && strcmp(f, "rg16f") && strcmp(f, "rgba16f"))
        return usage_error("--half: only for the 16-bit float formats r16f | rg16f | rgba16f "
                           "(got --format %s)", f);
    if (!strcmp(cfg->edge, "conservative") && strcmp(op, "min") && strcmp(op, "max") &&
        strcmp(op, "minmax"))
        return usage_error("--edge conservative: only for --op min, max or minmax (a bound "
                           "over the footprint; got --op %s); use --edge weighted for mean", op);
    if (!strcmp(cfg->edge, "weighted") && strcmp(op, "mean") && strcmp(op, "srgb-mean"))
        return usage_error("--edge weighted: only for --op mean or srgb-mean (weights that keep "
                           "the mean; got --op %s); use --edge conservative for min/max", op);
    if (strcmp(cfg->edge, "drop") && cfg->tile != 64)
        return usage_error("--edge %s: needs --tile 64 (its strips and 5x5 reads are written for "
                           "64x64 tiles of 256 invocations; got --tile %d)", cfg->edge, cfg->tile);
    if (strcmp(cfg->edge, "drop") && !strcmp(cfg->tail, "hierarchy"))
        return usage_error("--edge %s: needs --tail loop (its reads past level 6 are written for "
                           "the last workgroup's loop; got --tail hierarchy)", cfg->edge);
    if (strcmp(cfg->edge, "drop") && cfg->half)
        return usage_error("--edge %s: not with --half (the edge code computes in 32-bit floats)",
                           cfg->edge);
    if (cfg->level1 && !strcmp(cfg->level1, "interleaved") && strcmp(cfg->edge, "drop"))
        return usage_error("--level1 interleaved: not with --edge %s (its 5x5 reads and strips "
                           "are written for 4x4 blocks); use --level1 blocks", cfg->edge);
    if (cfg->sampler_coords_given && !cfg->sampler_linear)
        return usage_error("--sampler-coords %s: needs --sampler linear (the texel-load path "
                           "reads integer coordinates)", cfg->sampler_normalized ? "normalized" : "texel");
    if (cfg->sampler_coords_given && !cfg->sampler_normalized && cfg->array)
        return usage_error("--sampler-coords texel: not with --array (Vulkan and Metal sample at "
                           "unnormalized coordinates only single-layer views); use normalized");
    if (cfg->fetch_ahead && !cfg->sampler_linear)
        return usage_error("--fetch-ahead %d: needs --sampler linear (the texel-load path's 16 "
                           "values per invocation would not fit in registers); use 0",
                           cfg->fetch_ahead);
    /* Invocations reading 2x2 blocks make one level-1 texel: one fetch. */
    int fetches = (cfg->tile / 2) * (cfg->tile / 2) == cfg->wg ? 1 : 4;
    if (cfg->fetch_ahead > fetches)
        return usage_error("--fetch-ahead %d: at most %d with --tile %d --wg %d (an invocation "
                           "makes %d level-1 texel%s, one bilinear fetch each)", cfg->fetch_ahead,
                           fetches, cfg->tile, cfg->wg, fetches, fetches == 1 ? "" : "s");
    if (cfg->sampler_linear && strcmp(cfg->edge, "drop"))
        return usage_error("--sampler linear: not with --edge %s (a bilinear fetch is the plain "
                           "2x2 mean; odd sizes need --sampler load)", cfg->edge);
    if (!strcmp(op, "srgb-mean") && strcmp(f, "rgba8"))
        return usage_error("--op srgb-mean: needs --format rgba8 (an sRGB image's UNORM view; "
                           "got %s)", f);
    return SG_EXIT_OK;
}

/* floor(log2(n)): the levels below a source of n texels. */
static int chain_length(int n)
{
    int levels = 0;
    while (n > 1) {
        n >>= 1;
        levels++;
    }
    return levels;
}

/* --mips against --max-size: by default the full chain of the largest source. */
static int check_mips(sg_config *cfg)
{
    int longest = cfg->max_width > cfg->max_height ? cfg->max_width : cfg->max_height;
    int limit = chain_length(longest);
    if (!cfg->mips_given) cfg->mips = limit;
    if (limit == 0)
        return usage_error("--max-size %s: a 1x1 source has no levels to make", cfg->max_size);
    if (cfg->max_mips_per_pass > cfg->mips)
        return usage_error("--max-mips-per-pass %d: must be 1..%d (--mips)", cfg->max_mips_per_pass,
                           cfg->mips);
    /* A later pass would read its source level's (min, max) pairs as depth samples; until
     * the shader can tell the passes apart, minmax runs its whole chain in one pass. */
    if (cfg->max_mips_per_pass && cfg->max_mips_per_pass < cfg->mips && !strcmp(cfg->op, "minmax"))
        return usage_error("--max-mips-per-pass %d: not with --op minmax (a later pass would read "
                           "the stored (min, max) pairs as depth); use --mips %d or less, or one "
                           "pass", cfg->max_mips_per_pass, cfg->max_mips_per_pass);
    if (cfg->mips > limit) {
        if (longest >= 16384)
            return usage_error("--mips %d: must be 1..%d (16384x16384 is the largest source)",
                               cfg->mips, limit);
        return usage_error("--mips %d: must be 1..%d for --max-size %s (a %dx%d source has %d "
                           "levels; raise --max-size, up to 16384x16384)", cfg->mips, limit,
                           cfg->max_size, 1 << cfg->mips, 1 << cfg->mips, cfg->mips);
    }
    return SG_EXIT_OK;
}

/* --size and --seed belong to --selftest; the size must fit the shader. */
static int check_selftest(sg_config *cfg, int size_given, int seed_given)
{
    if (!cfg->selftest) {
        if (size_given) return usage_error("--size: only meaningful with --selftest");
        if (seed_given) return usage_error("--seed: only meaningful with --selftest");
        return SG_EXIT_OK;
    }
    if (!size_given) {
        /* A 1080p frame; with normalized sampler coordinates, which need powers of two,
         * 2048x1024. */
        int pot = cfg->sampler_linear && cfg->sampler_normalized;
        int w = pot ? 2048 : 1920, h = pot ? 1024 : 1080;
        cfg->selftest_width = cfg->max_width < w ? cfg->max_width : w;
        cfg->selftest_height = cfg->max_height < h ? cfg->max_height : h;
    }
    if (cfg->sampler_linear && cfg->sampler_normalized &&
        ((cfg->selftest_width & (cfg->selftest_width - 1)) ||
         (cfg->selftest_height & (cfg->selftest_height - 1))))
        return usage_error("--size %dx%d: normalized sampler coordinates (--sampler-coords "
                           "normalized, the default with --array) need power-of-two sides",
                           cfg->selftest_width, cfg->selftest_height);
    if (!cfg->selftest_layers) cfg->selftest_layers = cfg->array ? 6 : 1;
    if (cfg->selftest_layers > 1 && !cfg->array)
        return usage_error("--size %dx%dx%d: layers need --array", cfg->selftest_width,
                           cfg->selftest_height, cfg->selftest_layers);
    if (cfg->selftest_width > cfg->max_width || cfg->selftest_height > cfg->max_height)
        return usage_error("--size %dx%d: larger than --max-size %s, the largest source this "
                           "shader serves", cfg->selftest_width, cfg->selftest_height,
                           cfg->max_size);
    if (!seed_given) cfg->seed = 1;
    return SG_EXIT_OK;
}

/* Checks that only make sense once every flag is known. */
static int check_combination(sg_config *cfg, int kernels, const char *spd_only_flag,
                             int spirv_from_given)
{
    if (kernels == 0)
        return usage_error("no kernel given: pass --spd (see spdgen --help)");
    if (kernels > 1)
        return usage_error("two kernels given (--spd and --fft): spdgen emits one kernel per run");
    int rc;
    if (cfg->kernel == SG_KERNEL_FFT) {
        if (spd_only_flag) return usage_error("%s: only for --spd", spd_only_flag);
        if ((rc = sg_fft_cli_check(cfg)) != SG_EXIT_OK) return rc;
    } else {
        const char *stray = sg_fft_cli_stray_option(cfg);
        if (stray) return usage_error("%s: only for --fft", stray);
        if ((rc = check_tile_wg(cfg)) != SG_EXIT_OK) return rc;
        if ((rc = check_tail(cfg)) != SG_EXIT_OK) return rc;
        if ((rc = check_mips(cfg)) != SG_EXIT_OK) return rc;
        if (cfg->fetch_ahead < 0) cfg->fetch_ahead = default_fetch_ahead(cfg);
        if ((rc = check_op_format(cfg)) != SG_EXIT_OK) return rc;
        /* --array samples at normalized coordinates (Vulkan and Metal: unnormalized ones only on
         * single-layer views). */
        if (cfg->sampler_linear && cfg->array) cfg->sampler_normalized = 1;
        /* rgba8: measured slower interleaved at 4096x4096 and up on an H200 (94 registers
         * against 69 cost more than the denser fetches save at 4 bytes a texel). */
        if (!cfg->level1)
            cfg->level1 = strcmp(cfg->edge, "drop") || !strcmp(cfg->format, "rgba8") ? "blocks" : "interleaved";
    }
    if (spirv_from_given && cfg->target != SG_TARGET_SPIRV)
        return usage_error("--spirv-from: only meaningful with --target spirv (target is %s)",
                           target_names[cfg->target]);
    int hlsl = cfg->target == SG_TARGET_HLSL ||
               (cfg->target == SG_TARGET_SPIRV && cfg->spirv_from == SV_LANG_HLSL);
    if (hlsl && cfg->env != SV_ENV_VULKAN_1_1)
        return usage_error("--target-env %s: HLSL through glslang 12 supports only vulkan1.1 "
                           "(later environments emit BufferBlock, which spirv-val rejects)",
                           env_names[cfg->env]);
    if (cfg->check_only && (cfg->depfile || cfg->header_path))
        return usage_error("--check writes nothing: drop -MD/-MF/--emit-header or --check");
    if (cfg->depfile && strcmp(cfg->output, "-") == 0 && !cfg->dep_target)
        return usage_error("-MD with output to stdout needs -MT TARGET to name the target");
    if (cfg->depfile && !cfg->depfile_path && strcmp(cfg->output, "-") == 0)
        return usage_error("-MD with output to stdout needs -MF FILE for the depfile");
    return SG_EXIT_OK;
}

int sg_cli_parse(int argc, char **argv, sg_config *cfg)
{
    int kernels = 0, spirv_from_given = 0, size_given = 0, seed_given = 0;
    const char *spd_only_flag = NULL; /* the first --spd option given, for --fft's error */
    set_defaults(cfg);

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        char flag[64];
        const char *value = NULL;

        /* --flag=value is accepted as well as --flag value. */
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        if (eq && (size_t)(eq - arg) < sizeof flag) {
            memcpy(flag, arg, (size_t)(eq - arg));
            flag[eq - arg] = '\0';
            value = eq + 1;
        } else {
            snprintf(flag, sizeof flag, "%s", arg);
        }

        /* Flags without a value. */
        if (!strcmp(flag, "-h") || !strcmp(flag, "--help")) {
            fputs(usage_text, stdout);
            return -1;
        }
        if (!strcmp(flag, "--version")) {
            printf("spdgen %s\n", SPDGEN_VERSION);
            return -1;
        }
        if (!strcmp(flag, "--spd") || !strcmp(flag, "--array") || !strcmp(flag, "--check") ||
            !strcmp(flag, "-MD") || !strcmp(flag, "--selftest") || !strcmp(flag, "--half")) {
            if (!strcmp(flag, "--array") && !spd_only_flag) spd_only_flag = "--array";
            if (!strcmp(flag, "--half") && !spd_only_flag) spd_only_flag = "--half";
            if (value) return usage_error("%s takes no value (got '%s')", flag, value);
            if (!strcmp(flag, "--spd")) {
                if (cfg->kernel != SG_KERNEL_SPD) kernels++;
                if (cfg->kernel == SG_KERNEL_NONE) cfg->kernel = SG_KERNEL_SPD;
            } else if (!strcmp(flag, "--array")) {
                cfg->array = 1;
            } else if (!strcmp(flag, "--half")) {
                cfg->half = 1;
            } else if (!strcmp(flag, "--check")) {
                cfg->check_only = 1;
            } else if (!strcmp(flag, "--selftest")) {
                cfg->selftest = 1;
            } else {
                cfg->depfile = 1;
            }
            continue;
        }

        /* Flags with a value. */
        static const char *const valued[] = {
            "--op", "--mips", "--max-size", "--format", "--wg", "--subgroup", "--target",
            "--spirv-from", "--target-env", "-o", "-MF", "-MT", "--emit-header",
            "--template-dir", "--size", "--seed", "--max-mips-per-pass", "--sampler", "--tile",
            "--edge", "--tail", "--level1", "--fetch-ahead", "--sampler-coords",
            NULL};
        int fft_takes_value = 0;
        if (sg_fft_cli_is_option(flag, &fft_takes_value)) {
            if (fft_takes_value && !value) {
                if (i + 1 >= argc) return usage_error("%s needs a value", flag);
                value = argv[++i];
            } else if (!fft_takes_value && value) {
                return usage_error("%s takes no value (got '%s')", flag, value);
            }
            if (!strcmp(flag, "--fft")) {
                if (cfg->kernel != SG_KERNEL_FFT) kernels++;
                if (cfg->kernel == SG_KERNEL_NONE) cfg->kernel = SG_KERNEL_FFT;
            }
            int rc = sg_fft_cli_option(cfg, flag, value);
            if (rc != SG_EXIT_OK) return rc;
            continue;
        }
        if (index_of(valued, flag) < 0) {
            if (arg[0] == '-' && arg[1])
                return usage_error("unknown option '%s' (see spdgen --help)", arg);
            return usage_error("unexpected argument '%s': spdgen reads no input files "
                               "(see spdgen --help)", arg);
        }
        if (!value) {
            if (i + 1 >= argc) return usage_error("%s needs a value", flag);
            value = argv[++i];
        }

        long n;
        int k;
        static const char *const spd_only[] = {"--op", "--mips", "--max-size", "--format",
                                               "--max-mips-per-pass", "--sampler", "--tile",
                                               "--edge", "--tail", "--level1", "--fetch-ahead",
                                               "--sampler-coords", NULL};
        if (index_of(spd_only, flag) >= 0 && !spd_only_flag) spd_only_flag = spd_only[index_of(spd_only, flag)];
        if (!strcmp(flag, "--op")) {
            if (index_of(spd_ops, value) < 0)
                return usage_error("--op %s: must be min | max | mean | minmax | srgb-mean", value);
            cfg->op = spd_ops[index_of(spd_ops, value)];
        } else if (!strcmp(flag, "--mips")) {
            if (parse_uint(value, &n) || n < 1 || n > 14)
                return usage_error("--mips %s: must be 1..14 (16384x16384; the default "
                                   "--max-size 4096x4096 allows 1..12)", value);
            cfg->mips = (int)n;
            cfg->mips_given = 1;
        } else if (!strcmp(flag, "--tile")) {
            if (parse_uint(value, &n) || n < 2 || n > 64 || (n & (n - 1)))
                return usage_error("--tile %s: must be 2, 4, 8, 16, 32 or 64 (T = 2^M: one "
                                   "workgroup reduces a TxT tile by M levels)", value);
            cfg->tile = (int)n;
        } else if (!strcmp(flag, "--sampler")) {
            if (strcmp(value, "load") && strcmp(value, "linear"))
                return usage_error("--sampler %s: must be load | linear", value);
            cfg->sampler_linear = !strcmp(value, "linear");
        } else if (!strcmp(flag, "--sampler-coords")) {
            if (strcmp(value, "texel") && strcmp(value, "normalized"))
                return usage_error("--sampler-coords %s: must be texel | normalized", value);
            cfg->sampler_normalized = !strcmp(value, "normalized");
            cfg->sampler_coords_given = 1;
        } else if (!strcmp(flag, "--fetch-ahead")) {
            if (parse_uint(value, &n) || n > 4)
                return usage_error("--fetch-ahead %s: must be 0..4 (bilinear fetches of the next "
                                   "tile per invocation)", value);
            cfg->fetch_ahead = (int)n;
        } else if (!strcmp(flag, "--edge")) {
            if ((k = index_of(edge_modes, value)) < 0)
                return usage_error("--edge %s: must be %s", value, list_of(edge_modes));
            cfg->edge = edge_modes[k];
        } else if (!strcmp(flag, "--tail")) {
            if ((k = index_of(tail_modes, value)) < 0)
                return usage_error("--tail %s: must be %s", value, list_of(tail_modes));
            cfg->tail = tail_modes[k];
        } else if (!strcmp(flag, "--level1")) {
            if ((k = index_of(level1_modes, value)) < 0)
                return usage_error("--level1 %s: must be %s", value, list_of(level1_modes));
            cfg->level1 = level1_modes[k];
        } else if (!strcmp(flag, "--max-mips-per-pass")) {
            if (parse_uint(value, &n) || n < 1 || n > 14)
                return usage_error("--max-mips-per-pass %s: must be 1..--mips (at most 14)", value);
            cfg->max_mips_per_pass = (int)n;
        } else if (!strcmp(flag, "--size")) {
            unsigned w, h, l = 0;
            char extra;
            int fields = sscanf(value, "%ux%ux%u%c", &w, &h, &l, &extra);
            if ((fields != 2 && fields != 3) || w < 1 || h < 1 || w > 16384 || h > 16384 ||
                (fields == 3 && (l < 1 || l > 2048)) || value[0] < '0' || value[0] > '9')
                return usage_error("--size %s: must be WxH or WxHxLAYERS, sides 1..16384, "
                                   "layers 1..2048", value);
            cfg->selftest_width = (int)w;
            cfg->selftest_height = (int)h;
            cfg->selftest_layers = (int)l;
            size_given = 1;
        } else if (!strcmp(flag, "--seed")) {
            if (parse_uint(value, &n) || n > 0xffffffffL)
                return usage_error("--seed %s: must be a number 0..4294967295", value);
            cfg->seed = (unsigned)n;
            seed_given = 1;
        } else if (!strcmp(flag, "--max-size")) {
            unsigned w, h;
            char extra;
            if (sscanf(value, "%ux%u%c", &w, &h, &extra) != 2 || w < 1 || h < 1 || w > 16384 ||
                h > 16384 || value[0] < '0' || value[0] > '9')
                return usage_error("--max-size %s: must be WxH with each side 1..16384", value);
            cfg->max_width = (int)w;
            cfg->max_height = (int)h;
        } else if (!strcmp(flag, "--format")) {
            if ((k = index_of(spd_formats, value)) < 0)
                return usage_error("--format %s: must be %s", value, list_of(spd_formats));
            cfg->format = spd_formats[k];
        } else if (!strcmp(flag, "--wg")) {
            if (parse_uint(value, &n) || n < 1 || n > 1 << 20)
                return usage_error("--wg %s: must be a workgroup size (--spd: (T/B)^2 for --tile T, B = 2 or 4)", value);
            cfg->wg = (int)n;
            cfg->wg_given = 1;
        } else if (!strcmp(flag, "--subgroup")) {
            int ok = 0;
            if (!parse_uint(value, &n))
                for (size_t s = 0; s < sizeof subgroup_sizes / sizeof *subgroup_sizes; s++)
                    ok |= n == subgroup_sizes[s];
            if (!ok)
                return usage_error("--subgroup %s: must be 0 (shared memory only), 4 (quad "
                                   "operations), 8, 16, 32 or 64", value);
            cfg->subgroup = (int)n;
        } else if (!strcmp(flag, "--target")) {
            if ((k = index_of(target_names, value)) < 0)
                return usage_error("--target %s: must be %s", value, list_of(target_names));
            cfg->target = (sg_target)k;
        } else if (!strcmp(flag, "--spirv-from")) {
            if ((k = index_of(lang_names, value)) < 0)
                return usage_error("--spirv-from %s: must be %s", value, list_of(lang_names));
            cfg->spirv_from = (sv_lang)k;
            spirv_from_given = 1;
        } else if (!strcmp(flag, "--target-env")) {
            if ((k = index_of(env_names, value)) < 0)
                return usage_error("--target-env %s: must be %s", value, list_of(env_names));
            cfg->env = (sv_env)k;
        } else if (!*value) {
            return usage_error("%s: empty path", flag);
        } else if (!strcmp(flag, "-o")) {
            cfg->output = value;
        } else if (!strcmp(flag, "-MF")) {
            cfg->depfile_path = value;
            cfg->depfile = 1;
        } else if (!strcmp(flag, "-MT")) {
            cfg->dep_target = value;
        } else if (!strcmp(flag, "--emit-header")) {
            cfg->header_path = value;
        } else if (!strcmp(flag, "--template-dir")) {
            cfg->template_dir = value;
        }
    }

    snprintf(cfg->max_size, sizeof cfg->max_size, "%dx%d", cfg->max_width, cfg->max_height);
    int rc = check_combination(cfg, kernels, spd_only_flag, spirv_from_given);
    if (rc == SG_EXIT_OK) rc = check_selftest(cfg, size_given, seed_given);
    if (rc != SG_EXIT_OK) return rc;
    if (cfg->kernel == SG_KERNEL_FFT) sg_fft_cli_command(cfg, cfg->command, sizeof cfg->command);
    else build_command(cfg);
    return SG_EXIT_OK;
}
