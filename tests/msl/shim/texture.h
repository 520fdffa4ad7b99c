// MSL shim, part 7: textures and samplers (MSL 3.2 sections 2.9, 2.10, 6.12.3, 6.12.4).
//
// Models:
//   enum class access { sample, read, write, read_write };
//   enum memory_coherence { memory_coherence_threadgroup, memory_coherence_device };
//   texture2d<T, access a = access::sample, memory_coherence c = memory_coherence_threadgroup>
//   texture2d_array<T, access a = access::sample, memory_coherence c = ...>
// with T in {float, half, int, uint, short, ushort}, Tv = vec<T, 4>, and the members
//   Tv   read(uint2 coord, uint lod = 0) const         Tv read(ushort2, ushort lod = 0) const
//   void write(Tv color, uint2 coord, uint lod = 0)     void write(Tv, ushort2, ushort lod = 0)
//   (texture2d_array: read(coord, uint array, uint lod = 0), write(color, coord, array, lod))
//   Tv   sample(sampler s, float2 coord [, uint array] [, level | bias options]
//               [, int2 offset]) const      (float and half textures, access::sample)
//   uint get_width(uint lod = 0) const, get_height(uint lod = 0) const,
//        get_num_mip_levels() const, get_array_size() const (arrays)
//   void fence()                                   (access::read_write)
// The access rules are compile-time errors, as in Metal: read needs sample, read or
// read_write; write needs write or read_write; sample needs sample; fence needs
// read_write. The coordinate must be uint2 or ushort2 (an int2 is rejected: MSL has
// no implicit vector conversions), the color exactly a 4-component Tv.
//
// Storage (for the CPU executor and host tests): a texture is a handle to a
// __msl::texture_storage<T> the host fills in: texels of type vec<T, 4> (RGBA of the
// sample type, whatever the pixel format), mip levels one after another, each level
// holding its array slices one after another, each slice row-major. Level l is
// max(1, width >> l) by max(1, height >> l). Out-of-bounds reads (coordinate, slice or
// level) return zero, out-of-bounds writes are ignored, as the specification says.
// A default-constructed texture has no storage: every read is zero.
//
// Does not model: pixel formats (no conversion or clamping on write), 1D/3D/cube/depth/
// multisampled textures, gather, sample_compare, sparse and atomic texture functions,
// gradient/min_lod_clamp options (accepted types, ignored), sampler borders, anisotropy
// and compare functions, mip-mapped filtering (sample reads the one level chosen by
// level(); bias is ignored).
#pragma once
#pragma clang system_header

#include "core.h"
#include "math.h"
#include "sync.h"

namespace metal {

enum class access { sample, read, write, read_write };
enum memory_coherence { memory_coherence_threadgroup, memory_coherence_device };

// ---- sampler -------------------------------------------------------------------------
enum class coord { normalized, pixel };
enum class filter { nearest, linear };
enum class min_filter { nearest, linear };
enum class mag_filter { nearest, linear };
enum class mip_filter { none, nearest, linear };
enum class address { repeat, mirrored_repeat, clamp_to_edge, clamp_to_zero, clamp_to_border };
enum class s_address { repeat, mirrored_repeat, clamp_to_edge, clamp_to_zero, clamp_to_border };
enum class t_address { repeat, mirrored_repeat, clamp_to_edge, clamp_to_zero, clamp_to_border };
enum class r_address { repeat, mirrored_repeat, clamp_to_edge, clamp_to_zero, clamp_to_border };
enum class border_color { transparent_black, opaque_black, opaque_white };
enum class compare_func { none, less, less_equal, greater, greater_equal, equal, not_equal, always, never };

struct sampler {
  coord c = coord::normalized;
  filter mag = filter::nearest, min = filter::nearest;
  mip_filter mip = mip_filter::none;
  address s = address::clamp_to_edge, t = address::clamp_to_edge, r = address::clamp_to_edge;

