/* gen.c: spdgen --dmap fdm|fsr on the local Vulkan device (lavapipe on CI), under the
 * validation layer, for one front end: GLSL, or HLSL compiled by glslang (--target spirv
 * --spirv-from hlsl), bit for bit against the CPU reference (runtime/dmap/dmap_ref.c): a
 * matrix of kinds, texel sizes, foveation, content, both, combine rules, views, subgroup
 * plans and --max-rate, at odd and even sizes, on spdrt_dmap_scene's frames with random
 * parameters (rings, gazes, aspects, cutoffs, a rate missing from the mask). Every run
 * dispatches twice with the map refilled with a sentinel in between. known.c checks the
 * rules themselves against answers derived by hand. A second set runs frames whose motion and
 * luminance vary per pixel, where taking another pixel's motion term changes the map.
 *
 * usage: gen glsl|hlsl        prints TAP */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "gen_common.h"

/* ---- 1. the matrix ---- */

static uint32_t rng = 777;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 1664525u + 1013904223u;
    return (rng >> 8) % n;
}

static void random_params(const spdrt_dmap_gen_config *c, uint32_t w, uint32_t h, spdrt_dmap_gen_params *p)
{
    spdrt_dmap_gen_defaults(c, w, h, p);
    uint32_t side = w > h ? w : h, r = 0;
    for (int k = 0; k < 4; k++) p->radii[k] = r += 1 + rnd(side / 3 + 1);
    for (int k = 0; k < 5; k++) p->ring_rates[k] = spdrt_dmap_rate_code(rnd(5), rnd(5));
    p->aspect[0] = 64 + rnd(193);
    p->aspect[1] = 64 + rnd(193);
    for (uint32_t v = 0; v < c->views; v++) p->gaze[v][0] = rnd(w + 40), p->gaze[v][1] = rnd(h + 40);
    if (rnd(3) == 0) p->rate_mask &= ~(1u << (rnd(3) * 5 + rnd(3))); /* a rate missing */
    p->cutoff = 0.01f + (float)rnd(100) / 1000.0f;
    p->cutoff4 = rnd(2) ? p->cutoff / (float)(2 + rnd(4)) : 0.0f;
    p->motion_factor = (float)rnd(4) * 0.01f;
}

static const spdrt_dmap_gen_config MATRIX[] = {
    /* kind, texel, views, foveation, content, coarser, max_rate, subgroup, rate_map */
    {SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_GAZE, 0, 0, 4, 0, 0},
    {SPDRT_DMAP_FSR, 8, 2, SPDRT_DMAP_FOVEATION_FIXED, 0, 0, 2, 0, 0},
    {SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_GAZE, 0, 0, 16, 0, 0},
    {SPDRT_DMAP_FDM, 1024, 3, SPDRT_DMAP_FOVEATION_GAZE, 0, 0, 8, 0, 0},
    {SPDRT_DMAP_FSR, 8, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0},
    {SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 4, 0},
    {SPDRT_DMAP_FSR, 32, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 8, 0},
    {SPDRT_DMAP_FSR, 16, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 4, 8, 0},
    {SPDRT_DMAP_FSR, 8, 1, SPDRT_DMAP_FOVEATION_FIXED, 1, 1, 4, 4, 0},
    {SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 16, 8, 0},
    {SPDRT_DMAP_FDM, 64, 2, SPDRT_DMAP_FOVEATION_FIXED, 1, 1, 16, 0, 0},
    {SPDRT_DMAP_FDM, 128, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 16, 8, 0},
    {SPDRT_DMAP_FDM, 256, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 4, 0, 0},
    {SPDRT_DMAP_FSR, 16, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 4, 4, 1},
    {SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_FIXED, 0, 0, 8, 0, 1},
    {SPDRT_DMAP_FDM, 128, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 1, 16, 8, 1},
};
/* --content's other load batches (the matrix runs the default, 4), --fetch rows, strips and
 * columns (the matrix: blocks), --fence and --ring last: each with another exchange plan, the big texel's region loop,
 * views and the rate map. */
