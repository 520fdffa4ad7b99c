// Writing to a texture declared access::read.
// EXPECT: texture write needs access::write or access::read_write
#include <metal_stdlib>
using namespace metal;

kernel void k(texture2d<float, access::read> src [[texture(0)]],
              device float4* out [[buffer(0)]],
              uint2 pos [[thread_position_in_grid]])
{
    float4 v = src.read(pos);
    out[pos.x] = v;
    src.write(v, pos); // MISTAKE
}