  constexpr sampler() = default;
  // constexpr sampler s(coord::normalized, filter::linear, address::clamp_to_edge, ...);
  template <class... A> constexpr explicit sampler(A... a) { (set(a), ...); }

private:
  constexpr void set(coord v) { c = v; }
  constexpr void set(filter v) { mag = min = v; }
  constexpr void set(min_filter v) { min = filter(int(v)); }
  constexpr void set(mag_filter v) { mag = filter(int(v)); }
  constexpr void set(mip_filter v) { mip = v; }
  constexpr void set(address v) { s = t = r = v; }
  constexpr void set(s_address v) { s = address(int(v)); }
  constexpr void set(t_address v) { t = address(int(v)); }
  constexpr void set(r_address v) { r = address(int(v)); }
  constexpr void set(border_color) {}
  constexpr void set(compare_func) {}
};

// lod_options for sample().
struct level { float lod; constexpr explicit level(float l) : lod(l) {} };
struct bias { float value; constexpr explicit bias(float b) : value(b) {} };
struct min_lod_clamp { float lod; constexpr explicit min_lod_clamp(float l) : lod(l) {} };
struct gradient2d { float2 dPdx, dPdy; gradient2d(float2 x, float2 y) : dPdx(x), dPdy(y) {} };

namespace __msl {

// Host-side memory of one 2D texture or 2D texture array (see the comment at the top).
template <class T> struct texture_storage {
  vec<T, 4>* texels = nullptr;
  uint width = 0, height = 0, array_size = 1, mip_levels = 1;

  uint level_width(uint lod) const { return lod < mip_levels ? ((width >> lod) ? (width >> lod) : 1u) : 0u; }
  uint level_height(uint lod) const { return lod < mip_levels ? ((height >> lod) ? (height >> lod) : 1u) : 0u; }
  // Number of texels the host must allocate for width x height x array_size x mip_levels.
  size_t texel_count() const { return level_offset(mip_levels); }
  size_t level_offset(uint lod) const {
    size_t off = 0;
    for (uint l = 0; l < lod; ++l) off += size_t(level_width(l)) * level_height(l) * array_size;
    return off;
  }
  // Address of a texel, or null when the access is out of bounds.
  vec<T, 4>* at(uint x, uint y, uint slice, uint lod) const {
    if (!texels || lod >= mip_levels || slice >= array_size) return nullptr;
    uint w = level_width(lod), h = level_height(lod);
    if (x >= w || y >= h) return nullptr;
    return texels + level_offset(lod) + (size_t(slice) * h + y) * w + x;
  }
};

template <class T> constexpr bool texel_type =
    std::is_same<T, float>::value || std::is_same<T, half>::value || std::is_same<T, int>::value ||
    std::is_same<T, uint>::value || std::is_same<T, short>::value || std::is_same<T, ushort>::value;

inline float wrap_coord(float u, uint size, address mode, bool& zero) {
  float n = float(size);
  switch (mode) {
  case address::repeat: u = u - n * __builtin_floorf(u / n); break;
  case address::mirrored_repeat: {
    float p = u - 2.0f * n * __builtin_floorf(u / (2.0f * n));
    u = p < n ? p : 2.0f * n - 1.0f - p;
    break;
  }
  case address::clamp_to_zero:
  case address::clamp_to_border:
    if (u < 0.0f || u >= n) zero = true;
    break;
  case address::clamp_to_edge: break;
  }
  return __builtin_fminf(__builtin_fmaxf(u, 0.0f), n - 1.0f);
}

// Nearest or bilinear sample of one level (normalized or pixel coordinates).
template <class T>
inline vec<T, 4> sample2d(const texture_storage<T>* st, const sampler& s, float2 coord, uint slice,
                          uint lod, int2 offset) {
  vec<T, 4> zero{};
  if (!st || lod >= st->mip_levels || slice >= st->array_size) return zero;
  uint w = st->level_width(lod), h = st->level_height(lod);
  float u = s.c == coord::normalized ? coord.x * float(w) : coord.x;
  float v = s.c == coord::normalized ? coord.y * float(h) : coord.y;
  u += float(offset.x);
  v += float(offset.y);
  auto fetch = [&](float fu, float fv) -> float4 {
    bool z = false;
    float cu = wrap_coord(fu, w, s.s, z), cv = wrap_coord(fv, h, s.t, z);
    if (z) return float4{0.0f, 0.0f, 0.0f, 0.0f};
    vec<T, 4>* p = st->at(uint(cu), uint(cv), slice, lod);
    return p ? __builtin_convertvector(*p, float4) : float4{0.0f, 0.0f, 0.0f, 0.0f};
  };
  if (s.mag == filter::nearest) return __builtin_convertvector(fetch(u, v), vec<T, 4>);
  float fu = u - 0.5f, fv = v - 0.5f, bu = __builtin_floorf(fu), bv = __builtin_floorf(fv);
  float au = fu - bu, av = fv - bv;
  float4 r = fetch(bu, bv) * ((1 - au) * (1 - av)) + fetch(bu + 1, bv) * (au * (1 - av)) +
             fetch(bu, bv + 1) * ((1 - au) * av) + fetch(bu + 1, bv + 1) * (au * av);
  return __builtin_convertvector(r, vec<T, 4>);
}

inline uint lod_of(level l) { return l.lod > 0.0f ? uint(l.lod + 0.5f) : 0u; }
inline uint lod_of(bias) { return 0; }
inline uint lod_of(min_lod_clamp m) { return m.lod > 0.0f ? uint(m.lod) : 0u; }
inline uint lod_of(gradient2d) { return 0; }
template <class O> constexpr bool lod_option =
    std::is_same<O, level>::value || std::is_same<O, bias>::value ||
    std::is_same<O, min_lod_clamp>::value || std::is_same<O, gradient2d>::value;

} // namespace __msl

#define __MSL_CAN_READ                                                                     \
  __attribute__((diagnose_if(A == access::write,                                          \
                             "texture read needs access::read, access::read_write or "     \
                             "access::sample; this texture is access::write", "error")))
#define __MSL_CAN_WRITE                                                                    \
  __attribute__((diagnose_if(A != access::write && A != access::read_write,               \
                             "texture write needs access::write or access::read_write",    \
                             "error")))
#define __MSL_CAN_SAMPLE                                                                   \
  __attribute__((diagnose_if(A != access::sample, "texture sample needs access::sample",  \
                             "error")))
#define __MSL_CAN_FENCE                                                                    \
  __attribute__((diagnose_if(A != access::read_write,                                     \
                             "texture fence needs access::read_write", "error")))

// ---- texture2d -----------------------------------------------------------------------
template <typename T, access A = access::sample,
          memory_coherence C = memory_coherence_threadgroup>
struct texture2d {
  static_assert(__msl::texel_type<T>, "texture2d<T>: T must be float, half, int, uint, short or ushort");
  typedef vec<T, 4> Tv;
  const __msl::texture_storage<T>* __storage = nullptr;

