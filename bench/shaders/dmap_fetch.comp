#version 450
// dmap_fetch.comp: dmap_bench's texel-load floors. The images bound as spdgen --dmap fsr
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
    // Column t % 64 of the region, rows t / 64 + 4 i (reads past the image clamp to its edge).
    int x = min(int(gl_WorkGroupID.x * 64u + (t & 63u)), last_x);
    int y0 = int(gl_WorkGroupID.y * 64u + (t >> 6u));
    vec2 m[16];
    for (int i = 0; i < 16; i++)
        m[i] = texelFetch(src_motion, ivec2(x, min(y0 + 4 * i, last_y)), 0).rg;
    vec4 c[16];
    for (int i = 0; i < 16; i++) {
        ivec2 p = ivec2(x, min(y0 + 4 * i, last_y));
#if GATHER
        p = clamp(p - ivec2(floor(m[i] + 0.5)), ivec2(0), ivec2(last_x, last_y));
#endif
        c[i] = texelFetch(src_colour, p, 0);
    }
    vec4 sum = vec4(0.0);
    for (int i = 0; i < 16; i++) sum += c[i] + m[i].xyxy;
    if (sum.x + sum.y + sum.z + sum.w == -1.0)
        imageStore(dst_map[0], ivec2(gl_WorkGroupID.xy * 4u), uvec4(1u));
}
