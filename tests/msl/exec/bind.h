// Binds a kernel's parameters by their MSL attributes, so that one harness runs any
// kernel without glue written for its signature.
//
// kernel-attrs.lua reads the kernel's declaration and lists each parameter's attribute
// in order ([[texture(1)]], [[buffer(2)]], [[thread_index_in_simdgroup]] ...); the
// parameter types come from the compiler (decltype of the kernel), so nothing is parsed
// twice. For parameter i with attribute a and type P:
//   [[texture(n)]]  texture2d<T, ...> / texture2d_array<T, ...>: the storage bound at
//                   texture index n (its texel type must be T); array<texture, N>:
//                   indices n .. n+N-1, as Metal assigns them
//   [[buffer(n)]]   T* (device or constant): the bytes bound at buffer index n, which must
//                   be aligned for T; T&: the same, and at least sizeof(T) bytes
//   builtins        uint / ushort, or uint2/3, ushort2/3 for the position-like ones, from
//                   the executor's thread_ids (MSL 3.2 table 5.8)
// A mismatch between attribute and type is a compile-time error; a missing or too small
// resource is an error of the dispatch, before any thread runs.
//
// Include this before <metal_stdlib>: it includes the standard headers it needs, which
// must come before the shim's keyword macros (shim/keywords.h).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "executor.h"
#include "shim/array.h"

