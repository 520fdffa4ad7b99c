/* depth_pyramid.c: runs an spdgen SPD shader on the local Vulkan device and checks every
 * level against the CPU reference, the way an engine would keep a per-config test.
 *
 *   spdgen --spd --op max --format r32f --edge conservative --subgroup 8 --target spirv -o hiz.spv
 *   depth_pyramid hiz.spv --op max --format r32f --edge conservative --subgroup 8 --size 1920x1080
 *
 * The flags repeat the generation parameters the runtime needs (the dispatch contract);
 * --layers N runs an --array shader on N slices. The source is a synthetic depth buffer:
 * a sloped floor with a few boxes in front of it. Exit 0 when every level matches. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "spdrt_spd.h"
#include "spdrt.h"

typedef struct {
    const char *spirv_path;
    spd_op op;
    spdrt_format format;
    spdrt_edge edge;
    uint32_t subgroup, width, height, layers, mips;
    int array;
} options;

static int usage(const char *msg)
{
    fprintf(stderr, "depth_pyramid: %s\n"
            "usage: depth_pyramid SHADER.spv [--op OP] [--format FORMAT] [--edge E] (as given\n"
            "                     to spdgen) [--subgroup S] [--mips N] [--size WxH] [--layers N]\n",
            msg);
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.op = SPD_OP_MAX, .format = SPDRT_R32F, .width = 1920, .height = 1080,
                   .layers = 1, .mips = 12};

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-') {
            o->spirv_path = a;
            continue;
        }
        static const char *const flags[] = {"--op", "--format", "--edge", "--subgroup", "--mips", "--size",
                                            "--layers"};
        int known = 0;
        for (size_t f = 0; f < sizeof flags / sizeof *flags; f++) known |= !strcmp(a, flags[f]);
        if (!known) return ex_bad("depth_pyramid", a, "", "an unknown flag");
        if (!v) return ex_bad("depth_pyramid", a, "", "needs a value");
        i++;
        if (!strcmp(a, "--op")) {
            if (spd_ref_op_by_name(v, &o->op)) return usage("--op: an spdgen --spd op");
        } else if (!strcmp(a, "--format")) {
            if (spdrt_format_by_name(v, &o->format)) return usage("--format: an spdgen --format");
        } else if (!strcmp(a, "--edge")) {
            if (spd_ref_edge_by_name(v, &o->edge)) return usage("--edge: an spdgen --edge");
        } else if (!strcmp(a, "--subgroup")) {
            if (ex_u32(v, 0, 128, &o->subgroup)) return ex_bad("depth_pyramid", a, v, "0..128, as given to spdgen");
        } else if (!strcmp(a, "--mips")) {
            if (ex_u32(v, 1, 14, &o->mips)) return ex_bad("depth_pyramid", a, v, "1..14, as given to spdgen");
        } else if (!strcmp(a, "--size")) {
            if (ex_size(v, 1, 16384, &o->width, &o->height) || (o->width == 1 && o->height == 1))
                return ex_bad("depth_pyramid", a, v, "WxH, 1..16384 each, larger than 1x1");
        } else {
            if (ex_u32(v, 1, 2048, &o->layers)) return ex_bad("depth_pyramid", a, v, "1..2048");
            o->array = 1;
        }
    }
    return o->spirv_path ? 0 : usage("no shader given");
}

/* A depth buffer: a floor receding to 1.0 and three boxes at constant depths. */
static float *make_depth(uint32_t w, uint32_t h, uint32_t layers)
{
    float *d = malloc((size_t)w * h * layers * 4 * sizeof *d);
    for (uint32_t l = 0; d && l < layers; l++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                float fx = (float)x / (float)w, fy = (float)y / (float)h;
                float z = 1.0f - 0.9f * fy * fy;
                if (fabsf(fx - 0.3f) < 0.1f && fabsf(fy - 0.6f) < 0.15f) z = 0.25f;
                if (fabsf(fx - 0.7f - 0.05f * (float)l) < 0.08f && fabsf(fy - 0.4f) < 0.1f) z = 0.4f;
                if (fabsf(fx - 0.5f) < 0.02f) z = 0.1f + 0.05f * (float)l;
                float *t = d + (((size_t)l * h + y) * w + x) * 4;
                t[0] = t[1] = t[2] = z;
                t[3] = 1.0f;
            }
    return d;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    size_t words;
    uint32_t *spirv = ex_read_spirv(o.spirv_path, &words);
    if (!spirv) {
        fprintf(stderr, "depth_pyramid: cannot read %s (a SPIR-V module: whole 4-byte words)\n", o.spirv_path);
        return 1;
    }
    char err[512];
    spdrt_context *ctx;
    spdrt_options ro = {0};
    if (spdrt_create(&ro, &ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "depth_pyramid: %s\n", err);
        free(spirv);
        return 1;
    }
    printf("device: %s, subgroup size %u\n", spdrt_device(ctx)->name, spdrt_device(ctx)->subgroup_size);

    float *source = make_depth(o.width, o.height, o.layers);
    spdrt_spd_params p = {.width = o.width, .height = o.height, .layers = o.layers,
                          .is_array = o.array, .mips_bound = o.mips, .subgroup = o.subgroup,
                          .format = o.format, .edge = o.edge, .dispatches = 1,
                          .sentinel = -1.0f};
    spdrt_spd_levels gpu = {0}, ref = {0};
    uint32_t mips = spdrt_spd_mip_count(o.width, o.height, o.mips);
    rc = 1;
    if (spdrt_spd_run(ctx, spirv, words, &p, source, &gpu) != SPDRT_OK) {
        fprintf(stderr, "depth_pyramid: %s\n", spdrt_last_error(ctx));
    } else if (spd_ref_run_edge(o.op, o.edge, o.format, o.width, o.height, o.layers, mips, 0,
                                source, &ref)) {
        fprintf(stderr, "depth_pyramid: out of memory\n");
    } else {
        uint32_t channels = spdrt_format_channels(o.format);
        double bound = spd_ref_bound(o.op, o.format);
        size_t bad_total = 0;
        for (uint32_t k = 1; k <= mips; k++) {
            spd_ref_comparison c = {0};
            spd_ref_compare_level(&gpu, &ref, k, channels, bound, NULL, p.sentinel, &c);
            bad_total += c.mismatches;
            printf("level %2u  %5ux%-5u  max |gpu - cpu| %.3g  mismatches %zu\n", k,
                   gpu.width[k], gpu.height[k], c.max_error, c.mismatches);
        }
        printf("%s: %u levels of %ux%u x %u layer(s) in one dispatch, %.3f ms on the GPU: %s\n",
               o.spirv_path, mips, o.width, o.height, o.layers, gpu.gpu_ms,
               bad_total ? "MISMATCH" : "all levels match the CPU reference");
        rc = bad_total ? 1 : 0;
    }
    spdrt_spd_levels_free(&gpu);
    spdrt_spd_levels_free(&ref);
    free(source);
    free(spirv);
    spdrt_destroy(ctx);
    return rc;
}
