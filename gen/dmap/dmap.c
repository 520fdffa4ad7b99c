/* dmap.c: the --dmap kernel: density maps (VK_EXT_fragment_density_map) and shading-rate
 * attachments (VK_KHR_fragment_shading_rate) from foveation and content, and the resolve of
 * a subsampled render. Its options, each declared once, and its entry in the registry.
 * templates/dmap/ writes the shaders, dmap_check.c resolves and checks the parameters,
 * dmap_selftest.c runs them against runtime/dmap's CPU reference. */
#include <stddef.h>

#include "dmap.h"
#include "job.h"

const char *const sg_dmap_modes[] = {"fdm", "fsr", "resolve", NULL};
const char *const sg_dmap_foveations[] = {"off", "fixed", "gaze", NULL};
const char *const sg_dmap_combines[] = {"finer", "coarser", NULL};
const char *const sg_dmap_formats[] = {"rgba16f", "rgba32f", "rgba8", NULL};
const char *const sg_dmap_filters[] = {"nearest", "linear", NULL};
const char *const sg_dmap_fetches[] = {"blocks", "rows", "strips", "columns", NULL};
const char *const sg_dmap_rings[] = {"joined", "last", NULL};
const char *const sg_dmap_inputs[] = {"f32", "f16", NULL};
static const long subgroups[] = {0, 4, 8, 16, 32, 64, -1};
static const long batches[] = {1, 2, 4, -1};

static int map_mode(const void *p) { return ((const sg_dmap_params *)p)->mode != SG_DMAP_RESOLVE; }
static int resolve_mode(const void *p) { return ((const sg_dmap_params *)p)->mode == SG_DMAP_RESOLVE; }
static int both_sources(const void *p)
{
    const sg_dmap_params *d = p;
    return map_mode(p) && d->content && d->foveation != SG_DMAP_FOVEATION_OFF;
}
static int content_mode(const void *p) { return map_mode(p) && ((const sg_dmap_params *)p)->content; }

