/* fft.c: the --fft kernel: a workgroup FFT after Nabla's, and for N longer than one
 * dispatch holds a four-step plan of two. Its options, each declared once, and its entry in
 * the registry. templates/fft/ writes the shaders, fft_check.c resolves the shape,
 * fft_plan.c makes the job, its manifest and the contract header's helpers, fft_selftest.c
 * runs the job against runtime/fft's double-precision reference. */
#include <stddef.h>

#include <lua.h>

#include "fft.h"
#include "job.h"

const char *const sg_fft_directions[] = {"forward", "inverse", NULL};
const char *const sg_fft_norms[] = {"inverse", "none", "unitary", NULL};
const char *const sg_fft_orders[] = {"natural", "native", NULL};
const char *const sg_fft_storages[] = {"f32", "f16", NULL};
const char *const sg_fft_twiddle_kinds[] = {"device", "lut", "squared", NULL};
const char *const sg_fft_shared_layouts[] = {"split", "paired", NULL};
const char *const sg_fft_column_layouts[] = {"lanes", "registers", NULL};
const char *const sg_fft_bluestein_ms[] = {"auto", "pow2", "smooth", NULL};
const char *const sg_fft_primes[] = {"auto", "rader", "bluestein", NULL};
static const long subgroups[] = {0, 4, 8, 16, 32, 64, -1};

static int one_dispatch(const void *p) { return !((const sg_fft_params *)p)->passes; }
static int columns(const void *p)
{
    const sg_fft_params *f = p;
    return f->strided || f->passes;
}
static int columns_in_lanes(const void *p)
{
    const sg_fft_params *f = p;
    return (f->strided && f->lanes) || (f->passes && f->pass_lanes[0]);
}
static int bluestein_one(const void *p)
{
    const sg_fft_params *f = p;
    return f->path == SG_FFT_PATH_BLUESTEIN && !f->passes && f->bluestein_m &&
           f->bluestein_m != sg_fft_bluestein_m(f->n);
}
static int rader_applies(const void *p)
{
    const sg_fft_params *f = p;
    return sg_fft_rader_root(f->n) != 0; /* a plan's regenerate command keeps --prime bluestein */
}
static int rows(const void *p)
{
    const sg_fft_params *f = p;
    return !f->strided && !f->real && !f->passes;
}

/* --shared-layout applies unless the one shader's exchanges go by component (one float
 * array: fft_check_mixed.c refuses the flag there, and the regenerate command leaves it out). */
static int shared_layout_applies(const void *p)
{
    const sg_fft_params *f = p;
    return f->passes || !f->stages.components;
}

