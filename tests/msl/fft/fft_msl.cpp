// fft_msl: runs one FFT configuration's MSL on the CPU executor and checks it against the
// double-precision reference, as tests/fft/matrix.c checks GLSL and HLSL on the
// Vulkan device.
//
//   fft_msl --config "FLAGS" --count C --runs W:ORDER:PAD[,W:ORDER:PAD...] [--label TEXT]
//           [--save FILE | --from FILE]
//
// --save FILE writes the first run's input and output; --from FILE makes the first run's
// input that file's output and adds one TAP line: this run's output against that file's
// input, relative L2 <= 1e-6 (a round trip, forward in one program and inverse in another:
// one kernel per program). Complex f32 data, the first run packed.
//
// FLAGS are the spdgen flags the configuration was generated with (--fft N --ept E ...);
// linked per configuration with its kernel unit (fft_kernel, bound by attribute:
// exec/unit.cpp) and its contract (fft_this_contract: contract.cpp, from the header spdgen
// wrote). First one TAP line for the contract: the header must state what the flags asked
// for, its grid and element sizes must be the README's, its fft_native_index the runtime's,
// its shared memory what the kernel declares, its fft_fill_twiddles (--twiddles lut, the
// table the host binds at buffer(3)) exp(-2 pi i k / N) rounded to float. Then one dispatch per W:ORDER:PAD, each with
// C FFTs (rows, pairs of real rows or columns) on fresh random data in [-1, 1]
// (tests/fft/common.h's generator): SIMD-group width W (>= FFT_SUBGROUP_SIZE),
// threadgroups and fibers in ORDER (forward, reverse, shuffled), and strides PAD elements
// longer than packed (0: packed, as fft/matrix runs; PAD > 0 leaves gaps). For each:
//  - the input buffer's gaps and the output buffer are filled with NaN (all bits set, a
//    NaN as float and as half), as libspdrt fills the output; every buffer has a guard
//    band of NaN before and after it;
//  - the output elements the contract names are compared with runtime/fft/fft_ref.c by the
//    runtime's metric (spdrt_fft_compare), within the bounds of tests/fft/matrix.c
//    (spdrt_fft.h: relative L2 4e-7, max|err| / max|ref| 2e-6; f16 storage 1e-3, 2e-3),
//    and none may be non-finite (never written);
//  - the gaps and guard bands of the output must still hold the fill, and the input buffer
//    (read-only in the contract) must be unchanged, guards included;
//  - the executor's errors (barrier or SIMD-group function reached by part of the group,
//    binding errors) fail the run.
// f16 storage: the host converts with the runtime's own conversions (runtime/core/format.c), as
// spdrt_fft_run does, and the reference rounds the input to half as for the device tests.
// Prints one unnumbered TAP line per check ("ok - ..." / "not ok - ...") with the measured
// errors, for the calling .t to number. Exit status 0 whatever the results; 2 on usage
// errors.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "contract.h"
#include "executor.h"
#include "spdrt_fft.h"

// runtime/core/internal.h (not includable here: it pulls in the Vulkan loader): the half
// conversions libspdrt uses for --storage f16 (runtime/core/format.c).
extern "C" uint16_t spdrt__float_to_half(float f);
extern "C" float spdrt__half_to_float(uint16_t h);

// The threadgroup memory the kernel declares (shim/keywords.h puts it in this section).
extern "C" char __start_msl_threadgroup[] __attribute__((weak));
extern "C" char __stop_msl_threadgroup[] __attribute__((weak));

extern const msl_exec::bound_kernel fft_kernel;

namespace {

// What the flags asked for (spdgen's defaults where a flag is absent).
struct flags {
  uint32_t n = 0, ept = 0, wg = 0, subgroup = 0;
  int inverse = 0, native = 0, real = 0, strided = 0, f16 = 0, lut = 0;
  uint32_t rows = 0; // --rows-per-wg (0: not given; the configurations name --ept and --wg, so 1)
  uint32_t prefetch = 0; // --prefetch-rows (0: not given, so 1 for the same reason)
  std::string layout; // --column-layout ("": not given)
  uint32_t cols = 0;  // --columns-per-wg (0: not given)
  spdrt_fft_norm norm = SPDRT_FFT_NORM_INVERSE;
};

struct run_spec {
  unsigned width;
  msl_exec::order ord;
  uint32_t pad;
};

struct options {
  std::string config, label;
  std::string save, from; // --save FILE, --from FILE: the round trip across two programs
  flags f;
  uint32_t count = 0;
  std::vector<run_spec> runs;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "fft_msl: %s\n", why.c_str());
  std::exit(2);
}

