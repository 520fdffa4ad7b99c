/* spd_selftest.c: spdgen --spd <flags> --selftest [--size WxH[xLAYERS]] [--seed N].
 *
 * The same check the test suite makes, for one user's exact configuration on the user's own
 * device: random source data, two dispatches back to back (the second must rewrite every
 * level, sentinel-filled in between, and its last workgroup must find its counter reset by
 * the shader), every level compared with the CPU reference within the bound the project
 * states (runtime/spd/spd_compare.c). Engines can keep it in their CI for the configs they
 * vendor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "spd.h"
#include "spdrt_spd.h"
#include "spdrt.h"

#define SENTINEL (-1234.5f)

/* Values in [0, 1), or for r32ui integers below 2^24 (exact as floats), from the runtime's
 * test data: the same seed, the same data everywhere. */
static float *random_source(size_t texels, unsigned seed, int integers)
{
    float *data = malloc(texels * 4 * sizeof *data);
    if (data && integers)
        spdrt_random_integers(data, texels * 4, seed);
    else if (data)
        spdrt_random_floats(data, texels * 4, seed, 0.0f, 1.0f);
    return data;
}

static int report(const sg_spd_params *s, const spdrt_spd_levels *gpu, const spdrt_spd_levels *ref,
                  spd_op op, spdrt_format format, spdrt_edge edge)
{
    double bound = 0;
    size_t failures = 0;
    uint32_t dispatch = 0;
    for (uint32_t k = 1; k <= gpu->mip_count; k++) {
        spd_ref_comparison c = {0};
        dispatch = spd_ref_dispatch_of_level(gpu->width[0], gpu->height[0], k, gpu->mip_count,
                                             (uint32_t)s->mips_per_pass, edge);
        /* grows with k under --half, and with the dispatches for 8/16-bit formats */
        bound = spd_ref_level_bound(
            format, spd_ref_bound_level(op, format, s->half, s->sampler_linear, k), dispatch);
        spd_ref_compare_level(gpu, ref, k, spdrt_format_channels(format), bound, NULL, SENTINEL, &c);
        printf("level %2u  %5ux%-5u  max error %-9.3g mismatches %zu%s\n", k, gpu->width[k],
               gpu->height[k], c.max_error, c.mismatches,
               c.sentinels ? "  (texels never written)" : "");
        if (c.mismatches) printf("          first: %s\n", c.first);
        failures += c.mismatches + c.sentinels;
    }
    if (failures) {
        printf("selftest FAILED: %zu values outside the bound\n", failures);
        return SG_EXIT_FAILURE;
    }
    if (dispatch > 0 &&
        bound != spd_ref_bound_level(op, format, s->half, s->sampler_linear, gpu->mip_count))
        printf("(%u dispatches: 8/16-bit levels re-read rounded levels, so the bound grows by one "
               "unit per dispatch)\n", dispatch + 1);
    if (bound == 0)
        printf("selftest passed: %u levels, every value bit-exact\n", gpu->mip_count);
    else
        printf("selftest passed: %u levels, every value within %.3g of the CPU reference%s\n",
               gpu->mip_count, bound, s->half ? " (the --half bound of the last level)" : "");
    return SG_EXIT_OK;
}

int sg_spd_selftest(const sg_run *run, const sg_job *job)
{
    const sg_spd_params *s = run->params;
    const sv_spirv *module = &job->shaders[0].module;
    char err[512];
    spdrt_context *ctx;
    spdrt_options options = {0};
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "spdgen: error: --selftest: no usable Vulkan device: %s\n", err);
        return SG_EXIT_FAILURE;
    }
    const spdrt_device_info *dev = spdrt_device(ctx);
    spd_op op = SPD_OP_MEAN;
    spdrt_format format = SPDRT_RGBA32F;
    /* cli.c accepted both names, and the runtime knows every name cli.c does. */
    spdrt_edge edge = SPDRT_EDGE_DROP;
    spd_ref_op_by_name(sg_spd_ops[s->op], &op);
    spd_ref_edge_by_name(sg_spd_edges[s->edge], &edge);
    spdrt_format_by_name(sg_spd_formats[s->format], &format);
    uint32_t w = (uint32_t)s->size[0], h = (uint32_t)s->size[1];
    uint32_t layers = (uint32_t)s->size[2];
    unsigned seed = (unsigned)run->common.seed;

    printf("spdgen selftest: %s\n", run->command);
    if (sg_run_twin_of(run))
        printf("  %s cannot run here: running its GLSL twin (the same algorithm and plan)\n", sg_run_twin_of(run));
    printf("  source %ux%u x %u layer(s), seed %u, on %s (%s), subgroup size %u\n", w, h, layers,
           seed, dev->name, dev->driver, dev->subgroup_size);

    int rc = SG_EXIT_FAILURE;
    float *source = random_source((size_t)w * h * layers, seed, format == SPDRT_R32UI);
    spdrt_spd_levels gpu = {0}, ref = {0};
    spdrt_spd_params params = {
        .width = w, .height = h, .layers = layers, .is_array = s->array,
        .mips_bound = (uint32_t)s->mips_per_pass, .mips_total = (uint32_t)s->mips,
        .subgroup = (uint32_t)s->subgroup, .tile = (uint32_t)s->tile,
        .hierarchy = s->tail == SG_SPD_TAIL_HIERARCHY, .format = format,
        .dispatches = 2, .sentinel = SENTINEL, .refill_between_dispatches = 1,
        .sampler_linear = s->sampler_linear, .sampler_normalized = s->sampler_normalized,
        .edge = edge,
    };
    if (!source) {
        fprintf(stderr, "spdgen: error: --selftest: out of memory\n");
    } else if (spdrt_spd_run(ctx, module->words, module->count, &params, source, &gpu) != SPDRT_OK) {
        fprintf(stderr, "spdgen: error: --selftest: %s\n", spdrt_last_error(ctx));
    } else if (gpu.counters_left != 0) {
        fprintf(stderr, "spdgen: error: --selftest: %u counters not reset by the last dispatch (a "
                "tail ran early, twice or not at all)\n", gpu.counters_left);
    } else if (spd_ref_run_edge(op, edge, format, w, h, layers, gpu.mip_count,
                                s->mips_per_pass < s->mips ? (uint32_t)s->mips_per_pass : 0, source,
                                &ref) != 0) {
        fprintf(stderr, "spdgen: error: --selftest: the CPU reference ran out of memory\n");
    } else {
        rc = report(s, &gpu, &ref, op, format, edge);
    }
    spdrt_spd_levels_free(&gpu);
    spdrt_spd_levels_free(&ref);
    free(source);
    spdrt_destroy(ctx);
    return rc;
}
