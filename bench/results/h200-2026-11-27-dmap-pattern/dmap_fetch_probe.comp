#version 450
// PROBE (bench/results/h200-2026-11-27-dmap-pattern): dmap_fetch.comp with the generator's load
// pattern (MORTON) and its ring of halo blocks (RING). dmap_fetch.comp: dmap_bench's texel-load floors. The images bound as spdgen --dmap fsr
// --content binds them (binding 1 the colour, RGBA16F; binding 2 the motion, RG16F; sampled
// images read by texel loads; binding 0 the map), every pixel of both read once: a 64x64
// region per workgroup, 16 pixels per invocation, all loads issued before any is used, the
// lanes of a subgroup on adjacent pixels of a row. With GATHER=1 the colour is read where the
// motion vector points (p - floor(motion + 0.5), clamped), as the generator reads it, so a
// colour load waits for its motion load. A map texel is written only where the sum of all
// that was read is exactly -1: the compiler cannot drop a load, the benchmark's data never
// writes. What the generator adds to these floors is its own cost; what these floors lose
// against the copy floor, no generator bound this way can win back.
#extension GL_EXT_samplerless_texture_functions : require

#ifndef MORTON
#define MORTON 0
#endif
#ifndef RING
#define RING 0
#endif
#ifndef GATHER
#define GATHER 0
#endif

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, r8ui) uniform writeonly uimage2D dst_map[1];
layout(set = 0, binding = 1) uniform texture2D src_colour;
layout(set = 0, binding = 2) uniform texture2D src_motion;
layout(push_constant) uniform Params {
    uint width;
    uint height;
} params;

void main() {
    uint t = gl_LocalInvocationIndex;
    int last_x = int(params.width) - 1;
    int last_y = int(params.height) - 1;
    ivec2 region = ivec2(gl_WorkGroupID.xy * 64u);
#if MORTON
    // The generator's pattern: invocation t's four 2x2 blocks at 2 morton(t) + (j & 1, j >> 1),
    // pixel k of block j at 2 block + (k & 1, k >> 1): a 4x4 square at 4 morton(t).
    uint mx = (t & 1u) | ((t >> 1u) & 2u) | ((t >> 2u) & 4u) | ((t >> 3u) & 8u);
    uint my = ((t >> 1u) & 1u) | ((t >> 2u) & 2u) | ((t >> 3u) & 4u) | ((t >> 4u) & 8u);
#endif
#if RING
    uint side = t >> 5u;
    int ring_k = int(t & 31u);
    ivec2 ring = ivec2(side < 2u ? ring_k : (side == 2u ? -1 : 32), side < 2u ? (side == 0u ? -1 : 32) : ring_k);
    const int COUNT = 20;
#else
    const int COUNT = 16;
    ivec2 ring = ivec2(0);
#endif
    ivec2 at[COUNT];
    for (int i = 0; i < COUNT; i++) {
#if MORTON
        int j = i >> 2, k = i & 3;
        ivec2 b = j < 4 ? ivec2(2 * int(mx) + (j & 1), 2 * int(my) + (j >> 1)) : ring;
        at[i] = region + 2 * b + ivec2(k & 1, k >> 1);
#else
        at[i] = region + ivec2(int(t & 63u), int(t >> 6u) + 4 * i);
#endif
        at[i] = clamp(at[i], ivec2(0), ivec2(last_x, last_y));
    }
    bool extra = t < 128u;
    vec2 m[COUNT];
    for (int i = 0; i < COUNT; i++) {
        m[i] = vec2(0.0);
        if (i < 16 || extra) m[i] = texelFetch(src_motion, at[i], 0).rg;
    }
    vec4 c[COUNT];
    for (int i = 0; i < COUNT; i++) {
        c[i] = vec4(0.0);
        ivec2 p = at[i];
#if GATHER
        p = clamp(p - ivec2(floor(m[i] + 0.5)), ivec2(0), ivec2(last_x, last_y));
#endif
        if (i < 16 || extra) c[i] = texelFetch(src_colour, p, 0);
    }
    vec4 sum = vec4(0.0);
    for (int i = 0; i < COUNT; i++) sum += c[i] + m[i].xyxy;
    if (sum.x + sum.y + sum.z + sum.w == -1.0)
        imageStore(dst_map[0], ivec2(gl_WorkGroupID.xy * 4u), uvec4(1u));
}
