// MSL shim, part 6: SIMD-group and quad-group functions (MSL 3.2 6.9.2 and 6.9.3).
//
// Models, for T a scalar or vector of char, uchar, short, ushort, int, uint, half or
// float (not bool, long, ulong, double; as the specification's tables; quad functions
// also take long/ulong):
//   T simd_shuffle(T, ushort lane)         T simd_shuffle_xor(T, ushort mask)
//   T simd_shuffle_up(T, ushort delta)     T simd_shuffle_down(T, ushort delta)
//   T simd_shuffle_rotate_up/down(T, ushort delta)
//   T simd_broadcast(T, ushort lane)       T simd_broadcast_first(T)
//   T simd_sum/product/min/max(T)          T simd_prefix_{inclusive,exclusive}_{sum,product}(T)
//   Ti simd_and/or/xor(Ti)  (integers)     bool simd_all(bool), simd_any(bool), simd_is_first()
//   simd_vote simd_ballot(bool), simd_active_threads_mask()
//   quad_shuffle, quad_shuffle_xor, quad_shuffle_up, quad_shuffle_down,
//   quad_shuffle_rotate_up/down, quad_broadcast, quad_broadcast_first, quad_sum,
//   quad_product, quad_min, quad_max, quad_and/or/xor, quad_all, quad_any, quad_is_first,
//   quad_ballot / quad_vote, quad_prefix_* .
// The specification lists simd_shuffle_xor with Ti (integers); Metal accepts float and
// half too, and SPD-style code relies on it, so the shim does.
//
// Implementation: every function is written with __rt::simd_exchange and friends (see
// sync.h), so it has the specification's semantics once the executor provides real
// lanes. Each takes a defaulted last parameter, __rt::site where = __rt::site::here(),
// the MSL line that called it, which it hands to the hooks (MSL code never passes it). With the default single-thread runtime (lane 0 of a 1-wide SIMD-group) a
// shuffle or broadcast returns the calling thread's own value and a reduction returns
// its argument. THE CPU EXECUTOR REPLACES THE HOOKS, NOT THESE FUNCTIONS.
//
// Does not model: helper threads, simd_shuffle_and_fill_up/down, simdgroup matrices.
#pragma once
#pragma clang system_header

#include "core.h"
#include "sync.h"

