/* model.c: TAP test of the turnip model (spdrt_dmap.h) by properties that follow from the
 * rules it quotes: the encoding round trip (and the rounding trap), the texel size the
 * driver reads, areas, the transform, viewports and scissors, merging, FDM offsets and the
 * subsampled layout's aprons. Expected values are derived here from the rules, never
 * copied from the model's output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spdrt_dmap.h"
#include "tap.h"

/* A small deterministic generator for maps and sizes. */
static uint32_t rng_state = 12345;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

static int is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

/* A map of w x h texels per view, texel t of view v = fill(v, x, y). */
static uint8_t *make_map(uint32_t w, uint32_t h, uint32_t views, void (*fill)(uint32_t, uint32_t, uint32_t, uint8_t *))
{
    uint8_t *m = malloc((size_t)w * h * views * 2);
    for (uint32_t v = 0; v < views; v++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) fill(v, x, y, m + (((size_t)v * h + y) * w + x) * 2);
    return m;
}

static const uint32_t AREAS[] = {1, 2, 4, 8, 16};
static void fill_random(uint32_t v, uint32_t x, uint32_t y, uint8_t *t)
{
    (void)v, (void)x, (void)y;
    t[0] = spdrt_dmap_density_byte(AREAS[rnd(5)]);
    t[1] = spdrt_dmap_density_byte(AREAS[rnd(5)]);
}
static void fill_uniform4(uint32_t v, uint32_t x, uint32_t y, uint8_t *t)
{
    (void)v, (void)x, (void)y;
    t[0] = t[1] = spdrt_dmap_density_byte(4);
}

/* ---- encodings ---- */

static void test_encoding(void)
{
    int floor_ok = 1, rounded_fails = 1;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            uint32_t aw = AREAS[i], ah = AREAS[j];
            spdrt_dmap_area raw = {spdrt_dmap_area_of_byte(spdrt_dmap_density_byte(aw)),
                                   spdrt_dmap_area_of_byte(spdrt_dmap_density_byte(ah))};
            spdrt_dmap_extent a;
            if (spdrt_dmap_floor_area(raw, &a) || a.width != aw || a.height != ah) {
                floor_ok = 0;
                printf("# %ux%u encoded by floor reads back as %ux%u\n", aw, ah, a.width, a.height);
            }
            if (aw == 1 && ah == 1) continue;
            spdrt_dmap_area r = {spdrt_dmap_area_of_byte(spdrt_dmap_density_byte_rounded(aw)),
                                 spdrt_dmap_area_of_byte(spdrt_dmap_density_byte_rounded(ah))};
            /* round(255/A) makes 1 / density fall just short of A: the floored area is
             * smaller than intended. */
            if (spdrt_dmap_floor_area(r, &a) == 0 && a.width * a.height >= aw * ah) rounded_fails = 0;
        }
    ok(floor_ok, "floor(255/A) encodes every area pair (1,2,4,8,16)^2 exactly through 1/density");
    ok(rounded_fails, "round(255/A) gives a smaller area than intended for every pair but 1x1");
    spdrt_dmap_area r2 = {spdrt_dmap_area_of_byte(spdrt_dmap_density_byte_rounded(2)), 1.0f};
    spdrt_dmap_extent a2;
    spdrt_dmap_floor_area(r2, &a2);
    ok(spdrt_dmap_density_byte_rounded(2) == 128 && a2.width == 1,
       "round(255/2) = 128 reads back as area 1: half the intended area");
    ok(spdrt_dmap_density_byte(2) == 127 && spdrt_dmap_density_byte(16) == 15,
       "floor encoding bytes: 2 -> 127, 16 -> 15");
    ok(isinf(spdrt_dmap_area_of_byte(0)), "density 0 reads as an infinite area");
    ok(spdrt_dmap_fsr_texel(1, 0) == 4 && spdrt_dmap_fsr_texel(0, 1) == 1 && spdrt_dmap_fsr_texel(2, 2) == 10,
       "FSR texels: 2x1 = 4, 1x2 = 1, 4x4 = 10 ((log2 w << 2) | log2 h)");
}

/* ---- areas ---- */

