// MSL shim, part 3: common, integer, relational, math and geometric functions
// (MSL 3.2 sections 6.2 to 6.5 and 6.8), and the precise:: / fast:: namespaces.
//
// Models: every function here is a set of non-template overloads, one per MSL type
// (float, float2, ..., half4, and for integer functions char ... ulong4), so that
// overload resolution behaves as with MSL's overloaded built-ins: a scalar argument
// converts and splats into a vector parameter (clamp(v4, 0.0f, 1.0f), mix(a, b, 0.5f)),
// and mixed calls such as min(some_uint, 1) or max(some_float, 0) are ambiguous
// (write 1u, 0.0f), as Metal reports them.
// Implementations are real (component-wise, half computed through float), not stubs.
// Relational functions (isnan ...) return bool for scalars and boolN for vectors.
//
// Does not model: precision and fast-math differences (fast:: and precise:: call the
// same code; they exist for float types only, as in MSL), denormal flushing, pack /
// unpack functions, matrix functions, frexp/ldexp/ilogb/nextafter, bfloat.
#pragma once
#pragma clang system_header

#include "core.h"

namespace metal {
namespace __msl {

// Apply f to each component (or to the scalar).
template <class T, class F> inline T map1(const T& a, F f) {
  if constexpr (vtraits<T>::is_vec) {
    T r{};
    for (int i = 0; i < vtraits<T>::size; ++i) r[i] = f(a[i]);
    return r;
  } else {
    return f(a);
  }
}
template <class T, class F> inline T map2(const T& a, const T& b, F f) {
  if constexpr (vtraits<T>::is_vec) {
    T r{};
    for (int i = 0; i < vtraits<T>::size; ++i) r[i] = f(a[i], b[i]);
    return r;
  } else {
    return f(a, b);
  }
}
template <class T, class F> inline T map3(const T& a, const T& b, const T& c, F f) {
  if constexpr (vtraits<T>::is_vec) {
    T r{};
    for (int i = 0; i < vtraits<T>::size; ++i) r[i] = f(a[i], b[i], c[i]);
    return r;
  } else {
    return f(a, b, c);
  }
}

// boolN for an N-component T, bool for a scalar T.
template <class T, int N = vtraits<T>::size> struct bool_of { using type = bvec<N>; };
template <class T> struct bool_of<T, 1> { using type = bool; };
template <class T> using bool_of_t = typename bool_of<T>::type;

template <class T, class F> inline bool_of_t<T> test1(const T& a, F f) {
  if constexpr (vtraits<T>::is_vec) {
    bool_of_t<T> r;
    for (int i = 0; i < vtraits<T>::size; ++i) r[i] = f(a[i]);
    return r;
  } else {
    return f(a);
  }
}

// Scalar kernels; half is computed in float and rounded back.
template <class S> inline S fl(float v) { return static_cast<S>(v); }

} // namespace __msl

// ---- type lists ------------------------------------------------------------------
#define __MSL_FLOAT_TYPES(X, A)                                                            \
  X(A, float) X(A, float2) X(A, float3) X(A, float4) X(A, half) X(A, half2) X(A, half3) X(A, half4)
#define __MSL_FLOAT32_TYPES(X, A) X(A, float) X(A, float2) X(A, float3) X(A, float4)
#define __MSL_FLOAT_VEC_TYPES(X, A)                                                        \
  X(A, float2) X(A, float3) X(A, float4) X(A, half2) X(A, half3) X(A, half4)
#define __MSL_INT_TYPES(X, A)                                                              \
  X(A, char) X(A, char2) X(A, char3) X(A, char4) X(A, uchar) X(A, uchar2) X(A, uchar3)     \
  X(A, uchar4) X(A, short) X(A, short2) X(A, short3) X(A, short4) X(A, ushort)             \
  X(A, ushort2) X(A, ushort3) X(A, ushort4) X(A, int) X(A, int2) X(A, int3) X(A, int4)     \
  X(A, uint) X(A, uint2) X(A, uint3) X(A, uint4) X(A, long) X(A, long2) X(A, long3)        \
  X(A, long4) X(A, ulong) X(A, ulong2) X(A, ulong3) X(A, ulong4)

// ---- float functions: T f(T) / T f(T, T) / T f(T, T, T) ---------------------------
// EXPR is written on float x (, y, z) and evaluated per component.
#define __MSL_F1(NAME, EXPR)                                                               \
  namespace __msl {                                                                        \
  template <class S> inline S NAME##_k(S sx) {                                             \
    float x = static_cast<float>(sx);                                                      \
    return static_cast<S>(EXPR);                                                           \
  }                                                                                        \
  }                                                                                        \
  __MSL_FLOAT_TYPES(__MSL_F1_DEF, NAME)
