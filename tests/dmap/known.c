/* known.c: the rules of spdgen --dmap fdm|fsr against answers derived here by hand, on the
 * local Vulkan device (GLSL; gen.c holds HLSL to the same reference bit for bit):
 * flat frames shade 2x2 (4x4 under cutoff4), one-pixel columns 1x2 and rows 2x1, an edge
 * moved by its motion vectors moves its fine texels, fast motion coarsens noise, foveation
 * rings by direct distance with an aspect, the rate mask and --max-rate obeyed, each view
 * at its own gaze, --rate-map's columns and rows, and a density map read by the turnip model
 * at the generated rates.
 *
 * usage: known glsl|hlsl      prints TAP */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "gen_common.h"

static const spdrt_dmap_gen_config CONTENT16 = {SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4, 0, 0};

/* Every texel of the device's map has rate `want`. */
static int all_rates(const shader *s, const run_data *r, uint32_t want)
{
    for (size_t i = 0; i < r->texels; i++)
        if (rate_at(s, r, i) != want) {
            printf("# texel %zu: rate %u, expected %u\n", i, rate_at(s, r, i), want);
            return 0;
        }
    return 1;
}

/* A grey value per pixel from f, no motion. */
static void paint(run_data *r, uint32_t w, uint32_t h, float (*f)(uint32_t, uint32_t))
{
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float *c = r->colour + 4 * ((size_t)y * w + x), v = f(x, y);
            c[0] = c[1] = c[2] = v, c[3] = 1.0f;
        }
}

static float flat(uint32_t x, uint32_t y) { (void)x, (void)y; return 0.5f; }
static float columns(uint32_t x, uint32_t y) { (void)y; return x % 2 ? 0.9f : 0.1f; }
static float rows(uint32_t x, uint32_t y) { (void)x; return y % 2 ? 0.7f : 0.2f; }
static float edge58(uint32_t x, uint32_t y) { (void)y; return x >= 58 ? 1.0f : 0.0f; }

/* Content alone: flat grey has no differences (2x2; 4x4 below cutoff4); alternating columns
 * differ along x in every block and every block has the same range (1x2); rows (2x1). */