static void test_floor_area(void)
{
    int props = 1, round_up_seen = 0;
    for (int n = 0; n < 20000; n++) {
        spdrt_dmap_area raw = {1.0f + (float)rnd(19000) / 1000.0f, 1.0f + (float)rnd(19000) / 1000.0f};
        spdrt_dmap_extent a;
        if (spdrt_dmap_floor_area(raw, &a)) {
            props = 0;
            continue;
        }
        uint32_t fx = (uint32_t)raw.width, fy = (uint32_t)raw.height;
        int up_x = a.width > fx, up_y = a.height > fy;
        round_up_seen |= up_x || up_y;
        if (!is_pow2(a.width) || !is_pow2(a.height) || up_x + up_y > 1 ||
            (float)(a.width * a.height) > raw.width * raw.height || a.width > fx + 1 || a.height > fy + 1)
            props = 0;
    }
    ok(props, "areas are powers of two, never larger than 1/density's area, at most one axis rounded up");
    ok(round_up_seen, "an axis is rounded up where the area allows it (1.5 x 2.9 -> 1 x 2 is one case)");
    spdrt_dmap_extent a;
    spdrt_dmap_floor_area((spdrt_dmap_area){1.5f, 2.9f}, &a);
    ok(a.width == 1 && a.height == 2, "1.5 x 2.9: floor 1 x 2, y rounds up to 3 (area 3 <= 4.35), down to 2");
}

/* ---- the texel size the driver reads ---- */

/* The generator writes texel floor(x / T) for pixel x in a map of ceil(fb / T) texels. The
 * driver must read that texel for every pixel; the pixels where it does not, per (fb, T),
 * are collected. The reading of turnip's integer division predicts exactly one failing
 * framebuffer per T >= 64: fb = T + 1 (fb / 2 = T / 2 is read at T / 2). */
static void test_texel_round_trip(void)
{
    int as_predicted = 1;
    uint8_t map[2 * 64];
    for (uint32_t T = 32; T <= 1024; T *= 2)
        for (uint32_t fb = 1; fb <= 3 * T + 7; fb++) {
            uint32_t n = (fb + T - 1) / T;
            for (uint32_t i = 0; i < n; i++) map[2 * i] = map[2 * i + 1] = (uint8_t)(10 + i);
            spdrt_dmap_pass p = {.framebuffer = {fb, 1}, .map = map, .map_extent = {n, 1}, .views = 1};
            int wrong = 0;
            for (uint32_t x = 0; x < fb && !wrong; x++) {
                float got = spdrt_dmap_sample(&p, (int32_t)x, 0, 0).width;
                wrong = got != spdrt_dmap_area_of_byte((uint8_t)(10 + x / T));
            }
            int predicted = T >= 64 && fb == T + 1;
            if (wrong != predicted) {
                as_predicted = 0;
                printf("# T %u fb %u: read %s\n", T, fb, wrong ? "wrong" : "right");
            }
        }
    ok(as_predicted, "a map of ceil(fb/T) texels is read at T for fb = 1..3T+7, T = 32..1024, except "
       "fb = T + 1 for T >= 64");
    ok(spdrt_dmap_texel_shift(65, 2) == 5, "a 65-pixel framebuffer with a 2-texel map is read at 32");
}

/* ---- random passes ---- */

typedef struct {
    spdrt_dmap_pass pass;
    uint8_t *map;
    uint32_t T; /* the map's texel size */
} case_t;

static case_t random_case(int offset, int merging, int subsampled, int shared)
{
    case_t c;
    memset(&c, 0, sizeof c);
    spdrt_dmap_pass *p = &c.pass;
    p->framebuffer = (spdrt_dmap_extent){1 + rnd(700), 1 + rnd(500)};
    p->tile = (spdrt_dmap_extent){32 * (1 + rnd(4)), 32 * (1 + rnd(4))};
    p->views = 1 + rnd(3);
    c.T = 32u << rnd(3);
    p->map_extent = (spdrt_dmap_extent){(p->framebuffer.width + c.T - 1) / c.T,
                                        (p->framebuffer.height + c.T - 1) / c.T};
    c.map = make_map(p->map_extent.width, p->map_extent.height, p->views, fill_random);
    p->map = c.map;
    p->has_offset = offset;
    for (uint32_t v = 0; offset && v < p->views; v++)
        p->offset[v] = (spdrt_dmap_offset){8 * ((int32_t)rnd(97) - 48), 8 * ((int32_t)rnd(97) - 48)};
    p->device.bin_merging = merging;
    p->subsampled = subsampled;
    p->shared_viewport = shared;
    return c;
}

static void diag_pass(const spdrt_dmap_pass *p)
{
    printf("# fb %ux%u tile %ux%u views %u offset %d (%d,%d) shared %d merging %d subsampled %d\n",
           p->framebuffer.width, p->framebuffer.height, p->tile.width, p->tile.height, p->views,
           p->has_offset, p->offset[0].x, p->offset[0].y, p->shared_viewport,
           p->device.bin_merging, p->subsampled);
}

typedef struct {
    int areas, partition, pipes, merge_extent, transform, viewport, scissor, coverage, rigid,
        aprons, inside, shared;
} tally;

static int is_root(const spdrt_dmap_bin *b) { return b->merged_into < 0; }

