// The contract of one FFT configuration: compiled with -DFFT_CONTRACT_HEADER='"X.h"', the
// header spdgen --emit-header wrote for it (plain C, no MSL).
#include "contract.h"

#include <math.h> // the header's fft_fill_twiddles (--twiddles lut) needs it

#include FFT_CONTRACT_HEADER

#define FFT_CONTRACT_STRING2(x) #x
#define FFT_CONTRACT_STRING(x) FFT_CONTRACT_STRING2(x)
// Mixed radix, Rader and Bluestein (any N not a power of two, and N = 2) have no native order,
// so their headers define no fft_native_index.
#if defined(FFT_BLUESTEIN_M) || (FFT_N & (FFT_N - 1)) != 0 || FFT_N == 2
#define FFT_CONTRACT_MIXED 1
#define FFT_CONTRACT_NATIVE_INDEX nullptr
#else
#define FFT_CONTRACT_MIXED 0
#define FFT_CONTRACT_NATIVE_INDEX fft_native_index
#endif
#ifndef FFT_STAGES
#define FFT_STAGES 0
#endif
#ifndef FFT_BLUESTEIN_M
#define FFT_BLUESTEIN_M 0
#endif
#ifndef FFT_RADER_ROOT
#define FFT_RADER_ROOT 0
#endif
#if FFT_TWIDDLE_LUT
#define FFT_CONTRACT_FILL_TWIDDLES fft_fill_twiddles
#else
#define FFT_CONTRACT_FILL_TWIDDLES nullptr
#endif

namespace {

uint32_t grid(uint32_t count) { return FFT_GRID_X(count); }

void params(uint32_t count, uint32_t in_stride, uint32_t out_stride, void* out) {
  FftPushConstants* p = static_cast<FftPushConstants*>(out);
  *p = FftPushConstants{};
  p->count = count;
  p->in_stride = in_stride;
  p->out_stride = out_stride;
}

} // namespace

extern const fft_contract fft_this_contract = {
    FFT_N,
    FFT_ELEMENTS_PER_INVOCATION,
    {FFT_WORKGROUP_SIZE_X, FFT_WORKGROUP_SIZE_Y, FFT_WORKGROUP_SIZE_Z},
    FFT_SUBGROUP_SIZE,
    FFT_COLUMNS_PER_WORKGROUP,
    FFT_COLUMNS_IN_LANES,
    FFT_SHARED_MEMORY_BYTES,
    FFT_INVERSE,
    FFT_NATIVE_ORDER,
    FFT_REAL,
    FFT_STRIDED,
    FFT_F16,
    FFT_TWIDDLE_LUT,
    // Spelled, not evaluated: the header writes 1 as "1f", which is not a C literal.
    FFT_CONTRACT_STRING(FFT_SCALE),
    FFT_SRC_ELEMENT_BYTES,
    FFT_DST_ELEMENT_BYTES,
    grid,
    sizeof(FftPushConstants),
    params,
    FFT_CONTRACT_NATIVE_INDEX,
    FFT_CONTRACT_FILL_TWIDDLES,
    FFT_CONTRACT_MIXED,
    FFT_STAGES,
    FFT_BLUESTEIN_M,
    FFT_RADER_ROOT,
};
