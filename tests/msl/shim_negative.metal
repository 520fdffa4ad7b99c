// Negative self-test of the <metal_stdlib> shim: a valid SPD-style kernel with one
// deliberate type error (a float2 written to a texture, whose write takes a float4).
// tests/msl/check-msl.sh must REJECT this file; without the MISTAKE line it passes.
// More single-mistake cases are in tests/msl/negative/.
// EXPECT: no matching member function for call to 'write'
#include <metal_stdlib>
using namespace metal;

struct SpdParams {
    uint mips;
    uint num_work_groups;
};

static float4 spd_reduce4(float4 v0, float4 v1, float4 v2, float4 v3)
{
    return (v0 + v1 + v2 + v3) * 0.25f;
}

kernel void spd_main(texture2d_array<float, access::read> src [[texture(0)]],
                     array<texture2d_array<float, access::write>, 12> dst_mips [[texture(1)]],
                     device atomic_uint* counters [[buffer(0)]],
                     coherent(device) device float4* level6 [[buffer(1)]],
                     constant SpdParams& params [[buffer(2)]],
                     uint local_index [[thread_index_in_threadgroup]],
                     uint3 group_id [[threadgroup_position_in_grid]])
{
    threadgroup float4 lds[64];
    const uint slice = group_id.z;
    const uint2 pos = group_id.xy * 8u + uint2(local_index % 8u, local_index / 8u);

    float4 v0 = src.read(pos * 2u, slice);
    float4 v1 = src.read(pos * 2u + uint2(1, 0), slice);
    float4 v2 = src.read(pos * 2u + uint2(0, 1), slice);
    float4 v3 = src.read(pos * 2u + uint2(1, 1), slice);
    float4 m1 = spd_reduce4(v0, v1, v2, v3);
    dst_mips[0].write(m1, pos, slice);
    dst_mips[0].write(m1.xy, pos, slice); // MISTAKE: write takes a float4 (Tv)

    float4 m2 = spd_reduce4(m1, quad_shuffle_xor(m1, 1), quad_shuffle_xor(m1, 2), quad_shuffle_xor(m1, 3));
    lds[local_index] = m2;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (local_index == 0) {
        level6[group_id.x] = lds[0];
        atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
        uint prev = atomic_fetch_add_explicit(&counters[slice], 1u, memory_order_relaxed);
        if (prev + 1 == params.num_work_groups && params.mips > 1)
            dst_mips[1].write(level6[0], uint2(0), slice);
    }
}