#define F(field) offsetof(sg_fft_params, field)
static const sg_option options[] = {
    [FFT_OPT_FFT] = {.name = "--fft", .kind = SG_OPT_UINT, .offset = F(n), .min = 2,
        .max = SG_FFT_MAX_N, .meta = "N", .why = "complex points per transform"}, /* the summary */
    [FFT_OPT_EPT] = {.name = "--ept", .kind = SG_OPT_UINT, .offset = F(ept), .min = 2,
        .max = SG_FFT_MAX_EPT, .meta = "E", .command = SG_CMD_WHEN, .shown = one_dispatch,
        .why = "elements per invocation, held in registers",
        .default_text = "16 while W >= 32; larger for long complex rows",
        .help = "elements per invocation (N = E x W); given one of E and W the other follows"},
    [FFT_OPT_WG] = {.name = "--wg", .kind = SG_OPT_UINT, .offset = F(wg), .min = 1, .max = 1024,
        .meta = "W", .command = SG_CMD_WHEN, .shown = one_dispatch,
        .why = "invocations per workgroup", .default_text = "N / E, at most 256 for complex rows",
        .help = "invocations per workgroup"},
    [FFT_OPT_MAX_WG] = {.name = "--max-wg", .kind = SG_OPT_POW2, .offset = F(max_wg), .min = 1,
        .max = 1024, .meta = "W", .why = "the largest workgroup the device runs",
        .default_text = "1024",
        .help = "the largest workgroup the defaults may pick; one dispatch holds 16 x W points, "
        "longer N runs as a four-step plan"},
    [FFT_OPT_SUBGROUP] = {.name = "--subgroup", .kind = SG_OPT_ONE_OF, .offset = F(subgroup),
        .numbers = subgroups, .meta = "S", .lua = "subgroup", .default_text = "0",
        .why = "0: shared memory only, 4: quad swaps, 8+: shuffles",
        .help = "0 = shared memory only; 4 = quad swaps; 8..64 = XOR shuffles for butterflies "
        "less than S apart (full subgroups of S; S <= W)"},
    [FFT_OPT_DIRECTION] = {.name = "--direction", .kind = SG_OPT_CHOICE, .offset = F(direction),
        .choices = sg_fft_directions, .meta = "D", .lua = "direction", .default_text = "forward",
        .help = "forward: exp(-2 pi i jk/N) | inverse: exp(+...)"},
    [FFT_OPT_NORM] = {.name = "--norm", .kind = SG_OPT_CHOICE, .offset = F(norm),
        .choices = sg_fft_norms, .meta = "M", .lua = "norm", .default_text = "inverse",
        .help = "inverse (1/N on the inverse) | none | unitary (1/sqrt(N) both ways)"},
    [FFT_OPT_ORDER] = {.name = "--order", .kind = SG_OPT_CHOICE, .offset = F(order),
        .choices = sg_fft_orders, .meta = "O", .lua = "order", .default_text = "natural",
        .help = "natural | native: no reorder; the forward's output and the inverse's input are "
        "in bit-reversed order"},
    [FFT_OPT_STORAGE] = {.name = "--storage", .kind = SG_OPT_CHOICE, .offset = F(storage),
        .choices = sg_fft_storages, .meta = "T", .lua = "storage", .default_text = "f32",
        .help = "f32 | f16: buffers of IEEE halves, fp32 math"},
    [FFT_OPT_STRIDE] = {.name = "--stride", .kind = SG_OPT_FLAG, .offset = F(strided),
        .lua = "strided",
        .help = "FFTs along columns (element j of column c at c + j * stride); a workgroup runs "
        "neighbouring columns so reads coalesce"},
    [FFT_OPT_REAL] = {.name = "--real", .kind = SG_OPT_FLAG, .offset = F(real), .lua = "real",
        .help = "two real rows per complex FFT; forward: real rows -> N/2 complex half spectra "
        "(X[0], X[N/2] packed in element 0); inverse: the reverse"},
    [FFT_OPT_COLUMN_LAYOUT] = {.name = "--column-layout", .kind = SG_OPT_CHOICE,
        .offset = F(column_layout), .choices = sg_fft_column_layouts, .meta = "L",
        .command = SG_CMD_WHEN, .shown = columns,
        .default_text = "lanes where 8 columns fit in --max-wg",
        .help = "columns of --stride and of a plan's passes: lanes (invocation t runs column t "
        "mod C, a subgroup's loads cover C columns) | registers (16/E columns in registers)"},
    [FFT_OPT_COLUMNS] = {.name = "--columns-per-wg", .kind = SG_OPT_LIST2,
        .offset = F(columns_per_wg), .offset2 = F(columns_values), .min = 1, .max = 1024,
        .meta = "C", .command = SG_CMD_WHEN, .shown = columns_in_lanes,
        .why = "columns per workgroup, in lanes: C x W invocations; or C1,C2 for a four-step "
        "plan's two passes", .default_text = "the largest up to 16 that fits; 4,4 in a plan",
        .help = "columns per workgroup in lanes, C x W <= --max-wg (implies lanes)"},
    [FFT_OPT_ROWS] = {.name = "--rows-per-wg", .kind = SG_OPT_POW2, .offset = F(rows_per_wg),
        .min = 1, .max = SG_FFT_MAX_EPT / 2, .meta = "R", .lua = "rows_per_wg",
        .command = SG_CMD_WHEN, .shown = rows,
        .why = "rows per workgroup, --ept x rows <= 64 values",
        .default_text = "by N and --subgroup, measured fastest",
        .help = "R consecutive rows per workgroup in registers: more loads in flight, R rows per "
        "exchange barrier"},
    [FFT_OPT_PREFETCH] = {.name = "--prefetch-rows", .kind = SG_OPT_POW2, .offset = F(prefetch_rows),
        .min = 1, .max = 64, .meta = "R", .lua = "prefetch_rows", .command = SG_CMD_WHEN,
        .shown = rows, .why = "rows per workgroup in turn; 1: no prefetch",
        .default_text = "2 at N = 1024..4096 in one row, else 1",
        .help = "R consecutive rows per workgroup, in turn: the next row's loads are in flight "
        "while one is transformed (E more registers; E <= 16)"},
    [FFT_OPT_TWIDDLES] = {.name = "--twiddles", .kind = SG_OPT_CHOICE, .offset = F(twiddles),
        .choices = sg_fft_twiddle_kinds, .meta = "T", .lua = "twiddles",
        .default_text = "squared at N = 2048, 4096 in the default shape, else device",
        .help = "device (from integer exponents) | lut (a table computed in double on the host, "
        "binding 2) | squared (device, every other register stage squares the last twiddle: half "
        "the polynomials, ~1 ulp more error)"},
    [FFT_OPT_SHARED] = {.name = "--shared-layout", .kind = SG_OPT_CHOICE, .offset = F(shared_layout),
        .choices = sg_fft_shared_layouts, .meta = "L", .default_text = "paired from N = 1024",
        .command = SG_CMD_WHEN, .shown = shared_layout_applies,
        .help = "split (two float arrays) | paired (one float2 array: half the shared-memory "
        "instructions)"},
    [FFT_OPT_BATCH] = {.name = "--batch", .kind = SG_OPT_UINT, .offset = F(batch), .min = 1,
        .max = 65535, .meta = "B", .command = SG_CMD_NEVER, .why = "FFTs run by --selftest",
        .default_text = "4", .help = "FFTs run by --selftest"},
    [FFT_OPT_BLUESTEIN_M] = {.name = "--bluestein-m", .kind = SG_OPT_CHOICE,
        .offset = F(bluestein_choice), .choices = sg_fft_bluestein_ms, .meta = "K",
        .command = SG_CMD_WHEN, .shown = bluestein_one, .default_text = "auto",
        .help = "Bluestein's convolution length M >= 2N - 1 in one dispatch: auto (the cheaper by "
        "the planner's estimate) | pow2 (the power of two) | smooth (the cheapest 2^a 3^b 5^c 7^d up "
        "to 20% above 2N - 1)"},
    [FFT_OPT_PRIME] = {.name = "--prime", .kind = SG_OPT_CHOICE, .offset = F(prime_choice),
        .choices = sg_fft_primes, .meta = "P", .command = SG_CMD_WHEN, .shown = rader_applies,
        .default_text = "auto",
        .help = "a prime N above 31 whose N - 1 factors into 2..31, in one dispatch: rader (a "
        "convolution of N - 1 points) | bluestein (of M >= 2N - 1) | auto (the cheaper by the "
        "planner's estimate)"},
    {0},
};

