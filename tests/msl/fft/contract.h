// One FFT configuration's dispatch contract, as the harness (fft_msl.cpp) uses it. Each
// configuration's fft_contract.o fills it from the header spdgen wrote with --emit-header,
// so the harness takes workgroup, grid, element sizes, the parameter block and the native
// index map from what spdgen states, not from its own copy of the rules (the harness checks
// them against the flags the configuration was generated with and against the runtime).
#pragma once

#include <cstddef>
#include <cstdint>

struct fft_contract {
  uint32_t n;                 // FFT_N
  uint32_t ept;               // FFT_ELEMENTS_PER_INVOCATION
  uint32_t threads[3];        // FFT_WORKGROUP_SIZE_X/Y/Z
  uint32_t subgroup;          // FFT_SUBGROUP_SIZE: the narrowest SIMD-group the kernel allows
  uint32_t columns;           // FFT_COLUMNS_PER_WORKGROUP
  int lanes;                  // FFT_COLUMNS_IN_LANES: the columns sit in lanes (C x W threads)
  uint32_t shared_bytes;      // FFT_SHARED_MEMORY_BYTES
  int inverse, native, real, strided, f16, lut; // FFT_INVERSE ... FFT_TWIDDLE_LUT
  const char* scale;          // FFT_SCALE as the header spells it (e.g. "0.00390625f")
  uint32_t src_element_bytes; // FFT_SRC_ELEMENT_BYTES
  uint32_t dst_element_bytes; // FFT_DST_ELEMENT_BYTES
  uint32_t (*grid)(uint32_t count);                 // FFT_GRID_X
  size_t params_bytes;                              // sizeof(FftPushConstants)
  void (*params)(uint32_t count, uint32_t in_stride, uint32_t out_stride, void* out);
  uint32_t (*native_index)(uint32_t k);             // the header's fft_native_index
  void (*fill_twiddles)(float* table);              // --twiddles lut: the header's
                                                    // fft_fill_twiddles (N floats); else null
  // Lengths beyond powers of two (mixed radix, Rader, Bluestein): their headers have no native
  // order (native_index is null), count their stages and name Bluestein's M or Rader's root.
  int mixed;            // N is not a power of two, or N = 2 (the mixed-radix path)
  uint32_t stages;      // FFT_STAGES (mixed radix); 0 for powers of two
  uint32_t bluestein_m; // FFT_BLUESTEIN_M: the convolution's length; 0 unless Bluestein
  uint32_t rader_root;  // FFT_RADER_ROOT: Rader's primitive root mod N; 0 unless Rader
};

extern const fft_contract fft_this_contract;