flags parse_flags(const std::string& text) {
  std::vector<std::string> w;
  for (size_t i = 0; i < text.size();) {
    size_t j = text.find(' ', i);
    if (j == std::string::npos) j = text.size();
    if (j > i) w.push_back(text.substr(i, j - i));
    i = j + 1;
  }
  flags f;
  for (size_t i = 0; i < w.size(); ++i) {
    const std::string& a = w[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= w.size()) usage("--config: " + a + " needs a value");
      return w[++i];
    };
    auto number = [&]() { return uint32_t(std::strtoul(value().c_str(), nullptr, 10)); };
    if (a == "--fft") f.n = number();
    else if (a == "--ept") f.ept = number();
    else if (a == "--wg") f.wg = number();
    else if (a == "--subgroup") f.subgroup = number();
    else if (a == "--direction") f.inverse = value() == "inverse";
    else if (a == "--order") f.native = value() == "native";
    else if (a == "--storage") f.f16 = value() == "f16";
    else if (a == "--twiddles") f.lut = value() == "lut";
    else if (a == "--real") f.real = 1;
    else if (a == "--stride") f.strided = 1;
    else if (a == "--rows-per-wg") f.rows = number();
    else if (a == "--prefetch-rows") f.prefetch = number();
    else if (a == "--column-layout") f.layout = value();
    else if (a == "--columns-per-wg") f.cols = number();
    else if (a == "--shared-layout") { // the exchanges' array layout: same memory, same contract
      std::string v = value();
      if (v != "split" && v != "paired") usage("--config: --shared-layout " + v);
    }
    else if (a == "--norm") {
      std::string v = value();
      if (v == "inverse") f.norm = SPDRT_FFT_NORM_INVERSE;
      else if (v == "none") f.norm = SPDRT_FFT_NORM_NONE;
      else if (v == "unitary") f.norm = SPDRT_FFT_NORM_UNITARY;
      else usage("--config: --norm " + v);
    } else {
      usage("--config: unknown flag " + a);
    }
  }
  if (!f.n) usage("--config needs --fft N");
  return f;
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--config") {
      o.config = value();
      o.f = parse_flags(o.config);
    } else if (a == "--save") {
      o.save = value();
    } else if (a == "--from") {
      o.from = value();
    } else if (a == "--label") {
      o.label = value();
    } else if (a == "--count") {
      o.count = uint32_t(std::strtoul(value().c_str(), nullptr, 10));
    } else if (a == "--runs") {
      std::string v = value();
      for (size_t p = 0; p < v.size();) {
        size_t q = v.find(',', p);
        if (q == std::string::npos) q = v.size();
        std::string item = v.substr(p, q - p);
        unsigned width, pad;
        char order[16];
        if (std::sscanf(item.c_str(), "%u:%15[a-z]:%u", &width, order, &pad) != 3)
          usage("--runs " + item + ": WIDTH:ORDER:PAD");
        run_spec r{width, msl_exec::order::forward, pad};
        if (!std::strcmp(order, "reverse")) r.ord = msl_exec::order::reverse;
        else if (!std::strcmp(order, "shuffled")) r.ord = msl_exec::order::shuffled;
        else if (std::strcmp(order, "forward")) usage("--runs " + item + ": forward, reverse or shuffled");
        o.runs.push_back(r);
        p = q + 1;
      }
    } else {
      usage("unknown argument " + a);
    }
  }
  if (o.config.empty() || !o.count || o.runs.empty()) usage("--config, --count and --runs are required");
  if (o.label.empty()) o.label = "msl " + o.config;
  return o;
}

void tap(bool ok, const std::string& text) {
  std::printf("%sok - %s\n", ok ? "" : "not ", text.c_str());
  std::fflush(stdout);
}
void diag(const std::string& text) { std::printf("# %s\n", text.c_str()); }

// Uniform values in [-1, 1): the runtime's test data, as tests/fft/common.h makes
// them; the same seed gives the same data.
void fft_random(float* data, size_t count, uint32_t seed) {
  spdrt_random_floats(data, count, seed, -1.0f, 1.0f);
}

double expected_scale(const flags& f) {
  if (f.norm == SPDRT_FFT_NORM_UNITARY) return 1.0 / std::sqrt(double(f.n));
  if (f.norm == SPDRT_FFT_NORM_INVERSE && f.inverse) return 1.0 / double(f.n);
  return 1.0;
}

