// SIMD-group functions do not take bool (nor double, long, ulong).
// EXPECT: no matching function for call to 'simd_shuffle'
#include <metal_stdlib>
using namespace metal;

kernel void k(device uint* out [[buffer(0)]], uint id [[thread_position_in_grid]])
{
    out[id] = simd_shuffle(id, 0);
    out[id] = simd_shuffle(id > 3u, 0); // MISTAKE
}
