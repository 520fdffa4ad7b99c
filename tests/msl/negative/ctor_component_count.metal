// float4(1, 2, 3): three components for a four-component vector (Metal rejects it).
// EXPECT: must add up to exactly the number of components
#include <metal_stdlib>
using namespace metal;

kernel void k(device float4* out [[buffer(0)]], uint id [[thread_position_in_grid]])
{
    out[id] = float4(1, 2, 3, 4);
    out[id] = float4(1, 2, 3); // MISTAKE
}