  Tv read(uint2 coord, uint lod = 0) const __MSL_CAN_READ { return load(coord.x, coord.y, lod); }
  Tv read(ushort2 coord, ushort lod = 0) const __MSL_CAN_READ { return load(coord.x, coord.y, lod); }
  void write(Tv color, uint2 coord, uint lod = 0) __MSL_CAN_WRITE { store(color, coord.x, coord.y, lod); }
  void write(Tv color, ushort2 coord, ushort lod = 0) __MSL_CAN_WRITE { store(color, coord.x, coord.y, lod); }

  Tv sample(sampler s, float2 coord, int2 offset = int2{0, 0}) const __MSL_CAN_SAMPLE {
    return __msl::sample2d(__storage, s, coord, 0, 0, offset);
  }
  template <class O, std::enable_if_t<__msl::lod_option<O>, int> = 0>
  Tv sample(sampler s, float2 coord, O options, int2 offset = int2{0, 0}) const __MSL_CAN_SAMPLE {
    return __msl::sample2d(__storage, s, coord, 0, __msl::lod_of(options), offset);
  }

  uint get_width(uint lod = 0) const { return __storage ? __storage->level_width(lod) : 0u; }
  uint get_height(uint lod = 0) const { return __storage ? __storage->level_height(lod) : 0u; }
  uint get_num_mip_levels() const { return __storage ? __storage->mip_levels : 0u; }
  void fence() __MSL_CAN_FENCE { __rt::thread_fence(mem_flags::mem_texture, memory_order_seq_cst, thread_scope_threadgroup); }

private:
  Tv load(uint x, uint y, uint lod) const {
    Tv* p = __storage ? __storage->at(x, y, 0, lod) : nullptr;
    return p ? *p : Tv{};
  }
  void store(Tv color, uint x, uint y, uint lod) {
    if (Tv* p = __storage ? __storage->at(x, y, 0, lod) : nullptr) *p = color;
  }
};

// ---- texture2d_array ---------------------------------------------------------------------
template <typename T, access A = access::sample,
          memory_coherence C = memory_coherence_threadgroup>
struct texture2d_array {
  static_assert(__msl::texel_type<T>, "texture2d_array<T>: T must be float, half, int, uint, short or ushort");
  typedef vec<T, 4> Tv;
  const __msl::texture_storage<T>* __storage = nullptr;

