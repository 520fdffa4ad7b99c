// spdgen 0.2.0 (45e584d-dirty): fragment shading rate attachment (VK_KHR_fragment_shading_rate),
// GLSL 4.50 for Vulkan.
// Generated; regenerate with:
/*
    spdgen --dmap fsr --texel 16 --foveation off --content --views 1 --max-rate 4 --subgroup 8 \
        --batch 4 --fetch columns --ring joined --inputs f16 --target glsl --target-env vulkan1.1
*/
//
// Rates: one per 16x16-pixel texel from the previous frame's content (after FidelityFX
// Variable Shading); each axis at most 4, then the largest rate the device supports
// (rate_mask) that fits.
// Contract:
//   set 0 binding 0 dst_map: the fragment shading rate attachment, R8_UINT: (log2 w << 2) |
//                            log2 h; write-only
//   set 0 binding 1 src_colour: the previous frame's colour (RGB read; RGBA16F: 16-bit loads),
//                               texel loads
//   set 0 binding 2 src_motion: motion vectors in pixels (RG read; RG16F: 16-bit loads): pixel
//                               p came from p - motion
//   push constants, DmapParams params (24 bytes): uint width, uint height, uint rate_mask,
//                                                 float cutoff, float cutoff4, float
//                                                 motion_factor
//   workgroup 256x1x1; a 64x64-pixel region (4x4 map texels) per workgroup; shared memory 13584
//   bytes; full subgroups of at least 8 invocations, lane = t % size
// Strategy: levels 2-3 by shared memory in one pass.

#version 450
#extension GL_EXT_samplerless_texture_functions : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, r8ui) uniform writeonly uimage2D dst_map[1];
layout(set = 0, binding = 1) uniform mediump texture2D src_colour;
layout(set = 0, binding = 2) uniform mediump texture2D src_motion;
layout(push_constant) uniform DmapParams {
    uint width;
    uint height;
    uint rate_mask;
    float cutoff;
    float cutoff4;
    float motion_factor;
} params;

shared vec4 lds_a[271];
shared float lds_min[1156];
shared float lds_max[1156];

// Content: FidelityFX's decision (1x1, 1x2, 2x1, 2x2 by the variance cutoff), with 4x4 where
// even the 2x2 ranges stay below cutoff4.
uint dmap_content_rate(vec4 d, float cutoff, float cutoff4) {
    if (d.z < cutoff4) return 18u;
    if (d.z < cutoff) return 9u;
    // Differences along x: one pixel wide, two high where y varies little.
    if (d.x > d.y) return d.y > cutoff ? 0u : 1u;
    return d.x > cutoff ? 0u : 8u;
}

// Morton order: bits 0, 2, 4, 6 of i give x, bits 1, 3, 5, 7 give y.
uvec2 dmap_morton_xy(uint i) {
    uint x = (i & 1u) | ((i >> 1u) & 2u) | ((i >> 2u) & 4u) | ((i >> 3u) & 8u);
    uint y = ((i >> 1u) & 1u) | ((i >> 2u) & 2u) | ((i >> 3u) & 4u) | ((i >> 4u) & 8u);
    return uvec2(x, y);
}

// The supported rate: each axis at most 4 pixels (--max-rate), then the largest area in `mask`
// that fits, the squarer on a tie, then the wider.
uint dmap_limit(uint rate, uint mask) {
    uint lw = min(rate >> 3u, 2u);
    uint lh = min(rate & 7u, 2u);
    uint best = 0u;
    uint best_score = 0u;
    for (uint a = 0u; a <= 2u; a++) {
        for (uint b = 0u; b <= 2u; b++) {
            bool supported = (((mask | 1u) >> (a * 5u + b)) & 1u) != 0u;
            uint skew = a > b ? a - b : b - a;
            uint score = ((a + b) << 4u) | ((7u - skew) << 1u) | (a > b ? 1u : 0u);
            if (supported && a <= lw && b <= lh && score > best_score) {
                best_score = score;
                best = (a << 3u) | b;
            }
        }
    }
    return best;
}