static void check_areas(const case_t *c, const spdrt_dmap_layout *L, tally *t)
{
    const spdrt_dmap_pass *p = &c->pass;
    uint32_t n = L->tile_count.width * L->tile_count.height;
    for (uint32_t i = 0; i < n; i++) {
        const spdrt_dmap_bin *b = &L->bins[i];
        for (uint32_t v = 0; v < p->views; v++) {
            if (!(b->visible_views & (1u << v))) continue;
            spdrt_dmap_extent a = b->area[v];
            if (!is_pow2(a.width) || !is_pow2(a.height) || a.width > 4 || a.height > 4 ||
                p->tile.width % a.width || p->tile.height % a.height)
                t->areas = 0;
            if (p->shared_viewport && v > 0 &&
                (a.width != b->area[0].width || a.height != b->area[0].height))
                t->shared = 0;
        }
    }
}

/* Every tile lies in exactly one root bin, whose tiles lie in one pipe and whose extent
 * the areas allow. */
static void check_partition(const case_t *c, const spdrt_dmap_layout *L, tally *t)
{
    const uint32_t w = L->tile_count.width, h = L->tile_count.height;
    unsigned *cover = calloc((size_t)w * h, sizeof *cover);
    for (uint32_t i = 0; i < w * h; i++) {
        const spdrt_dmap_bin *b = &L->bins[i];
        if (!is_root(b)) continue;
        for (uint32_t y = 0; y < b->tiles.height; y++)
            for (uint32_t x = 0; x < b->tiles.width; x++) {
                uint32_t tx = (uint32_t)b->pos.x + x, ty = (uint32_t)b->pos.y + y;
                if (tx >= w || ty >= h) {
                    t->partition = 0;
                    continue;
                }
                cover[ty * w + tx]++;
                if (spdrt_dmap_bin_at(L, tx, ty) != b) t->partition = 0;
                if (L->bins[ty * w + tx].pipe != b->pipe) t->pipes = 0;
            }
        for (uint32_t v = 0; v < c->pass.views; v++)
            if ((b->visible_views & (1u << v)) &&
                (b->area[v].width < b->tiles.width || b->area[v].height * b->gmem.height < b->tiles.height))
                t->merge_extent = 0;
    }
    for (uint32_t i = 0; i < w * h; i++)
        if (cover[i] != 1) t->partition = 0;
    free(cover);
}

/* x' = x / area + o maps the view's bin start to b_cs and its fragments to consecutive
 * integers; the driver's viewport for the whole framebuffer is that map. */
static void check_transform(const case_t *c, const spdrt_dmap_layout *L, const spdrt_dmap_bin *b,
                            uint32_t v, tally *t)
{
    const spdrt_dmap_pass *p = &c->pass;
    spdrt_dmap_rect vb = spdrt_dmap_view_bin(p, b, v);
    spdrt_dmap_extent a = b->area[p->shared_viewport || p->views == 1 ? 0 : v];
    spdrt_dmap_offset cs = spdrt_dmap_common_start(p, b);
    spdrt_dmap_offset o = spdrt_dmap_transform_offset(a, vb, cs);
    if (vb.x % (int32_t)a.width || vb.y % (int32_t)a.height || vb.x / (int32_t)a.width + o.x != cs.x ||
        vb.y / (int32_t)a.height + o.y != cs.y)
        t->transform = 0;
    spdrt_dmap_viewport full = {0, 0, (float)p->framebuffer.width, (float)p->framebuffer.height};
    spdrt_dmap_viewport vp = spdrt_dmap_bin_viewport(p, b, v, full);
    for (int32_t k = 0; k * (int32_t)a.width < vb.width; k++) {
        float x = (float)(vb.x + k * (int32_t)a.width);
        float xr = vp.x + x * vp.width / full.width;
        if (xr != (float)(cs.x + k)) t->viewport = 0;
    }
    for (int32_t k = 0; k * (int32_t)a.height < vb.height; k++) {
        float y = (float)(vb.y + k * (int32_t)a.height);
        float yr = vp.y + y * vp.height / full.height;
        if (yr != (float)(cs.y + k)) t->viewport = 0;
    }
    (void)L;
}

/* One axis of a scissor: the result [r0, r1) in rendering space must hold exactly the
 * fragments of the bin (start s, n fragments of a pixels at b_cs + k) that meet [s0, s1). */
static int scissor_axis(int32_t s, int32_t n_px, int32_t a, int32_t cs, int32_t s0, int32_t s1,
                        int32_t r0, int32_t r1)
{
    for (int32_t k = 0; k * a < n_px; k++) {
        int meets = s + k * a < s1 && s + (k + 1) * a > s0;
        int inside = cs + k >= r0 && cs + k < r1;
        if (meets != inside) return 0;
    }
    return r0 >= cs && r1 <= cs + n_px / a;
}