namespace metal {
namespace __msl {
template <class S> constexpr bool simd_scalar =
    std::is_same<S, char>::value || std::is_same<S, signed char>::value ||
    std::is_same<S, uchar>::value || std::is_same<S, short>::value ||
    std::is_same<S, ushort>::value || std::is_same<S, int>::value ||
    std::is_same<S, uint>::value || std::is_same<S, half>::value || std::is_same<S, float>::value;
template <class T> constexpr bool simd_type =
    (vtraits<T>::size == 1 || (vtraits<T>::is_vec && !std::is_same<elem_t<T>, bool>::value)) &&
    simd_scalar<elem_t<T>>;
template <class T> constexpr bool simd_int_type = simd_type<T> && is_int_scalar<elem_t<T>>::value;
template <class T> constexpr bool quad_type =
    simd_type<T> || (vtraits<T>::size > 0 && !std::is_same<elem_t<T>, bool>::value &&
                     (std::is_same<elem_t<T>, long>::value || std::is_same<elem_t<T>, ulong>::value));
template <class T> constexpr bool quad_int_type = quad_type<T> && is_int_scalar<elem_t<T>>::value;

// Group geometry: a SIMD-group of simd_size() lanes, or the quad (4 lanes) of the caller,
// and the MSL call site every exchange of this call reports.
struct group {
  uint base, width, lane;
  __rt::site where;
  static group simd(__rt::site w) { return {0u, __rt::simd_size(), __rt::simd_lane_id(), w}; }
  static group quad(__rt::site w) {
    uint l = __rt::simd_lane_id();
    uint n = __rt::simd_size();
    uint b = l & ~3u;
    return {b, (n - b) < 4u ? (n - b) : 4u, l - b, w};
  }
  // Active lanes of the whole SIMD-group (bit i = lane i); a collective call.
  uint64_t active_mask() const { return __rt::simd_active_mask(where); }
  bool active(uint64_t mask, uint i) const { return __rt::lane_active(mask, base + i); }
  template <class T> T get(const T& v, uint i) const { return __rt::exchange(v, ushort(base + i), where); }
};

// Reduce over the active lanes of g (each lane calls exchange the same number of times).
template <class T, class F> inline T reduce(group g, const T& v, F f) {
  uint64_t mask = g.active_mask();
  bool have = false;
  T acc = v;
  for (uint i = 0; i < g.width; ++i) {
    T x = g.get(v, i);
    if (!g.active(mask, i)) continue;
    acc = have ? f(acc, x) : x;
    have = true;
  }
  return acc;
}
template <class T, class F> inline T prefix(group g, const T& v, T identity, F f, bool inclusive) {
  uint64_t mask = g.active_mask();
  T acc = identity;
  for (uint i = 0; i < g.width; ++i) {
    T x = g.get(v, i);
    if (!g.active(mask, i)) continue;
    if (i < g.lane || (inclusive && i == g.lane)) acc = f(acc, x);
  }
  return acc;
}
template <class T> inline T vmin(const T& a, const T& b) {
  if constexpr (vtraits<T>::is_vec) {
    T r = a;
    for (int i = 0; i < vtraits<T>::size; ++i) if (b[i] < a[i]) r[i] = b[i];
    return r;
  } else {
    return b < a ? b : a;
  }
}
template <class T> inline T vmax(const T& a, const T& b) {
  if constexpr (vtraits<T>::is_vec) {
    T r = a;
    for (int i = 0; i < vtraits<T>::size; ++i) if (a[i] < b[i]) r[i] = b[i];
    return r;
  } else {
    return a < b ? b : a;
  }
}
} // namespace __msl

// simd_vote / quad_vote (MSL 3.2 6.9.2, 6.9.3).
class simd_vote {
public:
  typedef uint64_t vote_t;
  explicit constexpr simd_vote(vote_t v = 0) : v(v) {}
  explicit constexpr operator vote_t() const { return v; }
  bool all() const {
    uint n = __rt::simd_size();
    return n >= 64 ? v == ~vote_t(0) : (v & ((vote_t(1) << n) - 1)) == ((vote_t(1) << n) - 1);
  }
  bool any() const {
    uint n = __rt::simd_size();
    return n >= 64 ? v != 0 : (v & ((vote_t(1) << n) - 1)) != 0;
  }

private:
  vote_t v;
};
class quad_vote {
public:
  typedef unsigned vote_t;
  explicit constexpr quad_vote(vote_t v = 0) : v(v & 0xfu) {}
  explicit constexpr operator vote_t() const { return v; }
  bool all() const { return v == 0xfu; }
  bool any() const { return v != 0; }

private:
  vote_t v;
};

#define __MSL_SIMD_T(T) template <class T, std::enable_if_t<__msl::simd_type<T>, int> = 0>
#define __MSL_SIMD_TI(T) template <class T, std::enable_if_t<__msl::simd_int_type<T>, int> = 0>
#define __MSL_QUAD_T(T) template <class T, std::enable_if_t<__msl::quad_type<T>, int> = 0>
#define __MSL_QUAD_TI(T) template <class T, std::enable_if_t<__msl::quad_int_type<T>, int> = 0>
// The defaulted call-site parameter every function below ends with.
#define __MSL_SITE __rt::site where = __rt::site::here()

// ---- SIMD-group permutes -----------------------------------------------------------
__MSL_SIMD_T(T) inline T simd_shuffle(T data, ushort simd_lane_id, __MSL_SITE) {
  return __rt::exchange(data, simd_lane_id, where);
}
__MSL_SIMD_T(T) inline T simd_broadcast(T data, ushort broadcast_lane_id, __MSL_SITE) {
  return __rt::exchange(data, broadcast_lane_id, where);
}
__MSL_SIMD_T(T) inline T simd_shuffle_xor(T data, ushort mask, __MSL_SITE) {
  return __rt::exchange(data, ushort(__rt::simd_lane_id() ^ mask), where);
}
__MSL_SIMD_T(T) inline T simd_shuffle_up(T data, ushort delta, __MSL_SITE) {
  uint lane = __rt::simd_lane_id(); // lower delta lanes keep their own value
  return __rt::exchange(data, ushort(lane >= delta ? lane - delta : lane), where);
}
__MSL_SIMD_T(T) inline T simd_shuffle_down(T data, ushort delta, __MSL_SITE) {
  uint lane = __rt::simd_lane_id(), n = __rt::simd_size(); // upper delta lanes keep theirs
  return __rt::exchange(data, ushort(lane + delta < n ? lane + delta : lane), where);
}
__MSL_SIMD_T(T) inline T simd_shuffle_rotate_up(T data, ushort delta, __MSL_SITE) {
  uint lane = __rt::simd_lane_id(), n = __rt::simd_size();
  return __rt::exchange(data, ushort((lane + n - delta % n) % n), where);
}
__MSL_SIMD_T(T) inline T simd_shuffle_rotate_down(T data, ushort delta, __MSL_SITE) {
  uint lane = __rt::simd_lane_id(), n = __rt::simd_size();
  return __rt::exchange(data, ushort((lane + delta) % n), where);
}
__MSL_SIMD_T(T) inline T simd_broadcast_first(T data, __MSL_SITE) {
  uint64_t m = __rt::simd_active_mask(where);
  return __rt::exchange(data, ushort(m ? __builtin_ctzll(m) : 0), where);
}

// ---- SIMD-group reductions ---------------------------------------------------------
#define __MSL_SIMD_REDUCE(CONSTRAINT, NAME, EXPR)                                          \
  CONSTRAINT(T) inline T NAME(T data, __MSL_SITE) {                                        \
    return __msl::reduce(__msl::group::simd(where), data, [](T a, T b) { return EXPR; }); \
  }
__MSL_SIMD_REDUCE(__MSL_SIMD_T, simd_sum, T(a + b))
__MSL_SIMD_REDUCE(__MSL_SIMD_T, simd_product, T(a * b))
__MSL_SIMD_REDUCE(__MSL_SIMD_T, simd_min, __msl::vmin(a, b))
__MSL_SIMD_REDUCE(__MSL_SIMD_T, simd_max, __msl::vmax(a, b))
__MSL_SIMD_REDUCE(__MSL_SIMD_TI, simd_and, T(a & b))
__MSL_SIMD_REDUCE(__MSL_SIMD_TI, simd_or, T(a | b))
__MSL_SIMD_REDUCE(__MSL_SIMD_TI, simd_xor, T(a ^ b))
#undef __MSL_SIMD_REDUCE
#define __MSL_SIMD_PREFIX(NAME, IDENTITY, EXPR, INCLUSIVE)                                 \
  __MSL_SIMD_T(T) inline T NAME(T data, __MSL_SITE) {                                      \
    return __msl::prefix(__msl::group::simd(where), data, T(IDENTITY),                     \
                         [](T a, T b) { return T(EXPR); }, INCLUSIVE);                     \
  }
__MSL_SIMD_PREFIX(simd_prefix_inclusive_sum, 0, a + b, true)
__MSL_SIMD_PREFIX(simd_prefix_exclusive_sum, 0, a + b, false)
__MSL_SIMD_PREFIX(simd_prefix_inclusive_product, 1, a * b, true)
__MSL_SIMD_PREFIX(simd_prefix_exclusive_product, 1, a * b, false)
#undef __MSL_SIMD_PREFIX

inline simd_vote simd_ballot(bool expr, __MSL_SITE) {
  __msl::group g = __msl::group::simd(where);
  uint64_t mask = g.active_mask();
  simd_vote::vote_t v = 0;
  for (uint i = 0; i < g.width; ++i) {
    bool x = g.get(expr, i);
    if (g.active(mask, i) && x) v |= simd_vote::vote_t(1) << i;
  }
  return simd_vote(v);
}
inline simd_vote simd_active_threads_mask(__MSL_SITE) { return simd_vote(__rt::simd_active_mask(where)); }
inline bool simd_all(bool expr, __MSL_SITE) {
  return (simd_vote::vote_t)simd_ballot(expr, where) == __rt::simd_active_mask(where);
}
inline bool simd_any(bool expr, __MSL_SITE) { return (simd_vote::vote_t)simd_ballot(expr, where) != 0; }
inline bool simd_is_first(__MSL_SITE) {
  uint64_t m = __rt::simd_active_mask(where);
  return m && uint(__builtin_ctzll(m)) == __rt::simd_lane_id();
}

// ---- quad-group functions ------------------------------------------------------------
namespace __msl {
template <class T> inline T quad_get(const T& v, uint quad_lane, __rt::site where) {
  return group::quad(where).get(v, quad_lane & 3u);
}
} // namespace __msl
__MSL_QUAD_T(T) inline T quad_shuffle(T data, ushort quad_lane_id, __MSL_SITE) {
  return __msl::quad_get(data, quad_lane_id, where);
}
__MSL_QUAD_T(T) inline T quad_broadcast(T data, ushort broadcast_lane_id, __MSL_SITE) {
  return __msl::quad_get(data, broadcast_lane_id, where);
}
__MSL_QUAD_T(T) inline T quad_shuffle_xor(T data, ushort mask, __MSL_SITE) {
  return __msl::quad_get(data, (__rt::simd_lane_id() & 3u) ^ mask, where);
}
__MSL_QUAD_T(T) inline T quad_shuffle_up(T data, ushort delta, __MSL_SITE) {
  uint l = __rt::simd_lane_id() & 3u;
  return __msl::quad_get(data, l >= delta ? l - delta : l, where);
}
__MSL_QUAD_T(T) inline T quad_shuffle_down(T data, ushort delta, __MSL_SITE) {
  uint l = __rt::simd_lane_id() & 3u;
  return __msl::quad_get(data, l + delta < 4u ? l + delta : l, where);
}
__MSL_QUAD_T(T) inline T quad_shuffle_rotate_up(T data, ushort delta, __MSL_SITE) {
  return __msl::quad_get(data, ((__rt::simd_lane_id() & 3u) + 4u - (delta & 3u)) & 3u, where);
}
__MSL_QUAD_T(T) inline T quad_shuffle_rotate_down(T data, ushort delta, __MSL_SITE) {
  return __msl::quad_get(data, ((__rt::simd_lane_id() & 3u) + delta) & 3u, where);
}
__MSL_QUAD_T(T) inline T quad_broadcast_first(T data, __MSL_SITE) {
  __msl::group g = __msl::group::quad(where);
  uint64_t mask = g.active_mask();
  uint first = 0;
  for (uint i = g.width; i-- > 0;)
    if (g.active(mask, i)) first = i;
  return g.get(data, first);
}
#define __MSL_QUAD_REDUCE(CONSTRAINT, NAME, EXPR)                                          \
  CONSTRAINT(T) inline T NAME(T data, __MSL_SITE) {                                        \
    return __msl::reduce(__msl::group::quad(where), data, [](T a, T b) { return EXPR; }); \
  }
__MSL_QUAD_REDUCE(__MSL_QUAD_T, quad_sum, T(a + b))
__MSL_QUAD_REDUCE(__MSL_QUAD_T, quad_product, T(a * b))
__MSL_QUAD_REDUCE(__MSL_QUAD_T, quad_min, __msl::vmin(a, b))
__MSL_QUAD_REDUCE(__MSL_QUAD_T, quad_max, __msl::vmax(a, b))
__MSL_QUAD_REDUCE(__MSL_QUAD_TI, quad_and, T(a & b))
__MSL_QUAD_REDUCE(__MSL_QUAD_TI, quad_or, T(a | b))
__MSL_QUAD_REDUCE(__MSL_QUAD_TI, quad_xor, T(a ^ b))
#undef __MSL_QUAD_REDUCE
#define __MSL_QUAD_PREFIX(NAME, IDENTITY, EXPR, INCLUSIVE)                                 \
  __MSL_QUAD_T(T) inline T NAME(T data, __MSL_SITE) {                                      \
    return __msl::prefix(__msl::group::quad(where), data, T(IDENTITY),                     \
                         [](T a, T b) { return T(EXPR); }, INCLUSIVE);                     \
  }
__MSL_QUAD_PREFIX(quad_prefix_inclusive_sum, 0, a + b, true)
__MSL_QUAD_PREFIX(quad_prefix_exclusive_sum, 0, a + b, false)
__MSL_QUAD_PREFIX(quad_prefix_inclusive_product, 1, a * b, true)
__MSL_QUAD_PREFIX(quad_prefix_exclusive_product, 1, a * b, false)
#undef __MSL_QUAD_PREFIX
inline quad_vote quad_ballot(bool expr, __MSL_SITE) {
  __msl::group g = __msl::group::quad(where);
  uint64_t mask = g.active_mask();
  quad_vote::vote_t v = 0;
  for (uint i = 0; i < g.width; ++i) {
    bool x = g.get(expr, i);
    if (g.active(mask, i) && x) v |= 1u << i;
  }
  return quad_vote(v);
}
inline quad_vote quad_active_threads_mask(__MSL_SITE) {
  __msl::group g = __msl::group::quad(where);
  uint64_t mask = g.active_mask();
  quad_vote::vote_t v = 0;
  for (uint i = 0; i < g.width; ++i)
    if (g.active(mask, i)) v |= 1u << i;
  return quad_vote(v);
}
inline bool quad_all(bool expr, __MSL_SITE) {
  return (quad_vote::vote_t)quad_ballot(expr, where) ==
         (quad_vote::vote_t)quad_active_threads_mask(where);
}
inline bool quad_any(bool expr, __MSL_SITE) { return (quad_vote::vote_t)quad_ballot(expr, where) != 0; }
inline bool quad_is_first(__MSL_SITE) {
  __msl::group g = __msl::group::quad(where);
  uint64_t mask = g.active_mask();
  for (uint i = 0; i < g.width; ++i)
    if (g.active(mask, i)) return i == g.lane;
  return false;
}

#undef __MSL_SITE
#undef __MSL_SIMD_T
#undef __MSL_SIMD_TI
#undef __MSL_QUAD_T
#undef __MSL_QUAD_TI

} // namespace metal
