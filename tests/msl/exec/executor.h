// The MSL CPU executor: runs a compute kernel compiled against the <metal_stdlib> shim
// with Metal's execution semantics for the subset the shim models.
//
// A dispatch runs its threadgroups one after another, in an order the caller picks
// (forward, reverse or shuffled), so code that assumes an order between threadgroups
// without synchronizing gives different answers under different orders. Within a
// threadgroup every thread is a fiber (fiber.h) of the one host thread; a fiber runs until
// it reaches a threadgroup_barrier or a SIMD-group function and then waits there:
//  - a barrier releases its threads when every thread of the threadgroup waits at that
//    same barrier (same line);
//  - a SIMD-group function (shuffle, broadcast, reduction, ballot, quad function,
//    simdgroup_barrier) completes when every lane of the SIMD-group waits at that same
//    call; each lane then receives what the partner lane passed at that point.
// Between those points the fibers of a threadgroup run in the caller's order too (each
// round of resumptions forward, reverse or freshly shuffled), so a missing barrier shows
// as a read of a value not yet written, or of the poison that fills threadgroup memory
// before each threadgroup.
// Anything else is an error, reported with the MSL line instead of hanging: a barrier
// or SIMD-group function reached by only part of its threadgroup / SIMD-group (divergent
// control flow, or a thread that returned while others wait), threads waiting at different
// barriers, a parameter whose resource is missing.
//
// SIMD-groups are consecutive threads (lane = thread index % width), as Metal lays out
// threadgroups; the width is a dispatch parameter (4, 8, 16, 32; at most 64).
// Kernels must be compiled with -DMSL_SHIM_EXTERNAL_RUNTIME: this file defines the shim's
// execution hooks (shim/sync.h), and the shim then gives kernel-scope threadgroup
// variables shared storage (shim/keywords.h). One dispatch at a time per process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "shim/texture.h" // texture_storage<T> and the vector types; no MSL keywords

namespace msl_exec {

using metal::uint3;

// What a dispatch binds, by MSL index: [[texture(i)]] and [[buffer(i)]]. A texture slot
// points to host-owned storage (shim/texture.h); a buffer slot to host-owned bytes.
// A texel type's identity: the address of a tag, not typeid (which half, a native type,
// has no run-time type information for).
template <class T> struct texel_id {
  static constexpr char tag = 0;
};
struct texture_slot {
  const void* storage = nullptr;
  const char* texel = nullptr; // &texel_id<T>::tag, T of texture_storage<T>
};
struct buffer_slot {
  void* data = nullptr;
  size_t size = 0;
};
struct resources {
  std::vector<texture_slot> textures;
  std::vector<buffer_slot> buffers;

  template <class T> void bind_texture(size_t index, const metal::__msl::texture_storage<T>& s) {
    if (textures.size() <= index) textures.resize(index + 1);
    textures[index] = texture_slot{&s, &texel_id<T>::tag};
  }
  void bind_buffer(size_t index, void* data, size_t size) {
    if (buffers.size() <= index) buffers.resize(index + 1);
    buffers[index] = buffer_slot{data, size};
  }
};

// The values of the kernel attributes that describe a thread (MSL 3.2 table 5.8).
struct thread_ids {
  uint3 thread_in_group;  // [[thread_position_in_threadgroup]]
  uint index_in_group;    // [[thread_index_in_threadgroup]]
  uint3 group;            // [[threadgroup_position_in_grid]]
  uint3 threads_per_group;
  uint3 groups_per_grid;
  uint simd_lane, simd_group, simd_width, simd_groups;
};

// A kernel whose parameters are bound by attribute (bind.h makes one).
struct bound_kernel {
  const char* name;
  unsigned max_total_threads; // [[max_total_threads_per_threadgroup(N)]], 0 if absent
  // "" if res holds what every parameter's attribute asks for, else what is missing.
  std::string (*check)(const resources& res);
  // One thread: binds every parameter from res and ids and calls the kernel.
  void (*run)(const resources& res, const thread_ids& ids);
};

enum class order { forward, reverse, shuffled };
const char* order_name(order o);

struct dispatch_params {
  uint3 groups{1, 1, 1};   // threadgroups per grid
  uint3 threads{1, 1, 1};  // threads per threadgroup
  unsigned simd_width = 32;
  order ord = order::forward; // of threadgroups, and of fiber resumptions within one
  uint32_t seed = 1;          // for order::shuffled
};

// Runs every threadgroup of the grid. Returns "" on success, else the first error (the
// dispatch stops there; memory holds whatever was written until then).
std::string dispatch(const bound_kernel& k, const resources& res, const dispatch_params& p);

} // namespace msl_exec
