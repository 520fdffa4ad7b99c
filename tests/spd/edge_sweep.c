/* tests/spd/edge_sweep.c: --op max --edge conservative on every (w, h) in 1..130 x 1..130
 * (one TAP line per width), checked as edge.h describes: bit-exact and the max of every
 * footprint.
 *
 * usage: edge_sweep glsl|hlsl   prints TAP. */
#include "edge.h"

/* Every (w, h) in 1..130 x 1..130 for --op max --edge conservative: one line per width. */
static void sweep(spdrt_context *ctx)
{
    static const shader_case sc = {"--op max --format r32f --edge conservative --subgroup 8",
                                   SPD_OP_MAX, SPDRT_EDGE_CONSERVATIVE, SPDRT_R32F, 12, 0, 8, 0};
    spirv s = generate(sc.flags);
    if (!s.code) {
        ok(0, "spdgen failed");
        return;
    }
    quiet = 1;
    for (uint32_t w = 1; w <= 130; w++) {
        int failed = 0;
        for (uint32_t h = 1; h <= 130; h++) failed += !run_case(ctx, &sc, &s, w, h);
        ok(failed == 0, "%s %s: %ux1..130 bit-exact vs the reference and every texel the max of "
           "its footprint (%d sizes failed)", target, sc.flags, w, failed);
    }
    quiet = 0;
    free(s.code);
}

int main(int argc, char **argv) { return edge_test_main(argc, argv, sweep); }
