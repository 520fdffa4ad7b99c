/* tests/spd/update.c: sub-rectangle updates on the local Vulkan device (run.h's
 * generate_with() and make_source()).
 *
 * Each case generates source A, runs the full chain on it, changes A inside a rectangle
 * (new random values there: source B), and lets spdrt_spd_run upload only that rectangle
 * and dispatch only the tiles over it (every pass). Checked:
 *   - the updated levels equal a full regenerate of B on the device, bit for bit (the same
 *     code computes the same tiles, so mean is exact too), and the CPU reference of B
 *     within its bound (bit-exact for min/max);
 *   - with every level refilled with a sentinel before the update, every texel outside the
 *     tiles the update dispatches still holds the sentinel (nothing outside the footprint
 *     is written), and in the first pass the texels inside are rewritten, equal to the full
 *     regenerate. Levels made by the last workgroup (beyond 6 in a pass) are rewritten
 *     whole. Later passes read the refilled levels, so only the first is compared inside.
 * Rectangles: interior, touching the right/bottom edges, 1x1, the whole image, across tile
 * borders, inside a dropped odd column; with arrays, passes (including two passes that both
 * use the level-6 hand-off) and a tail that loops over several level-6 regions.
 *
 * usage: update glsl|hlsl   prints TAP. */
#include "run.h"

typedef struct {
    const char *op, *format, *extra; /* spdgen flags */
    int subgroup, array;
    uint32_t w, h, layers, mips_bound, mips_total;
    spdrt_rect rect;
} update_case;

/* Was level k texel (x, y) rewritten by an update of rect? Level k belongs to pass
 * (k - 1) / mips_bound, which reads level base; levels up to base + 6 are written by the
 * dispatched tiles only, later ones by the last workgroup, whole. */
static int update_covers(const update_case *u, uint32_t k, uint32_t x, uint32_t y)
{
    uint32_t base = (k - 1) / u->mips_bound * u->mips_bound, j = k - base;
    spdrt_rect t;
    if (j > 6) return 1;
    if (spdrt_spd_update_tiles(u->w, u->h, u->rect, base, SPDRT_EDGE_DROP, &t) != 0) return 0;
    return x >= (t.x * 64u) >> j && x < ((t.x + t.width) * 64u) >> j &&
           y >= (t.y * 64u) >> j && y < ((t.y + t.height) * 64u) >> j;
}

/* Values of the first pass's levels that differ from `want` inside the footprint (bit for
 * bit), and values outside it, in any level, that are not the sentinel as stored. */
static void update_footprint(const update_case *u, spdrt_format format, const spdrt_spd_levels *got,
                             const spdrt_spd_levels *want, size_t *wrong, size_t *outside)
{
    float sentinel = spd_ref_quantize(format, SENTINEL);
    for (uint32_t k = 1; k <= got->mip_count; k++)
        for (uint32_t l = 0; l < got->layers; l++)
            for (uint32_t y = 0; y < got->height[k]; y++)
                for (uint32_t x = 0; x < got->width[k]; x++) {
                    size_t i = (((size_t)l * got->height[k] + y) * got->width[k] + x) * 4;
                    int covered = update_covers(u, k, x, y);
                    for (uint32_t c = 0; c < spdrt_format_channels(format); c++) {
                        float g = got->level[k][i + c];
                        if (!covered) *outside += g != sentinel;
                        else if (k <= u->mips_bound)
                            *wrong += memcmp(&g, &want->level[k][i + c], sizeof g) != 0;
                    }
                }
}

