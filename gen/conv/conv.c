/* conv.c: the --conv kernel: an image convolved with a large PSF through FFTs (bloom), the
 * whole pipeline as one job: the kernel spectrum (two shaders, run when the PSF changes),
 * then three passes over the image. Its options, each declared once, and its entry in the
 * registry. templates/conv/ writes the shaders, conv_check.c resolves the sizes and shapes,
 * conv_plan.c makes the job, its manifest and the header's helpers, conv_selftest.c runs
 * the job against runtime/conv's direct convolution. */
#include <stddef.h>

#include <lua.h>

#include "conv.h"
#include "job.h"

const char *const sg_conv_paddings[] = {"zero", "mirror", NULL};
const char *const sg_conv_spectra[] = {"resampled", "exact", NULL};
const char *const sg_conv_axes[] = {"auto", "x", "y", NULL};
const char *const sg_conv_io[] = {"image", "buffer", NULL};
const char *const sg_conv_formats[] = {"rgba16f", "rgba32f", NULL};
const char *const sg_conv_storages[] = {"f32", "f16", NULL};
const char *const sg_conv_pad_to[] = {"pow2", "smooth", NULL};
const char *const sg_conv_roles[SG_CONV_SHADERS] = {"spectrum1", "spectrum2", "resample", "pass1",
                                                    "pass2", "pass3"};
static const long subgroups[] = {0, 4, 8, 16, 32, 64, -1};

static int ept_given(const void *p) { return ((const sg_conv_params *)p)->ept != 0; }
static int pass2_ept_given(const void *p) { return ((const sg_conv_params *)p)->pass2_ept != 0; }
static int columns_given(const void *p) { return ((const sg_conv_params *)p)->columns != 0; }
static int image_output(const void *p) { return ((const sg_conv_params *)p)->output == SG_CONV_IO_IMAGE; }

