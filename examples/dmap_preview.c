/* dmap_preview.c: runs an spdgen --dmap fdm shader on the local Vulkan device, checks the
 * map against the CPU reference, and draws what a tiled driver does with it: the turnip
 * model's bins over the framebuffer, coloured by fragment area (green 1x1, yellow 2x2, red
 * 4x4; fragments alternate in brightness so their shape shows), bins outlined.
 *
 *   spdgen --dmap fdm --texel 32 --foveation gaze --content --target spirv -o fdm.spv
 *   dmap_preview fdm.spv --texel 32 --content --size 1920x1080 -o preview.png
 *
 * The flags repeat the generation parameters the runtime needs (--texel, --content,
 * --foveation fixed|gaze); the frame is spdrt_dmap_scene's, the gaze left of centre. The
 * driver's tiles are --tile WxH (default 96x64) with bin merging. Exit 0 when the map
 * matches the reference and the picture was written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "spdrt_dmap.h"

#if defined(__has_include) && __has_include(<stb/stb_image_write.h>)
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO_FAILURE_REASON
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop
#define HAVE_PNG 1
#else
#define HAVE_PNG 0
#endif

typedef struct {
    const char *spirv_path, *png_path;
    spdrt_dmap_gen_config config;
    uint32_t width, height, tile_w, tile_h;
} options;

static int usage(const char *msg)
{
    fprintf(stderr, "dmap_preview: %s\n"
            "usage: dmap_preview SHADER.spv [--texel T] [--content] [--foveation fixed|gaze]\n"
            "                    (as given to spdgen --dmap fdm) [--size WxH] [--tile WxH] -o OUT.png\n",
            msg);
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.config = {SPDRT_DMAP_FDM, 32, 1, SPDRT_DMAP_FOVEATION_GAZE, 0, 0, 16, 0, 0},
                   .width = 1920, .height = 1080, .tile_w = 96, .tile_h = 64};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-') {
            o->spirv_path = a;
        } else if (!strcmp(a, "--content")) {
            o->config.content = 1;
        } else if (strcmp(a, "--texel") && strcmp(a, "--foveation") && strcmp(a, "--size") && strcmp(a, "--tile") &&
                   strcmp(a, "-o")) {
            return ex_bad("dmap_preview", a, "", "an unknown flag");
        } else if (!v) {
            return ex_bad("dmap_preview", a, "", "needs a value");
        } else if (i++, !strcmp(a, "--texel")) {
            if (ex_u32(v, 8, 1024, &o->config.texel) || (o->config.texel & (o->config.texel - 1)))
                return ex_bad("dmap_preview", a, v, "a power of two 8..1024, as given to spdgen");
        } else if (!strcmp(a, "--foveation")) {
            if (strcmp(v, "fixed") && strcmp(v, "gaze")) return ex_bad("dmap_preview", a, v, "fixed or gaze");
            o->config.foveation = strcmp(v, "fixed") ? SPDRT_DMAP_FOVEATION_GAZE : SPDRT_DMAP_FOVEATION_FIXED;
        } else if (!strcmp(a, "--size")) {
            if (ex_size(v, 1, 16384, &o->width, &o->height)) return ex_bad("dmap_preview", a, v, "WxH, 1..16384 each");
        } else if (!strcmp(a, "--tile")) {
            if (ex_size(v, 32, 16384, &o->tile_w, &o->tile_h) || o->tile_w % 32 || o->tile_h % 32)
                return ex_bad("dmap_preview", a, v, "WxH, multiples of 32 up to 16384");
        } else {
            o->png_path = v;
        }
    }
    if (!o->spirv_path || !o->png_path) return usage("give the shader and -o OUT.png");
    return 0;
}

/* The generated map through the turnip model, drawn. */
static int draw(const options *o, const uint8_t *map)
{
    spdrt_dmap_pass pass;
    memset(&pass, 0, sizeof pass);
    pass.framebuffer = (spdrt_dmap_extent){o->width, o->height};
    pass.tile = (spdrt_dmap_extent){o->tile_w, o->tile_h};
    pass.views = 1;
    pass.map = map;
    pass.map_extent = spdrt_dmap_gen_extent(&o->config, o->width, o->height);
    pass.device.bin_merging = 1;
    spdrt_dmap_layout layout;
    char err[128];
    if (spdrt_dmap_layout_make(&pass, &layout, err, sizeof err)) {
        fprintf(stderr, "dmap_preview: the model refused the pass: %s\n", err);
        return 1;
    }
    unsigned bins = 0, scaled = 0;
    for (uint32_t i = 0; i < layout.tile_count.width * layout.tile_count.height; i++) {
        const spdrt_dmap_bin *b = &layout.bins[i];
        if (b->merged_into >= 0) continue;
        bins++;
        scaled += b->area[0].width * b->area[0].height > 1;
    }
    uint8_t *rgba = malloc((size_t)o->width * o->height * 4);
    int rc = 1;
    if (rgba) {
        spdrt_dmap_preview(&pass, &layout, 0, rgba);
#if HAVE_PNG
        int len = 0;
        unsigned char *png = stbi_write_png_to_mem(rgba, (int)o->width * 4, (int)o->width, (int)o->height, 4, &len);
        rc = png ? ex_write_file("dmap_preview", o->png_path, png, (size_t)len) : 1;
        if (!png) fprintf(stderr, "dmap_preview: cannot encode %s\n", o->png_path);
        free(png);
#else
        fprintf(stderr, "dmap_preview: built without stb_image_write (Debian: libstb-dev): no PNG\n");
#endif
    }
    if (!rc)
        printf("driver model: %ux%u tiles of %ux%u, %u bins after merging, %u at a reduced rate -> %s\n",
               layout.tile_count.width, layout.tile_count.height, o->tile_w, o->tile_h, bins, scaled,
               o->png_path);
    free(rgba);
    spdrt_dmap_layout_free(&layout);
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    size_t words;
    uint32_t *spirv = ex_read_spirv(o.spirv_path, &words);
    if (!spirv) {
        fprintf(stderr, "dmap_preview: cannot read %s (a SPIR-V module: whole 4-byte words)\n", o.spirv_path);
        return 1;
    }
    const spdrt_dmap_gen_config *c = &o.config;
    spdrt_dmap_gen_params p;
    spdrt_dmap_gen_defaults(c, o.width, o.height, &p);
    p.gaze[0][0] = o.width / 3;
    spdrt_dmap_extent e = spdrt_dmap_gen_extent(c, o.width, o.height);
    size_t pixels = (size_t)o.width * o.height, texels = (size_t)e.width * e.height;
    float *colour = malloc(pixels * 4 * sizeof *colour), *motion = malloc(pixels * 2 * sizeof *motion);
    uint8_t *gpu = malloc(texels * 2), *ref = malloc(texels * 2);
    spdrt_context *ctx = NULL;
    char err[512];
    rc = 1;
    spdrt_options device_options = {0};
    if (!colour || !motion || !gpu || !ref) {
        fprintf(stderr, "dmap_preview: out of memory\n");
    } else if (spdrt_create(&device_options, &ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "dmap_preview: no Vulkan device: %s\n", err);
    } else {
        spdrt_dmap_scene(o.width, o.height, 1, 7, colour, motion);
        if (spdrt_dmap_gen_run(ctx, spirv, words, c, &p, colour, motion, 1, gpu, NULL) != SPDRT_OK) {
            fprintf(stderr, "dmap_preview: %s\n", spdrt_last_error(ctx));
        } else if (spdrt_dmap_gen_reference(c, &p, colour, motion, ref) || memcmp(gpu, ref, texels * 2)) {
            fprintf(stderr, "dmap_preview: the map differs from the CPU reference\n");
        } else {
            printf("%ux%u density map on %s: every texel equal to the CPU reference\n", e.width, e.height,
                   spdrt_device(ctx)->name);
            rc = draw(&o, gpu);
        }
    }
    spdrt_destroy(ctx);
    free(spirv);
    free(colour);
    free(motion);
    free(gpu);
    free(ref);
    return rc;
}
