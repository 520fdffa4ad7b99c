/* dmap_selftest.c: spdgen --dmap fdm|fsr <flags> --selftest [--size WxH] [--seed N].
 *
 * The check the test suite makes, for one user's exact configuration on the user's own
 * device: a synthetic previous frame (spdrt_dmap_scene), the default parameters with each
 * view's gaze apart, two dispatches back to back with the map refilled with a sentinel in
 * between, and every texel compared with the CPU reference (runtime/dmap/dmap_ref.c) bit
 * for bit; with --rate-map, binding 3 too, against the axes of the reference's map. */
#include <stdio.h>
#include <stdlib.h>

#include "dmap.h"
#include "job.h"
#include "spdrt_dmap.h"

static void config_of(const sg_dmap_params *d, spdrt_dmap_gen_config *c)
{
    *c = (spdrt_dmap_gen_config){
        .kind = d->mode == SG_DMAP_FDM ? SPDRT_DMAP_FDM : SPDRT_DMAP_FSR, .texel = (uint32_t)d->texel,
        .views = (uint32_t)d->views, .foveation = (spdrt_dmap_foveation)d->foveation,
        .content = d->content, .combine_coarser = d->combine == SG_DMAP_COMBINE_COARSER,
        .max_rate = (uint32_t)d->max_rate, .subgroup = (uint32_t)d->subgroup, .rate_map = d->rate_map};
}

/* Compares, prints the rates' histogram and the first mismatch. */
static int report(const spdrt_dmap_gen_config *c, const uint8_t *gpu, const uint8_t *ref, size_t texels)
{
    size_t mismatches = 0, first = 0, histogram[64] = {0};
    uint32_t bytes = spdrt_dmap_gen_texel_bytes(c);
    for (size_t i = 0; i < texels; i++) {
        int same = gpu[i * bytes] == ref[i * bytes] && (bytes == 1 || gpu[i * bytes + 1] == ref[i * bytes + 1]);
        if (!same && mismatches++ == 0) first = i;
        uint32_t rate = spdrt_dmap_gen_texel_rate(c, ref + i * bytes);
        if (rate < 64) histogram[rate]++;
    }
    printf("  rates:");
    for (uint32_t r = 0; r < 64; r++)
        if (histogram[r]) printf(" %ux%u %zu", 1u << (r >> 3), 1u << (r & 7u), histogram[r]);
    printf("\n");
    if (mismatches) {
        printf("selftest FAILED: %zu of %zu texels differ; first texel %zu: device %u, reference %u\n",
               mismatches, texels, first, gpu[first * bytes], ref[first * bytes]);
        return SG_EXIT_FAILURE;
    }
    printf("selftest passed: %zu texels, every one equal to the CPU reference\n", texels);
    return SG_EXIT_OK;
}

int sg_dmap_selftest(const sg_run *run, const sg_job *job)
{
    const sg_dmap_params *d = run->params; /* fdm or fsr: check_selftest refuses resolve */
    const sv_spirv *module = &job->shaders[0].module;
    spdrt_dmap_gen_config c;
    spdrt_dmap_gen_params p;
    config_of(d, &c);
    uint32_t w = (uint32_t)d->size[0], h = (uint32_t)d->size[1];
    spdrt_dmap_gen_defaults(&c, w, h, &p);
    for (uint32_t v = 0; v < c.views; v++) p.gaze[v][0] = w * (v + 1) / (c.views + 1);
    char err[512];
    spdrt_context *ctx;
    spdrt_options options = {0};
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "spdgen: error: --selftest: no usable Vulkan device: %s\n", err);
        return SG_EXIT_FAILURE;
    }
    const spdrt_device_info *dev = spdrt_device(ctx);
    printf("spdgen selftest: %s\n", run->command);
    if (sg_run_twin_of(run))
        printf("  %s cannot run here: running its GLSL twin (the same rules)\n", sg_run_twin_of(run));
    printf("  render %ux%u x %u view(s), seed %ld, on %s (%s)\n", w, h, c.views, run->common.seed, dev->name,
           dev->driver);
    spdrt_dmap_extent e = spdrt_dmap_gen_extent(&c, w, h);
    size_t pixels = (size_t)w * h * c.views, texels = (size_t)e.width * e.height * c.views;
    size_t map_bytes = texels * spdrt_dmap_gen_texel_bytes(&c);
    float *colour = c.content ? malloc(pixels * 4 * sizeof *colour) : NULL;
    float *motion = c.content ? malloc(pixels * 2 * sizeof *motion) : NULL;
    uint8_t *gpu = malloc(map_bytes), *ref = malloc(map_bytes);
    size_t axes_count = c.rate_map ? spdrt_dmap_gen_axes_count(&c, w, h) : 0;
    uint32_t *axes = c.rate_map ? malloc(axes_count * 2 * sizeof *axes) : NULL;
    int rc = SG_EXIT_FAILURE;
    if (!gpu || !ref || (c.content && (!colour || !motion)) || (c.rate_map && !axes)) {
        fprintf(stderr, "spdgen: error: --selftest: out of memory\n");
        goto done;
    }
    if (c.content) spdrt_dmap_scene(w, h, c.views, (uint64_t)run->common.seed, colour, motion);
    if (spdrt_dmap_gen_run(ctx, module->words, module->count, &c, &p, colour, motion, 2, gpu, axes) != SPDRT_OK) {
        fprintf(stderr, "spdgen: error: --selftest: %s\n", spdrt_last_error(ctx));
        goto done;
    }
    if (spdrt_dmap_gen_reference(&c, &p, colour, motion, ref) != 0) {
        fprintf(stderr, "spdgen: error: --selftest: the CPU reference ran out of memory\n");
        goto done;
    }
    rc = report(&c, gpu, ref, texels);
    if (rc == SG_EXIT_OK && c.rate_map) {
        size_t wrong = 0;
        spdrt_dmap_gen_axes(&c, w, h, ref, axes + axes_count);
        for (size_t i = 0; i < axes_count; i++) wrong += axes[i] != axes[axes_count + i];
        printf("selftest %s: %zu of %zu --rate-map entries differ from the reference's columns and rows\n",
               wrong ? "FAILED" : "passed", wrong, axes_count);
        if (wrong) rc = SG_EXIT_FAILURE;
    }
done:
    free(axes);
    free(colour);
    free(motion);
    free(gpu);
    free(ref);
    spdrt_destroy(ctx);
    return rc;
}