// Whether N has a prime factor above 31 (Bluestein's path), and whether the header's M is a
// length its convolution takes: >= 2N - 1, the power of two or 2^a 3^b 5^c 7^d (spdgen's
// --bluestein-m picks among those by its estimate; the test checks the rule, not the pick).
bool bluestein_length(uint32_t n) {
  for (uint32_t r : {2u, 3u, 5u, 7u, 11u, 13u, 17u, 19u, 23u, 29u, 31u})
    while (n % r == 0) n /= r;
  return n != 1;
}
// Rader's root: a prime N whose N - 1 is 31-smooth may run as Rader's convolution (spdgen's
// --prime picks by its estimate); the root must generate every residue 1 .. N - 1.
bool rader_root_fits(uint32_t n, uint32_t g) {
  if (g < 2 || g >= n) return false;
  uint64_t k = 1;
  for (uint32_t p = 1; p < n - 1; p++) {
    k = k * g % n;
    if (k == 1) return false;
  }
  return true;
}
bool bluestein_m_fits(uint32_t n, uint32_t m) {
  if (m < 2 * n - 1) return false;
  for (uint32_t r : {2u, 3u, 5u, 7u})
    while (m % r == 0) m /= r;
  return m == 1;
}

// A mixed-radix or Bluestein header (docs/fft.md, "Lengths beyond powers of two") against the
// flags: "" or the first disagreement. The generator chooses the FFTs per workgroup (a power
// of two up to 32 for rows, up to 16 columns in lanes), each FFT's W = N/E (Bluestein: M/E)
// invocations consecutive for rows and interleaved for columns; every exchange goes through
// shared memory (FFT_SUBGROUP_SIZE 0 whatever --subgroup says); natural order only.
std::string check_mixed_contract(const fft_contract& c, const flags& f) {
  auto num = [](const char* what, uint64_t got, uint64_t want) {
    return got == want ? std::string()
                       : std::string(what) + " is " + std::to_string(got) + ", expected " + std::to_string(want);
  };
  bool bluestein = bluestein_length(f.n) && c.rader_root == 0, rader = c.rader_root != 0;
  uint32_t len = bluestein ? c.bluestein_m : rader ? f.n - 1 : f.n; // what E x W makes
  uint32_t complex_bytes = f.f16 ? 4 : 8;
  uint32_t src_bytes = f.real && !f.inverse ? 4 : complex_bytes;
  uint32_t dst_bytes = f.real && f.inverse ? 4 : complex_bytes;
  uint32_t w = c.ept ? len / c.ept : 0;
  std::string e;
  if (e.empty()) e = num("FFT_N", c.n, f.n);
  if (e.empty() && !bluestein) e = num("FFT_BLUESTEIN_M", c.bluestein_m, 0);
  if (e.empty() && rader && (!bluestein_length(f.n) || !rader_root_fits(f.n, c.rader_root)))
    e = "FFT_RADER_ROOT is " + std::to_string(c.rader_root) + ", not a primitive root of a prime N";
  if (e.empty() && bluestein && !bluestein_m_fits(f.n, c.bluestein_m))
    e = "FFT_BLUESTEIN_M is " + std::to_string(c.bluestein_m) +
        ", not a power of two or 7-smooth length >= 2N - 1";
  if (e.empty() && c.bluestein_m == 0 && c.stages == 0) e = "FFT_STAGES missing or 0";
  if (e.empty() && f.ept) e = num("FFT_ELEMENTS_PER_INVOCATION", c.ept, f.ept);
  if (e.empty()) e = num("E x W", uint64_t(c.ept) * w, len);
  if (e.empty() && f.wg) e = num("W (invocations per FFT)", w, f.wg);
  if (e.empty() && f.rows) e = num("FFT_COLUMNS_PER_WORKGROUP", c.columns, f.rows);
  if (e.empty() && (c.columns == 0 || (c.columns & (c.columns - 1)) || c.columns > 32))
    e = "FFT_COLUMNS_PER_WORKGROUP " + std::to_string(c.columns) + " is not a power of two up to 32";
  if (e.empty()) e = num("FFT_WORKGROUP_SIZE_X", c.threads[0], uint64_t(w) * c.columns);
  if (e.empty()) e = num("FFT_WORKGROUP_SIZE_Y x Z", uint64_t(c.threads[1]) * c.threads[2], 1);
  if (e.empty()) e = num("FFT_COLUMNS_IN_LANES", c.lanes, f.strided ? 1 : 0);
  if (e.empty()) e = num("FFT_SUBGROUP_SIZE", c.subgroup, 0);
  if (e.empty()) e = num("FFT_INVERSE", c.inverse, f.inverse);
  if (e.empty()) e = num("FFT_NATIVE_ORDER", c.native, 0);
  if (e.empty()) e = num("FFT_REAL", c.real, f.real);
  if (e.empty()) e = num("FFT_STRIDED", c.strided, f.strided);
  if (e.empty()) e = num("FFT_F16", c.f16, f.f16);
  if (e.empty()) e = num("FFT_TWIDDLE_LUT", c.lut, 0);
  if (e.empty()) e = num("FFT_SRC_ELEMENT_BYTES", c.src_element_bytes, src_bytes);
  if (e.empty()) e = num("FFT_DST_ELEMENT_BYTES", c.dst_element_bytes, dst_bytes);
  if (e.empty()) e = num("sizeof(FftPushConstants)", c.params_bytes, 16);
  if (e.empty()) e = num("[[max_total_threads_per_threadgroup]]", fft_kernel.max_total_threads, c.threads[0]);
  for (uint32_t count = 1; count <= 64 && e.empty(); ++count)
    e = num(("FFT_GRID_X(" + std::to_string(count) + ")").c_str(), c.grid(count), (count + c.columns - 1) / c.columns);
  if (e.empty()) {
    double scale = std::strtod(c.scale, nullptr), want = expected_scale(f);
    if (!(std::fabs(scale - want) <= 1e-7 * want)) e = std::string("FFT_SCALE is ") + c.scale + ", expected " + std::to_string(want);
  }
  if (e.empty()) {
    // The section also holds the linker's alignment of the second array (fft_re[391] ends 4
    // bytes short of 8): below 8 bytes over the arrays' sum.
    size_t declared = __start_msl_threadgroup ? size_t(__stop_msl_threadgroup - __start_msl_threadgroup) : 0;
    if (declared < c.shared_bytes || declared >= c.shared_bytes + 8u)
      e = num("the kernel's threadgroup memory (bytes)", declared, c.shared_bytes);
  }
  if (e.empty() && c.shared_bytes > 32768) e = "FFT_SHARED_MEMORY_BYTES above 32 KB";
  return e;
}

