// MSL shim, part 1: scalar types, vector types, vector constructors, as_type.
//
// Models: MSL 3.2 section 2 scalar types (uchar, ushort, uint, ulong, half), the
// vector types <scalar>{2,3,4} and metal::vec<T, N> as clang ext_vector_type (so
// swizzles, .xyzw/.rgba, v[i], component-wise operators and scalar splat in
// arithmetic are the compiler's own), bool2/3/4, MSL vector constructors and
// conversions, as_type<T>(), the half literal suffix (1.0h), and the C++17 type traits
// that MSL has in namespace metal (enable_if, is_integral, is_floating_point<half> ...).
//
// Does not model: bfloat, packed_<type>N, matrices (float4x4 ...), vec<bool, N>
// (clang 14 rejects ext_vector_type(bool); bool2/3/4 are a small class instead),
// comparison results: a < b on float4 is clang's int4 mask, not bool4 (bool4 accepts
// the mask implicitly, so "int4 m = a < b;", which Metal rejects, passes here),
// static_cast between vector types (clang bit-casts same-size vectors; MSL converts
// values: write float4(v) instead),
// size/alignment rules beyond what ext_vector_type gives (they match for
// float/half/int vectors: float3 is 16 bytes, as in MSL).
//
// half: clang 14 has no _Float16 on x86_64, so half is __fp16 made a real
// arithmetic type by -Xclang -fnative-half-type (half + half is half, half is
// passed and returned by value with -fnative-half-arguments-and-returns).
// check-msl.sh passes both; the static_assert below says so if they are missing.
// To link (the CPU executor) these call __gnu_h2f_ieee/__gnu_f2h_ieee,
// which libgcc lacks; weak definitions are at the end of this file.
#pragma once
#pragma clang system_header

// Standard headers come first and nothing later may include one: the MSL keywords
// (device, thread, constant, kernel ...) and the vector constructors (float4(...))
// become macros at the very end of <metal_stdlib>.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

// The Metal compiler predefines the language version (3.2 -> 320).
#ifndef __METAL_VERSION__
#define __METAL_VERSION__ 320
#endif

#if !defined(__clang__)
#error "the MSL shim needs clang (ext_vector_type, diagnose_if, __fp16)"
#endif

static_assert(sizeof((__fp16)1 + (__fp16)1) == 2,
              "MSL shim: half needs clang's native half type: compile with "
              "-Xclang -fnative-half-type -Xclang -fnative-half-arguments-and-returns "
              "(tests/msl/check-msl.sh does)");

// ---- scalar types (global, as MSL's built-in type names are) ------------------
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong; // 64-bit on LP64 hosts, as MSL's ulong
typedef __fp16 half;

// ---- vector types --------------------------------------------------------------
namespace metal {
// As in Apple's header: vec<T, N> is an alias of an ext_vector_type.
template <typename T, int N> using vec = T __attribute__((__ext_vector_type__(N)));
namespace __msl {
template <int N> struct bvec;
}
} // namespace metal

#define __MSL_VEC_TYPEDEFS(S)                                                              \
  typedef metal::vec<S, 2> S##2;                                                          \
  typedef metal::vec<S, 3> S##3;                                                          \
  typedef metal::vec<S, 4> S##4;
__MSL_VEC_TYPEDEFS(char)
__MSL_VEC_TYPEDEFS(uchar)
__MSL_VEC_TYPEDEFS(short)
__MSL_VEC_TYPEDEFS(ushort)
__MSL_VEC_TYPEDEFS(int)
__MSL_VEC_TYPEDEFS(uint)
__MSL_VEC_TYPEDEFS(long)
__MSL_VEC_TYPEDEFS(ulong)
__MSL_VEC_TYPEDEFS(half)
__MSL_VEC_TYPEDEFS(float)
#undef __MSL_VEC_TYPEDEFS
typedef metal::__msl::bvec<2> bool2;
typedef metal::__msl::bvec<3> bool3;
typedef metal::__msl::bvec<4> bool4;