typedef struct {
    spdrt_dmap_gen_config c;
    const char *flags; /* spdgen flags past the configuration's own */
} flagged_config;
static const flagged_config BATCHED[] = {
    {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 8, 0}, "--batch 1"},
    {{SPDRT_DMAP_FSR, 8, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 4, 4, 1}, "--batch 2"},
    {{SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_FIXED, 1, 1, 16, 0, 0}, "--batch 1"},
    {{SPDRT_DMAP_FDM, 128, 2, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 16, 8, 0}, "--batch 2"},
    {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0}, "--fetch rows"},
    {{SPDRT_DMAP_FSR, 8, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 4, 4, 1}, "--fetch rows --batch 1"},
    {{SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 16, 8, 0}, "--fetch rows --batch 2"},
    {{SPDRT_DMAP_FDM, 128, 1, SPDRT_DMAP_FOVEATION_FIXED, 1, 1, 16, 8, 0}, "--fetch rows --batch 2"},
    {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0}, "--batch 2 --fence"},
    {{SPDRT_DMAP_FDM, 64, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 16, 0, 1}, "--batch 1 --fence"},
    {{SPDRT_DMAP_FSR, 32, 1, SPDRT_DMAP_FOVEATION_FIXED, 1, 1, 4, 8, 0}, "--fetch rows --batch 2 --fence"},
    {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0}, "--fetch strips"},
    {{SPDRT_DMAP_FSR, 8, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 4, 0, 1}, "--fetch strips --batch 2 --fence"},
    {{SPDRT_DMAP_FSR, 32, 1, SPDRT_DMAP_FOVEATION_FIXED, 1, 1, 4, 0, 0}, "--fetch strips --batch 2"},
    {{SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 16, 0, 0}, "--fetch strips --batch 1"},
    {{SPDRT_DMAP_FDM, 128, 2, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 16, 0, 1}, "--fetch strips"},
    {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0}, "--ring last"},
    {{SPDRT_DMAP_FSR, 16, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 4, 8, 1}, "--ring last --fence"},
    {{SPDRT_DMAP_FSR, 8, 1, SPDRT_DMAP_FOVEATION_FIXED, 1, 1, 4, 0, 0}, "--fetch strips --ring last --fence"},
    {{SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 16, 4, 0}, "--batch 2 --ring last --fence"},
    {{SPDRT_DMAP_FDM, 256, 1, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 16, 0, 1}, "--fetch rows --ring last"},
    {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 8, 0}, "--fetch columns"},
    {{SPDRT_DMAP_FSR, 32, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 4, 8, 1}, "--fetch columns"},
    {{SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_FIXED, 1, 1, 16, 8, 0}, "--fetch columns"},
    {{SPDRT_DMAP_FDM, 128, 2, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 16, 8, 1}, "--fetch columns"},
};
/* --inputs f16 (GLSL only: HLSL refuses it, tests/dmap/cli.t): the textures declared mediump.
 * The runtime's inputs are RGBA16F and RG16F, so the maps are the reference's on any device.
 * lavapipe loads them at full precision all the same; a device that returns 16 bits (the
 * GPU runs in bench/results/h100-2026-11-28-dmap-inputs-f16) is what exercises the relaxed
 * loads. */
static const flagged_config HALF_INPUTS[] = {
    {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 8, 0}, "--fetch columns --inputs f16"},
    {{SPDRT_DMAP_FDM, 64, 2, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 16, 0, 1}, "--inputs f16"},
};
static const uint32_t SIZES[][2] = {{1, 1}, {7, 5}, {65, 33}, {250, 131}, {640, 360}};

/* Case i: the matrix, the other batches, then (GLSL) --inputs f16. */
static size_t case_count(void)
{
    return sizeof MATRIX / sizeof *MATRIX + sizeof BATCHED / sizeof *BATCHED +
           (strcmp(front_end, "glsl") == 0 ? sizeof HALF_INPUTS / sizeof *HALF_INPUTS : 0);
}
static const spdrt_dmap_gen_config *case_config(size_t i, const char **flags)
{
    const size_t n = sizeof MATRIX / sizeof *MATRIX, b = n + sizeof BATCHED / sizeof *BATCHED;
    const flagged_config *f = i < n ? NULL : i < b ? &BATCHED[i - n] : &HALF_INPUTS[i - b];
    /* The matrix names --fetch blocks: with --subgroup 8 and texels of 16 and up the default
     * is columns, which BATCHED covers. */
    *flags = f ? f->flags : MATRIX[i].content ? "--fetch blocks" : "";
    return f ? &f->c : &MATRIX[i];
}