// The contract header against the flags, the README's rules and the runtime: "" or the
// first disagreement.
std::string check_contract(const fft_contract& c, const flags& f) {
  if (c.mixed) return check_mixed_contract(c, f);
  auto num = [](const char* what, uint64_t got, uint64_t want) {
    return got == want ? std::string()
                       : std::string(what) + " is " + std::to_string(got) + ", expected " + std::to_string(want);
  };
  uint32_t complex_bytes = f.f16 ? 4 : 8; // float2, or a uint of two halves
  // Real samples: a float, or two halves in a uint.
  uint32_t src_bytes = f.real && !f.inverse ? 4 : complex_bytes;
  uint32_t dst_bytes = f.real && f.inverse ? 4 : complex_bytes;
  // Columns (README, "The FFT dispatch contract"): in lanes, --columns-per-wg or the largest
  // power of two up to 16 with C x W <= 1024 (--max-wg), by default only where that is >= 8;
  // else in registers, 4 for E <= 4, 2 for E = 8, 1 for E = 16.
  uint32_t lanes = 0;
  if (f.strided && f.layout != "registers") {
    uint32_t wg = f.wg ? f.wg : c.n / c.ept;
    lanes = 16;
    while (lanes > 1 && lanes * wg > 1024) lanes /= 2;
    if (f.cols) lanes = f.cols;
    else if (lanes < 8 && f.layout != "lanes") lanes = 0;
  }
  uint32_t columns = lanes ? lanes : f.strided ? (c.ept <= 4 ? 4 : c.ept == 8 ? 2 : 1) : f.rows ? f.rows : f.prefetch ? f.prefetch : 1;
  uint32_t per_fft = lanes ? lanes : 1; // invocations per element position: C in lanes
  // Shuffles need butterfly partners within a subgroup: in lanes only where S > C.
  uint32_t subgroup = lanes && f.subgroup <= lanes ? 0 : f.subgroup;
  std::string e;
  if (e.empty()) e = num("FFT_N", c.n, f.n);
  if (e.empty() && f.ept) e = num("FFT_ELEMENTS_PER_INVOCATION", c.ept, f.ept);
  if (e.empty() && f.wg) e = num("FFT_WORKGROUP_SIZE_X", c.threads[0], uint64_t(f.wg) * per_fft);
  if (e.empty()) e = num("E x W", uint64_t(c.ept) * c.threads[0] / per_fft, c.n);
  if (e.empty()) e = num("FFT_WORKGROUP_SIZE_Y x Z", uint64_t(c.threads[1]) * c.threads[2], 1);
  if (e.empty()) e = num("FFT_COLUMNS_IN_LANES", c.lanes, lanes ? 1 : 0);
  if (e.empty()) e = num("FFT_SUBGROUP_SIZE", c.subgroup, subgroup);
  if (e.empty()) e = num("FFT_INVERSE", c.inverse, f.inverse);
  if (e.empty()) e = num("FFT_NATIVE_ORDER", c.native, f.native);
  if (e.empty()) e = num("FFT_REAL", c.real, f.real);
  if (e.empty()) e = num("FFT_STRIDED", c.strided, f.strided);
  if (e.empty()) e = num("FFT_F16", c.f16, f.f16);
  if (e.empty()) e = num("FFT_TWIDDLE_LUT", c.lut, f.lut);
  if (e.empty()) e = num("FFT_COLUMNS_PER_WORKGROUP", c.columns, columns);
  if (e.empty()) e = num("FFT_SRC_ELEMENT_BYTES", c.src_element_bytes, src_bytes);
  if (e.empty()) e = num("FFT_DST_ELEMENT_BYTES", c.dst_element_bytes, dst_bytes);
  if (e.empty()) e = num("sizeof(FftPushConstants)", c.params_bytes, 16);
  if (e.empty()) e = num("[[max_total_threads_per_threadgroup]]", fft_kernel.max_total_threads, c.threads[0]);
  for (uint32_t count = 1; count <= 64 && e.empty(); ++count)
    e = num(("FFT_GRID_X(" + std::to_string(count) + ")").c_str(), c.grid(count), (count + columns - 1) / columns);
  for (uint32_t k = 0; k < c.n && e.empty(); ++k)
    e = num(("fft_native_index(" + std::to_string(k) + ")").c_str(), c.native_index(k), spdrt_fft_native_index(k, c.n));
  if (e.empty()) {
    double scale = std::strtod(c.scale, nullptr), want = expected_scale(f);
    if (!(std::fabs(scale - want) <= 1e-7 * want)) e = std::string("FFT_SCALE is ") + c.scale + ", expected " + std::to_string(want);
  }
  if (e.empty()) {
    size_t declared = __start_msl_threadgroup ? size_t(__stop_msl_threadgroup - __start_msl_threadgroup) : 0;
    e = num("the kernel's threadgroup memory (bytes)", declared, c.shared_bytes);
  }
  if (e.empty() && c.shared_bytes > 32768) e = "FFT_SHARED_MEMORY_BYTES above 32 KB";
  if (e.empty() && bool(c.fill_twiddles) != bool(c.lut)) e = "fft_fill_twiddles present without --twiddles lut, or missing";
  if (e.empty() && c.lut) { // the table the host fills: exp(-2 pi i k / N), rounded to float
    std::vector<float> table(c.n);
    c.fill_twiddles(table.data());
    for (uint32_t k = 0; k < c.n / 2 && e.empty(); ++k) {
      double angle = 6.28318530717958647692528676655900577 * double(k) / double(c.n);
      if (table[2 * k] != float(std::cos(angle)) || table[2 * k + 1] != float(-std::sin(angle)))
        e = "fft_fill_twiddles: entry " + std::to_string(k) + " is not exp(-2 pi i k / N) rounded to float";
    }
  }
  return e;
}