#define F(field) offsetof(sg_conv_params, field)
static const sg_option options[] = {
    [CONV_OPT_CONV] = {.name = "--conv", .kind = SG_OPT_FLAG, .offset = F(conv)}, /* the summary */
    [CONV_OPT_IMAGE] = {.name = "--image", .kind = SG_OPT_SIZE, .offset = F(image), .min = 1,
        .max = 16384, .meta = "WxH", .why = "the largest image the shaders serve",
        .help = "the largest image the shaders serve (a smaller one runs too); required"},
    [CONV_OPT_PSF] = {.name = "--psf", .kind = SG_OPT_SIZE, .offset = F(psf), .min = 1,
        .max = 16384, .meta = "WxH", .why = "the largest PSF (kernel) image",
        .help = "the largest PSF (kernel) image, centred at (W/2, H/2); required"},
    [CONV_OPT_CHANNELS] = {.name = "--channels", .kind = SG_OPT_UINT, .offset = F(channels), .min = 1,
        .max = 4, .meta = "C", .lua = "channels", .default_text = "3",
        .why = "channels convolved, each with its own PSF channel",
        .help = "channels convolved (1..4), each with its own PSF channel"},
    [CONV_OPT_PADDING] = {.name = "--padding", .kind = SG_OPT_CHOICE, .offset = F(padding),
        .choices = sg_conv_paddings, .meta = "P", .lua = "padding", .default_text = "zero",
        .help = "zero: the linear convolution (edges darken) | mirror: the image extended "
        "symmetrically, so edges keep their brightness"},
    [CONV_OPT_SPECTRUM] = {.name = "--spectrum", .kind = SG_OPT_CHOICE, .offset = F(spectrum),
        .choices = sg_conv_spectra, .meta = "S", .lua = "spectrum", .default_text = "resampled",
        .help = "resampled: the kernel spectrum at the PSF's padded size, sampled bilinearly at "
        "the image's frequencies (any image size, a run-time scale; rings) | exact: at the "
        "image's padded size"},
    [CONV_OPT_FIRST_AXIS] = {.name = "--first-axis", .kind = SG_OPT_CHOICE, .offset = F(first_axis),
        .choices = sg_conv_axes, .meta = "A", .lua = "first_axis",
        .default_text = "auto: x, unless y stores a quarter fewer values",
        .help = "the axis of pass 1 and pass 3: x (rows) | y (columns) | auto"},
    [CONV_OPT_INPUT] = {.name = "--input", .kind = SG_OPT_CHOICE, .offset = F(input),
        .choices = sg_conv_io, .meta = "K", .lua = "input", .default_text = "image",
        .help = "image: a sampled image of any float format | buffer: C floats per pixel, rows "
        "packed"},
    [CONV_OPT_OUTPUT] = {.name = "--output", .kind = SG_OPT_CHOICE, .offset = F(output),
        .choices = sg_conv_io, .meta = "K", .lua = "output", .default_text = "image",
        .help = "image: a storage image of --format | buffer: C floats per pixel, rows packed"},
    [CONV_OPT_FORMAT] = {.name = "--format", .kind = SG_OPT_CHOICE, .offset = F(format),
        .choices = sg_conv_formats, .meta = "F", .lua = "format", .command = SG_CMD_WHEN,
        .shown = image_output, .default_text = "rgba16f",
        .help = "the output image's storage format; channels past --channels copy the input's"},
    [CONV_OPT_STORAGE] = {.name = "--storage", .kind = SG_OPT_CHOICE, .offset = F(storage),
        .choices = sg_conv_storages, .meta = "T", .lua = "storage", .default_text = "f32",
        .help = "the spectra between passes and the kernel spectrum: f32 | f16 (IEEE halves, "
        "fp32 math)"},
    [CONV_OPT_PADDED] = {.name = "--padded", .kind = SG_OPT_SIZE, .offset = F(padded), .min = 1,
        .max = 16384, .meta = "WxH", .why = "even sizes with no prime factor above 7, at least the "
        "image + the PSF - 1", .default_text = "the smallest --pad-to sizes of at least the image + the PSF - 1",
        .help = "the padded image the FFTs run on"},
    [CONV_OPT_PAD_TO] = {.name = "--pad-to", .kind = SG_OPT_CHOICE, .offset = F(pad_to),
        .choices = sg_conv_pad_to, .meta = "K", .lua = "pad_to", .default_text = "smooth",
        .command = SG_CMD_NEVER, /* the stamp gives --padded, the sizes it chose */
        .help = "the padded sides: smooth (even, no prime factor above 7: mixed-radix FFTs over "
        "fewer points, measured faster) | pow2 (powers of two)"},
    [CONV_OPT_EPT] = {.name = "--ept", .kind = SG_OPT_POW2, .offset = F(ept), .min = 2,
        .max = SG_CONV_MAX_REGISTERS, .meta = "E", .command = SG_CMD_WHEN, .shown = ept_given,
        .why = "complex values per invocation in every pass",
        .default_text = "16 (8 for the line passes with 3 or 4 channels and for a pass 2 of 1024 points)",
        .help = "elements per invocation of every pass's FFT (W = N / E per pass)"},
    [CONV_OPT_PASS2_EPT] = {.name = "--pass2-ept", .kind = SG_OPT_UINT, .offset = F(pass2_ept),
        .min = 2, .max = SG_CONV_MAX_REGISTERS, .meta = "E", .command = SG_CMD_WHEN,
        .shown = pass2_ept_given, .why = "complex values per invocation in pass 2",
        .default_text = "--ept's",
        .help = "elements per invocation of pass 2's FFTs alone: a power of two, or on a smooth "
        "side a multiple of each radix"},
    [CONV_OPT_MAX_WG] = {.name = "--max-wg", .kind = SG_OPT_POW2, .offset = F(max_wg), .min = 1,
        .max = 1024, .meta = "W", .why = "the largest workgroup the device runs",
        .default_text = "1024",
        .help = "the largest workgroup; one dispatch holds a padded side of 16 x W"},
    [CONV_OPT_SUBGROUP] = {.name = "--subgroup", .kind = SG_OPT_ONE_OF, .offset = F(subgroup),
        .numbers = subgroups, .meta = "S", .lua = "subgroup", .default_text = "0",
        .why = "0: shared memory only, 4: quad swaps, 8+: shuffles",
        .help = "as --fft's: butterflies less than S lanes apart by shuffles"},
    [CONV_OPT_COLUMNS] = {.name = "--columns-per-wg", .kind = SG_OPT_POW2, .offset = F(columns),
        .min = 1, .max = 1024, .meta = "C", .command = SG_CMD_WHEN, .shown = columns_given,
        .why = "columns per workgroup of the column passes, C x W <= --max-wg",
        .default_text = "the largest up to 4 that fits (2 for a pass 2 of 1024 points)",
        .help = "columns per workgroup of the column passes (in lanes)"},
    [CONV_OPT_SIZE] = {.name = "--size", .kind = SG_OPT_SIZE, .offset = F(size), .min = 1,
        .max = 16384, .meta = "WxH", .command = SG_CMD_NEVER, .default_text = "--image",
        .why = "at most --image", .help = "the --selftest image"},
    {0},
};

