// Texture read coordinates are uint2 (or ushort2), not int2.
// EXPECT: no matching member function for call to 'read'
#include <metal_stdlib>
using namespace metal;

kernel void k(texture2d<float, access::read> src [[texture(0)]],
              device float4* out [[buffer(0)]],
              uint2 pos [[thread_position_in_grid]])
{
    int2 p = int2(pos);
    out[0] = src.read(uint2(p));
    out[0] = src.read(p); // MISTAKE
}