// Which floats of a buffer the contract names, as the host sees the buffer (one float per
// float, or per half with f16 storage): `lines` rows (or columns) of `per_line` values,
// complex (two floats) or real, line l at l * stride (rows) or element j of column l at
// l + j * stride, in values.
std::vector<char> layout(size_t floats, bool columns, uint32_t lines, uint32_t per_line, uint32_t stride,
                         bool complex_values) {
  std::vector<char> used(floats, 0);
  size_t width = complex_values ? 2 : 1;
  for (uint32_t l = 0; l < lines; ++l)
    for (uint32_t j = 0; j < per_line; ++j) {
      size_t at = columns ? size_t(l) + size_t(j) * stride : size_t(l) * stride + j;
      for (size_t k = 0; k < width; ++k)
        if (at * width + k < floats) used[at * width + k] = 1;
    }
  return used;
}

// A buffer with a guard band before and after it, everything filled with `fill` bytes;
// data() is 16-byte aligned.
struct guarded {
  static constexpr size_t guard = 256;
  std::vector<uint64_t> store;
  size_t bytes;
  guarded(size_t b, unsigned char fill) : store((b + 2 * guard + 7) / 8 + 1), bytes(b) {
    std::memset(store.data(), fill, store.size() * 8);
  }
  unsigned char* data() { return reinterpret_cast<unsigned char*>(store.data()) + guard; }
  const unsigned char* data() const { return reinterpret_cast<const unsigned char*>(store.data()) + guard; }
  // Bytes of the guard bands that no longer hold `fill`.
  size_t guards_changed(unsigned char fill) const {
    const unsigned char* all = reinterpret_cast<const unsigned char*>(store.data());
    size_t changed = 0;
    for (size_t i = 0; i < store.size() * 8; ++i)
      if ((i < guard || i >= guard + bytes) && all[i] != fill) ++changed;
    return changed;
  }
};

