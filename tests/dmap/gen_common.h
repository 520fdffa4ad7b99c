/* gen_common.h: what the generator's device tests (gen.c, known.c) share: the shader made
 * by spdgen itself from a configuration, the frames and maps of a run, the device. */
#ifndef DMAP_GEN_COMMON_H
#define DMAP_GEN_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spdgen_spirv.h"
#include "spdrt_dmap.h"
#include "tap.h"

static const char *front_end;
static spdrt_context *ctx;

typedef struct {
    spdrt_dmap_gen_config c;
    uint32_t *spirv;
    size_t words;
} shader;

/* spdgen --dmap for config c and `extra` flags (spdgen's, "" for none), as SPIR-V from the
 * front end under test. */
static int make_shader_with(const spdrt_dmap_gen_config *c, const char *extra, shader *s)
{
    static const char *const fov[] = {"off", "fixed", "gaze"};
    char args[512], subgroup[32] = "", combine[32] = "";
    if (c->content) snprintf(subgroup, sizeof subgroup, " --subgroup %u", c->subgroup);
    if (c->content && c->foveation && c->combine_coarser) snprintf(combine, sizeof combine, " --combine coarser");
    snprintf(args, sizeof args, "--dmap %s --texel %u --foveation %s%s%s --views %u --max-rate %u%s%s %s --spirv-from %s",
             c->kind == SPDRT_DMAP_FDM ? "fdm" : "fsr", c->texel, fov[c->foveation], c->content ? " --content" : "",
             combine, c->views, c->max_rate, subgroup, c->rate_map ? " --rate-map" : "", extra, front_end);
    s->c = *c;
    s->spirv = spdgen_spirv(args, &s->words);
    return s->spirv ? 0 : -1;
}

static inline int make_shader(const spdrt_dmap_gen_config *c, shader *s) { return make_shader_with(c, "", s); }

/* Frames and maps of one run. */
typedef struct {
    float *colour, *motion;
    uint8_t *gpu, *ref;
    uint32_t *axes, *axes_ref; /* --rate-map's buffer from the device, and from ref */
    size_t texels, axes_count;
} run_data;

static int alloc_run(const spdrt_dmap_gen_config *c, uint32_t w, uint32_t h, run_data *r)
{
    size_t pixels = (size_t)w * h * c->views;
    spdrt_dmap_extent e = spdrt_dmap_gen_extent(c, w, h);
    r->texels = (size_t)e.width * e.height * c->views;
    r->colour = calloc(pixels * 4, sizeof *r->colour);
    r->motion = calloc(pixels * 2, sizeof *r->motion);
    r->gpu = malloc(r->texels * 2);
    r->ref = malloc(r->texels * 2);
    r->axes_count = spdrt_dmap_gen_axes_count(c, w, h);
    r->axes = malloc(r->axes_count * sizeof *r->axes);
    r->axes_ref = malloc(r->axes_count * sizeof *r->axes_ref);
    return r->colour && r->motion && r->gpu && r->ref && r->axes && r->axes_ref ? 0 : -1;
}

static void free_run(run_data *r)
{
    free(r->colour);
    free(r->motion);
    free(r->gpu);
    free(r->ref);
    free(r->axes);
    free(r->axes_ref);
    memset(r, 0, sizeof *r);
}

/* Runs the shader on the device; returns 0, or -1 after a diagnostic. */
static int run_device(const shader *s, const spdrt_dmap_gen_params *p, run_data *r)
{
    if (spdrt_dmap_gen_run(ctx, s->spirv, s->words, &s->c, p, r->colour, r->motion, 2, r->gpu,
                           s->c.rate_map ? r->axes : NULL) != SPDRT_OK) {
        printf("# run failed: %s\n", spdrt_last_error(ctx));
        return -1;
    }
    return 0;
}

/* The rate code of texel i of the device's map. */
static uint32_t rate_at(const shader *s, const run_data *r, size_t i)
{
    return spdrt_dmap_gen_texel_rate(&s->c, r->gpu + i * spdrt_dmap_gen_texel_bytes(&s->c));
}

/* The device under the validation layer, or a skip line (returns -1). */
static int open_device(const char *target)
{
    char err[512];
    spdrt_options options = {.validation = 1};
    front_end = target;
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        printf("1..0 # SKIP no Vulkan device: %s\n", err);
        return -1;
    }
    return 0;
}

/* The last check (the layer saw nothing) and the plan. */
static int close_device(void)
{
    ok(spdrt_validation_messages(ctx) == 0, "the validation layer reported nothing (%u messages)",
       spdrt_validation_messages(ctx));
    spdrt_destroy(ctx);
    return tap_plan();
}

#endif