static void defaults(void *p)
{
    sg_conv_params *c = p;
    c->channels = 3;
    c->max_wg = 1024;
    c->pad_to = SG_CONV_PAD_TO_SMOOTH;
}

static void set_int(lua_State *L, const char *name, long v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, name);
}

/* The sizes along the passes' axes and this shader's FFT: cfg.sizes, cfg.shape. */
static void push(lua_State *L, const sg_run *run, const sg_job_shader *shader)
{
    const sg_conv_params *c = run->params;
    const sg_conv_shape *s = &c->shapes[shader->index];
    lua_createtable(L, 0, 16);
    set_int(L, "e1", c->e1);
    set_int(L, "e2", c->e2);
    set_int(L, "k1", c->k1);
    set_int(L, "k2", c->k2);
    set_int(L, "p1", c->p1);
    set_int(L, "p2", c->p2);
    set_int(L, "q1", c->q1);
    set_int(L, "q2", c->q2);
    set_int(L, "channel_bits", c->channel_bits);
    /* The column passes' tiles (templates/conv/tiles.lua): pass 2's for z, y and the exact
     * spectrum, spectrum2's for zk: their width and how many a channel has. */
    set_int(L, "tile", sg_conv_tile(c, SG_CONV_PASS2));
    set_int(L, "tiles", sg_conv_tiles(c, SG_CONV_PASS2));
    set_int(L, "pass2_groups", c->shapes[SG_CONV_PASS2].groups_per_channel);
    set_int(L, "tile_k", sg_conv_tile(c, SG_CONV_SPECTRUM2));
    set_int(L, "tiles_k", sg_conv_tiles(c, SG_CONV_SPECTRUM2));
    lua_setfield(L, -2, "sizes");
    lua_createtable(L, 0, 8);
    set_int(L, "n", s->n);
    set_int(L, "ept", s->ept);
    set_int(L, "wg", s->wg);
    set_int(L, "lanes", s->lanes);
    set_int(L, "groups_per_channel", s->groups_per_channel);
    set_int(L, "merge", s->merge ? s->merge : 1);
    /* A length that is not a power of two runs the mixed-radix stages (the resample: pass 2's shape). */
    int mixed = s->n > 0 && (s->n & (s->n - 1)) != 0;
    lua_pushboolean(L, mixed);
    lua_setfield(L, -2, "mixed");
    if (mixed) {
        lua_createtable(L, s->stages.count, 0);
        for (int i = 0; i < s->stages.count; i++) {
            lua_pushinteger(L, s->stages.radix[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "radices");
        lua_createtable(L, s->stages.count, 0);
        for (int i = 0; i + 1 < s->stages.count; i++) {
            lua_pushinteger(L, s->stages.rounds[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "rounds");
    }
    lua_setfield(L, -2, "shape");
}

const sg_kernel sg_conv_kernel = {
    .name = "conv",
    .flag = "--conv",
    .title = "FFT convolution",
    .summary =
        "  --conv                an image convolved with a large PSF by FFTs (bloom): the kernel\n"
        "                        spectrum (two shaders) and three passes over the image, the\n"
        "                        middle one forward, product and inverse in one dispatch;\n"
        "                        -o NAME.EXT writes NAME.<role>.EXT and the plan NAME.convplan\n",
    .examples =
        "  spdgen --conv --image 1280x720 --psf 256x256 --target spirv -o bloom.spv\n"
        "  spdgen --conv --image 320x180 --psf 63x63 --padding mirror --spectrum exact --selftest\n",
    .options = options,
    .params_size = sizeof(sg_conv_params),
    .defaults = defaults,
    .check = sg_conv_check,
    .plan = sg_conv_plan,
    .push = push,
    .job_contract = sg_conv_job_contract,
    .manifest = sg_conv_manifest,
    .manifest_ext = "convplan",
    .header = sg_conv_header,
    .selftest = sg_conv_selftest,
};