static void test_matrix(void)
{
    const size_t cases = case_count();
    for (size_t i = 0; i < cases; i++) {
        const char *flags;
        const spdrt_dmap_gen_config *c = case_config(i, &flags);
        shader s;
        if (make_shader_with(c, flags, &s)) {
            ok(0, "spdgen made the shader for case %zu", i);
            continue;
        }
        size_t bad = 0, runs = 0, texels = 0, rates_seen = 0;
        unsigned seen[64] = {0};
        for (size_t k = 0; k < sizeof SIZES / sizeof *SIZES; k++) {
            uint32_t w = SIZES[k][0], h = SIZES[k][1];
            run_data r;
            spdrt_dmap_gen_params p;
            if (alloc_run(c, w, h, &r)) break;
            random_params(c, w, h, &p);
            spdrt_dmap_scene(w, h, c->views, 100 + k, r.colour, r.motion);
            if (run_device(&s, &p, &r) == 0 && spdrt_dmap_gen_reference(c, &p, r.colour, r.motion, r.ref) == 0) {
                size_t bytes = r.texels * spdrt_dmap_gen_texel_bytes(c), diff = 0;
                for (size_t b = 0; b < bytes; b++) diff += r.gpu[b] != r.ref[b];
                if (diff) printf("# %ux%u: %zu bytes differ\n", w, h, diff);
                if (c->rate_map) { /* binding 3 against the axes of the reference's map */
                    size_t axes_diff = 0;
                    spdrt_dmap_gen_axes(c, w, h, r.ref, r.axes_ref);
                    for (size_t a = 0; a < r.axes_count; a++) axes_diff += r.axes[a] != r.axes_ref[a];
                    if (axes_diff) printf("# %ux%u: %zu rate-map entries differ\n", w, h, axes_diff);
                    diff += axes_diff;
                }
                bad += diff != 0;
                for (size_t t = 0; t < r.texels; t++) seen[rate_at(&s, &r, t) & 63]++;
                texels += r.texels;
            } else {
                bad++;
            }
            runs++;
            free_run(&r);
        }
        for (int q = 0; q < 64; q++) rates_seen += seen[q] != 0;
        ok(bad == 0 && runs == sizeof SIZES / sizeof *SIZES,
           "%s --texel %u --views %u --foveation %s%s%s --max-rate %u%s%s%s%s: %zu texels at 1x1..640x360 "
           "equal the reference (%zu rates seen)", c->kind == SPDRT_DMAP_FDM ? "fdm" : "fsr", c->texel, c->views,
           c->foveation == SPDRT_DMAP_FOVEATION_OFF ? "off" : c->foveation == SPDRT_DMAP_FOVEATION_FIXED
               ? "fixed" : "gaze", c->content ? " --content" : "",
           c->content && c->foveation && c->combine_coarser ? " --combine coarser" : "", c->max_rate,
           c->content && c->subgroup == 4 ? " --subgroup 4" : c->content && c->subgroup ? " --subgroup 8" : "",
           *flags ? " " : "", flags, c->rate_map ? " --rate-map (and binding 3)" : "", texels, rates_seen);
        free(s.spirv);
    }
}

/* ---- 2. the motion terms ---- */

/* A frame where each block's motion term decides: luminance 0.5 plus noise up to 0.08 and a
 * motion vector of up to 4 pixels, both drawn per pixel, so a block's first pixel's motion
 * term (up to 0.08 at motion_factor 0.02) is the size of its differences, and a layout that
 * takes another pixel's term changes some tile's maximum across the cutoff. */
static void noisy_frame(uint32_t w, uint32_t h, uint32_t views, float *colour, float *motion)
{
    for (size_t i = 0; i < (size_t)w * h * views; i++) {
        float v = 0.5f + (float)rnd(81) / 1000.0f;
        colour[4 * i] = colour[4 * i + 1] = colour[4 * i + 2] = v, colour[4 * i + 3] = 1.0f;
        motion[2 * i] = (float)rnd(33) / 4.0f - 4.0f;
        motion[2 * i + 1] = (float)rnd(33) / 4.0f - 4.0f;
    }
}

static void test_motion_terms(void)
{
    static const flagged_config CASES[] = {
        {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0}, ""},
        {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0}, "--fetch strips"},
        {{SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 8, 0}, "--fetch columns"},
        {{SPDRT_DMAP_FSR, 32, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 8, 0}, "--fetch columns"},
        {{SPDRT_DMAP_FDM, 64, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 16, 8, 0}, "--fetch columns"},
    };
    static const uint32_t sizes[][2] = {{256, 128}, {250, 131}, {320, 200}};
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        const spdrt_dmap_gen_config *c = &CASES[i].c;
        shader s;
        if (make_shader_with(c, CASES[i].flags, &s)) {
            ok(0, "spdgen made the shader for motion case %zu", i);
            continue;
        }
        size_t bad = 0, texels = 0;
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            run_data r;
            spdrt_dmap_gen_params p;
            if (alloc_run(c, sizes[k][0], sizes[k][1], &r)) {
                bad++;
                break;
            }
            spdrt_dmap_gen_defaults(c, sizes[k][0], sizes[k][1], &p);
            p.cutoff = 0.04f, p.cutoff4 = 0.0f, p.motion_factor = 0.02f;
            noisy_frame(sizes[k][0], sizes[k][1], c->views, r.colour, r.motion);
            if (run_device(&s, &p, &r) == 0 && spdrt_dmap_gen_reference(c, &p, r.colour, r.motion, r.ref) == 0) {
                size_t bytes = r.texels * spdrt_dmap_gen_texel_bytes(c), diff = 0;
                for (size_t b = 0; b < bytes; b++) diff += r.gpu[b] != r.ref[b];
                if (diff) printf("# %ux%u: %zu bytes differ\n", sizes[k][0], sizes[k][1], diff);
                bad += diff != 0;
                texels += r.texels;
            } else {
                bad++;
            }
            free_run(&r);
        }
        ok(bad == 0, "%s --texel %u --content --foveation off --subgroup %u%s%s, per-pixel motion and noise: %zu "
           "texels equal the reference", c->kind == SPDRT_DMAP_FDM ? "fdm" : "fsr", c->texel, c->subgroup,
           *CASES[i].flags ? " " : "", CASES[i].flags, texels);
        free(s.spirv);
    }
}

int main(int argc, char **argv)
{
    if (open_device(argc > 1 ? argv[1] : "glsl")) return 0;
    test_matrix();
    test_motion_terms();
    return close_device();
}
