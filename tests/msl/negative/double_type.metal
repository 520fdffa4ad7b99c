// MSL has no double type (a 1.0 literal is fine, a double variable is not).
// EXPECT: attempt to use a poisoned identifier
#include <metal_stdlib>
using namespace metal;

kernel void k(device float* out [[buffer(0)]], uint id [[thread_position_in_grid]])
{
    float x = out[id] * 1.0;
    double y = x; out[id] = float(y); // MISTAKE
    out[id] = x;
}
