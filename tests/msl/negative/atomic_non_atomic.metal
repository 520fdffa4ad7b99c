// Atomic functions need an atomic type, not a plain device uint.
// EXPECT: no matching function for call to 'atomic_fetch_add_explicit'
#include <metal_stdlib>
using namespace metal;

kernel void k(device atomic_uint* counter [[buffer(0)]], device uint* plain [[buffer(1)]])
{
    atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed);
    atomic_fetch_add_explicit(plain, 1u, memory_order_relaxed); // MISTAKE
}