static void check_scissor(const case_t *c, const spdrt_dmap_bin *b, uint32_t v, tally *t)
{
    const spdrt_dmap_pass *p = &c->pass;
    spdrt_dmap_rect vb = spdrt_dmap_view_bin(p, b, v);
    spdrt_dmap_extent a = b->area[p->shared_viewport || p->views == 1 ? 0 : v];
    spdrt_dmap_offset cs = spdrt_dmap_common_start(p, b);
    for (int n = 0; n < 4; n++) {
        spdrt_dmap_rect s = {(int32_t)rnd(p->framebuffer.width), (int32_t)rnd(p->framebuffer.height), 0, 0};
        s.width = 1 + (int32_t)rnd(p->framebuffer.width - (uint32_t)s.x);
        s.height = 1 + (int32_t)rnd(p->framebuffer.height - (uint32_t)s.y);
        spdrt_dmap_rect r = spdrt_dmap_bin_scissor(p, b, v, s);
        if (r.width <= 0 || r.height <= 0) {
            /* empty: no fragment of the bin may meet the scissor */
            int meets = vb.x < s.x + s.width && vb.x + vb.width > s.x && vb.y < s.y + s.height &&
                        vb.y + vb.height > s.y;
            if (meets) t->scissor = 0;
            continue;
        }
        if (!scissor_axis(vb.x, vb.width, (int32_t)a.width, cs.x, s.x, s.x + s.width, r.x, r.x + r.width) ||
            !scissor_axis(vb.y, vb.height, (int32_t)a.height, cs.y, s.y, s.y + s.height, r.y, r.y + r.height))
            t->scissor = 0;
    }
}

/* Every framebuffer pixel of every view lies in exactly one visible bin; with an offset
 * the bin holding pixel p renders at the area of the map cell around p - offset, so the
 * areas move with the offset and never change at a place (no "pop"). */
static void check_coverage(const case_t *c, const spdrt_dmap_layout *L, tally *t)
{
    const spdrt_dmap_pass *p = &c->pass;
    const uint32_t W = p->framebuffer.width, H = p->framebuffer.height, n = L->tile_count.width * L->tile_count.height;
    const spdrt_dmap_bin **owner = calloc((size_t)W * H, sizeof *owner);
    for (uint32_t v = 0; v < p->views; v++) {
        memset(owner, 0, (size_t)W * H * sizeof *owner);
        unsigned twice = 0;
        for (uint32_t i = 0; i < n; i++) {
            const spdrt_dmap_bin *b = &L->bins[i];
            if (!is_root(b) || !(b->visible_views & (1u << v))) continue;
            spdrt_dmap_rect r = spdrt_dmap_view_bin(p, b, v);
            for (int32_t y = r.y; y < r.y + r.height && y < (int32_t)H; y++)
                for (int32_t x = r.x; x < r.x + r.width && x < (int32_t)W; x++) {
                    if (owner[(size_t)y * W + x]) twice++;
                    owner[(size_t)y * W + x] = b;
                }
        }
        spdrt_dmap_offset bo = {0, 0};
        if (p->has_offset && !p->shared_viewport) bo = spdrt_dmap_bin_offset(p->offset[v], p->tile);
        for (size_t i = 0; i < (size_t)W * H; i++) {
            /* the grid cell of the pixel: its bin owns it, or the bin is hidden (density 0) */
            uint32_t x = (uint32_t)(i % W), y = (uint32_t)(i / W);
            const spdrt_dmap_bin *b = spdrt_dmap_bin_at(L, (x + (uint32_t)bo.x) / p->tile.width,
                                                        (y + (uint32_t)bo.y) / p->tile.height);
            if (owner[i] != ((b->visible_views & (1u << v)) ? b : NULL)) t->coverage = 0;
        }
        if (twice) t->coverage = 0;
        if (!p->has_offset || p->shared_viewport) continue;
        for (uint32_t k = 0; k < 64; k++) {
            uint32_t x = rnd(W), y = rnd(H);
            const spdrt_dmap_bin *b = owner[(size_t)y * W + x];
            int32_t qx = (int32_t)x - p->offset[v].x, qy = (int32_t)y - p->offset[v].y;
            int32_t tw = (int32_t)p->tile.width, th = (int32_t)p->tile.height;
            int32_t sx = (qx >= 0 ? qx / tw : -((-qx + tw - 1) / tw)) * tw + tw / 2;
            int32_t sy = (qy >= 0 ? qy / th : -((-qy + th - 1) / th)) * th + th / 2;
            spdrt_dmap_extent want;
            int visible = spdrt_dmap_frag_area(p, spdrt_dmap_sample(p, sx, sy, v), &want) == 0;
            if (visible != (b != NULL) ||
                (b && (b->area[v].width != want.width || b->area[v].height != want.height))) {
                t->rigid = 0;
            }
        }
    }
    free(owner);
}

