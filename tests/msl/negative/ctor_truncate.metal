// float3(float4) (GLSL-style truncation) is not an MSL conversion: use v.xyz.
// EXPECT: the source vector must have as many components as the result
#include <metal_stdlib>
using namespace metal;

kernel void k(device float4* out [[buffer(0)]], uint id [[thread_position_in_grid]])
{
    float4 v = out[id];
    out[id] = float4(v.xyz, 1.0f);
    out[id] = float4(float3(v), 1.0f); // MISTAKE
}
