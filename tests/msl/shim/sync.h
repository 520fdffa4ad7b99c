// MSL shim, part 4: memory flags, scopes, orders, barriers and fences, and the
// runtime hooks that the SIMD-group functions are built on.
//
// Models (MSL 3.2 sections 6.9.1, 6.15.1 to 6.15.3):
//   enum class mem_flags { mem_none, mem_device, mem_threadgroup, mem_texture,
//                          mem_threadgroup_imageblock, mem_object_data }  (| and &)
//   void threadgroup_barrier(mem_flags);   void simdgroup_barrier(mem_flags);
//   enum memory_order { memory_order_relaxed, memory_order_seq_cst };
//   enum thread_scope { thread_scope_thread, thread_scope_simdgroup,
//                       thread_scope_threadgroup, thread_scope_device };
//   void atomic_thread_fence(mem_flags, memory_order, thread_scope = thread_scope_device);
// memory_order has only relaxed and seq_cst, as the specification's enum: there is no
// memory_order_acquire / _release / _acq_rel in MSL (not even for fences), so code
// using them is rejected here as by the Metal compiler.
//
// Execution model hooks (namespace metal::__rt). Everything that needs other threads
// goes through these few functions. The default (below) is a single thread: it is the
// only lane of its SIMD-group, barriers only fence, and an exchange returns the
// caller's own value; so a shuffle returns the thread's own value, simd_sum(x) is x.
// The CPU executor (tests/msl/exec) replaces them: it defines MSL_SHIM_EXTERNAL_RUNTIME
// before including <metal_stdlib> and defines these functions, running a threadgroup's
// threads as fibers with real barrier and exchange semantics:
//   ushort   __rt::simd_lane_id();      lane of the calling thread in its SIMD-group
//   ushort   __rt::simd_size();         threads per SIMD-group (lanes 0..size-1)
//   uint64_t __rt::simd_active_mask(site);  bit i set: lane i is active (executing here)
//   void     __rt::simd_exchange(void* out, const void* value, size_t size, ushort src_lane, site);
//            every active lane of the SIMD-group calls it together; each receives in
//            out the value that lane src_lane passed (its own if src_lane is inactive)
//   void     __rt::threadgroup_barrier(mem_flags, site);  void __rt::simdgroup_barrier(mem_flags, site);
//   void     __rt::thread_fence(mem_flags, memory_order, thread_scope);
// site is the file and line of the MSL call (the public functions take it as a defaulted
// last parameter, __rt::site::here(), so it names the kernel's line, not the shim's): the
// executor uses it to check that every thread waits at the same barrier or SIMD-group
// function, and to name that line when they do not.
//
// Does not model: the barrier(mem_flags, thread_scope) overloads of newer Metal
// versions (not in the 3.2 specification's table), imageblocks, object data.
// Not checked at compile time: that a barrier is reached by all threads (uniform
// control flow) - the executor checks that at run time.
#pragma once
#pragma clang system_header

#include "core.h"

namespace metal {

enum class mem_flags : unsigned {
  mem_none = 0,
  mem_device = 1u << 0,
  mem_threadgroup = 1u << 1,
  mem_texture = 1u << 2,
  mem_threadgroup_imageblock = 1u << 3,
  mem_object_data = 1u << 4,
};
constexpr mem_flags operator|(mem_flags a, mem_flags b) {
  return mem_flags(unsigned(a) | unsigned(b));
}
constexpr mem_flags operator&(mem_flags a, mem_flags b) {
  return mem_flags(unsigned(a) & unsigned(b));
}
constexpr mem_flags& operator|=(mem_flags& a, mem_flags b) { return a = a | b; }

enum memory_order { memory_order_relaxed, memory_order_seq_cst };

enum thread_scope {
  thread_scope_thread,
  thread_scope_simdgroup,
  thread_scope_threadgroup,
  thread_scope_device,
};

namespace __rt {
// Where an MSL program called a barrier or SIMD-group function. As a defaulted argument,
// here() is evaluated at the outermost call, in the MSL source.
struct site {
  const char* file;
  unsigned line;
  static constexpr site here(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
    return site{file, line};
  }
};

#ifdef MSL_SHIM_EXTERNAL_RUNTIME
ushort simd_lane_id();
ushort simd_size();
uint64_t simd_active_mask(site where);
void simd_exchange(void* out, const void* value, size_t size, ushort src_lane, site where);
void threadgroup_barrier(mem_flags flags, site where);
void simdgroup_barrier(mem_flags flags, site where);
void thread_fence(mem_flags flags, memory_order order, thread_scope scope);
#else
// Single-thread defaults (see the comment at the top of this file).
inline ushort simd_lane_id() { return 0; }
inline ushort simd_size() { return 1; }
inline uint64_t simd_active_mask(site) { return 1; }
inline void simd_exchange(void* out, const void* value, size_t size, ushort src_lane, site) {
  (void)src_lane;
  __builtin_memcpy(out, value, size);
}
inline void thread_fence(mem_flags flags, memory_order order, thread_scope scope) {
  (void)scope;
  if (flags != mem_flags::mem_none && order == memory_order_seq_cst)
    std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void threadgroup_barrier(mem_flags flags, site) {
  if (flags != mem_flags::mem_none) std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void simdgroup_barrier(mem_flags flags, site) {
  if (flags != mem_flags::mem_none) std::atomic_thread_fence(std::memory_order_seq_cst);
}
#endif

// Typed exchange on top of the byte-wise hook.
template <class T> inline T exchange(const T& value, ushort src_lane, site where) {
  T out;
  simd_exchange(&out, &value, sizeof(T), src_lane, where);
  return out;
}
inline bool lane_active(uint64_t mask, uint lane) { return lane < 64 && ((mask >> lane) & 1u); }
} // namespace __rt

// All threads of the threadgroup (SIMD-group) reach the barrier before any continues;
// flags also order memory accesses of those address spaces.
inline void threadgroup_barrier(mem_flags flags, __rt::site where = __rt::site::here()) {
  __rt::threadgroup_barrier(flags, where);
}
inline void simdgroup_barrier(mem_flags flags, __rt::site where = __rt::site::here()) {
  __rt::simdgroup_barrier(flags, where);
}

inline void atomic_thread_fence(mem_flags flags, memory_order order,
                                thread_scope scope = thread_scope_device) {
  __rt::thread_fence(flags, order, scope);
}

} // namespace metal
