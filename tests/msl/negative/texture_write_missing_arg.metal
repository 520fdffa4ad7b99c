// Wrong argument count to texture write: a texture2d_array needs the slice.
// EXPECT: no matching member function for call to 'write'
#include <metal_stdlib>
using namespace metal;

kernel void k(texture2d_array<float, access::write> dst [[texture(0)]],
              uint2 pos [[thread_position_in_grid]])
{
    float4 v = float4(1.0f);
    dst.write(v, pos, 0);
    dst.write(v, pos); // MISTAKE
}