static void test_patterns(void)
{
    shader s;
    if (make_shader(&CONTENT16, &s)) {
        ok(0, "spdgen made --dmap fsr --content");
        return;
    }
    struct { float (*f)(uint32_t, uint32_t); float cutoff4; uint32_t want; const char *what; } cases[] = {
        {flat, 0.0f, spdrt_dmap_rate_code(1, 1), "a flat frame shades 2x2"},
        {flat, 0.01f, spdrt_dmap_rate_code(2, 2), "a flat frame with cutoff4 > 0 shades 4x4"},
        {columns, 0.0f, spdrt_dmap_rate_code(0, 1), "one-pixel columns shade 1x2 (fine along x)"},
        {rows, 0.0f, spdrt_dmap_rate_code(1, 0), "one-pixel rows shade 2x1 (fine along y)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run_data r;
        spdrt_dmap_gen_params p;
        alloc_run(&s.c, 96, 64, &r);
        spdrt_dmap_gen_defaults(&s.c, 96, 64, &p);
        p.cutoff4 = cases[i].cutoff4;
        paint(&r, 96, 64, cases[i].f);
        ok(run_device(&s, &p, &r) == 0 && all_rates(&s, &r, cases[i].want), "%s", cases[i].what);
        free_run(&r);
    }
    free(s.spirv);
}

/* A black-to-white edge at x = 58. Its blocks (56..57 and 58..59: each other's neighbour,
 * so both widen to 1) lie in texel column 3. Moved by (8, 0), pixel p reads p - 8: the
 * edge is at 66, blocks 64..67, column 4. Every other texel is flat: 2x2. */
static void test_moving_edge(void)
{
    shader s;
    if (make_shader(&CONTENT16, &s)) {
        ok(0, "spdgen made --dmap fsr --content");
        return;
    }
    for (int moved = 0; moved < 2; moved++) {
        run_data r;
        spdrt_dmap_gen_params p;
        alloc_run(&s.c, 128, 32, &r);
        spdrt_dmap_gen_defaults(&s.c, 128, 32, &p);
        p.motion_factor = 0.0f;
        paint(&r, 128, 32, edge58);
        for (size_t i = 0; moved && i < 128 * 32; i++) r.motion[2 * i] = 8.0f;
        int good = run_device(&s, &p, &r) == 0;
        uint32_t column = moved ? 4 : 3;
        for (uint32_t t = 0; good && t < r.texels; t++) {
            uint32_t want = t % 8 == column ? 0 : spdrt_dmap_rate_code(1, 1);
            if (rate_at(&s, &r, t) != want) good = 0;
        }
        ok(good, "an edge at x = 58%s makes texel column %u 1x1, the rest 2x2", moved ? " moved by (8, 0)" : "",
           column);
        free_run(&r);
    }
    free(s.spirv);
}

/* --rate-map on a 128x32 frame (map 8x2): the edge at x = 58 makes column 3 width 0 (1x1)
 * and the rest width 1, and every row meets column 3 (height 0); one-pixel columns (1x2
 * everywhere) make every column 0 and every row 1. */
static void test_rate_map(void)
{
    spdrt_dmap_gen_config c = CONTENT16;
    c.rate_map = 1;
    shader s;
    if (make_shader(&c, &s)) {
        ok(0, "spdgen made --dmap fsr --content --rate-map");
        return;
    }
    struct { float (*f)(uint32_t, uint32_t); uint32_t want[10]; const char *what; } cases[] = {
        {edge58, {1, 1, 1, 0, 1, 1, 1, 1, 0, 0}, "an edge at x = 58: column 3 width 0, the rest 1, rows 0"},
        {columns, {0, 0, 0, 0, 0, 0, 0, 0, 1, 1}, "one-pixel columns: every column width 0, every row 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run_data r;
        spdrt_dmap_gen_params p;
        alloc_run(&s.c, 128, 32, &r);
        spdrt_dmap_gen_defaults(&s.c, 128, 32, &p);
        paint(&r, 128, 32, cases[i].f);
        int good = r.axes_count == 10 && run_device(&s, &p, &r) == 0;
        for (size_t a = 0; good && a < 10; a++)
            if (r.axes[a] != cases[i].want[a]) {
                printf("# entry %zu: %u, expected %u\n", a, r.axes[a], cases[i].want[a]);
                good = 0;
            }
        ok(good, "--rate-map, %s", cases[i].what);
        free_run(&r);
    }
    free(s.spirv);
}

/* Noise in [0, 1): nearly every block's range exceeds the cutoff. Moving 40 pixels with
 * motion factor 0.075 lowers every difference (at most 1) by 3, as much as the widening (at
 * most 1 + 1) can add back: 2x2 everywhere. */
static void test_fast_motion(void)
{
    shader s;
    if (make_shader(&CONTENT16, &s)) {
        ok(0, "spdgen made --dmap fsr --content");
        return;
    }
    size_t fine[2] = {0, 0};
    for (int fast = 0; fast < 2; fast++) {
        run_data r;
        spdrt_dmap_gen_params p;
        alloc_run(&s.c, 64, 64, &r);
        spdrt_dmap_gen_defaults(&s.c, 64, 64, &p);
        p.motion_factor = fast ? 0.075f : 0.0f;
        for (size_t i = 0; i < 64 * 64; i++) {
            float v = spdrt_random_float(9, i, 0.0f, 1.0f);
            r.colour[4 * i] = r.colour[4 * i + 1] = r.colour[4 * i + 2] = v;
            r.colour[4 * i + 3] = 1.0f;
            r.motion[2 * i] = fast ? 40.0f : 0.0f;
        }
        if (run_device(&s, &p, &r) == 0)
            for (size_t t = 0; t < r.texels; t++) fine[fast] += rate_at(&s, &r, t) != spdrt_dmap_rate_code(1, 1);
        else
            fine[fast] = 999;
        free_run(&r);
    }
    ok(fine[0] == 16 && fine[1] == 0, "noise shades finer than 2x2 in all 16 texels at rest (%zu), 2x2 in all "
       "when moving 40 pixels (%zu finer)", fine[0], fine[1]);
    free(s.spirv);
}

/* Rings around (100, 60) with y weighted 1/2 (aspect 256, 128): the texel centre (8x + 4,
 * 8y + 4) is in ring k when dx^2 + (dy / 2)^2 < r_k^2 (dy is even: exact). */
static void test_rings(void)
{
    const spdrt_dmap_gen_config c = {SPDRT_DMAP_FSR, 8, 1, SPDRT_DMAP_FOVEATION_GAZE, 0, 0, 4, 0, 0};
    shader s;
    if (make_shader(&c, &s)) {
        ok(0, "spdgen made --dmap fsr --texel 8");
        return;
    }
    run_data r;
    spdrt_dmap_gen_params p;
    alloc_run(&c, 256, 192, &r);
    spdrt_dmap_gen_defaults(&c, 256, 192, &p);
    const uint32_t radius[4] = {20, 45, 70, 95};
    const uint32_t rings[5] = {spdrt_dmap_rate_code(0, 0), spdrt_dmap_rate_code(0, 1), spdrt_dmap_rate_code(1, 1),
                               spdrt_dmap_rate_code(2, 1), spdrt_dmap_rate_code(2, 2)};
    memcpy(p.radii, radius, sizeof radius);
    memcpy(p.ring_rates, rings, sizeof rings);
    p.aspect[0] = 256, p.aspect[1] = 128;
    p.gaze[0][0] = 100, p.gaze[0][1] = 60;
    int good = run_device(&s, &p, &r) == 0;
    unsigned per_ring[5] = {0};
    for (uint32_t ty = 0; good && ty < 24; ty++)
        for (uint32_t tx = 0; tx < 32; tx++) {
            double dx = (double)(8 * tx + 4) - 100.0, dy = ((double)(8 * ty + 4) - 60.0) / 2.0;
            uint32_t ring = 4;
            while (ring > 0 && dx * dx + dy * dy < (double)radius[ring - 1] * radius[ring - 1]) ring--;
            per_ring[ring]++;
            if (rate_at(&s, &r, ty * 32 + tx) != rings[ring]) good = 0;
        }
    ok(good && per_ring[0] && per_ring[1] && per_ring[2] && per_ring[3] && per_ring[4],
       "foveation: each texel takes its ring's rate by distance with y weighted 1/2 (%u %u %u %u %u texels)",
       per_ring[0], per_ring[1], per_ring[2], per_ring[3], per_ring[4]);
    free_run(&r);
    free(s.spirv);
}

/* Runs shader c on the default parameters (fixed rings 1x1, 1x2, 2x2, 2x4, 4x4 at 512x512)
 * with `mask`, into r. */
static int run_rings(const spdrt_dmap_gen_config *c, uint32_t mask, run_data *r)
{
    shader s;
    spdrt_dmap_gen_params p;
    if (make_shader(c, &s)) return -1;
    alloc_run(c, 512, 512, r);
    spdrt_dmap_gen_defaults(c, 512, 512, &p);
    if (mask) p.rate_mask = mask;
    int rc = run_device(&s, &p, r);
    free(s.spirv);
    return rc;
}

/* Under a mask of 1x1 and 2x2 the largest supported rate inside 1x1, 1x2, 2x2, 2x4, 4x4 is
 * 1x1, 1x1, 2x2, 2x2, 2x2; --max-rate 2 caps each axis at 2 (the 4x4 ring becomes 2x2). */
static void test_limits(void)
{
    const spdrt_dmap_gen_config fsr = {SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_FIXED, 0, 0, 4, 0, 0};
    const spdrt_dmap_gen_config fdm16 = {SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_FIXED, 0, 0, 16, 0, 0};
    const spdrt_dmap_gen_config fdm2 = {SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_FIXED, 0, 0, 2, 0, 0};
    const shader as_fsr = {fsr, NULL, 0}, as_fdm = {fdm16, NULL, 0};
    run_data full, limited;
    int good = run_rings(&fsr, 0, &full) == 0 && run_rings(&fsr, 1u | (1u << 6), &limited) == 0;
    unsigned changed = 0;
    for (size_t t = 0; good && t < full.texels; t++) {
        uint32_t a = rate_at(&as_fsr, &full, t), b = rate_at(&as_fsr, &limited, t);
        uint32_t want = (a >> 3) >= 1 && (a & 7) >= 1 ? spdrt_dmap_rate_code(1, 1) : 0;
        changed += a != b;
        if (b != want) good = 0;
    }
    ok(good && changed > 0, "a mask of 1x1 and 2x2: 1x2 becomes 1x1, 2x4 and 4x4 become 2x2 (%u texels)", changed);
    free_run(&full);
    free_run(&limited);
    good = run_rings(&fdm16, 0, &full) == 0 && run_rings(&fdm2, 0, &limited) == 0;
    changed = 0;
    for (size_t t = 0; good && t < full.texels; t++) {
        uint32_t a = rate_at(&as_fdm, &full, t), b = rate_at(&as_fdm, &limited, t);
        uint32_t want = spdrt_dmap_rate_code((a >> 3) < 1 ? (a >> 3) : 1, (a & 7) < 1 ? (a & 7) : 1);
        changed += a != b;
        if (b != want) good = 0;
    }
    ok(good && changed > 0, "--max-rate 2: each axis capped at 2 pixels (%u texels changed)", changed);
    free_run(&full);
    free_run(&limited);
}

/* Three views, each gazing elsewhere: the texel under a view's gaze is 1x1 in its own layer
 * and 4x4 in a layer gazing 200 pixels away. */
static void test_views(void)
{
    const spdrt_dmap_gen_config c = {SPDRT_DMAP_FSR, 16, 3, SPDRT_DMAP_FOVEATION_GAZE, 0, 0, 4, 0, 0};
    shader s;
    if (make_shader(&c, &s)) {
        ok(0, "spdgen made --views 3");
        return;
    }
    run_data r;
    spdrt_dmap_gen_params p;
    alloc_run(&c, 640, 320, &r);
    spdrt_dmap_gen_defaults(&c, 640, 320, &p);
    const uint32_t radius[4] = {20, 40, 60, 80};
    memcpy(p.radii, radius, sizeof radius);
    for (uint32_t v = 0; v < 3; v++) p.gaze[v][0] = 104 + 200 * v, p.gaze[v][1] = 168;
    int good = run_device(&s, &p, &r) == 0;
    const uint32_t layer = 40 * 20;
    for (uint32_t v = 0; good && v < 3; v++)
        for (uint32_t g = 0; g < 3; g++) {
            uint32_t texel = v * layer + 10 * 40 + (104 + 200 * g) / 16;
            uint32_t want = g == v ? 0 : spdrt_dmap_rate_code(2, 2);
            if (rate_at(&s, &r, texel) != want) good = 0;
        }
    ok(good, "three views: 1x1 under each view's own gaze, 4x4 under the others'");
    free_run(&r);
    free(s.spirv);
}

/* A generated density map read by the turnip model: each bin renders at the rate of the
 * map texel under its centre, capped at 4 (the encoding round-trips through the driver). */
static void test_through_model(void)
{
    const spdrt_dmap_gen_config c = {SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_GAZE, 0, 0, 16, 0, 0};
    shader s;
    if (make_shader(&c, &s)) {
        ok(0, "spdgen made --dmap fdm");
        return;
    }
    run_data r;
    spdrt_dmap_gen_params p;
    alloc_run(&c, 640, 480, &r);
    spdrt_dmap_gen_defaults(&c, 640, 480, &p);
    const uint32_t rings[5] = {spdrt_dmap_rate_code(0, 0), spdrt_dmap_rate_code(1, 0), spdrt_dmap_rate_code(1, 2),
                               spdrt_dmap_rate_code(3, 3), spdrt_dmap_rate_code(4, 4)};
    memcpy(p.ring_rates, rings, sizeof rings);
    p.gaze[0][0] = 200, p.gaze[0][1] = 150;
    int good = run_device(&s, &p, &r) == 0;
    spdrt_dmap_pass pass;
    memset(&pass, 0, sizeof pass);
    pass.framebuffer = (spdrt_dmap_extent){640, 480};
    pass.tile = (spdrt_dmap_extent){96, 64};
    pass.views = 1;
    pass.map = r.gpu;
    pass.map_extent = spdrt_dmap_gen_extent(&c, 640, 480);
    spdrt_dmap_layout L;
    char err[128];
    good = good && spdrt_dmap_layout_make(&pass, &L, err, sizeof err) == 0;
    unsigned bins = 0, kinds = 0, seen = 0;
    for (uint32_t i = 0; good && i < L.tile_count.width * L.tile_count.height; i++) {
        const spdrt_dmap_bin *b = &L.bins[i];
        uint32_t x1 = 96 * (uint32_t)b->pos.x, y1 = 64 * (uint32_t)b->pos.y;
        uint32_t cx = (x1 + (x1 + 96 < 640 ? x1 + 96 : 640)) / 2, cy = (y1 + (y1 + 64 < 480 ? y1 + 64 : 480)) / 2;
        uint32_t code = rate_at(&s, &r, (cy / 32) * pass.map_extent.width + cx / 32);
        uint32_t aw = 1u << (code >> 3), ah = 1u << (code & 7);
        if (aw > 4) aw = 4;
        if (ah > 4) ah = 4;
        if (b->area[0].width != aw || b->area[0].height != ah) good = 0;
        seen |= 1u << (code & 31);
        bins++;
    }
    for (int k = 0; k < 32; k++) kinds += (seen >> k) & 1;
    ok(good && kinds >= 4, "the turnip model reads the generated density map back: %u bins at their texels' "
       "rates (capped at 4), %u kinds", bins, kinds);
    spdrt_dmap_layout_free(&L);
    free_run(&r);
    free(s.spirv);
}

int main(int argc, char **argv)
{
    if (open_device(argc > 1 ? argv[1] : "glsl")) return 0;
    test_patterns();
    test_moving_edge();
    test_rate_map();
    test_fast_motion();
    test_rings();
    test_limits();
    test_views();
    test_through_model();
    return close_device();
}
