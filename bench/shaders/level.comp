#version 450
// Baseline: one dispatch per mip level, as written by hand. Invocation (x, y) makes texel
// (x, y) of level k+1 from the 2x2 block (2x, 2y)..(2x+1, 2y+1) of level k, read with
// texelFetch from a sampled image and clamped to the level, the same rule and the same
// evaluation order as spdgen's SPD (README.md, "Semantics"), so both can be checked against
// the same definition. Unlike SPD it re-reads every stored level from memory.
//
// Built once per (op, format) by bench/bench.mk:
//   FORMAT  the storage image format qualifier: rgba8, rgba16f or r32f
//   OP_MAX  1 for max, 0 for mean
#extension GL_EXT_samplerless_texture_functions : require

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(set = 0, binding = 0) uniform texture2D src_level;                  // level k
layout(set = 0, binding = 1, FORMAT) uniform writeonly image2D dst_level;  // level k+1
layout(push_constant) uniform Params {
    uvec2 src_size;
    uvec2 dst_size;
} params;

vec4 fetch(uvec2 p) {
    return texelFetch(src_level, ivec2(min(p, params.src_size - 1u)), 0);
}

void main() {
    uvec2 xy = gl_GlobalInvocationID.xy;
    if (xy.x >= params.dst_size.x || xy.y >= params.dst_size.y)
        return;
    uvec2 p = 2u * xy;
    vec4 a = fetch(p), b = fetch(p + uvec2(1, 0)), c = fetch(p + uvec2(0, 1)),
         d = fetch(p + uvec2(1, 1));
#if OP_MAX
    vec4 r = max(max(max(a, b), c), d);
#else
    precise vec4 r = (((a + b) + c) + d) * 0.25;
#endif
    imageStore(dst_level, ivec2(xy), r);
}