static void run_update_case(spdrt_context *ctx, const char *target, const update_case *u)
{
    char label[256], extra[128];
    size_t words;
    spdrt_format format;
    spd_op op;
    spdrt_format_by_name(u->format, &format);
    spd_ref_op_by_name(u->op, &op);
    snprintf(extra, sizeof extra, "%s", u->extra);
    snprintf(label, sizeof label, "%s %s --subgroup %d %s%s %s %ux%ux%u, rectangle (%u, %u) %ux%u",
             target, u->op, u->subgroup, u->format, u->array ? " --array" : "", u->extra, u->w, u->h,
             u->layers, u->rect.x, u->rect.y, u->rect.width, u->rect.height);
    uint32_t *spirv = generate_with(target, u->op, u->subgroup, u->format, u->array, extra, &words);
    size_t n = (size_t)u->w * u->h * u->layers * 4;
    float *a = make_source(u->w, u->h, u->layers, u->w + 31u * u->h);
    float *fresh = make_source(u->w, u->h, u->layers, 4242u + u->rect.x);
    float *b = malloc(n * sizeof *b);
    if (!spirv || !a || !fresh || !b) {
        ok(0, "%s: spdgen failed or out of memory", label);
        goto done;
    }
    /* B: A with new values inside the rectangle, in every layer. */
    memcpy(b, a, n * sizeof *b);
    for (uint32_t l = 0; l < u->layers; l++)
        for (uint32_t y = u->rect.y; y < u->rect.y + u->rect.height; y++)
            for (uint32_t x = u->rect.x; x < u->rect.x + u->rect.width; x++) {
                size_t i = (((size_t)l * u->h + y) * u->w + x) * 4;
                memcpy(&b[i], &fresh[i], 4 * sizeof *b);
            }
    spdrt_spd_params full = {
        .width = u->w, .height = u->h, .layers = u->layers, .is_array = u->array,
        .mips_bound = u->mips_bound, .mips_total = u->mips_total, .subgroup = (uint32_t)u->subgroup,
        .format = format, .dispatches = 1, .sentinel = SENTINEL,
    };
    spdrt_spd_params update = full, refill;
    update.update_source = b;
    update.update = u->rect;
    refill = update;
    refill.refill_before_update = 1;
    spdrt_spd_levels regen = {0}, got = {0}, part = {0}, ref = {0};
    if (spdrt_spd_run(ctx, spirv, words, &full, b, &regen) != SPDRT_OK ||
        spdrt_spd_run(ctx, spirv, words, &update, a, &got) != SPDRT_OK ||
        spdrt_spd_run(ctx, spirv, words, &refill, a, &part) != SPDRT_OK) {
        ok(0, "%s: runtime error: %s", label, spdrt_last_error(ctx));
    } else if (spd_ref_run(op, format, u->w, u->h, u->layers, got.mip_count, b, &ref) != 0) {
        ok(0, "%s: reference ran out of memory", label);
    } else {
        spd_ref_comparison same = {0}, cpu = {0};
        double bound = spd_ref_bound(op, format);
        for (uint32_t k = 1; k <= got.mip_count; k++) {
            spd_ref_compare_level(&got, &regen, k, 4, 0.0, NULL, SENTINEL, &same);
            spd_ref_compare_level(&got, &ref, k, spdrt_format_channels(format), bound, NULL, SENTINEL, &cpu);
        }
        ok(same.mismatches == 0 && same.sentinels == 0,
           "%s: %u levels equal a full regenerate bit for bit%s%s", label, got.mip_count,
           same.mismatches ? "; first: " : "", same.first);
        ok(cpu.mismatches == 0, "%s: and the CPU reference %s (max error %.3g)%s%s", label,
           bound == 0 ? "bit-exact" : "within the bound", cpu.max_error,
           cpu.mismatches ? "; first: " : "", cpu.first);
        size_t wrong = 0, outside = 0;
        update_footprint(u, format, &part, &regen, &wrong, &outside);
        ok(wrong == 0 && outside == 0,
           "%s: over sentinels, the dispatched tiles' texels are rewritten (%zu wrong) and no "
           "other texel is (%zu written)", label, wrong, outside);
    }
    spdrt_spd_levels_free(&regen);
    spdrt_spd_levels_free(&got);
    spdrt_spd_levels_free(&part);
    spdrt_spd_levels_free(&ref);
done:
    free(spirv);
    free(a);
    free(fresh);
    free(b);
}

