// Executor self-test: the last-threadgroup pattern of SPD's hand-off. Every threadgroup
// stores the sum of its slice of in[] in partial[group]; then one threadgroup adds up all
// partial sums into total[0], all its threads taking part. Which one, by params.mode:
//   0: the last threadgroup to arrive, elected by an atomic counter (correct);
//   1: threadgroup 0, without waiting for the others: missing cross-group synchronization,
//      right only when threadgroup 0 happens to run last;
//   2: the elected one, but without the barrier between thread 0's election and the other
//      threads reading its result: a missing barrier.
// (The tree sum is written out twice: a helper taking a threadgroup pointer is valid MSL
// that the executor cannot compile; see tests/msl/README.md.)
#include <metal_stdlib>
using namespace metal;

struct LastGroupParams {
    uint mode;
    uint groups;
};

[[max_total_threads_per_threadgroup(64)]]
kernel void last_group(device const uint* in [[buffer(0)]],
                       device uint* partial [[buffer(1)]],
                       device atomic_uint* counter [[buffer(2)]],
                       device uint* total [[buffer(3)]],
                       constant LastGroupParams& params [[buffer(4)]],
                       uint t [[thread_index_in_threadgroup]],
                       uint3 group [[threadgroup_position_in_grid]],
                       uint2 size [[threads_per_threadgroup]])
{
    threadgroup uint sums[64];
    threadgroup uint is_last;
    uint n = size.x;
    sums[t] = in[group.x * n + t];
    for (uint s = n / 2u; s > 0u; s >>= 1u) { // tree sum into sums[0] (n a power of two)
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (t < s) sums[t] += sums[t + s];
    }
    if (t == 0u) {
        partial[group.x] = sums[0];
        atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
        uint arrived = atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed);
        uint elected = params.mode == 1u ? (group.x == 0u ? 1u : 0u) : (arrived == params.groups - 1u ? 1u : 0u);
        is_last = elected;
    }
    if (params.mode != 2u) threadgroup_barrier(mem_flags::mem_threadgroup);
    if (is_last == 0u) return;
    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
    uint acc = 0u;
    for (uint k = t; k < params.groups; k += n) acc += partial[k];
    sums[t] = acc;
    for (uint s = n / 2u; s > 0u; s >>= 1u) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (t < s) sums[t] += sums[t + s];
    }
    if (t == 0u) {
        total[0] = sums[0];
        atomic_store_explicit(counter, 0u, memory_order_relaxed);
    }
}