// Every type name is also reachable as metal::name.
namespace metal {
using ::half;
using ::uchar;
using ::uint;
using ::ulong;
using ::ushort;
#define __MSL_USING_VEC(S) using ::S##2; using ::S##3; using ::S##4;
__MSL_USING_VEC(char)
__MSL_USING_VEC(uchar)
__MSL_USING_VEC(short)
__MSL_USING_VEC(ushort)
__MSL_USING_VEC(int)
__MSL_USING_VEC(uint)
__MSL_USING_VEC(long)
__MSL_USING_VEC(ulong)
__MSL_USING_VEC(half)
__MSL_USING_VEC(float)
__MSL_USING_VEC(bool)
#undef __MSL_USING_VEC
} // namespace metal

// ---- metal type traits (<metal_type_traits>: the C++17 ones) ------------------------
// Scalar traits as in C++17, with half a floating-point type. Vector types are not
// integral / floating point here.
namespace metal {
using std::add_const;
using std::add_cv;
using std::add_volatile;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::integral_constant;
using std::is_base_of;
using std::is_const;
using std::is_convertible;
using std::is_integral;
using std::is_pointer;
using std::is_reference;
using std::is_same;
using std::is_signed;
using std::is_unsigned;
using std::is_void;
using std::is_volatile;
using std::make_signed;
using std::make_signed_t;
using std::make_unsigned;
using std::make_unsigned_t;
using std::remove_const;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::true_type;
template <class T>
struct is_floating_point
    : integral_constant<bool, std::is_floating_point<T>::value ||
                                  std::is_same<std::remove_cv_t<T>, __fp16>::value> {};
template <class T>
struct is_arithmetic : integral_constant<bool, is_integral<T>::value || is_floating_point<T>::value> {};
template <class T, class U> inline constexpr bool is_same_v = is_same<T, U>::value;
template <class T> inline constexpr bool is_integral_v = is_integral<T>::value;
template <class T> inline constexpr bool is_floating_point_v = is_floating_point<T>::value;
template <class T> inline constexpr bool is_arithmetic_v = is_arithmetic<T>::value;
template <class T> inline constexpr bool is_signed_v = is_signed<T>::value;
template <class T> inline constexpr bool is_unsigned_v = is_unsigned<T>::value;

// numeric_limits<T>: std's for the C++ types, and one for half.
template <class T> struct numeric_limits : std::numeric_limits<T> {};
template <> struct numeric_limits<__fp16> {
  static constexpr bool is_specialized = true, is_signed = true, is_integer = false,
                        is_exact = false, has_infinity = true, has_quiet_NaN = true;
  static constexpr int digits = 11, max_exponent = 16, min_exponent = -13, radix = 2;
  static constexpr __fp16 min() { return __fp16(0x1p-14f); }
  static constexpr __fp16 max() { return __fp16(65504.0f); }
  static constexpr __fp16 lowest() { return __fp16(-65504.0f); }
  static constexpr __fp16 epsilon() { return __fp16(0x1p-10f); }
  static constexpr __fp16 denorm_min() { return __fp16(0x1p-24f); }
  static constexpr __fp16 infinity() { return __fp16(__builtin_huge_valf()); }
  static constexpr __fp16 quiet_NaN() { return __fp16(__builtin_nanf("")); }
};
} // namespace metal

