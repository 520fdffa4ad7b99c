// MSL has no implicit conversion between vector types (int2 -> uint2).
// EXPECT: from incompatible type
#include <metal_stdlib>
using namespace metal;

kernel void k(device uint2* out [[buffer(0)]], uint id [[thread_position_in_grid]])
{
    int2 p = int2(int(id), -1);
    out[id] = uint2(p);
    out[id] = p; // MISTAKE
}
