// Executor self-test: SIMD-group and quad functions. Each thread writes 16 results to
// out[16 t ..]; the host computes what the MSL specification defines for each from in[]
// and the SIMD-group width, for every width the executor is run with.
#include <metal_stdlib>
using namespace metal;

kernel void simd_ops(device const uint* in [[buffer(0)]],
                     device uint* out [[buffer(1)]],
                     uint t [[thread_index_in_threadgroup]],
                     uint3 group [[threadgroup_position_in_grid]],
                     uint n [[threads_per_threadgroup]],
                     ushort lane [[thread_index_in_simdgroup]],
                     uint width [[threads_per_simdgroup]])
{
    uint i = group.x * n + t;
    uint v = in[i];
    device uint* o = out + 16u * i;
    o[0] = simd_shuffle_xor(v, ushort(1));
    o[1] = simd_shuffle_xor(v, ushort(width / 2u));
    o[2] = simd_shuffle(v, ushort(width - 1u - lane));
    o[3] = simd_shuffle_up(v, ushort(1));
    o[4] = simd_shuffle_down(v, ushort(3));
    o[5] = simd_broadcast(v, ushort(2));
    o[6] = simd_shuffle_rotate_down(v, ushort(1));
    o[7] = quad_shuffle_xor(v, ushort(2));
    o[8] = quad_broadcast(v, ushort(3));
    o[9] = simd_min(v);
    o[10] = simd_max(v);
    o[11] = simd_sum(v);
    o[12] = simd_prefix_exclusive_sum(v);
    o[13] = uint(static_cast<simd_vote::vote_t>(simd_ballot((v & 1u) != 0u)));
    o[14] = simd_is_first() ? 1u : 0u;
    o[15] = uint(simd_shuffle_xor(float(v), ushort(3)));
}