void main() {
    uint t = gl_LocalInvocationIndex;
    uvec3 group = gl_WorkGroupID;
    // The map's extent: ceil(size / texel).
    uint map_w = (params.width + 15u) / 16u;
    uint map_h = (params.height + 15u) / 16u;
    int last_x = int(params.width) - 1;
    int last_y = int(params.height) - 1;
    int region_x = int(group.x * 64u);
    int region_y = int(group.y * 64u);

    // Phase 1: the 2x2-pixel blocks: this invocation's four in a column at o (q = 0..3), read
    // as one pixel column of 16 rows and traded in halves with the neighbour (--fetch
    // columns), and for t < 128 one of the ring of blocks around the region's 32x32, whose
    // minimum and maximum phase 2 needs. All motion vectors go out before any is used, then
    // all colours: a load's latency is paid once.
    // --fetch columns: invocation t holds the column of 4 blocks at o; the 16 of a texel are
    // consecutive in t, pixel columns fastest, so one load instruction's lanes read adjacent
    // pixels of a row.
    uvec2 tp0 = dmap_morton_xy(t >> 4u);
    uint w = t & 15u;
    uvec2 o = uvec2(tp0.x * 8u + ((w & 15u) >> 1u), tp0.y * 8u + 4u * (w & 1u));
    uint side = t >> 5u;
    int ring_k = int(t & 31u);
    int ring_x = side < 2u ? ring_k : (side == 2u ? -1 : 32);
    int ring_y = side < 2u ? (side == 0u ? -1 : 32) : ring_k;
    precise vec4 d[4];
    float own_lo[4];
    float own_hi[4];
    // Blocks j < 4 are the invocation's own, j = 4 the ring block where `ring` holds (t <
    // 128).
    bool ring = t < 128u;
    uint h = t & 1u;
    int column = region_x + 2 * int(o.x) + int(h);
    int row0 = region_y + 2 * (int(o.y) - 4 * int(h));
    // Motion vectors: rows 0..15 of the column, then the ring block's 4 pixels (x fastest);
    // reads clamp to the image.
    vec2 mv[20];
    for (uint k = 0u; k < 20u; k++) {
        mv[k] = vec2(0.0f, 0.0f);
        if (k < 16u || ring) {
            int px = k < 16u ? column : region_x + 2 * ring_x + int(k & 1u);
            int py = k < 16u ? row0 + int(k) : region_y + 2 * ring_y + int((k >> 1u) & 1u);
            uint mx = uint(clamp(px, 0, last_x));
            uint my = uint(clamp(py, 0, last_y));
            mv[k] = texelFetch(src_motion, ivec2(mx, my), 0).rg;
        }
    }
    // The luminance each pixel came from: the motion vector rounds as floor(v + 0.5), the read
    // clamps to the image.
    precise float l[20];
    for (uint k = 0u; k < 20u; k++) {
        l[k] = 0.0f;
        if (k < 16u || ring) {
            int px = k < 16u ? column : region_x + 2 * ring_x + int(k & 1u);
            int py = k < 16u ? row0 + int(k) : region_y + 2 * ring_y + int((k >> 1u) & 1u);
            int sx = clamp(px - int(floor(mv[k].x + 0.5f)), 0, last_x);
            int sy = clamp(py - int(floor(mv[k].y + 0.5f)), 0, last_y);
            vec4 rgb = texelFetch(src_colour, ivec2(uint(sx), uint(sy)), 0);
            precise float lr = rgb.x * 0.30f;
            precise float lg = rgb.y * 0.59f;
            precise float lb = rgb.z * 0.11f;
            l[k] = (lr + lg) + lb;
        }
    }
    // Trade halves with t ^ 1, the neighbouring lane, by shuffles: the rows the neighbour
    // keeps (the odd one's first 8, the even one's last 8), and the even one's motion terms of
    // rows 8, 10, 12, 14.
    float their[8];
    for (uint i = 0u; i < 8u; i++) {
        float give = h == 1u ? l[i] : l[8u + i];
        their[i] = subgroupShuffleXor(give, 1u);
    }
    float their_m[4];
    for (uint j = 0u; j < 4u; j++) {
        uint k = 8u + 2u * j;
        precise float give = params.motion_factor * max(abs(mv[k].x), abs(mv[k].y));
        their_m[j] = subgroupShuffleXor(give, 1u);
    }
    // Each own block from both columns (the even one first), its motion term from the even
    // column's first pixel; then as --fetch blocks: the differences, the minimum and maximum.
    for (uint j = 0u; j < 4u; j++) {
        // Rows 8 h + 2 j and the next: selected, not indexed by h, so l stays in registers.
        float mine0 = h == 0u ? l[2u * j] : l[8u + 2u * j];
        float mine1 = h == 0u ? l[2u * j + 1u] : l[8u + 2u * j + 1u];
        float their0 = their[2u * j];
        float their1 = their[2u * j + 1u];
        precise float bl[4];
        bl[0] = h == 0u ? mine0 : their0;
        bl[1] = h == 0u ? their0 : mine0;
        bl[2] = h == 0u ? mine1 : their1;
        bl[3] = h == 0u ? their1 : mine1;
        precise float own_m = params.motion_factor * max(abs(mv[2u * j].x), abs(mv[2u * j].y));
        float m = h == 0u ? own_m : their_m[j];
        uint i = 0u;
        precise float lo = min(min(min(bl[i], bl[i + 1u]), bl[i + 2u]), bl[i + 3u]);
        precise float hi = max(max(max(bl[i], bl[i + 1u]), bl[i + 2u]), bl[i + 3u]);
        d[j] = vec4(max(abs(bl[i] - bl[i + 1u]), abs(bl[i + 2u] - bl[i + 3u])) - m,
            max(abs(bl[i] - bl[i + 2u]), abs(bl[i + 1u] - bl[i + 3u])) - m,
            (hi - lo) - m, 0.0f);
        own_lo[j] = lo;
        own_hi[j] = hi - m;
        uint slot = (o.y + j + 1u) * 34u + o.x + 1u;
        lds_min[slot] = lo;
        lds_max[slot] = hi - m;
    }
    // The ring block: its minimum and motion-lowered maximum for phase 2.
    if (ring) {
        uint i = 16u;
        precise float m = params.motion_factor * max(abs(mv[i].x), abs(mv[i].y));
        precise float lo = min(min(min(l[i], l[i + 1u]), l[i + 2u]), l[i + 3u]);
        precise float hi = max(max(max(l[i], l[i + 1u]), l[i + 2u]), l[i + 3u]);
        uint slot = uint(ring_y + 1) * 34u + uint(ring_x + 1);
        lds_min[slot] = lo;
        lds_max[slot] = hi - m;
    }
    barrier();

    // PROBE: phases 2-3 removed (timing only; the map is wrong): each holder rates its own blocks.
    vec4 v = max(max(d[0], d[1]), max(d[2], d[3]));

    // Phase 4: the holders of the region's 16 texels decide their rates.
    if (t < 16u) {
        uvec2 tp = dmap_morton_xy(t);
        uint tx = group.x * 4u + tp.x;
        uint ty = group.y * 4u + tp.y;
        if (tx < map_w && ty < map_h) {
            uint content = dmap_content_rate(v, params.cutoff, params.cutoff4);
            uint rate = dmap_limit(content, params.rate_mask);
            uint texel = ((rate >> 3u) << 2u) | (rate & 7u);
            imageStore(dst_map[0], ivec2(uvec2(tx, ty)), uvec4(texel));
        }
    }
}