#define F(field) offsetof(sg_dmap_params, field)
static const sg_option options[] = {
    [DMAP_OPT_DMAP] = {.name = "--dmap", .kind = SG_OPT_CHOICE, .offset = F(mode), .choices = sg_dmap_modes,
        .meta = "MODE", .lua = "dmap",
        .help = "fdm: a density map (R8G8_UNORM) | fsr: a shading-rate attachment (R8_UINT) | resolve: "
        "a full-resolution image from a subsampled render"},
    [DMAP_OPT_TEXEL] = {.name = "--texel", .kind = SG_OPT_POW2, .offset = F(texel), .min = 8, .max = 1024,
        .meta = "T", .lua = "texel", .command = SG_CMD_WHEN, .shown = map_mode,
        .why = "pixels per map texel side", .default_text = "32 for fdm, 16 for fsr",
        .help = "pixels per map texel side: fdm 32..1024 (the sizes turnip reads), fsr 8, 16 or 32"},
    [DMAP_OPT_FOVEATION] = {.name = "--foveation", .kind = SG_OPT_CHOICE, .offset = F(foveation),
        .choices = sg_dmap_foveations, .meta = "F", .lua = "foveation", .command = SG_CMD_WHEN,
        .shown = map_mode, .default_text = "gaze",
        .help = "off | fixed (rings around the image centre) | gaze (rings around each view's gaze "
        "point, push constants)"},
    [DMAP_OPT_CONTENT] = {.name = "--content", .kind = SG_OPT_FLAG, .offset = F(content), .lua = "content",
        .help = "content-adaptive rates after FidelityFX Variable Shading from the previous frame's "
        "colour and motion vectors"},
    [DMAP_OPT_COMBINE] = {.name = "--combine", .kind = SG_OPT_CHOICE, .offset = F(combine),
        .choices = sg_dmap_combines, .meta = "C", .lua = "combine", .command = SG_CMD_WHEN,
        .shown = both_sources, .default_text = "finer",
        .help = "foveation with --content, per axis: finer (the area never exceeds either's) | "
        "coarser (FidelityFX's choice)"},
    [DMAP_OPT_VIEWS] = {.name = "--views", .kind = SG_OPT_UINT, .offset = F(views), .min = 1, .max = 6,
        .meta = "N", .lua = "views", .default_text = "1", .why = "multiview views, one map layer each",
        .help = "multiview views: a map layer (and a gaze, and with --content an input layer) per view"},
    [DMAP_OPT_MAX_RATE] = {.name = "--max-rate", .kind = SG_OPT_POW2, .offset = F(max_rate), .min = 1,
        .max = 16, .meta = "R", .lua = "max_rate", .command = SG_CMD_WHEN, .shown = map_mode,
        .why = "pixels per fragment along an axis", .default_text = "16 for fdm, 4 for fsr",
        .help = "the largest fragment side written: fdm 1..16, fsr 1..4"},
    [DMAP_OPT_SUBGROUP] = {.name = "--subgroup", .kind = SG_OPT_ONE_OF, .offset = F(subgroup),
        .numbers = subgroups, .meta = "S", .lua = "subgroup", .command = SG_CMD_WHEN,
        .shown = content_mode, .default_text = "0",
        .why = "0: shared memory only, 4: quad operations, 8+: shuffles",
        .help = "--content's tile maxima: 0 = shared memory only; 4 = quad operations; 8..64 = "
        "shuffles in subgroups of at least S"},
    [DMAP_OPT_BATCH] = {.name = "--batch", .kind = SG_OPT_ONE_OF, .offset = F(batch), .numbers = batches,
        .meta = "B", .lua = "batch", .command = SG_CMD_WHEN, .shown = content_mode, .default_text = "4",
        .why = "of an invocation's four 2x2-pixel blocks, how many load together",
        .help = "--content: an invocation's 2x2-pixel blocks whose loads go out together, all motion "
        "vectors, then all colours: 1, 2 or 4 (more loads in flight, more registers)"},
    [DMAP_OPT_FETCH] = {.name = "--fetch", .kind = SG_OPT_CHOICE, .offset = F(fetch), .choices = sg_dmap_fetches,
        .meta = "F", .lua = "fetch", .command = SG_CMD_WHEN, .shown = content_mode,
        .default_text = "columns where it applies, else blocks",
        .help = "--content: blocks (an invocation reads its own 2x2-pixel blocks) | rows (a subgroup's "
        "lanes read adjacent pixels of a row, the luminance goes through 16 KiB of shared memory) | "
        "strips (an invocation's blocks are a column of 4, lanes read every other pixel of a row; "
        "--subgroup 0) | columns (as strips, but each invocation reads one pixel column of 16 rows, "
        "so lanes read adjacent pixels of a row, then trades half with its neighbour by shuffles; "
        "--subgroup 8 or more, --texel 16 and up, --batch 4)"},
    [DMAP_OPT_FENCE] = {.name = "--fence", .kind = SG_OPT_FLAG, .offset = F(fence), .lua = "fence",
        .help = "--content with --batch 1 or 2 or --ring last: a workgroup barrier after each "
        "batch, so the next batch's loads wait (fewer registers held, more workgroups resident)"},
    [DMAP_OPT_RING] = {.name = "--ring", .kind = SG_OPT_CHOICE, .offset = F(ring),
        .choices = sg_dmap_rings, .meta = "R", .lua = "ring", .command = SG_CMD_WHEN, .shown = content_mode, .default_text = "joined",
        .help = "--content: joined (the ring block around the region loads with the last batch) | last "
        "(in a batch of its own after the others: fewer loads held at once)"},
    [DMAP_OPT_INPUTS] = {.name = "--inputs", .kind = SG_OPT_CHOICE, .offset = F(inputs),
        .choices = sg_dmap_inputs, .meta = "P", .lua = "inputs", .command = SG_CMD_WHEN,
        .shown = content_mode, .default_text = "f32",
        .help = "--content: the colour and motion images' precision: f32 (any float or UNORM format) | "
        "f16 (16-bit floats only, RGBA16F and RG16F: the loads may return 16 bits, exact for them, "
        "half the data from the texture units; GLSL, SPIR-V from GLSL and MSL)"},
    [DMAP_OPT_RATE_MAP] = {.name = "--rate-map", .kind = SG_OPT_FLAG, .offset = F(rate_map),
        .lua = "rate_map",
        .help = "also each map column's and row's finest rate (binding 3), the separable "
        "quality a Metal host gives MTLRasterizationRateLayerDescriptor"},
    [DMAP_OPT_FORMAT] = {.name = "--format", .kind = SG_OPT_CHOICE, .offset = F(format),
        .choices = sg_dmap_formats, .meta = "F", .lua = "format", .command = SG_CMD_WHEN,
        .shown = resolve_mode, .default_text = "rgba16f",
        .help = "resolve: the storage format of the full-resolution image"},
    [DMAP_OPT_FILTER] = {.name = "--filter", .kind = SG_OPT_CHOICE, .offset = F(filter),
        .choices = sg_dmap_filters, .meta = "F", .lua = "filter", .command = SG_CMD_WHEN,
        .shown = resolve_mode, .default_text = "nearest",
        .help = "resolve: nearest (each pixel its fragment) | linear (bilinear within the aprons)"},
    [DMAP_OPT_SIZE] = {.name = "--size", .kind = SG_OPT_SIZE3, .offset = F(size), .min = 1,
        .max = 16384, .max_layers = 6, .meta = "WxH", .command = SG_CMD_NEVER,
        .default_text = "1280x720 (--views layers)", .help = "the --selftest render size"},
    {0},
};

static void defaults(void *p)
{
    sg_dmap_params *d = p;
    d->foveation = SG_DMAP_FOVEATION_GAZE;
    d->views = 1;
    d->batch = 4;
}

static int plan(const sg_run *run, sg_job *job)
{
    (void)run;
    sg_job_add_shader(job, "", 0);
    return 0;
}

const sg_kernel sg_dmap_kernel = {
    .name = "dmap",
    .flag = "--dmap",
    .title = "density map / shading-rate image",
    .summary =
        "  --dmap MODE           a density map (fdm) or shading-rate attachment (fsr) from\n"
        "                        foveation and the previous frame's content, one texel per\n"
        "                        TEXEL pixels, clamped to the rates a device supports; or\n"
        "                        (resolve) a full-resolution image from a subsampled render\n",
    .examples =
        "  spdgen --dmap fsr --foveation gaze -o fsr.comp --emit-header fsr.h\n"
        "  spdgen --dmap fdm --texel 64 --foveation fixed --content --target hlsl -o fdm.hlsl\n"
        "  spdgen --dmap fsr --content --foveation off --subgroup 32 --selftest\n"
        "  spdgen --dmap resolve --filter linear --target spirv -o resolve.spv\n",
    .options = options,
    .params_size = sizeof(sg_dmap_params),
    .defaults = defaults,
    .check = sg_dmap_check,
    .plan = plan,
    .selftest = sg_dmap_selftest,
};
