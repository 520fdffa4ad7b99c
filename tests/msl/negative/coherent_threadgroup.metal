// coherent() takes device only (MSL 3.2).
// EXPECT: coherent_threadgroup
#include <metal_stdlib>
using namespace metal;

kernel void k(coherent(device) device uint* out [[buffer(0)]],
              coherent(threadgroup) device uint* other [[buffer(1)]], // MISTAKE
              uint id [[thread_position_in_grid]])
{
    out[id] = id;
}