// The runtime's configuration of what the contract states, with the flags' norm (the
// header states only its scale, checked against the norm in check_contract).
spdrt_fft_config config_of(const fft_contract& c, const flags& f) {
  spdrt_fft_config cfg{};
  cfg.n = c.n;
  cfg.wg = c.threads[0];
  cfg.subgroup = c.subgroup;
  cfg.columns = c.columns;
  cfg.shared_bytes = c.shared_bytes;
  cfg.inverse = c.inverse;
  cfg.native = c.native;
  cfg.real = c.real;
  cfg.strided = c.strided;
  cfg.f16 = c.f16;
  cfg.lut = c.lut;
  cfg.bluestein_m = c.bluestein_m;
  cfg.rader_root = c.rader_root;
  cfg.norm = f.norm;
  return cfg;
}

std::string sci(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2e", v);
  return b;
}

// --save and --from: the first run's input and output floats, as two counted float arrays.
bool save_run(const std::string& path, const std::vector<float>& in, const std::vector<float>& out) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  uint64_t ni = in.size(), no = out.size();
  bool ok = std::fwrite(&ni, 8, 1, f) == 1 && std::fwrite(in.data(), 4, ni, f) == ni &&
            std::fwrite(&no, 8, 1, f) == 1 && std::fwrite(out.data(), 4, no, f) == no;
  return std::fclose(f) == 0 && ok;
}
bool load_run(const std::string& path, std::vector<float>& in, std::vector<float>& out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  uint64_t ni = 0, no = 0;
  bool ok = std::fread(&ni, 8, 1, f) == 1 && ni < (1ull << 30);
  if (ok) in.resize(ni), ok = std::fread(in.data(), 4, ni, f) == ni;
  ok = ok && std::fread(&no, 8, 1, f) == 1 && no < (1ull << 30);
  if (ok) out.resize(no), ok = std::fread(out.data(), 4, no, f) == no;
  std::fclose(f);
  return ok;
}

