// Writing through a constant-address-space reference.
// EXPECT: cannot assign to variable 'params' with const-qualified type
#include <metal_stdlib>
using namespace metal;

struct Params { uint mips; };

kernel void k(constant Params& params [[buffer(0)]], device uint* out [[buffer(1)]])
{
    out[0] = params.mips;
    params.mips = 3u; // MISTAKE
}
