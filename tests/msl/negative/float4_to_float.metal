// Assigning a vector to a scalar.
// EXPECT: cannot initialize a variable of type 'float' with an lvalue of type 'float4'
#include <metal_stdlib>
using namespace metal;

kernel void k(device float* out [[buffer(0)]], uint id [[thread_position_in_grid]])
{
    float4 v = float4(float(id));
    out[id] = v.x;
    float x = v; out[id] = x; // MISTAKE
}