// One dispatch of `count` FFTs under schedule r; one TAP line.
void run_one(const fft_contract& c, const options& o, size_t index, const run_spec& r) {
  spdrt_fft_config cfg = config_of(c, o.f);
  spdrt_fft_params p{};
  p.count = o.count;
  p.dispatches = 1;
  uint32_t packed_in, packed_out;
  spdrt_fft_strides(&cfg, &p, &packed_in, &packed_out);
  p.in_stride = packed_in + r.pad;
  p.out_stride = packed_out + r.pad;
  std::string name = o.label + " x " + std::to_string(o.count) + ", simd " + std::to_string(r.width) + " " +
                     msl_exec::order_name(r.ord) + ", strides " + std::to_string(p.in_stride) + "/" +
                     std::to_string(p.out_stride) + (r.pad ? " (padded)" : " (packed)");
  size_t in_n = spdrt_fft_input_floats(&cfg, &p), out_n = spdrt_fft_output_floats(&cfg, &p);
  size_t scalar = c.f16 ? 2 : 4;

  // Which floats the contract names in each buffer.
  bool columns = c.strided;
  uint32_t lines = c.real ? 2 * o.count : o.count;
  std::vector<char> in_used = layout(in_n, columns, lines, c.real && !c.inverse ? c.n : c.real ? c.n / 2 : c.n,
                                     p.in_stride, !(c.real && !c.inverse));
  std::vector<char> out_used = layout(out_n, columns, lines, c.real && c.inverse ? c.n : c.real ? c.n / 2 : c.n,
                                      p.out_stride, !(c.real && c.inverse));

  // Random data where the contract reads, NaN in the gaps.
  std::vector<float> in(in_n);
  fft_random(in.data(), in_n, c.n + 7 * c.threads[0] + 13 * c.subgroup + 101 * uint32_t(index));
  for (size_t i = 0; i < in_n; ++i)
    if (!in_used[i]) in[i] = std::nanf("");
  std::string problem;
  // --from: the first run reads what another program's first run wrote (the forward's
  // output), and its output must give back that program's input (the round trip).
  std::vector<float> from_in, from_out;
  bool round_trip = index == 0 && !o.from.empty();
  if (round_trip) {
    if (!load_run(o.from, from_in, from_out)) problem = "cannot read " + o.from;
    else if (from_out.size() != in_n || from_in.size() != out_n)
      problem = o.from + " holds " + std::to_string(from_out.size()) + " output floats, this run reads " +
                std::to_string(in_n);
    else in = from_out;
  }
  std::vector<double> ref(out_n), nan_ref(out_n);
  std::vector<float> nans(in_n, std::nanf(""));
  if (spdrt_fft_reference(&cfg, &p, in.data(), ref.data()) != 0 ||
      spdrt_fft_reference(&cfg, &p, nans.data(), nan_ref.data()) != 0) {
    tap(false, name + ": the reference failed");
    return;
  }
  // The harness's layout must be the reference's: from a NaN input, exactly the elements
  // the reference writes are NaN.
  for (size_t i = 0; i < out_n && problem.empty(); ++i)
    if (bool(std::isnan(nan_ref[i])) != bool(out_used[i]))
      problem = "the harness's output layout disagrees with the reference at float " + std::to_string(i);

  guarded src(in_n * scalar, 0xff), dst(out_n * scalar, 0xff), lut(c.lut ? size_t(c.n / 2) * 8 : 0, 0xff);
  for (size_t i = 0; i < in_n; ++i) {
    if (c.f16) {
      uint16_t h = spdrt__float_to_half(in[i]);
      std::memcpy(src.data() + 2 * i, &h, 2);
    } else {
      std::memcpy(src.data() + 4 * i, &in[i], 4);
    }
  }
  const std::vector<uint64_t> src_before = src.store;
  if (c.lut) c.fill_twiddles(reinterpret_cast<float*>(lut.data())); // the header's filler
  alignas(16) unsigned char params[64] = {};
  c.params(p.count, p.in_stride, p.out_stride, params);
  msl_exec::resources res;
  res.bind_buffer(0, src.data(), src.bytes);
  res.bind_buffer(1, dst.data(), dst.bytes);
  res.bind_buffer(2, params, c.params_bytes);
  if (c.lut) res.bind_buffer(3, lut.data(), lut.bytes);
  // Bluestein's two tables, computed in double by the runtime as libspdrt's pipeline fills
  // bindings 2 and 3 (MSL buffer(3) and buffer(4)): the chirp (N float2), the kernel's
  // spectrum (M float2).
  guarded chirp(c.bluestein_m ? size_t(c.n) * 8 : 0, 0xff), spectrum(size_t(c.bluestein_m) * 8, 0xff);
  if (c.bluestein_m) {
    if (spdrt_fft_bluestein_tables(c.n, c.bluestein_m, c.inverse, reinterpret_cast<float*>(chirp.data()),
                                   reinterpret_cast<float*>(spectrum.data())) != 0)
      problem = "spdrt_fft_bluestein_tables failed";
    res.bind_buffer(3, chirp.data(), chirp.bytes);
    res.bind_buffer(4, spectrum.data(), spectrum.bytes);
  }
  // Rader's kernel spectrum (N - 1 float2) at binding 2 (MSL buffer(3)).
  guarded rader(c.rader_root ? size_t(c.n - 1) * 8 : 0, 0xff);
  if (c.rader_root) {
    if (spdrt_fft_rader_tables(c.n, c.rader_root, c.inverse, reinterpret_cast<float*>(rader.data())) != 0)
      problem = "spdrt_fft_rader_tables failed";
    res.bind_buffer(3, rader.data(), rader.bytes);
  }

  msl_exec::dispatch_params d;
  d.groups = metal::uint3{c.grid(p.count), 1, 1};
  d.threads = metal::uint3{c.threads[0], c.threads[1], c.threads[2]};
  d.simd_width = r.width;
  d.ord = r.ord;
  d.seed = uint32_t(c.n * 7919u + index);
  auto start = std::chrono::steady_clock::now();
  std::string error = problem.empty() ? msl_exec::dispatch(fft_kernel, res, d) : std::string();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!error.empty()) problem = error;

  // The output: the named floats against the reference; the rest must hold the fill.
  std::vector<float> got, all(out_n);
  std::vector<double> want, back; // back: --from's input where this run writes
  size_t gaps_written = 0;
  for (size_t i = 0; i < out_n; ++i) {
    float v;
    bool untouched;
    if (c.f16) {
      uint16_t h;
      std::memcpy(&h, dst.data() + 2 * i, 2);
      v = spdrt__half_to_float(h);
      untouched = h == 0xffffu;
    } else {
      uint32_t bits;
      std::memcpy(&bits, dst.data() + 4 * i, 4);
      std::memcpy(&v, &bits, 4);
      untouched = bits == 0xffffffffu;
    }
    all[i] = v;
    if (out_used[i]) {
      got.push_back(v);
      want.push_back(ref[i]);
      if (round_trip && problem.empty()) back.push_back(from_in[i]);
    } else if (!untouched) {
      ++gaps_written;
    }
  }
  spdrt_fft_error e{};
  spdrt_fft_compare(got.data(), want.data(), got.size(), !(c.real && c.inverse), &e);
  double l2_bound = c.f16 ? SPDRT_FFT_BOUND_F16_REL_L2
                  : c.bluestein_m || c.rader_root ? SPDRT_FFT_BOUND_BLUESTEIN_REL_L2 : SPDRT_FFT_BOUND_REL_L2;
  double max_bound = c.f16 ? SPDRT_FFT_BOUND_F16_MAX_REL : SPDRT_FFT_BOUND_MAX_REL;
  // Every problem of a run that dispatched, not only the first.
  auto add = [&](const std::string& p) { problem += (problem.empty() ? "" : "; ") + p; };
  if (error.empty() && problem.empty()) {
    if (e.non_finite)
      add(std::to_string(e.non_finite) + " output values are not finite (never written, or poison read)");
    if (gaps_written)
      add(std::to_string(gaps_written) + " output values written outside the elements the contract names");
    if (size_t n = dst.guards_changed(0xff)) add(std::to_string(n) + " bytes written past the ends of the output buffer");
    if (src.store != src_before) add("the input buffer (read-only) was written");
    if (!(e.rel_l2 <= l2_bound && e.max_rel <= max_bound)) add("error above the bounds; max |err| " + sci(e.max_abs));
  }
  char bounds[200];
  std::snprintf(bounds, sizeof bounds, "rel L2 %.2e (<= %.2g), max %.2e (<= %.2g)%s; %.2f s", e.rel_l2, l2_bound,
                e.max_rel, max_bound, e.non_finite ? " over the finite values" : "", seconds);
  tap(problem.empty(), name + ": " + bounds);
  if (!problem.empty()) diag(problem);
  if (index == 0 && !o.save.empty() && !save_run(o.save, in, all)) tap(false, name + ": cannot write " + o.save);
  if (round_trip) { // the bar of tests/fft/mixed.t and props.t: relative L2 <= 1e-6 after two transforms
    spdrt_fft_error rt{};
    bool ran = problem.empty() && back.size() == got.size();
    if (ran) spdrt_fft_compare(got.data(), back.data(), got.size(), 1, &rt);
    std::snprintf(bounds, sizeof bounds, "rel L2 %.2e (<= 1e-06), max %.2e", rt.rel_l2, rt.max_rel);
    tap(ran && rt.non_finite == 0 && rt.rel_l2 <= 1e-6,
        o.label + ": round trip, this inverse of " + o.from.substr(o.from.find_last_of('/') + 1) +
            " (the forward's output) against the forward's input: " + bounds);
  }
}

} // namespace

