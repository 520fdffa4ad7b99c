// Using an identifier that is not declared (here: a misspelt MSL function).
// EXPECT: use of undeclared identifier 'simd_shufle'
#include <metal_stdlib>
using namespace metal;

kernel void k(device float* out [[buffer(0)]], uint id [[thread_position_in_grid]])
{
    out[id] = simd_shuffle(out[id], 0);
    out[id] = simd_shufle(out[id], 0); // MISTAKE
}