namespace msl_exec {

enum class attr_kind {
  texture,
  buffer,
  thread_position_in_grid,
  thread_position_in_threadgroup,
  thread_index_in_threadgroup,
  threadgroup_position_in_grid,
  threads_per_grid,
  threads_per_threadgroup,
  dispatch_threads_per_threadgroup,
  threadgroups_per_grid,
  thread_index_in_simdgroup,
  simdgroup_index_in_threadgroup,
  threads_per_simdgroup,
  thread_execution_width,
  simdgroups_per_threadgroup,
  dispatch_simdgroups_per_threadgroup,
  thread_index_in_quadgroup,
  quadgroup_index_in_threadgroup,
  quadgroups_per_threadgroup,
  dispatch_quadgroups_per_threadgroup,
};

// One parameter's attribute: kind, its index argument (texture / buffer), the name.
struct attr {
  attr_kind kind;
  unsigned index;
  const char* param;
};
// What kernel-attrs.lua writes for each parameter.
#define MSL_ATTR(NAME, INDEX, PARAM) ::msl_exec::attr{::msl_exec::attr_kind::NAME, INDEX, PARAM}

namespace bind_detail {

template <class> constexpr bool always_false = false;

// Texture parameter types and their texel type.
template <class P> struct texture_type : std::false_type {};
template <class T, metal::access A, metal::memory_coherence C>
struct texture_type<metal::texture2d<T, A, C>> : std::true_type { using texel = T; };
template <class T, metal::access A, metal::memory_coherence C>
struct texture_type<metal::texture2d_array<T, A, C>> : std::true_type { using texel = T; };
template <class P> struct texture_array : std::false_type {};
template <class X, size_t N>
struct texture_array<metal::array<X, N>> : std::integral_constant<bool, texture_type<X>::value> {
  static constexpr size_t count = N;
};

template <class F> struct signature;
template <class... P> struct signature<void (*)(P...)> {
  static constexpr size_t count = sizeof...(P);
};
template <size_t I, class F> struct param;
template <size_t I, class P0, class... P> struct param<I, void (*)(P0, P...)> : param<I - 1, void (*)(P...)> {};
template <class P0, class... P> struct param<0, void (*)(P0, P...)> { using type = P0; };

template <class S> constexpr bool builtin_scalar = std::is_same<S, uint>::value || std::is_same<S, ushort>::value;

// A builtin of type P from the executor's value: scalars take x, vectors x, y (, z).
template <class P> P position(uint3 v) {
  using V = metal::__msl::vtraits<P>;
  static_assert(builtin_scalar<typename V::elem> && V::size >= 1 && V::size <= 3,
                "a position-like builtin must be uint, uint2, uint3, ushort, ushort2 or ushort3");
  using E = typename V::elem;
  if constexpr (V::size == 1) return P(v.x);
  else if constexpr (V::size == 2) return P{E(v.x), E(v.y)};
  else return P{E(v.x), E(v.y), E(v.z)};
}
template <class P> P scalar(uint v) {
  static_assert(builtin_scalar<P>, "this builtin must be uint or ushort");
  return P(v);
}

// Position-like builtins (uint3 in the executor, uint .. uint3 in the kernel).
constexpr bool is_position(attr_kind k) {
  return k == attr_kind::thread_position_in_grid || k == attr_kind::thread_position_in_threadgroup ||
         k == attr_kind::threadgroup_position_in_grid || k == attr_kind::threads_per_grid ||
         k == attr_kind::threads_per_threadgroup || k == attr_kind::dispatch_threads_per_threadgroup ||
         k == attr_kind::threadgroups_per_grid;
}
inline uint3 position_value(attr_kind k, const thread_ids& id) {
  switch (k) {
  case attr_kind::thread_position_in_grid: return id.group * id.threads_per_group + id.thread_in_group;
  case attr_kind::thread_position_in_threadgroup: return id.thread_in_group;
  case attr_kind::threadgroup_position_in_grid: return id.group;
  case attr_kind::threads_per_grid: return id.groups_per_grid * id.threads_per_group;
  case attr_kind::threadgroups_per_grid: return id.groups_per_grid;
  default: return id.threads_per_group; // threads_per_threadgroup, dispatch_threads_per_threadgroup
  }
}
inline uint scalar_value(attr_kind k, const thread_ids& id) {
  uint group_threads = id.threads_per_group.x * id.threads_per_group.y * id.threads_per_group.z;
  switch (k) {
  case attr_kind::thread_index_in_threadgroup: return id.index_in_group;
  case attr_kind::thread_index_in_simdgroup: return id.simd_lane;
  case attr_kind::simdgroup_index_in_threadgroup: return id.simd_group;
  case attr_kind::threads_per_simdgroup:
  case attr_kind::thread_execution_width: return id.simd_width;
  case attr_kind::simdgroups_per_threadgroup:
  case attr_kind::dispatch_simdgroups_per_threadgroup: return id.simd_groups;
  case attr_kind::thread_index_in_quadgroup: return id.index_in_group % 4u;
  case attr_kind::quadgroup_index_in_threadgroup: return id.index_in_group / 4u;
  default: return (group_threads + 3u) / 4u; // quadgroups_per_threadgroup and its dispatch_ twin
  }
}

template <class P, attr_kind K> P argument(unsigned index, const resources& res, const thread_ids& id) {
  using B = std::remove_cv_t<std::remove_reference_t<P>>;
  if constexpr (K == attr_kind::texture) {
    if constexpr (texture_type<P>::value) {
      P t{};
      t.__storage = static_cast<const metal::__msl::texture_storage<typename texture_type<P>::texel>*>(
          res.textures[index].storage);
      return t;
    } else if constexpr (texture_array<P>::value) {
      P a{};
      for (size_t i = 0; i < texture_array<P>::count; ++i)
        a[i] = argument<std::remove_reference_t<decltype(a[0])>, K>(unsigned(index + i), res, id);
      return a;
    } else {
      static_assert(always_false<P>, "[[texture(n)]] on a parameter that is not a texture2d, texture2d_array or an array of them");
    }
  } else if constexpr (K == attr_kind::buffer) {
    if constexpr (std::is_pointer<P>::value) {
      return static_cast<P>(res.buffers[index].data);
    } else if constexpr (std::is_reference<P>::value) {
      return *static_cast<B*>(res.buffers[index].data);
    } else {
      static_assert(always_false<P>, "[[buffer(n)]] on a parameter that is neither a pointer nor a reference");
    }
  } else if constexpr (is_position(K)) {
    return position<P>(position_value(K, id));
  } else {
    return scalar<P>(scalar_value(K, id));
  }
}

// "" if the resources of parameter P (attribute a) are bound and fit, else the problem.
template <class P> std::string check_texture(const resources& res, unsigned index) {
  using T = typename texture_type<P>::texel;
  if (index >= res.textures.size() || !res.textures[index].storage) return "no texture bound at index " + std::to_string(index);
  if (res.textures[index].texel != &texel_id<T>::tag)
    return "the texture at index " + std::to_string(index) + " has another texel type than the parameter";
  return "";
}
template <class P> std::string check(const resources& res, const attr& a) {
  std::string error;
  if constexpr (texture_type<P>::value) {
    error = check_texture<P>(res, a.index);
  } else if constexpr (texture_array<P>::value) {
    for (size_t i = 0; i < texture_array<P>::count && error.empty(); ++i)
      error = check_texture<std::remove_reference_t<decltype(std::declval<P&>()[0])>>(res, unsigned(a.index + i));
  } else if constexpr (std::is_pointer<P>::value || std::is_reference<P>::value) {
    using B = std::remove_pointer_t<std::remove_reference_t<P>>;
    if (a.index >= res.buffers.size() || !res.buffers[a.index].data)
      error = "no buffer bound at index " + std::to_string(a.index);
    else if (reinterpret_cast<uintptr_t>(res.buffers[a.index].data) % alignof(B))
      error = "the buffer at index " + std::to_string(a.index) + " is not aligned for its type";
    else if (std::is_reference<P>::value && res.buffers[a.index].size < sizeof(B))
      error = "the buffer at index " + std::to_string(a.index) + " has " + std::to_string(res.buffers[a.index].size) +
              " bytes, fewer than the " + std::to_string(sizeof(B)) + " of its type";
  }
  return error.empty() ? error : "parameter " + std::string(a.param) + ": " + error;
}

} // namespace bind_detail

// bound<&kernel_function, attributes>::value: the kernel for the executor.
template <auto K, const attr* A, size_t N> struct bound {
  using F = decltype(K);
  static_assert(bind_detail::signature<F>::count == N,
                "the attribute list does not match the kernel's parameters (regenerate it)");

  template <size_t... I> static void call(const resources& res, const thread_ids& id, std::index_sequence<I...>) {
    K(bind_detail::argument<typename bind_detail::param<I, F>::type, A[I].kind>(A[I].index, res, id)...);
  }
  static void run(const resources& res, const thread_ids& id) { call(res, id, std::make_index_sequence<N>()); }

  template <size_t... I> static std::string check(const resources& res, std::index_sequence<I...>) {
    std::string errors[] = {std::string(), bind_detail::check<typename bind_detail::param<I, F>::type>(res, A[I])...};
    for (const std::string& e : errors)
      if (!e.empty()) return e;
    return "";
  }
  static std::string check_all(const resources& res) { return check(res, std::make_index_sequence<N>()); }

  static bound_kernel make(const char* name, unsigned max_total_threads) {
    return bound_kernel{name, max_total_threads, &check_all, &run};
  }
};

} // namespace msl_exec
