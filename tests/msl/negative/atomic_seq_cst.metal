// Atomic operations take memory_order_relaxed only (seq_cst is for fences).
// EXPECT: MSL atomic operations only take memory_order_relaxed
#include <metal_stdlib>
using namespace metal;

kernel void k(device atomic_uint* counter [[buffer(0)]])
{
    atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed);
    atomic_fetch_add_explicit(counter, 1u, memory_order_seq_cst); // MISTAKE
}