namespace metal {
namespace __msl {

// ---- type traits used by every other part ------------------------------------------
// Scalars a vector constructor or a conversion accepts. double is accepted only as a
// source (MSL has no double variables, but 1.0 literals appear in constructors).
template <class T> struct is_scalar : std::false_type {};
#define __MSL_SCALAR(T)                                                                    \
  template <> struct is_scalar<T> : std::true_type {};
__MSL_SCALAR(bool)
__MSL_SCALAR(char)
__MSL_SCALAR(signed char)
__MSL_SCALAR(unsigned char)
__MSL_SCALAR(short)
__MSL_SCALAR(unsigned short)
__MSL_SCALAR(int)
__MSL_SCALAR(unsigned int)
__MSL_SCALAR(long)
__MSL_SCALAR(unsigned long)
__MSL_SCALAR(long long)
__MSL_SCALAR(unsigned long long)
__MSL_SCALAR(__fp16)
__MSL_SCALAR(float)
__MSL_SCALAR(double)
#undef __MSL_SCALAR

template <class T> struct is_float_scalar : std::false_type {};
template <> struct is_float_scalar<__fp16> : std::true_type {};
template <> struct is_float_scalar<float> : std::true_type {};

template <class T> struct is_int_scalar
    : std::integral_constant<bool, std::is_integral<T>::value && !std::is_same<T, bool>::value> {};

// vtraits<T>: size (0 = neither scalar nor vector, 1 = scalar, N = vector), elem, is_vec.
template <class T> struct vtraits {
  static constexpr int size = is_scalar<T>::value ? 1 : 0;
  static constexpr bool is_vec = false;
  using elem = T;
};
template <class T, int N> struct vtraits<vec<T, N>> {
  static constexpr int size = N;
  static constexpr bool is_vec = true;
  using elem = T;
};
template <int N> struct vtraits<bvec<N>> {
  static constexpr int size = N;
  static constexpr bool is_vec = true;
  using elem = bool;
};
template <class T> struct vtraits<const T> : vtraits<T> {};
template <class T> using elem_t = typename vtraits<T>::elem;

template <class T> struct identity { using type = T; };
template <class T> using identity_t = typename identity<T>::type;

// A comparison of two ext vectors yields a vector of signed integers of the element
// width (float4 < float4 is int4, half4 < half4 is short4), not bool4 as in MSL.
// bool2/3/4 accept those masks implicitly; see bvec.
template <class V, int N>
constexpr bool is_int_vec_n = vtraits<V>::is_vec && vtraits<V>::size == N &&
                              is_int_scalar<typename vtraits<V>::elem>::value;

// ---- vector construction (used by the float4(...) style macros and bool2/3/4) ------
template <class E, int N, class... A> constexpr bool components_fit() {
  constexpr int total = (0 + ... + vtraits<A>::size);
  if constexpr (sizeof...(A) == 0) {
    return true;
  } else if constexpr (!((vtraits<A>::size > 0) && ...)) {
    return false;
  } else if constexpr (sizeof...(A) == 1) {
    return total == 1 || total == N;
  } else {
    return total == N &&
           ((!vtraits<A>::is_vec || std::is_same<typename vtraits<A>::elem, E>::value) && ...);
  }
}

template <class E, int N> struct components {
  E c[N] = {};
  int n = 0;
  template <class A> constexpr void put(const A& a) {
    if constexpr (vtraits<A>::is_vec) {
      for (int k = 0; k < vtraits<A>::size; ++k)
        c[n++] = static_cast<E>(a[k]);
    } else {
      c[n++] = static_cast<E>(a);
    }
  }
};

template <class V, class E, int N, int... I>
constexpr V from_components(const components<E, N>& cs, std::integer_sequence<int, I...>) {
  return V{cs.c[I]...};
}

// make<V>(args...): the MSL vector constructor V(args...).
//   V()                 all components zero
//   V(scalar)           splat (any arithmetic scalar, converted)
//   V(vector)           same number of components: copy or value conversion
//                       (float4(int4), float4(half4), int2(uint2) ...)
//   V(a, b, ...)        scalars and vectors whose components add up to exactly N;
//                       vector arguments need V's element type (as MSL, which has no
//                       implicit vector-to-vector conversion); scalars convert.
// Constant-evaluable for scalar arguments (clang 14 cannot constant-evaluate v[i]).
template <class V, class... A> constexpr V make(const A&... a) {
  using E = typename vtraits<V>::elem;
  constexpr int N = vtraits<V>::size;
  static_assert(((vtraits<A>::size > 0) && ...),
                "MSL vector constructor: every argument must be a scalar or a vector");
  constexpr int total = (0 + ... + vtraits<A>::size);
  if constexpr (sizeof...(A) == 0) {
    return V{};
  } else if constexpr (sizeof...(A) == 1 && total == 1) {
    components<E, N> cs;
    for (int k = 0; k < N; ++k)
      (cs.put(a), ...);
    return from_components<V>(cs, std::make_integer_sequence<int, N>());
  } else if constexpr (sizeof...(A) == 1) {
    static_assert(total == N,
                  "MSL vector conversion: the source vector must have as many components "
                  "as the result (drop components with a swizzle such as v.xyz)");
    components<E, N> cs;
    (cs.put(a), ...);
    return from_components<V>(cs, std::make_integer_sequence<int, N>());
  } else {
    static_assert(total == N, "MSL vector constructor: the components of the arguments must "
                              "add up to exactly the number of components of the vector");
    static_assert(((!vtraits<A>::is_vec || std::is_same<typename vtraits<A>::elem, E>::value) && ...),
                  "MSL vector constructor: a vector argument must have the element type of "
                  "the vector being built (convert it first, e.g. float2(some_int2))");
    components<E, N> cs;
    (cs.put(a), ...);
    return from_components<V>(cs, std::make_integer_sequence<int, N>());
  }
}

// ---- bool2 / bool3 / bool4 ---------------------------------------------------------
// clang 14 rejects ext_vector_type(bool), so boolN is a small class: members x, y, z, w,
// operator[], component-wise !, &&, ||, ==, !=, &, |, ^. It converts implicitly from a
// comparison mask (int4 from float4 < float4 ...) and from a bool scalar (splat), and
// explicitly (bool4(v)) from any 4-component vector. No swizzles (v.xy) on boolN.
template <int N> struct bvec_data;
template <> struct bvec_data<2> { bool x, y; };
template <> struct bvec_data<3> { bool x, y, z; };
template <> struct bvec_data<4> { bool x, y, z, w; };

template <class E, int N, int... I>
constexpr bvec_data<N> bdata_from(const components<E, N>& cs, std::integer_sequence<int, I...>) {
  return bvec_data<N>{cs.c[I]...};
}

template <int N> struct bvec : bvec_data<N> {
  constexpr bvec() : bvec_data<N>{} {}
  constexpr bvec(const bvec&) = default;
  constexpr bvec& operator=(const bvec&) = default;
  constexpr bvec(const bvec_data<N>& d) : bvec_data<N>(d) {}
  // Splat from a scalar, or a comparison mask: implicit.
  template <class A, std::enable_if_t<vtraits<A>::size == 1 || is_int_vec_n<A, N>, int> = 0>
  constexpr bvec(const A& a) : bvec_data<N>(bdata_from(collect(a), std::make_integer_sequence<int, N>())) {}
  // Conversion from another N-component vector: explicit.
  template <class A, std::enable_if_t<vtraits<A>::is_vec && vtraits<A>::size == N &&
                                          !is_int_vec_n<A, N> && !std::is_same<A, bvec>::value,
                                      int> = 0>
  explicit constexpr bvec(const A& a) : bvec_data<N>(bdata_from(collect(a), std::make_integer_sequence<int, N>())) {}
  // Components: bool4(b0, b1, b2.xy) ...
  template <class A0, class A1, class... A,
            std::enable_if_t<components_fit<bool, N, A0, A1, A...>(), int> = 0>
  constexpr bvec(const A0& a0, const A1& a1, const A&... a)
      : bvec_data<N>(bdata_from(collect(a0, a1, a...), std::make_integer_sequence<int, N>())) {}

  bool& operator[](int i) { return (&this->x)[i]; }
  constexpr bool operator[](int i) const {
    return i == 0 ? this->x : i == 1 ? this->y : i == 2 ? get2() : get3();
  }

private:
  constexpr bool get2() const {
    if constexpr (N > 2) return this->z; else return false;
  }
  constexpr bool get3() const {
    if constexpr (N > 3) return this->w; else return false;
  }
  template <class... A> static constexpr components<bool, N> collect(const A&... a) {
    components<bool, N> cs;
    if constexpr (sizeof...(A) == 1 && (0 + ... + vtraits<A>::size) == 1) {
      for (int k = 0; k < N; ++k)
        (cs.put(a), ...);
    } else {
      (cs.put(a), ...);
    }
    return cs;
  }
};

template <int N> constexpr bvec<N> operator!(const bvec<N>& a) {
  bvec<N> r;
  for (int i = 0; i < N; ++i) r[i] = !a[i];
  return r;
}
#define __MSL_BVEC_BINOP(OP)                                                               \
  template <int N> bvec<N> operator OP(const bvec<N>& a, const bvec<N>& b) {                \
    bvec<N> r;                                                                             \
    for (int i = 0; i < N; ++i) r[i] = bool(a[i] OP b[i]);                                 \
    return r;                                                                              \
  }
__MSL_BVEC_BINOP(&&)
__MSL_BVEC_BINOP(||)
__MSL_BVEC_BINOP(==)
__MSL_BVEC_BINOP(!=)
__MSL_BVEC_BINOP(&)
__MSL_BVEC_BINOP(|)
__MSL_BVEC_BINOP(^)
#undef __MSL_BVEC_BINOP

} // namespace __msl

// ---- vector constructor entry point ------------------------------------------------
// The float4(...) macros (defined last in <metal_stdlib>) expand to __msl_make<float4>(...).
template <class V, class... A> inline constexpr V __msl_make(const A&... a) {
  return __msl::make<V>(a...);
}

// ---- as_type<T>(v): reinterpret the bits of a scalar or vector of the same size -----
template <class T, class U> inline T as_type(const U& v) {
  static_assert(__msl::vtraits<T>::size > 0 && __msl::vtraits<U>::size > 0,
                "as_type: both types must be scalar or vector types");
  static_assert(!std::is_same<__msl::elem_t<T>, bool>::value &&
                    !std::is_same<__msl::elem_t<U>, bool>::value,
                "as_type: bool types cannot be reinterpreted");
  static_assert(sizeof(T) == sizeof(U), "as_type: the two types must have the same size");
  T r;
  __builtin_memcpy(&r, &v, sizeof(T));
  return r;
}

} // namespace metal