static void defaults(void *p)
{
    sg_fft_params *f = p;
    f->max_wg = 1024;
    f->batch = 4;
}

/* A length that is not a power of two: the stage radices and each exchange's rounds of the
 * shader (cfg.radices, cfg.rounds, cfg.components: rounds of the real, then the imaginary
 * parts), Bluestein's M (cfg.bluestein_m); templates/fft/mixed.lua
 * writes it. */
static void push_stages(lua_State *L, const sg_fft_params *f, int p)
{
    const sg_fft_stages *st = f->passes ? &f->pass_stages[p] : &f->stages;
    lua_createtable(L, st->count, 0);
    for (int i = 0; i < st->count; i++) {
        lua_pushinteger(L, st->radix[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "radices");
    lua_createtable(L, st->count, 0);
    for (int i = 0; i + 1 < st->count; i++) {
        lua_pushinteger(L, st->rounds[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "rounds");
    lua_pushboolean(L, st->components);
    lua_setfield(L, -2, "components");
    if (f->bluestein_m && !f->passes) {
        lua_pushinteger(L, f->bluestein_m);
        lua_setfield(L, -2, "bluestein_m");
    }
    if (f->rader_root) {
        lua_pushinteger(L, f->rader_root);
        lua_setfield(L, -2, "rader_root");
    }
}

/* The shader's shape: one dispatch's, or pass p's of a plan (cfg.pass = { index, count,
 * n_total, scratch_tile }; Bluestein's passes: n_total is its M, and bluestein_n its N). */
static void push(lua_State *L, const sg_run *run, const sg_job_shader *shader)
{
    const sg_fft_params *f = run->params;
    int p = shader->index;
    lua_pushinteger(L, f->passes ? f->pass_n[p] : f->n);
    lua_setfield(L, -2, "n");
    lua_pushinteger(L, f->passes ? f->pass_ept[p] : f->ept);
    lua_setfield(L, -2, "ept");
    lua_pushinteger(L, f->passes ? f->pass_wg[p] : f->wg);
    lua_setfield(L, -2, "wg");
    lua_pushinteger(L, f->passes ? f->pass_lanes[p] : f->lanes);
    lua_setfield(L, -2, "lanes");
    lua_pushboolean(L, f->shared_layout == SG_FFT_SHARED_PAIRED);
    lua_setfield(L, -2, "paired_shared");
    if (f->passes) {
        lua_createtable(L, 0, 5);
        lua_pushinteger(L, p + 1);
        lua_setfield(L, -2, "index");
        lua_pushinteger(L, f->passes);
        lua_setfield(L, -2, "count");
        lua_pushinteger(L, f->bluestein_m ? f->bluestein_m : f->n);
        lua_setfield(L, -2, "n_total");
        if (f->bluestein_m) {
            lua_pushinteger(L, f->n);
            lua_setfield(L, -2, "bluestein_n");
        }
        lua_pushinteger(L, f->scratch_tile);
        lua_setfield(L, -2, "scratch_tile");
        lua_setfield(L, -2, "pass");
    }
    if (f->path != SG_FFT_PATH_POW2) push_stages(L, f, p);
}

const sg_kernel sg_fft_kernel = {
    .name = "fft",
    .flag = "--fft",
    .title = "workgroup FFT",
    .summary =
        "  --fft N               workgroup FFT of N = 2..16384 complex points per workgroup, E per\n"
        "                        invocation in registers, subgroup shuffles and shared memory (at\n"
        "                        most 32 KB) between them: powers of two by radix-2 stages, other\n"
        "                        N with no prime factor above 31 by mixed-radix stages, a prime N whose\n"
        "                        N - 1 is such an N by Rader's convolution (--prime), any other N up\n"
        "                        to 8192 by Bluestein's chirp-z; longer N up to 2^20 as a four-step\n"
        "                        plan: -o NAME.EXT writes NAME.pass1.EXT, NAME.pass2.EXT and the\n"
        "                        plan file NAME.fftplan (Bluestein's: three passes, NAME.pass3.EXT)\n",
    .examples =
        "  spdgen --fft 2048 --wg 512 --target msl -o fft.metal    # E = 4\n"
        "  spdgen --fft 16384 --subgroup 32 --target spirv -o fft.spv --emit-header fft.h\n"
        "  spdgen --fft 1024 --real --subgroup 8 --selftest\n"
        "  spdgen --fft 262144 --subgroup 32 --target spirv -o fft.spv   # two passes + plan\n",
    .options = options,
    .params_size = sizeof(sg_fft_params),
    .defaults = defaults,
    .check = sg_fft_check,
    .plan = sg_fft_plan,
    .push = push,
    .job_contract = sg_fft_job_contract,
    .manifest = sg_fft_manifest,
    .manifest_ext = "fftplan",
    .header = sg_fft_header,
    .selftest = sg_fft_selftest,
};