#define __MSL_F1_DEF(NAME, T)                                                              \
  inline T NAME(T x) {                                                                     \
    return __msl::map1(x, [](auto e) { return __msl::NAME##_k(e); });                      \
  }

#define __MSL_F2(NAME, EXPR)                                                               \
  namespace __msl {                                                                        \
  template <class S> inline S NAME##_k(S sx, S sy) {                                       \
    float x = static_cast<float>(sx), y = static_cast<float>(sy);                          \
    return static_cast<S>(EXPR);                                                           \
  }                                                                                        \
  }                                                                                        \
  __MSL_FLOAT_TYPES(__MSL_F2_DEF, NAME)
#define __MSL_F2_DEF(NAME, T)                                                              \
  inline T NAME(T x, T y) {                                                                \
    return __msl::map2(x, y, [](auto a, auto b) { return __msl::NAME##_k(a, b); });        \
  }

#define __MSL_F3(NAME, EXPR)                                                               \
  namespace __msl {                                                                        \
  template <class S> inline S NAME##_k(S sx, S sy, S sz) {                                 \
    float x = static_cast<float>(sx), y = static_cast<float>(sy), z = static_cast<float>(sz); \
    return static_cast<S>(EXPR);                                                           \
  }                                                                                        \
  }                                                                                        \
  __MSL_FLOAT_TYPES(__MSL_F3_DEF, NAME)
#define __MSL_F3_DEF(NAME, T)                                                              \
  inline T NAME(T x, T y, T z) {                                                           \
    return __msl::map3(x, y, z, [](auto a, auto b, auto c) { return __msl::NAME##_k(a, b, c); }); \
  }

// 6.2 common functions
__MSL_F3(clamp, __builtin_fminf(__builtin_fmaxf(x, y), z))
__MSL_F3(mix, x + (y - x) * z)
__MSL_F1(saturate, __builtin_fminf(__builtin_fmaxf(x, 0.0f), 1.0f))
__MSL_F1(sign, x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : (x == x ? x : 0.0f))
__MSL_F3(smoothstep, ([&] {
           float t = __builtin_fminf(__builtin_fmaxf((z - x) / (y - x), 0.0f), 1.0f);
           return t * t * (3.0f - 2.0f * t);
         }()))
__MSL_F2(step, y < x ? 0.0f : 1.0f)

// 6.5 math functions
__MSL_F1(acos, __builtin_acosf(x))
__MSL_F1(acosh, __builtin_acoshf(x))
__MSL_F1(asin, __builtin_asinf(x))
__MSL_F1(asinh, __builtin_asinhf(x))
__MSL_F1(atan, __builtin_atanf(x))
__MSL_F2(atan2, __builtin_atan2f(x, y))
__MSL_F1(atanh, __builtin_atanhf(x))
__MSL_F1(ceil, __builtin_ceilf(x))
__MSL_F2(copysign, __builtin_copysignf(x, y))
__MSL_F1(cos, __builtin_cosf(x))
__MSL_F1(cosh, __builtin_coshf(x))
__MSL_F1(cospi, __builtin_cosf(x * 3.14159265358979f))
__MSL_F2(divide, x / y)
__MSL_F1(exp, __builtin_expf(x))
__MSL_F1(exp2, __builtin_exp2f(x))
__MSL_F1(exp10, __builtin_powf(10.0f, x))
__MSL_F1(fabs, __builtin_fabsf(x))
__MSL_F1(abs, __builtin_fabsf(x))
__MSL_F2(fdim, x > y ? x - y : 0.0f)
__MSL_F1(floor, __builtin_floorf(x))
__MSL_F3(fma, __builtin_fmaf(x, y, z))
__MSL_F2(fmax, __builtin_fmaxf(x, y))
__MSL_F2(max, __builtin_fmaxf(x, y))
__MSL_F2(fmin, __builtin_fminf(x, y))
__MSL_F2(min, __builtin_fminf(x, y))
__MSL_F3(fmax3, __builtin_fmaxf(x, __builtin_fmaxf(y, z)))
__MSL_F3(max3, __builtin_fmaxf(x, __builtin_fmaxf(y, z)))
__MSL_F3(fmin3, __builtin_fminf(x, __builtin_fminf(y, z)))
__MSL_F3(min3, __builtin_fminf(x, __builtin_fminf(y, z)))
__MSL_F3(fmedian3, __builtin_fmaxf(__builtin_fminf(x, y), __builtin_fminf(__builtin_fmaxf(x, y), z)))
__MSL_F3(median3, __builtin_fmaxf(__builtin_fminf(x, y), __builtin_fminf(__builtin_fmaxf(x, y), z)))
__MSL_F2(fmod, __builtin_fmodf(x, y))
__MSL_F1(fract, __builtin_fminf(x - __builtin_floorf(x), 0x1.fffffep-1f))
__MSL_F1(log, __builtin_logf(x))
__MSL_F1(log2, __builtin_log2f(x))
__MSL_F1(log10, __builtin_log10f(x))
__MSL_F2(pow, __builtin_powf(x, y))
__MSL_F2(powr, __builtin_powf(x, y))
__MSL_F1(rint, __builtin_rintf(x))
__MSL_F1(round, __builtin_roundf(x))
__MSL_F1(rsqrt, 1.0f / __builtin_sqrtf(x))
__MSL_F1(sin, __builtin_sinf(x))
__MSL_F1(sinh, __builtin_sinhf(x))
__MSL_F1(sinpi, __builtin_sinf(x * 3.14159265358979f))
__MSL_F1(sqrt, __builtin_sqrtf(x))
__MSL_F1(tan, __builtin_tanf(x))
__MSL_F1(tanh, __builtin_tanhf(x))
__MSL_F1(tanpi, __builtin_tanf(x * 3.14159265358979f))
__MSL_F1(trunc, __builtin_truncf(x))

// T sincos(T x, thread T& cosval)
#define __MSL_SINCOS_DEF(A, T)                                                             \
  inline T sincos(T x, T& cosval) {                                                        \
    cosval = cos(x);                                                                       \
    return sin(x);                                                                         \
  }
__MSL_FLOAT_TYPES(__MSL_SINCOS_DEF, _)

// T modf(T x, thread T& intval)
#define __MSL_MODF_DEF(A, T)                                                               \
  inline T modf(T x, T& intval) {                                                          \
    intval = trunc(x);                                                                     \
    return x - intval;                                                                     \
  }
__MSL_FLOAT_TYPES(__MSL_MODF_DEF, _)

// ---- 6.4 relational functions ------------------------------------------------------
#define __MSL_REL_DEF(NAME, T)                                                             \
  inline __msl::bool_of_t<T> NAME(T x) {                                                   \
    return __msl::test1(x, [](auto e) { return __msl::NAME##_k(static_cast<float>(e)); }); \
  }
#define __MSL_REL(NAME, EXPR)                                                              \
  namespace __msl {                                                                        \
  inline bool NAME##_k(float x) { return EXPR; }                                           \
  }                                                                                        \
  __MSL_FLOAT_TYPES(__MSL_REL_DEF, NAME)
__MSL_REL(isfinite, __builtin_isfinite(x))
__MSL_REL(isinf, __builtin_isinf(x))
__MSL_REL(isnan, __builtin_isnan(x))
__MSL_REL(isnormal, __builtin_isnormal(x))
__MSL_REL(signbit, __builtin_signbit(x))

#define __MSL_REL2_DEF(A, T)                                                               \
  inline __msl::bool_of_t<T> isordered(T x, T y) { return __msl::bool_of_t<T>(x == x) && __msl::bool_of_t<T>(y == y); } \
  inline __msl::bool_of_t<T> isunordered(T x, T y) { return !isordered(x, y); }
__MSL_FLOAT_TYPES(__MSL_REL2_DEF, _)

inline bool all(bool x) { return x; }
inline bool any(bool x) { return x; }
inline bool all(bool2 x) { return x.x && x.y; }
inline bool any(bool2 x) { return x.x || x.y; }
inline bool all(bool3 x) { return x.x && x.y && x.z; }
inline bool any(bool3 x) { return x.x || x.y || x.z; }
inline bool all(bool4 x) { return x.x && x.y && x.z && x.w; }
inline bool any(bool4 x) { return x.x || x.y || x.z || x.w; }
// not(x): 'not' is the C++ alternative token for '!', so not(b) already means !(b),
// which boolN defines component-wise.

// T select(T a, T b, Tb c): c ? b : a per component.
namespace __msl {
template <class T> inline T select_k(const T& a, const T& b, const bool_of_t<T>& c) {
  if constexpr (vtraits<T>::is_vec) {
    T r = a;
    for (int i = 0; i < vtraits<T>::size; ++i)
      if (c[i]) r[i] = b[i];
    return r;
  } else {
    return c ? b : a;
  }
}
} // namespace __msl
#define __MSL_SELECT_DEF(A, T)                                                             \
  inline T select(T a, T b, __msl::bool_of_t<T> c) { return __msl::select_k(a, b, c); }
__MSL_FLOAT_TYPES(__MSL_SELECT_DEF, _)
__MSL_INT_TYPES(__MSL_SELECT_DEF, _)
inline bool select(bool a, bool b, bool c) { return c ? b : a; }
template <int N>
inline __msl::bvec<N> select(__msl::bvec<N> a, __msl::bvec<N> b, __msl::identity_t<__msl::bvec<N>> c) {
  for (int i = 0; i < N; ++i)
    if (c[i]) a[i] = b[i];
  return a;
}

// ---- 6.3 integer functions ---------------------------------------------------------
namespace __msl {
template <class S> inline S iabs(S x) {
  if constexpr (std::is_signed<S>::value) return x < 0 ? S(-x) : x; else return x;
}
template <class S> inline std::make_unsigned_t<S> iabsdiff(S x, S y) {
  using U = std::make_unsigned_t<S>;
  return x > y ? U(U(x) - U(y)) : U(U(y) - U(x));
}
template <class S> inline S imin(S x, S y) { return y < x ? y : x; }
template <class S> inline S imax(S x, S y) { return x < y ? y : x; }
template <class S> inline S iclamp(S x, S lo, S hi) { return imin(imax(x, lo), hi); }
template <class S> inline S imedian3(S x, S y, S z) { return imax(imin(x, y), imin(imax(x, y), z)); }
template <class S> inline constexpr int bits() { return int(sizeof(S) * 8); }
template <class S> inline S ipopcount(S x) {
  return S(__builtin_popcountll((unsigned long long)std::make_unsigned_t<S>(x)));
}
template <class S> inline S iclz(S x) {
  auto u = (unsigned long long)std::make_unsigned_t<S>(x);
  return u == 0 ? S(bits<S>()) : S(__builtin_clzll(u) - (64 - bits<S>()));
}
template <class S> inline S ictz(S x) {
  auto u = (unsigned long long)std::make_unsigned_t<S>(x);
  return u == 0 ? S(bits<S>()) : S(__builtin_ctzll(u));
}
template <class S> inline S ireverse_bits(S x) {
  using U = std::make_unsigned_t<S>;
  U u = U(x), r = 0;
  for (int i = 0; i < bits<S>(); ++i) r = U((r << 1) | ((u >> i) & 1u));
  return S(r);
}
template <class S> inline S iextract_bits(S x, uint offset, uint nbits) {
  using U = std::make_unsigned_t<S>;
  if (nbits == 0) return S(0);
  U u = U(U(x) << (bits<S>() - offset - nbits));
  if constexpr (std::is_signed<S>::value) return S(S(u) >> (bits<S>() - nbits));
  else return S(u >> (bits<S>() - nbits));
}
template <class S> inline S iinsert_bits(S base, S insert, uint offset, uint nbits) {
  using U = std::make_unsigned_t<S>;
  if (nbits == 0) return base;
  U mask = U(((nbits >= 64 ? ~0ull : ((1ull << nbits) - 1ull))) << offset);
  return S((U(base) & U(~mask)) | ((U(insert) << offset) & mask));
}
template <class S> inline S imulhi(S x, S y) {
  if constexpr (sizeof(S) == 8) {
    using W = std::conditional_t<std::is_signed<S>::value, __int128, unsigned __int128>;
    return S((W(x) * W(y)) >> 64);
  } else if constexpr (std::is_signed<S>::value) {
    return S((long long)x * (long long)y >> bits<S>());
  } else {
    return S((unsigned long long)x * (unsigned long long)y >> bits<S>());
  }
}
template <class S> inline S ihadd(S x, S y) { return S((x >> 1) + (y >> 1) + (x & y & 1)); }
template <class S> inline S irhadd(S x, S y) { return S((x >> 1) + (y >> 1) + ((x | y) & 1)); }
} // namespace __msl

#define __MSL_INT_DEF(A, T)                                                                \
  inline T abs(T x) { return __msl::map1(x, [](auto e) { return __msl::iabs(e); }); }      \
  inline T min(T x, T y) { return __msl::map2(x, y, [](auto a, auto b) { return __msl::imin(a, b); }); } \
  inline T max(T x, T y) { return __msl::map2(x, y, [](auto a, auto b) { return __msl::imax(a, b); }); } \
  inline T clamp(T x, T lo, T hi) {                                                        \
    return __msl::map3(x, lo, hi, [](auto a, auto b, auto c) { return __msl::iclamp(a, b, c); }); \
  }                                                                                        \
  inline T min3(T x, T y, T z) { return min(x, min(y, z)); }                               \
  inline T max3(T x, T y, T z) { return max(x, max(y, z)); }                               \
  inline T median3(T x, T y, T z) {                                                        \
    return __msl::map3(x, y, z, [](auto a, auto b, auto c) { return __msl::imedian3(a, b, c); }); \
  }                                                                                        \
  inline T popcount(T x) { return __msl::map1(x, [](auto e) { return __msl::ipopcount(e); }); } \
  inline T clz(T x) { return __msl::map1(x, [](auto e) { return __msl::iclz(e); }); }      \
  inline T ctz(T x) { return __msl::map1(x, [](auto e) { return __msl::ictz(e); }); }      \
  inline T reverse_bits(T x) { return __msl::map1(x, [](auto e) { return __msl::ireverse_bits(e); }); } \
  inline T extract_bits(T x, uint offset, uint bits) {                                     \
    return __msl::map1(x, [=](auto e) { return __msl::iextract_bits(e, offset, bits); });  \
  }                                                                                        \
  inline T insert_bits(T base, T insert, uint offset, uint bits) {                         \
    return __msl::map2(base, insert, [=](auto a, auto b) { return __msl::iinsert_bits(a, b, offset, bits); }); \
  }                                                                                        \
  inline T mulhi(T x, T y) { return __msl::map2(x, y, [](auto a, auto b) { return __msl::imulhi(a, b); }); } \
  inline T hadd(T x, T y) { return __msl::map2(x, y, [](auto a, auto b) { return __msl::ihadd(a, b); }); } \
  inline T rhadd(T x, T y) { return __msl::map2(x, y, [](auto a, auto b) { return __msl::irhadd(a, b); }); }
__MSL_INT_TYPES(__MSL_INT_DEF, _)

// absdiff returns the unsigned type of the same shape.
#define __MSL_ABSDIFF_DEF(S, SUFFIX)                                                       \
  inline u##S##SUFFIX absdiff(S##SUFFIX x, S##SUFFIX y) {                                  \
    u##S##SUFFIX r{};                                                                      \
    for (int i = 0; i < __msl::vtraits<S##SUFFIX>::size; ++i)                              \
      __msl::set(r, i, __msl::iabsdiff(__msl::get(x, i), __msl::get(y, i)));              \
    return r;                                                                              \
  }                                                                                        \
  inline u##S##SUFFIX absdiff(u##S##SUFFIX x, u##S##SUFFIX y) {                            \
    u##S##SUFFIX r{};                                                                      \
    for (int i = 0; i < __msl::vtraits<S##SUFFIX>::size; ++i)                              \
      __msl::set(r, i, __msl::iabsdiff(__msl::get(x, i), __msl::get(y, i)));              \
    return r;                                                                              \
  }
namespace __msl {
template <class T> inline elem_t<T> get(const T& v, int i) {
  if constexpr (vtraits<T>::is_vec) return v[i]; else return (void)i, v;
}
template <class T, class E> inline void set(T& v, int i, E e) {
  if constexpr (vtraits<T>::is_vec) v[i] = e; else (void)i, v = e;
}
} // namespace __msl
__MSL_ABSDIFF_DEF(char, )
__MSL_ABSDIFF_DEF(char, 2)
__MSL_ABSDIFF_DEF(char, 3)
__MSL_ABSDIFF_DEF(char, 4)
__MSL_ABSDIFF_DEF(short, )
__MSL_ABSDIFF_DEF(short, 2)
__MSL_ABSDIFF_DEF(short, 3)
__MSL_ABSDIFF_DEF(short, 4)
__MSL_ABSDIFF_DEF(int, )
__MSL_ABSDIFF_DEF(int, 2)
__MSL_ABSDIFF_DEF(int, 3)
__MSL_ABSDIFF_DEF(int, 4)
__MSL_ABSDIFF_DEF(long, )
__MSL_ABSDIFF_DEF(long, 2)
__MSL_ABSDIFF_DEF(long, 3)
__MSL_ABSDIFF_DEF(long, 4)
#undef __MSL_ABSDIFF_DEF

// ---- 6.8 geometric functions (float and half vectors) ------------------------------
#define __MSL_GEO_DEF(A, T)                                                                \
  inline __msl::elem_t<T> dot(T x, T y) {                                                  \
    float s = 0.0f;                                                                        \
    for (int i = 0; i < __msl::vtraits<T>::size; ++i) s += float(x[i]) * float(y[i]);     \
    return __msl::elem_t<T>(s);                                                            \
  }                                                                                        \
  inline __msl::elem_t<T> length_squared(T x) { return dot(x, x); }                       \
  inline __msl::elem_t<T> length(T x) { return __msl::elem_t<T>(__builtin_sqrtf(float(dot(x, x)))); } \
  inline __msl::elem_t<T> distance(T x, T y) { return length(x - y); }                    \
  inline __msl::elem_t<T> distance_squared(T x, T y) { return length_squared(x - y); }    \
  inline T normalize(T x) { return x * rsqrt(dot(x, x)); }                                 \
  inline T faceforward(T n, T i, T nref) { return dot(nref, i) < __msl::elem_t<T>(0) ? n : -n; } \
  inline T reflect(T i, T n) { return i - __msl::elem_t<T>(2) * dot(n, i) * n; }           \
  inline T refract(T i, T n, __msl::elem_t<T> eta) {                                       \
    float d = float(dot(n, i)), e = float(eta), k = 1.0f - e * e * (1.0f - d * d);         \
    if (k < 0.0f) return T(0);                                                             \
    return eta * i - __msl::elem_t<T>(e * d + __builtin_sqrtf(k)) * n;                     \
  }
__MSL_FLOAT_VEC_TYPES(__MSL_GEO_DEF, _)
inline float3 cross(float3 x, float3 y) { return x.yzx * y.zxy - x.zxy * y.yzx; }
inline half3 cross(half3 x, half3 y) { return x.yzx * y.zxy - x.zxy * y.yzx; }

// ---- precise:: and fast:: (float types only, MSL 3.2 6.2 / 6.5 / 6.8) ---------------
#define __MSL_FWD1(NAME, T) inline T NAME(T x) { return ::metal::NAME(x); }
#define __MSL_FWD2(NAME, T) inline T NAME(T x, T y) { return ::metal::NAME(x, y); }
#define __MSL_FWD3(NAME, T) inline T NAME(T x, T y, T z) { return ::metal::NAME(x, y, z); }
#define __MSL_FWD_GEO(A, T)                                                                \
  inline float distance(T x, T y) { return ::metal::distance(x, y); }                     \
  inline float length(T x) { return ::metal::length(x); }                                  \
  inline T normalize(T x) { return ::metal::normalize(x); }
#define __MSL_PRECISION_NAMESPACE(NS)                                                      \
  namespace NS {                                                                           \
  __MSL_FLOAT32_TYPES(__MSL_FWD3, clamp)                                                   \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, saturate)                                                \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, acos) __MSL_FLOAT32_TYPES(__MSL_FWD1, acosh)             \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, asin) __MSL_FLOAT32_TYPES(__MSL_FWD1, asinh)             \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, atan) __MSL_FLOAT32_TYPES(__MSL_FWD2, atan2)             \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, atanh) __MSL_FLOAT32_TYPES(__MSL_FWD1, cos)              \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, cosh) __MSL_FLOAT32_TYPES(__MSL_FWD1, cospi)             \
  __MSL_FLOAT32_TYPES(__MSL_FWD2, divide) __MSL_FLOAT32_TYPES(__MSL_FWD1, exp)             \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, exp2) __MSL_FLOAT32_TYPES(__MSL_FWD1, exp10)             \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, fabs) __MSL_FLOAT32_TYPES(__MSL_FWD1, abs)               \
  __MSL_FLOAT32_TYPES(__MSL_FWD2, fmax) __MSL_FLOAT32_TYPES(__MSL_FWD2, max)               \
  __MSL_FLOAT32_TYPES(__MSL_FWD2, fmin) __MSL_FLOAT32_TYPES(__MSL_FWD2, min)               \
  __MSL_FLOAT32_TYPES(__MSL_FWD2, fmod) __MSL_FLOAT32_TYPES(__MSL_FWD1, fract)             \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, log) __MSL_FLOAT32_TYPES(__MSL_FWD1, log2)               \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, log10) __MSL_FLOAT32_TYPES(__MSL_FWD2, pow)              \
  __MSL_FLOAT32_TYPES(__MSL_FWD2, powr) __MSL_FLOAT32_TYPES(__MSL_FWD1, rint)              \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, round) __MSL_FLOAT32_TYPES(__MSL_FWD1, rsqrt)            \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, sin) __MSL_FLOAT32_TYPES(__MSL_FWD1, sinh)               \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, sinpi) __MSL_FLOAT32_TYPES(__MSL_FWD1, sqrt)             \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, tan) __MSL_FLOAT32_TYPES(__MSL_FWD1, tanh)               \
  __MSL_FLOAT32_TYPES(__MSL_FWD1, tanpi) __MSL_FLOAT32_TYPES(__MSL_FWD1, trunc)            \
  __MSL_FWD_GEO(_, float2) __MSL_FWD_GEO(_, float3) __MSL_FWD_GEO(_, float4)               \
  inline float sincos(float x, float& c) { return ::metal::sincos(x, c); }                 \
  inline float2 sincos(float2 x, float2& c) { return ::metal::sincos(x, c); }              \
  inline float3 sincos(float3 x, float3& c) { return ::metal::sincos(x, c); }              \
  inline float4 sincos(float4 x, float4& c) { return ::metal::sincos(x, c); }              \
  }
