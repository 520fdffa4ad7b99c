// MSL shim, part 5: atomic types and functions (MSL 3.2 sections 2.6 and 6.15.4).
//
// Models: metal::atomic<T> for T in {int, uint, bool, float, ulong}, atomic_int,
// atomic_uint, atomic_bool, atomic_float, atomic_ulong, each backed by a std::atomic<T>
// of the same size (so a buffer of uint can be viewed as device atomic_uint*), and
//   C    atomic_load_explicit(const A* object, memory_order)
//   void atomic_store_explicit(A* object, C desired, memory_order)
//   C    atomic_exchange_explicit(A* object, C desired, memory_order)
//   bool atomic_compare_exchange_weak_explicit(A* object, C* expected, C desired,
//                                              memory_order success, memory_order failure)
//   C    atomic_fetch_{add,sub,and,or,xor,min,max}_explicit(A* object, C operand, memory_order)
//   void atomic_{min,max}_explicit(atomic_ulong* object, ulong operand, memory_order)
// each accepting volatile and non-volatile pointers (device / threadgroup are erased).
// The type restrictions of the specification are enforced: fetch_add/sub take int,
// uint and float; and/or/xor/min/max take int and uint; load/store/exchange/compare-
// exchange take int, uint, bool and float; atomic_min/max_explicit take ulong.
// The memory order is checked at compile time: a constant other than
// memory_order_relaxed is an error ("memory_order_relaxed is the only enumeration value"
// for atomic operations; seq_cst is for atomic_thread_fence only).
//
// Does not model: that atomic_float is allowed in device memory only (address spaces are
// erased), atomic_flag-style C++ member functions, texture atomics.
#pragma once
#pragma clang system_header

#include "core.h"
#include "sync.h"

namespace metal {

template <typename T> struct atomic {
  static_assert(std::is_same<T, int>::value || std::is_same<T, uint>::value ||
                    std::is_same<T, bool>::value || std::is_same<T, float>::value ||
                    std::is_same<T, ulong>::value,
                "metal::atomic<T>: T must be int, uint, bool, float or ulong");
  std::atomic<T> __value;
  static_assert(sizeof(std::atomic<T>) == sizeof(T), "atomic<T> must have the size of T");
};
typedef atomic<int> atomic_int;
typedef atomic<uint> atomic_uint;
typedef atomic<bool> atomic_bool;
typedef atomic<float> atomic_float;
typedef atomic<ulong> atomic_ulong;

namespace __msl {
template <class T, class... U> constexpr bool one_of = (std::is_same<T, U>::value || ...);
template <class T> constexpr bool atomic_rw = one_of<T, int, uint, bool, float>;
template <class T> constexpr bool atomic_arith = one_of<T, int, uint, float>;
template <class T> constexpr bool atomic_int_op = one_of<T, int, uint>;
} // namespace __msl

#define __MSL_RELAXED_ONLY(ORDER)                                                          \
  __attribute__((diagnose_if(ORDER != memory_order_relaxed,                               \
                             "MSL atomic operations only take memory_order_relaxed "      \
                             "(memory_order_seq_cst is for atomic_thread_fence only)",     \
                             "error")))

template <class T, std::enable_if_t<__msl::atomic_rw<T>, int> = 0>
inline T atomic_load_explicit(const volatile atomic<T>* object, memory_order order)
    __MSL_RELAXED_ONLY(order) {
  return object->__value.load(std::memory_order_relaxed);
}

template <class T, std::enable_if_t<__msl::atomic_rw<T>, int> = 0>
inline void atomic_store_explicit(volatile atomic<T>* object, __msl::identity_t<T> desired,
                                  memory_order order) __MSL_RELAXED_ONLY(order) {
  object->__value.store(desired, std::memory_order_relaxed);
}

template <class T, std::enable_if_t<__msl::atomic_rw<T>, int> = 0>
inline T atomic_exchange_explicit(volatile atomic<T>* object, __msl::identity_t<T> desired,
                                  memory_order order) __MSL_RELAXED_ONLY(order) {
  return object->__value.exchange(desired, std::memory_order_relaxed);
}

template <class T, std::enable_if_t<__msl::atomic_rw<T>, int> = 0>
inline bool atomic_compare_exchange_weak_explicit(volatile atomic<T>* object,
                                                  __msl::identity_t<T>* expected,
                                                  __msl::identity_t<T> desired,
                                                  memory_order success, memory_order failure)
    __MSL_RELAXED_ONLY(success) __MSL_RELAXED_ONLY(failure) {
  return object->__value.compare_exchange_weak(*expected, desired, std::memory_order_relaxed,
                                               std::memory_order_relaxed);
}

namespace __msl {
template <class T, class F> inline T fetch_modify(volatile atomic<T>* object, F f) {
  T old = object->__value.load(std::memory_order_relaxed);
  while (!object->__value.compare_exchange_weak(old, f(old), std::memory_order_relaxed,
                                                std::memory_order_relaxed)) {
  }
  return old;
}
} // namespace __msl

#define __MSL_FETCH_OP(NAME, COND, EXPR)                                                   \
  template <class T, std::enable_if_t<COND, int> = 0>                                      \
  inline T atomic_fetch_##NAME##_explicit(volatile atomic<T>* object,                      \
                                          __msl::identity_t<T> operand, memory_order order) \
      __MSL_RELAXED_ONLY(order) {                                                          \
    return __msl::fetch_modify(object, [operand](T old) -> T { return EXPR; });            \
  }
namespace __msl {
// Integer add/sub wrap around (two's complement): computed unsigned to avoid UB.
template <class T> inline T wrap_add(T a, T b) {
  if constexpr (std::is_integral<T>::value) return T(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b));
  else return a + b;
}
template <class T> inline T wrap_sub(T a, T b) {
  if constexpr (std::is_integral<T>::value) return T(std::make_unsigned_t<T>(a) - std::make_unsigned_t<T>(b));
  else return a - b;
}
} // namespace __msl
__MSL_FETCH_OP(add, __msl::atomic_arith<T>, __msl::wrap_add(old, operand))
__MSL_FETCH_OP(sub, __msl::atomic_arith<T>, __msl::wrap_sub(old, operand))
__MSL_FETCH_OP(and, __msl::atomic_int_op<T>, T(old & operand))
__MSL_FETCH_OP(or, __msl::atomic_int_op<T>, T(old | operand))
__MSL_FETCH_OP(xor, __msl::atomic_int_op<T>, T(old ^ operand))
__MSL_FETCH_OP(min, __msl::atomic_int_op<T>, operand < old ? operand : old)
__MSL_FETCH_OP(max, __msl::atomic_int_op<T>, old < operand ? operand : old)
#undef __MSL_FETCH_OP

// 64-bit atomic min/max (MSL 2.4+, return nothing).
inline void atomic_min_explicit(volatile atomic_ulong* object, ulong operand, memory_order order)
    __MSL_RELAXED_ONLY(order) {
  __msl::fetch_modify(object, [operand](ulong old) { return operand < old ? operand : old; });
}
inline void atomic_max_explicit(volatile atomic_ulong* object, ulong operand, memory_order order)
    __MSL_RELAXED_ONLY(order) {
  __msl::fetch_modify(object, [operand](ulong old) { return old < operand ? operand : old; });
}
#undef __MSL_RELAXED_ONLY

} // namespace metal
