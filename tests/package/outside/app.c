/* app.c: an outside C program built against an installed spdgen (tests/package/install.t):
 * the installed headers, libspdrt and a contract header the installed spdgen wrote with
 * --name hiz --embed-spirv. With "run" it also dispatches the embedded shader once. */
#include <spdgen/spdrt.h>
#include <stdio.h>
#include <stdlib.h>

#include "hiz.h"

static int run(void)
{
    enum { W = 96, H = 40 };
    static float source[W * H * 4];
    spdrt_spd_params p = {.width = W, .height = H, .layers = 1, .mips_bound = HIZ_MAX_MIPS,
                          .format = SPDRT_R32F, .edge = SPDRT_EDGE_CONSERVATIVE,
                          .dispatches = 1, .sentinel = -1.0f};
    spdrt_spd_levels levels = {0};
    spdrt_context *ctx = NULL;
    char err[256];
    float top = 0.0f;
    spdrt_random_floats(source, W * H * 4, 7, 0.0f, 1.0f);
    for (int i = 0; i < W * H; i++) top = source[4 * i] > top ? source[4 * i] : top;
    if (spdrt_create(NULL, &ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "app: %s\n", err);
        return 1;
    }
    int bad = spdrt_spd_run(ctx, hiz_spirv, HIZ_SPIRV_WORDS, &p, source, &levels) != SPDRT_OK;
    if (bad) fprintf(stderr, "app: %s\n", spdrt_last_error(ctx));
    /* The last level of a max pyramid is the largest value of the source. */
    bad = bad || levels.mip_count != hiz_mip_count(W, H) || levels.level[levels.mip_count][0] != top;
    printf("dispatched: %u levels, %s\n", levels.mip_count, bad ? "wrong" : "right");
    spdrt_spd_levels_free(&levels);
    spdrt_destroy(ctx);
    return bad;
}

int main(int argc, char **argv)
{
    spdrt_format format;
    int known = spdrt_format_by_name("r32f", &format) == 0 && format == SPDRT_R32F;
    printf("c %d %u %u %d\n", known, spdrt_spd_mip_count(1920, 1080, 12), hiz_mip_count(1920, 1080),
           HIZ_SPIRV_WORDS > 5 && hiz_spirv[0] == 0x07230203u);
    (void)argv;
    return argc > 1 ? run() : 0;
}
