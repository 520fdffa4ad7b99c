// MSL shim, part 2: metal::array<T, N>.
//
// Models: the MSL 3.2 metal::array<T, N> template: an aggregate (so
// array<float, 3> a = {1, 2, 3}; works), operator[] taking size_t, size(), empty(),
// front(), back(), data(), begin()/end(). It is what kernels use for arrays of
// textures: array<texture2d<float, access::write>, 12> dst [[texture(1)]].
//
// Does not model: array_ref<T>, bounds checks (an out-of-range index is undefined
// behaviour, as in MSL), address-space-qualified member functions.
#pragma once
#pragma clang system_header

#include "core.h"

namespace metal {

template <typename T, size_t N> struct array {
  static_assert(N > 0, "metal::array<T, 0> is not supported by the shim");
  T __elems[N];

  constexpr T& operator[](size_t pos) { return __elems[pos]; }
  constexpr const T& operator[](size_t pos) const { return __elems[pos]; }
  constexpr T& front() { return __elems[0]; }
  constexpr const T& front() const { return __elems[0]; }
  constexpr T& back() { return __elems[N - 1]; }
  constexpr const T& back() const { return __elems[N - 1]; }
  constexpr T* data() { return __elems; }
  constexpr const T* data() const { return __elems; }
  constexpr T* begin() { return __elems; }
  constexpr const T* begin() const { return __elems; }
  constexpr T* end() { return __elems + N; }
  constexpr const T* end() const { return __elems + N; }
  static constexpr size_t size() { return N; }
  static constexpr size_t max_size() { return N; }
  static constexpr bool empty() { return false; }
};

} // namespace metal
