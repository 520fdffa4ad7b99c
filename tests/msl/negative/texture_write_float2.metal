// A texture write takes a 4-component color (Tv): a float2 does not convert.
// EXPECT: no matching member function for call to 'write'
#include <metal_stdlib>
using namespace metal;

kernel void k(texture2d<float, access::write> dst [[texture(0)]],
              uint2 pos [[thread_position_in_grid]])
{
    float4 v = float4(0.5f);
    dst.write(v, pos);
    dst.write(v.xy, pos); // MISTAKE
}
