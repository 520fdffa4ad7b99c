// Reading from a texture declared access::write.
// EXPECT: texture read needs access::read, access::read_write or access::sample
#include <metal_stdlib>
using namespace metal;

kernel void k(texture2d_array<float, access::write> dst [[texture(0)]],
              uint2 pos [[thread_position_in_grid]])
{
    float4 v = float4(0.0f);
    v += dst.read(pos, 0); // MISTAKE
    dst.write(v, pos, 0);
}
