// Executor self-test: threads of a threadgroup exchange values through threadgroup memory.
// out[i] = in[i] + in[i - 1] within each threadgroup (its first thread: in[i] alone), the
// neighbour's value read back from threadgroup memory. With params.barrier = 0 the barrier
// between the writes and the reads is skipped (a uniform branch, so still valid MSL):
// the missing-barrier bug. A thread then reads its neighbour's slot before or after the
// neighbour wrote it depending on which runs first, so the executor must give a wrong
// answer under some order of its threads.
#include <metal_stdlib>
using namespace metal;

struct NeighbourParams {
    uint barrier;
};

kernel void neighbour(device const float* in [[buffer(0)]],
                      device float* out [[buffer(1)]],
                      constant NeighbourParams& params [[buffer(2)]],
                      uint t [[thread_index_in_threadgroup]],
                      uint i [[thread_position_in_grid]])
{
    threadgroup float shared[256];
    shared[t] = in[i];
    if (params.barrier != 0u) threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = shared[t] + (t > 0u ? shared[t - 1u] : 0.0f);
}