using metal::__msl_make;

// Half literals: 1.0h, 0.5h. (The 'h' suffix needs a user-defined literal operator in
// C++; it is reserved for the implementation, which the shim stands in for.) Converted
// through float: a direct long double -> half conversion would call libgcc's
// __truncxfhf2, whose _Float16 return convention differs from clang 14's __fp16.
constexpr half operator""h(long double v) { return static_cast<half>(static_cast<float>(v)); }

// ---- half conversion routines for linking (not needed for -fsyntax-only) -----------
// clang lowers __fp16 arithmetic on x86_64 to calls to these compiler-rt routines;
// Debian's libgcc does not provide them. Weak, so a real compiler-rt wins if linked.
extern "C" __attribute__((weak)) float __gnu_h2f_ieee(unsigned short h) {
  unsigned sign = (h >> 15) & 1u, exp = (h >> 10) & 31u, man = h & 1023u, bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign << 31;
    } else { // subnormal half: normalise
      exp = 113;
      while (!(man & 1024u)) { man <<= 1; --exp; }
      man &= 1023u;
      bits = (sign << 31) | (exp << 23) | (man << 13);
    }
  } else if (exp == 31) {
    bits = (sign << 31) | 0x7f800000u | (man << 13);
  } else {
    bits = (sign << 31) | ((exp + 112u) << 23) | (man << 13);
  }
  float f;
  __builtin_memcpy(&f, &bits, 4);
  return f;
}
extern "C" __attribute__((weak)) unsigned short __gnu_f2h_ieee(float f) {
  unsigned bits;
  __builtin_memcpy(&bits, &f, 4);
  unsigned sign = (bits >> 16) & 0x8000u, exp = (bits >> 23) & 255u, man = bits & 0x7fffffu;
  if (exp == 255) return (unsigned short)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0u));
  int e = (int)exp - 127 + 15;
  if (e >= 31) return (unsigned short)(sign | 0x7c00u); // overflow: infinity
  if (e <= 0) {                                          // subnormal or zero
    if (e < -10) return (unsigned short)sign;
    man |= 0x800000u;
    unsigned shift = (unsigned)(14 - e), half_man = man >> shift, rem = man & ((1u << shift) - 1u),
             halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half_man & 1u))) ++half_man;
    return (unsigned short)(sign | half_man);
  }
  unsigned out = sign | ((unsigned)e << 10) | (man >> 13), rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (out & 1u))) ++out; // round to nearest even
  return (unsigned short)out;
}
// double -> half (and long double -> half) are lowered to these; libgcc 12 has them
// with a different return convention, so the shim's weak definitions must win.
// (Rounds twice, through float; MSL has no double anyway.)
extern "C" __attribute__((weak)) unsigned short __truncdfhf2(double d) {
  return __gnu_f2h_ieee((float)d);
}
extern "C" __attribute__((weak)) unsigned short __truncxfhf2(long double d) {
  return __gnu_f2h_ieee((float)d);
}