__MSL_PRECISION_NAMESPACE(precise)
__MSL_PRECISION_NAMESPACE(fast)
#undef __MSL_PRECISION_NAMESPACE
#undef __MSL_FWD1
#undef __MSL_FWD2
#undef __MSL_FWD3
#undef __MSL_FWD_GEO

} // namespace metal

// ---- constants (MSL 3.2 tables 6.5 / 6.6, and the usual limits) ---------------------
#ifndef MAXFLOAT
#define MAXFLOAT 0x1.fffffep+127f
#endif
#ifndef HUGE_VALF
#define HUGE_VALF __builtin_huge_valf()
#endif
#ifndef INFINITY
#define INFINITY __builtin_inff()
#endif
#ifndef NAN
#define NAN __builtin_nanf("")
#endif
#ifndef M_E_F
#define M_E_F 2.71828182845904523536f
#endif
#ifndef M_LOG2E_F
#define M_LOG2E_F 1.44269504088896340736f
#endif
#ifndef M_LOG10E_F
#define M_LOG10E_F 0.434294481903251827651f
#endif
#ifndef M_LN2_F
#define M_LN2_F 0.693147180559945309417f
#endif
#ifndef M_LN10_F
#define M_LN10_F 2.30258509299404568402f
#endif
#ifndef M_PI_F
#define M_PI_F 3.14159265358979323846f
#endif
#ifndef M_PI_2_F
#define M_PI_2_F 1.57079632679489661923f
#endif
#ifndef M_PI_4_F
#define M_PI_4_F 0.785398163397448309616f
#endif
#ifndef M_1_PI_F
#define M_1_PI_F 0.318309886183790671538f
#endif
#ifndef M_2_PI_F
#define M_2_PI_F 0.636619772367581343076f
#endif
#ifndef M_2_SQRTPI_F
#define M_2_SQRTPI_F 1.12837916709551257390f
#endif
#ifndef M_SQRT2_F
#define M_SQRT2_F 1.41421356237309504880f
#endif
#ifndef M_SQRT1_2_F
#define M_SQRT1_2_F 0.707106781186547524401f
#endif
#ifndef MAXHALF
#define MAXHALF ((half)65504.0f)
#endif
#ifndef HUGE_VALH
#define HUGE_VALH ((half)__builtin_huge_valf())
#endif
#ifndef M_PI_H
#define M_PI_H ((half)3.14159265358979323846f)
#endif
#ifndef M_SQRT2_H
#define M_SQRT2_H ((half)1.41421356237309504880f)
#endif
#ifndef FLT_MAX
#define FLT_MAX 0x1.fffffep+127f
#endif
#ifndef FLT_MIN
#define FLT_MIN 0x1p-126f
#endif
#ifndef FLT_EPSILON
#define FLT_EPSILON 0x1p-23f
#endif
#ifndef HALF_MAX
#define HALF_MAX ((half)65504.0f)
#endif
#ifndef HALF_MIN
#define HALF_MIN ((half)0x1p-14f)
#endif
#ifndef HALF_EPSILON
#define HALF_EPSILON ((half)0x1p-10f)
#endif
#ifndef CHAR_BIT
#define CHAR_BIT 8
#endif
#ifndef INT_MAX
#define INT_MAX 2147483647
#endif
#ifndef INT_MIN
#define INT_MIN (-2147483647 - 1)
#endif
#ifndef UINT_MAX
#define UINT_MAX 4294967295u
#endif
#ifndef SHRT_MAX
#define SHRT_MAX 32767
#endif
#ifndef USHRT_MAX
#define USHRT_MAX 65535
#endif
