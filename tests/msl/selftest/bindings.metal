// Executor self-test: binding by attribute. The parameters come in an order unrelated to
// their indices, with builtins of several MSL types; each thread writes what it received
// to out[16 * linear ..] and its linear index to dst at its grid position, and the host
// checks every value against the definitions of the attributes.
#include <metal_stdlib>
using namespace metal;

struct BindParams {
    uint scale;
    uint unused[3];
};

[[max_total_threads_per_threadgroup(64)]]
kernel void bindings(uint3 group [[threadgroup_position_in_grid]],
                     device uint* out [[buffer(3)]],
                     ushort2 tid [[thread_position_in_threadgroup]],
                     texture2d<float, access::read> src [[texture(2)]],
                     uint index [[thread_index_in_threadgroup]],
                     constant BindParams& params [[buffer(1)]],
                     uint3 gid [[thread_position_in_grid]],
                     texture2d_array<float, access::write> dst [[texture(0)]],
                     ushort lane [[thread_index_in_simdgroup]],
                     uint simd_group [[simdgroup_index_in_threadgroup]],
                     uint2 threads [[threads_per_threadgroup]],
                     uint3 groups [[threadgroups_per_grid]],
                     uint width [[thread_execution_width]],
                     uint quad_lane [[thread_index_in_quadgroup]],
                     uint3 grid [[threads_per_grid]])
{
    uint linear = (gid.z * grid.y + gid.y) * grid.x + gid.x;
    device uint* o = out + 16u * linear;
    o[0] = group.x;
    o[1] = group.y;
    o[2] = group.z;
    o[3] = uint(tid.x);
    o[4] = uint(tid.y);
    o[5] = index;
    o[6] = gid.x;
    o[7] = gid.y;
    o[8] = gid.z;
    o[9] = uint(lane);
    o[10] = simd_group;
    o[11] = threads.x * 100u + threads.y;
    o[12] = (groups.x * 100u + groups.y) * 100u + groups.z;
    o[13] = width;
    o[14] = quad_lane;
    o[15] = uint(src.read(gid.xy).x) * params.scale;
    dst.write(float4(float(linear)), gid.xy, gid.z);
}
