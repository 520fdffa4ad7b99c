// Executor self-test: barriers and SIMD-group functions reached by only part of their
// threadgroup or SIMD-group. params.mode picks one case; each must be reported as an
// error naming the line marked with its "@case" comment, not hang and not pass:
//   0: nothing wrong (out[t] = t)
//   1: a barrier inside a branch half the threads take
//   2: even and odd threads wait at two different barriers
//   3: a shuffle inside a branch two lanes of each SIMD-group take
//   4: one thread returns early while the others wait at a barrier
//   5: a barrier in a loop whose trip count differs between threads
//   6: a quad function inside a branch only the first quad takes
#include <metal_stdlib>
using namespace metal;

kernel void divergent(device uint* out [[buffer(0)]],
                      constant uint& mode [[buffer(1)]],
                      uint t [[thread_index_in_threadgroup]],
                      uint lane [[thread_index_in_simdgroup]])
{
    uint v = t;
    if (mode == 1u) {
        if (t < 32u) threadgroup_barrier(mem_flags::mem_threadgroup); // @1
    } else if (mode == 2u) {
        if (t % 2u == 0u) threadgroup_barrier(mem_flags::mem_threadgroup); // @2
        else threadgroup_barrier(mem_flags::mem_device); // @2
    } else if (mode == 3u) {
        if (lane < 2u) v = simd_shuffle_xor(v, ushort(1)); // @3
    } else if (mode == 4u) {
        if (t == 5u) return;
        threadgroup_barrier(mem_flags::mem_threadgroup); // @4
    } else if (mode == 5u) {
        for (uint i = 0u; i <= t % 2u; ++i)
            threadgroup_barrier(mem_flags::mem_threadgroup); // @5
    } else if (mode == 6u) {
        if (t < 4u) v = quad_shuffle_xor(v, ushort(1)); // @6
    }
    out[t] = v;
}