  Tv read(uint2 coord, uint array, uint lod = 0) const __MSL_CAN_READ {
    return load(coord.x, coord.y, array, lod);
  }
  Tv read(ushort2 coord, ushort array, ushort lod = 0) const __MSL_CAN_READ {
    return load(coord.x, coord.y, array, lod);
  }
  void write(Tv color, uint2 coord, uint array, uint lod = 0) __MSL_CAN_WRITE {
    store(color, coord.x, coord.y, array, lod);
  }
  void write(Tv color, ushort2 coord, ushort array, ushort lod = 0) __MSL_CAN_WRITE {
    store(color, coord.x, coord.y, array, lod);
  }

  Tv sample(sampler s, float2 coord, uint array, int2 offset = int2{0, 0}) const __MSL_CAN_SAMPLE {
    return __msl::sample2d(__storage, s, coord, array, 0, offset);
  }
  template <class O, std::enable_if_t<__msl::lod_option<O>, int> = 0>
  Tv sample(sampler s, float2 coord, uint array, O options, int2 offset = int2{0, 0}) const __MSL_CAN_SAMPLE {
    return __msl::sample2d(__storage, s, coord, array, __msl::lod_of(options), offset);
  }

  uint get_width(uint lod = 0) const { return __storage ? __storage->level_width(lod) : 0u; }
  uint get_height(uint lod = 0) const { return __storage ? __storage->level_height(lod) : 0u; }
  uint get_array_size() const { return __storage ? __storage->array_size : 0u; }
  uint get_num_mip_levels() const { return __storage ? __storage->mip_levels : 0u; }
  void fence() __MSL_CAN_FENCE { __rt::thread_fence(mem_flags::mem_texture, memory_order_seq_cst, thread_scope_threadgroup); }

private:
  Tv load(uint x, uint y, uint slice, uint lod) const {
    Tv* p = __storage ? __storage->at(x, y, slice, lod) : nullptr;
    return p ? *p : Tv{};
  }
  void store(Tv color, uint x, uint y, uint slice, uint lod) {
    if (Tv* p = __storage ? __storage->at(x, y, slice, lod) : nullptr) *p = color;
  }
};

#undef __MSL_CAN_READ
#undef __MSL_CAN_WRITE
#undef __MSL_CAN_SAMPLE
#undef __MSL_CAN_FENCE

} // namespace metal