static int touch(spdrt_dmap_rect a, spdrt_dmap_rect b)
{
    return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
}

/* Subsampled layout: bins sharing an edge or a corner in framebuffer space, either stored
 * scaled, lie at least two aprons (4 pixels) apart along one axis; every bin lies inside
 * the image (plus one tile alignment of slop with an offset). */
static void check_aprons(const case_t *c, const spdrt_dmap_layout *L, tally *t)
{
    const spdrt_dmap_pass *p = &c->pass;
    const uint32_t n = L->tile_count.width * L->tile_count.height;
    int32_t slop = p->has_offset && !p->shared_viewport ? 32 : 0;
    for (uint32_t v = 0; v < p->views; v++)
        for (uint32_t i = 0; i < n; i++) {
            const spdrt_dmap_bin *a = &L->bins[i];
            if (!is_root(a) || !(a->visible_views & (1u << v))) continue;
            spdrt_dmap_rect ra = a->subsampled_pos[v];
            if (ra.x < 0 || ra.y < 0 || ra.x + ra.width > (int32_t)p->framebuffer.width + slop ||
                ra.y + ra.height > (int32_t)p->framebuffer.height + slop || ra.width <= 0 || ra.height <= 0)
                t->inside = 0;
            for (uint32_t j = i + 1; j < n; j++) {
                const spdrt_dmap_bin *b = &L->bins[j];
                if (!is_root(b) || !(b->visible_views & (1u << v))) continue;
                if (!((a->subsampled_views | b->subsampled_views) & (1u << v))) continue;
                if (!touch(spdrt_dmap_view_bin(p, a, v), spdrt_dmap_view_bin(p, b, v))) continue;
                spdrt_dmap_rect rb = b->subsampled_pos[v];
                int apart = ra.x + ra.width + 4 <= rb.x || rb.x + rb.width + 4 <= ra.x ||
                            ra.y + ra.height + 4 <= rb.y || rb.y + rb.height + 4 <= ra.y;
                if (!apart) t->aprons = 0;
            }
        }
}

static void test_random_layouts(void)
{
    tally t;
    memset(&t, 1, sizeof t);
    int passes = 0, failed_make = 0;
    for (int n = 0; n < 240; n++) {
        int offset = n % 2, merging = (n / 2) % 2, subsampled = (n / 4) % 2, shared = n % 7 == 0;
        case_t c = random_case(offset, merging, subsampled, shared);
        spdrt_dmap_layout L;
        char err[128];
        if (spdrt_dmap_layout_make(&c.pass, &L, err, sizeof err)) {
            failed_make++;
            printf("# %s\n", err);
            free(c.map);
            continue;
        }
        tally before = t;
        check_areas(&c, &L, &t);
        check_partition(&c, &L, &t);
        for (uint32_t i = 0; i < L.tile_count.width * L.tile_count.height; i++) {
            const spdrt_dmap_bin *b = &L.bins[i];
            if (!is_root(b)) continue;
            for (uint32_t v = 0; v < c.pass.views; v++) {
                if (!(b->visible_views & (1u << v))) continue;
                check_transform(&c, &L, b, v, &t);
                check_scissor(&c, b, v, &t);
            }
        }
        check_coverage(&c, &L, &t);
        if (L.subsampled) check_aprons(&c, &L, &t);
        if (memcmp(&before, &t, sizeof t)) diag_pass(&c.pass);
        passes++;
        spdrt_dmap_layout_free(&L);
        free(c.map);
    }
    ok(failed_make == 0 && passes == 240, "240 random passes (offsets, merging, subsampling, shared viewports)");
    ok(t.areas, "areas are powers of two of at most 4 that divide the tile");
    ok(t.shared, "a shared viewport gives every view the same area");
    ok(t.partition, "merged bins partition the tile grid");
    ok(t.pipes, "a merged bin stays inside one visibility pipe");
    ok(t.merge_extent, "a merged bin is no larger in tiles than its area allows");
    ok(t.transform, "o = b_cs - b_s / area is exact: b_s is a multiple of the area");
    ok(t.viewport, "the patched viewport maps each fragment of the bin to the next integer from b_cs");
    ok(t.scissor, "scissors round outward and keep exactly the bin's fragments they meet");
    ok(t.coverage, "every pixel of every view lies in exactly one visible bin");
    ok(t.rigid, "with an offset, pixel p renders at the area of the map cell around p - offset");
    ok(t.aprons, "touching bins, either subsampled, lie 4 pixels apart in the subsampled image");
    ok(t.inside, "subsampled bins lie inside the image (plus one alignment with an offset)");
}

