// MSL has only memory_order_relaxed and memory_order_seq_cst.
// EXPECT: use of undeclared identifier 'memory_order_acquire'
#include <metal_stdlib>
using namespace metal;

kernel void k(device atomic_uint* counter [[buffer(0)]])
{
    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
    atomic_thread_fence(mem_flags::mem_device, memory_order_acquire, thread_scope_device); // MISTAKE
    atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed);
}