int main(int argc, char** argv) {
  options o = parse(argc, argv);
  const fft_contract& c = fft_this_contract;
  for (const run_spec& r : o.runs) {
    if (r.width < c.subgroup || r.width < 1 || r.width > 64)
      usage("--runs: SIMD-group width " + std::to_string(r.width) + " (the kernel needs >= " +
            std::to_string(c.subgroup) + ", the executor <= 64)");
    if ((!o.save.empty() || !o.from.empty()) && (c.f16 || c.real || o.runs[0].pad))
      usage("--save and --from: complex f32 rows or columns, the first run packed");
    if (c.f16 && c.real && r.pad % 2) usage("--runs: f16 real rows need an even stride (PAD " + std::to_string(r.pad) + ")");
  }
  std::string contract = check_contract(c, o.f);
  tap(contract.empty(), o.label + ": the contract header states the flags, the README's grid and element sizes, " +
                            (c.mixed ? std::string(c.bluestein_m ? "Bluestein's M" : c.rader_root ? "Rader's root"
                                                   : "the stages") +
                                           " and E x W of a length beyond powers of two"
                                     : std::string("the runtime's native order")) +
                            " and the kernel's threadgroup memory (" + std::to_string(c.shared_bytes) + " bytes)");
  if (!contract.empty()) {
    diag(contract);
    return 0;
  }
  for (size_t i = 0; i < o.runs.size(); ++i) run_one(c, o, i, o.runs[i]);
  return 0;
}