/* ---- particular passes ---- */

static uint8_t fill_byte[2];
static void fill_const(uint32_t v, uint32_t x, uint32_t y, uint8_t *t)
{
    (void)v, (void)x, (void)y;
    t[0] = fill_byte[0];
    t[1] = fill_byte[1];
}

static spdrt_dmap_pass simple_pass(uint32_t w, uint32_t h, uint32_t tile, uint8_t *map, uint32_t T)
{
    spdrt_dmap_pass p;
    memset(&p, 0, sizeof p);
    p.framebuffer = (spdrt_dmap_extent){w, h};
    p.tile = (spdrt_dmap_extent){tile, tile};
    p.views = 1;
    p.map = map;
    p.map_extent = (spdrt_dmap_extent){(w + T - 1) / T, (h + T - 1) / T};
    return p;
}

/* fdm.rst describes merging larger groups; the code as written merges a uniform map of
 * area 4x4 into bins of exactly 2x2 tiles (a bin two tiles wide never takes a third). */
static void test_uniform_merge(void)
{
    uint8_t *map = make_map(16, 16, 1, fill_uniform4);
    spdrt_dmap_pass p = simple_pass(512, 512, 64, map, 32);
    p.device.bin_merging = 1;
    spdrt_dmap_layout L;
    char err[128];
    int all_2x2 = spdrt_dmap_layout_make(&p, &L, err, sizeof err) == 0, roots = 0;
    for (uint32_t i = 0; all_2x2 && i < 64; i++) {
        const spdrt_dmap_bin *b = &L.bins[i];
        if (!is_root(b)) continue;
        roots++;
        if (b->tiles.width != 2 || b->tiles.height != 2 || b->area[0].width != 4) all_2x2 = 0;
    }
    ok(all_2x2 && roots == 16, "a uniform 4x4 map on 8x8 tiles merges into 16 bins of 2x2 tiles (the code "
       "as written, not fdm.rst's larger groups)");
    spdrt_dmap_layout_free(&L);
    p.device.bin_merging = 0;
    spdrt_dmap_layout_make(&p, &L, err, sizeof err);
    int none = 1;
    for (uint32_t i = 0; i < 64; i++) none &= is_root(&L.bins[i]) && L.bins[i].tiles.width == 1;
    ok(none, "without bin merging every tile is its own bin");
    spdrt_dmap_layout_free(&L);
    free(map);
}

/* A 2x1 area: the x axis (and only it) scales, so a swapped axis shows. */
static void test_non_square(void)
{
    for (int swap = 0; swap < 2; swap++) {
        fill_byte[0] = spdrt_dmap_density_byte(swap ? 1 : 2);
        fill_byte[1] = spdrt_dmap_density_byte(swap ? 2 : 1);
        uint8_t *map = make_map(8, 8, 1, fill_const);
        spdrt_dmap_pass p = simple_pass(256, 256, 64, map, 32);
        p.device.bin_merging = 1;
        spdrt_dmap_layout L;
        char err[128];
        spdrt_dmap_layout_make(&p, &L, err, sizeof err);
        const spdrt_dmap_bin *b = spdrt_dmap_bin_at(&L, 1, 1);
        uint32_t aw = swap ? 1 : 2, ah = swap ? 2 : 1;
        spdrt_dmap_viewport vp = spdrt_dmap_bin_viewport(&p, b, 0, (spdrt_dmap_viewport){0, 0, 256, 256});
        spdrt_dmap_rect sc = spdrt_dmap_bin_scissor(&p, b, 0, (spdrt_dmap_rect){0, 0, 256, 256});
        spdrt_dmap_rect vb = spdrt_dmap_view_bin(&p, b, 0);
        /* the bin merges along the coarse axis only: 2 tiles that way, 1 the other */
        ok(b->area[0].width == aw && b->area[0].height == ah && b->tiles.width == aw &&
           b->tiles.height == ah && vp.width == 256.0f / (float)aw && vp.height == 256.0f / (float)ah &&
           sc.width == vb.width / (int32_t)aw && sc.height == vb.height / (int32_t)ah,
           "area %ux%u: bins of %ux%u tiles, viewport %gx%g, scissor the %dx%d scaled bin", aw, ah, aw,
           ah, vp.width, vp.height, vb.width / (int32_t)aw, vb.height / (int32_t)ah);
        spdrt_dmap_layout_free(&L);
        free(map);
    }
}