static void run_updates(spdrt_context *ctx, const char *target)
{
    static const update_case cases[] = {
        /* One pass with the level-6 hand-off (1000x700: 16x11 tiles, 9 levels). */
        {"max", "r32f", "", 8, 0, 1000, 700, 1, 12, 0, {300, 200, 50, 40}},     /* interior */
        {"max", "r32f", "", 8, 0, 1000, 700, 1, 12, 0, {940, 650, 60, 50}},     /* right and bottom edges */
        {"max", "r32f", "", 8, 0, 1000, 700, 1, 12, 0, {999, 699, 1, 1}},       /* the last texel */
        {"max", "r32f", "", 8, 0, 1000, 700, 1, 12, 0, {517, 333, 1, 1}},       /* 1x1 */
        {"max", "r32f", "", 8, 0, 1000, 700, 1, 12, 0, {0, 0, 1000, 700}},      /* the whole image */
        {"max", "r32f", "", 8, 0, 1000, 700, 1, 12, 0, {60, 60, 10, 10}},       /* across tile corners */
        {"min", "r32f", "", 0, 0, 999, 701, 1, 12, 0, {998, 3, 1, 5}},          /* the dropped odd column */
        {"min", "r32f", "", 4, 0, 999, 701, 1, 12, 0, {100, 640, 800, 61}},     /* wide, bottom edge */
        {"mean", "rgba32f", "", 4, 0, 1000, 700, 1, 12, 0, {130, 70, 200, 300}},
        {"mean", "rgba16f", "", 8, 0, 1000, 700, 1, 12, 0, {500, 500, 500, 200}},
        /* Arrays: every layer's rectangle; one counter and hand-off range per layer. */
        {"max", "r32f", "", 8, 1, 300, 260, 5, 12, 0, {250, 10, 50, 250}},
        {"mean", "rgba32f", "", 0, 1, 300, 260, 3, 12, 0, {0, 0, 1, 1}},
        /* No hand-off at all: --mips 6. */
        {"max", "r32f", "--mips 6", 8, 0, 1000, 700, 1, 6, 6, {700, 100, 3, 3}},
        /* Passes: the rectangle mapped to each pass's source level. */
        {"max", "r32f", "--mips 12 --max-mips-per-pass 3", 8, 0, 1000, 700, 1, 3, 12, {640, 0, 1, 700}},
        {"mean", "rgba32f", "--mips 12 --max-mips-per-pass 5", 8, 1, 1500, 900, 2, 5, 12, {1400, 800, 100, 100}},
        /* Two passes that both hand level 6 over (7 + 7 levels): each keeps its own values. */
        {"max", "r32f", "--max-size 16384x16384 --mips 14 --max-mips-per-pass 7", 8, 0, 16384, 4, 1, 7, 14,
         {10000, 0, 5, 4}},
        /* A tail that loops over two level-6 regions (5000 wide: level 6 is 78x4). */
        {"max", "r32f", "", 8, 0, 5000, 300, 1, 12, 0, {4990, 290, 10, 10}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) run_update_case(ctx, target, &cases[i]);

    /* A rectangle that leaves the source is refused before anything runs. */
    size_t words;
    uint32_t *spirv = generate(target, "max", 8, "r32f", 0, &words);
    float texels[8 * 8 * 4] = {0};
    spdrt_spd_params p = {.width = 8, .height = 8, .layers = 1, .mips_bound = 12, .subgroup = 8,
                          .format = SPDRT_R32F, .dispatches = 1, .update_source = texels,
                          .update = {4, 4, 5, 1}};
    spdrt_spd_levels out = {0};
    spdrt_result r = spirv ? spdrt_spd_run(ctx, spirv, words, &p, texels, &out) : SPDRT_ERROR_ARGUMENT;
    ok(r == SPDRT_ERROR_ARGUMENT && strstr(spdrt_last_error(ctx), "not inside"),
       "%s: an update rectangle (4, 4) 5x1 of an 8x8 source is refused (%s)", target,
       spdrt_last_error(ctx));
    spdrt_spd_levels_free(&out);
    free(spirv);

    /* --tile below 64: the hierarchy's block counters count every unit, so an update (a
     * partial grid) is refused with a clear error, not run into short counters. */
    spirv = generate_with(target, "max", 8, "r32f", 0, "--tile 16 --wg 16", &words);
    static const float big[64 * 48 * 4];
    spdrt_spd_params q = {.width = 64, .height = 48, .layers = 1, .mips_bound = 12, .subgroup = 8,
                          .tile = 16, .format = SPDRT_R32F, .dispatches = 1, .update_source = big,
                          .update = {10, 10, 5, 5}};
    memset(&out, 0, sizeof out);
    r = spirv ? spdrt_spd_run(ctx, spirv, words, &q, big, &out) : SPDRT_ERROR_ARGUMENT;
    ok(spirv && r == SPDRT_ERROR_ARGUMENT && strstr(spdrt_last_error(ctx), "needs a --tile 64"),
       "%s: an update with a --tile 16 shader is refused (%s)", target, spdrt_last_error(ctx));
    spdrt_spd_levels_free(&out);
    free(spirv);
}

int main(int argc, char **argv) { return spd_test_main(argc, argv, run_updates); }
