// A misspelt attribute is ignored by clang; check-msl.sh rejects unknown names.
// EXPECT: 'thread_position_in_grd' is not an MSL attribute
#include <metal_stdlib>
using namespace metal;

kernel void k(device uint* out [[buffer(0)]],
              uint b [[thread_position_in_grd]], // MISTAKE
              uint a [[thread_position_in_grid]])
{
    out[a] = a;
}