static void test_caps(void)
{
    fill_byte[0] = fill_byte[1] = spdrt_dmap_density_byte(16);
    uint8_t *map = make_map(8, 8, 2, fill_const);
    spdrt_dmap_pass p = simple_pass(256, 256, 64, map, 32);
    spdrt_dmap_extent a;
    spdrt_dmap_frag_area(&p, spdrt_dmap_sample(&p, 0, 0, 0), &a);
    ok(a.width == 4 && a.height == 4, "area 16 renders at 4: hardware viewport scaling caps at 4");
    p.has_offset = 1;
    spdrt_dmap_frag_area(&p, spdrt_dmap_sample(&p, 0, 0, 0), &a);
    ok(a.width == 4, "with an offset the cap of 8 never binds: 4 applies (MAX_HW_SCALED_VIEWS = MAX_VIEWS)");
    p.has_offset = 0;
    p.tile = (spdrt_dmap_extent){6, 6};
    p.device.tile_align_w = p.device.tile_align_h = 2;
    spdrt_dmap_frag_area(&p, spdrt_dmap_sample(&p, 0, 0, 0), &a);
    ok(a.width == 2 && a.height == 2, "area 4 on a 6-pixel tile halves to 2, which divides it");
    free(map);
}

static void fill_two_views(uint32_t v, uint32_t x, uint32_t y, uint8_t *t)
{
    (void)x, (void)y;
    t[0] = spdrt_dmap_density_byte(v ? 2 : 4);
    t[1] = spdrt_dmap_density_byte(v ? 4 : 1);
}

static void test_shared_and_zero(void)
{
    uint8_t *map = make_map(8, 8, 2, fill_two_views);
    spdrt_dmap_pass p = simple_pass(256, 256, 64, map, 32);
    p.views = 2;
    spdrt_dmap_layout L;
    char err[128];
    spdrt_dmap_layout_make(&p, &L, err, sizeof err);
    const spdrt_dmap_bin *b = &L.bins[0];
    ok(b->area[0].width == 4 && b->area[0].height == 1 && b->area[1].width == 2 && b->area[1].height == 4,
       "two views keep their own areas (4x1 and 2x4)");
    spdrt_dmap_layout_free(&L);
    p.shared_viewport = 1;
    spdrt_dmap_layout_make(&p, &L, err, sizeof err);
    b = &L.bins[0];
    ok(b->area[0].width == 2 && b->area[0].height == 1 && b->area[1].width == 2 && b->area[1].height == 1,
       "a shared viewport takes the per-axis minimum: 2x1 for both");
    spdrt_dmap_layout_free(&L);
    free(map);
    fill_byte[0] = 0;
    fill_byte[1] = 255;
    map = make_map(8, 8, 1, fill_const);
    p = simple_pass(256, 256, 64, map, 32);
    spdrt_dmap_layout_make(&p, &L, err, sizeof err);
    ok(L.bins[5].visible_views == 0, "density 0 hides the view in that bin");
    spdrt_dmap_layout_free(&L);
    free(map);
}

/* One 1x1 texel among 2x2 ones, tiles as narrow as the tile alignment (32). A scaled bin
 * right of (or below) a full-size bin starts where that bin ends, and cannot shift by
 * max(4, 32) inside its own 32 pixels, so it becomes full size too, and so on: every bin
 * right of and below the fine one, but the last column and row, which stick to the
 * framebuffer's edge (16 pixels from their neighbour's end), and the bins left and above,
 * which end 16 pixels before it starts. */
static int cascade_fine_x, cascade_fine_y;
static void fill_one_fine(uint32_t v, uint32_t x, uint32_t y, uint8_t *t)
{
    (void)v;
    uint8_t b = spdrt_dmap_density_byte((int)x == cascade_fine_x && (int)y == cascade_fine_y ? 1 : 2);
    t[0] = t[1] = b;
}

static void print_layout(const spdrt_dmap_layout *L)
{
    for (uint32_t y = 0; y < L->tile_count.height; y++) {
        printf("#   ");
        for (uint32_t x = 0; x < L->tile_count.width; x++)
            printf("%c", (spdrt_dmap_bin_at(L, x, y)->subsampled_views & 1) ? 's' : 'F');
        printf("\n");
    }
}

static void test_cascade(void)
{
    cascade_fine_x = cascade_fine_y = 2;
    uint8_t *map = make_map(8, 8, 1, fill_one_fine);
    spdrt_dmap_pass p = simple_pass(256, 256, 32, map, 32);
    p.subsampled = 1;
    spdrt_dmap_layout L;
    char err[128];
    spdrt_dmap_layout_make(&p, &L, err, sizeof err);
    int as_derived = 1;
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            int full = x >= 2 && x <= 6 && y >= 2 && y <= 6;
            if (full != !(spdrt_dmap_bin_at(&L, x, y)->subsampled_views & 1)) as_derived = 0;
        }
    print_layout(&L);
    ok(as_derived, "32-pixel tiles: one full-size bin makes every bin right of and below it full size, "
       "but the edge column and row");
    spdrt_dmap_layout_free(&L);
    free(map);
    /* Uniform 2x2 with merging: bins of 2x2 tiles scaled to 32 pixels, 32 apart. */
    cascade_fine_x = cascade_fine_y = -1;
    map = make_map(8, 8, 1, fill_one_fine);
    p.map = map;
    p.device.bin_merging = 1;
    spdrt_dmap_layout_make(&p, &L, err, sizeof err);
    int all = 1;
    for (uint32_t i = 0; i < 64; i++)
        if (is_root(&L.bins[i])) all &= (L.bins[i].subsampled_views & 1) && L.bins[i].tiles.width == 2;
    ok(all, "a uniform 2x2 map with merging: every 2x2-tile bin stays subsampled (32-pixel gaps)");
    spdrt_dmap_layout_free(&L);
    free(map);
}

/* Passes the model cannot represent are refused with a reason, not laid out wrong: a tile
 * past the largest framebuffer (it wrapped to a negative column: every bin invisible), a pipe
 * of more than 32 tiles (its slot masks shifted past 32 bits), offsets past the largest
 * framebuffer (their sums overflowed). A pass at each limit still lays out. */
static void test_bad_passes(void)
{
    fill_byte[0] = fill_byte[1] = spdrt_dmap_density_byte(2);
    uint8_t *map = make_map(32, 22, 1, fill_const);
    struct {
        spdrt_dmap_extent tile, pipe;
        int32_t ox, oy;
        int good;
        const char *what, *why;
    } cases[] = {
        {{0x80000000u, 64}, {0, 0}, 0, 0, 0, "a tile 2^31 pixels wide", "tile"},
        {{16416, 64}, {0, 0}, 0, 0, 0, "a tile 16416 pixels wide", "tile"},
        {{64, 64}, {8, 8}, 0, 0, 0, "a pipe of 8x8 tiles", "pipe"},
        {{64, 64}, {33, 1}, 0, 0, 0, "a pipe of 33x1 tiles", "pipe"},
        {{64, 64}, {0, 0}, INT32_MIN, INT32_MIN, 0, "an offset of INT32_MIN", "offset"},
        {{64, 64}, {0, 0}, INT32_MAX - 7, 8, 0, "an offset of INT32_MAX - 7", "offset"},
        {{64, 64}, {0, 0}, -16392, 0, 0, "an offset of -16392", "offset"},
        {{16384, 64}, {32, 1}, 16384, -16384, 1, "a tile 16384 wide, a pipe of 32x1, offsets of +-16384", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        spdrt_dmap_pass p = simple_pass(1000, 700, 64, map, 32);
        p.tile = cases[i].tile;
        p.pipe = cases[i].pipe;
        p.device.bin_merging = 1;
        if (cases[i].ox || cases[i].oy) {
            p.has_offset = 1;
            p.offset[0] = (spdrt_dmap_offset){cases[i].ox, cases[i].oy};
        }
        spdrt_dmap_layout L;
        char err[128] = "";
        int rc = spdrt_dmap_layout_make(&p, &L, err, sizeof err);
        if (cases[i].good)
            ok(rc == 0, "%s: laid out (%s)", cases[i].what, rc ? err : "ok");
        else
            ok(rc == -1 && strstr(err, cases[i].why), "%s: refused (%s)", cases[i].what, rc ? err : "laid out");
        if (rc == 0) spdrt_dmap_layout_free(&L);
    }
    ok(spdrt_dmap_euclid_rem(INT32_MIN, 64) == 0 && spdrt_dmap_euclid_rem(INT32_MAX, 64) == 1,
       "euclid_rem at the int32 limits: 0 and 1");
    ok(spdrt_dmap_density_byte(256) == 1 && spdrt_dmap_density_byte(100000) == 1,
       "an area past 255 encodes as byte 1, the coarsest (not 0: not rendered)");
    ok(spdrt_dmap_fsr_texel(3, 3) == spdrt_dmap_fsr_texel(2, 2) && spdrt_dmap_fsr_texel(7, 0) == (2 << 2),
       "an FSR rate past 2 per axis encodes as 2, the coarsest");
    free(map);
}

int main(void)
{
    test_bad_passes();
    test_encoding();
    test_floor_area();
    test_texel_round_trip();
    test_random_layouts();
    test_uniform_merge();
    test_non_square();
    test_caps();
    test_shared_and_zero();
    test_cascade();
    return tap_plan();
}
