// spd_msl: runs one SPD configuration's MSL on the CPU executor and checks it, as
// tests/spd/matrix.c checks GLSL and HLSL on the Vulkan device.
//
//   spd_msl --op OP --format r32f|rg32f|rgba32f --layers N --widths W1[,W2] --label TEXT
//           [--spirv glsl=FILE --spirv hlsl=FILE] WxH...
//
// Linked per configuration with that configuration's kernel unit (spd_kernel, bound by
// attribute: exec/unit.cpp) and contract (spd_this_contract: contract.cpp). For each size:
// every level is filled with a sentinel, the counters are zeroed once and the level-6
// hand-off buffer is poisoned once, then two dispatches run back to back with the levels
// refilled in between and no host reset of the counters (the shader resets its own), so
// the second dispatch's tail must run. After each dispatch every level is compared with
// the CPU reference (runtime/spd/spd_ref.c) by the project's shared comparison within its
// stated bound (spd_ref_bound: min, max, test-order bit-exact, mean within 2^-20); levels
// past mip_count must still hold the sentinel and the counters must be back at 0.
// Dispatches rotate through the SIMD-group widths given and through the threadgroup
// orders forward, reverse, shuffled, so each size runs two different schedules.
// With --spirv, the same source also runs through libspdrt on the Vulkan device for each
// SPIR-V module given, and the levels must be bit-identical to the executor's.
// Prints one unnumbered TAP line per check ("ok - ..." / "not ok - ..."), for the
// calling .t to number. Exit status 0 whatever the results; 2 on usage errors.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "contract.h"
#include "executor.h"
#include "spdrt.h"
extern "C" {
#include "spdrt_spd.h"
}

extern const msl_exec::bound_kernel spd_kernel;

namespace {

using metal::float4;

const float sentinel = -1234.5f;

struct options {
  spd_op op = SPD_OP_MEAN;
  spdrt_edge edge = SPDRT_EDGE_DROP; // single-dispatch modes only (weighted may split)
  spdrt_format format = SPDRT_RGBA32F;
  uint32_t layers = 1;
  std::vector<unsigned> widths;
  std::string label;
  std::vector<std::pair<std::string, std::string>> spirv; // (name, path)
  std::vector<std::pair<uint32_t, uint32_t>> sizes;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "spd_msl: %s\n", why.c_str());
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--op") {
      std::string v = value();
      // The runtime knows every --op spdgen does.
      if (spd_ref_op_by_name(v.c_str(), &o.op) != 0) usage("--op " + v + ": an spdgen --spd op");
    } else if (a == "--edge") {
      std::string v = value();
      if (spd_ref_edge_by_name(v.c_str(), &o.edge) != 0 || o.edge == SPDRT_EDGE_WEIGHTED)
        usage("--edge " + v + ": drop or conservative (one dispatch)");
    } else if (a == "--format") {
      std::string v = value();
      // The shim's textures hold float4 and do not convert pixel formats: 32-bit floats only.
      if (spdrt_format_by_name(v.c_str(), &o.format) != 0 ||
          (o.format != SPDRT_R32F && o.format != SPDRT_RG32F && o.format != SPDRT_RGBA32F))
        usage("--format " + v + ": r32f, rg32f or rgba32f (the shim's textures do not quantize)");
    } else if (a == "--layers") {
      o.layers = uint32_t(std::strtoul(value().c_str(), nullptr, 10));
    } else if (a == "--widths") {
      std::string v = value();
      for (char* p = &v[0]; *p;) {
        o.widths.push_back(unsigned(std::strtoul(p, &p, 10)));
        if (*p == ',') ++p;
        else if (*p) usage("--widths " + v + ": numbers separated by commas");
      }
    } else if (a == "--label") {
      o.label = value();
    } else if (a == "--spirv") {
      std::string v = value();
      size_t eq = v.find('=');
      if (eq == std::string::npos) usage("--spirv " + v + ": NAME=FILE");
      o.spirv.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    } else {
      unsigned w, h;
      char end;
      if (std::sscanf(a.c_str(), "%ux%u%c", &w, &h, &end) != 2 || !w || !h) usage("unknown argument " + a);
      o.sizes.emplace_back(w, h);
    }
  }
  if (o.widths.empty() || o.layers == 0 || o.label.empty()) usage("--widths, --layers and --label are required");
  return o;
}

void tap(bool ok, const std::string& text) {
  std::printf("%sok - %s\n", ok ? "" : "not ", text.c_str());
  std::fflush(stdout);
}
void diag(const std::string& text) { std::printf("# %s\n", text.c_str()); }

// Deterministic source data in [0, 1): the runtime's test data with the seeds of
// tests/spd/matrix.c, so both suites see the same images.
std::vector<float> make_source(uint32_t w, uint32_t h, uint32_t layers, uint32_t seed) {
  std::vector<float> data(size_t(w) * h * layers * 4);
  spdrt_random_floats(data.data(), data.size(), seed, 0.0f, 1.0f);
  return data;
}

// The host side of one dispatch: textures, buffers and the parameter block, bound at the
// MSL indices of the SPD contract (README): src_level0 texture(0), dst_mips texture(1..),
// counters buffer(0), level6 buffer(1), parameters buffer(2).
struct spd_host {
  metal::__msl::texture_storage<float> source;
  std::vector<float4> source_texels;
  std::vector<metal::__msl::texture_storage<float>> levels; // [i] = level i + 1
  std::vector<std::vector<float4>> level_texels;
  std::vector<uint32_t> counters;
  std::vector<float4> level6;
  alignas(16) unsigned char params[64] = {};
  msl_exec::resources res;

  spd_host(const spd_contract& c, const options& o, uint32_t w, uint32_t h, const std::vector<float>& src) {
    source.width = w;
    source.height = h;
    source.array_size = o.layers;
    source_texels.resize(source.texel_count());
    for (size_t i = 0; i < source_texels.size(); ++i) set_source(o, i, &src[i * 4]);
    source.texels = source_texels.data();
    res.bind_texture(0, source);
    levels.resize(c.max_mips);
    level_texels.resize(c.max_mips);
    for (uint32_t i = 0; i < c.max_mips; ++i) { // one texture per level: a view of one mip
      levels[i].width = std::max(1u, w >> (i + 1));
      levels[i].height = std::max(1u, h >> (i + 1));
      levels[i].array_size = o.layers;
      level_texels[i].resize(levels[i].texel_count());
      levels[i].texels = level_texels[i].data();
      res.bind_texture(1 + i, levels[i]);
    }
    fill_levels();
    counters.assign(std::max<size_t>(1, c.counter_bytes(o.layers) / 4), 0u);
    // Never written by the host: a tail that reads an entry no threadgroup wrote reads NaN.
    level6.assign(std::max<size_t>(1, (c.level6_bytes(w, h, o.layers) + 15) / 16), float4(std::nanf("")));
    c.params(w, h, params);
    if (c.counter_bytes(o.layers)) {
      res.bind_buffer(0, counters.data(), c.counter_bytes(o.layers));
      res.bind_buffer(1, level6.data(), c.level6_bytes(w, h, o.layers));
    }
    res.bind_buffer(2, params, c.params_bytes);
  }
  // What a Metal read of the format returns: the stored channels, then (0, 0, 1) for the
  // missing ones (R32Float reads (r, 0, 0, 1)).
  void set_source(const options& o, size_t i, const float* rgba) {
    float4 t{0.0f, 0.0f, 0.0f, 1.0f};
    for (uint32_t ch = 0; ch < spdrt_format_channels(o.format); ++ch) t[ch] = rgba[ch];
    source_texels[i] = t;
  }
  void fill_levels() {
    for (auto& l : level_texels) std::fill(l.begin(), l.end(), float4(sentinel));
  }
  // Levels 1..mips as the runtime's readback type, for the shared comparison: the texels
  // are already RGBA floats, layer-major then row-major.
  spdrt_spd_levels view(uint32_t mips) const {
    spdrt_spd_levels v{};
    v.mip_count = mips;
    v.layers = source.array_size;
    v.width[0] = source.width;
    v.height[0] = source.height;
    for (uint32_t k = 1; k <= mips; ++k) {
      v.width[k] = levels[k - 1].width;
      v.height[k] = levels[k - 1].height;
      v.level[k] = reinterpret_cast<float*>(const_cast<float4*>(level_texels[k - 1].data()));
    }
    return v;
  }
};

struct comparison {
  spd_ref_comparison levels{}; // levels 1..mip_count, by the shared comparison
  size_t past_end = 0;         // texels of levels past mip_count that are not the sentinel
};

// The executor's levels 1..mip_count against expected (the reference, or another target's
// output) within bound, and levels past mip_count: they must be untouched.
comparison compare(const spd_host& host, const spdrt_spd_levels& expected, uint32_t channels, double bound) {
  comparison c;
  spdrt_spd_levels got = host.view(expected.mip_count);
  for (uint32_t k = 1; k <= expected.mip_count; ++k)
    spd_ref_compare_level(&got, &expected, k, channels, bound, nullptr, sentinel, &c.levels);
  for (size_t k = expected.mip_count; k < host.level_texels.size(); ++k)
    for (const float4& t : host.level_texels[k])
      if (t.x != sentinel || t.y != sentinel || t.z != sentinel || t.w != sentinel) ++c.past_end;
  return c;
}

std::string size_text(uint32_t w, uint32_t h) { return std::to_string(w) + "x" + std::to_string(h); }

// Runs the two dispatches of one size on the executor and prints one TAP line; host keeps
// the levels of the second dispatch (for the parity check).
void run_size(const spd_contract& c, const options& o, size_t case_index, uint32_t w, uint32_t h,
              const spdrt_spd_levels& ref, spd_host& host) {
  static const msl_exec::order orders[] = {msl_exec::order::forward, msl_exec::order::reverse,
                                           msl_exec::order::shuffled};
  uint32_t grid[3];
  c.grid(w, h, o.layers, grid);
  std::string name = o.label + " " + size_text(w, h);
  if (grid[2] != o.layers) {
    tap(false, name + ": the contract's grid has " + std::to_string(grid[2]) + " layer(s), the test " +
                   std::to_string(o.layers) + " (--array mismatch)");
    return;
  }
  // The contract's mip_count must be the runtime's (and the reference's) rule.
  uint32_t mips = c.mip_count(w, h);
  if (mips != ref.mip_count) {
    tap(false, name + ": the contract's spd_mip_count is " + std::to_string(mips) + ", the runtime's " +
                   std::to_string(ref.mip_count));
    return;
  }
  if (mips == 0) { // the contract: nothing to do, so a host dispatches nothing
    tap(true, name + ": mip_count 0 in the contract and the reference: nothing to dispatch");
    return;
  }
  std::string schedule, problem;
  auto start = std::chrono::steady_clock::now();
  double bound = spd_ref_bound(o.op, o.format), max_error = 0;
  for (size_t d = 0; d < 2 && problem.empty(); ++d) {
    msl_exec::dispatch_params p;
    p.groups = metal::uint3{grid[0], grid[1], grid[2]};
    p.threads = metal::uint3{c.threads[0], c.threads[1], c.threads[2]};
    p.simd_width = o.widths[(case_index + d) % o.widths.size()];
    p.ord = orders[(case_index + d) % 3];
    p.seed = uint32_t(w * 7919u + h + d);
    schedule += std::string(d ? ", then " : "") + "simd " + std::to_string(p.simd_width) + " " +
                msl_exec::order_name(p.ord);
    if (d) host.fill_levels();
    std::string error = msl_exec::dispatch(spd_kernel, host.res, p);
    if (!error.empty()) {
      problem = "dispatch " + std::to_string(d + 1) + ": " + error;
      break;
    }
    comparison cmp = compare(host, ref, c.channels, bound);
    max_error = std::max(max_error, cmp.levels.max_error);
    for (uint32_t v : host.counters)
      if (v != 0) problem = "dispatch " + std::to_string(d + 1) + ": a counter is " + std::to_string(v) + ", not reset to 0";
    if (cmp.levels.mismatches)
      problem = "dispatch " + std::to_string(d + 1) + ": " + std::to_string(cmp.levels.mismatches) +
                " mismatches; first: " + cmp.levels.first;
    else if (cmp.levels.sentinels)
      problem = "dispatch " + std::to_string(d + 1) + ": " + std::to_string(cmp.levels.sentinels) +
                " texels still hold the sentinel";
    else if (cmp.past_end)
      problem = "dispatch " + std::to_string(d + 1) + ": " + std::to_string(cmp.past_end) + " texels written past mip_count";
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char within[40], numbers[80];
  std::snprintf(within, sizeof within, "within %.3g", bound);
  std::snprintf(numbers, sizeof numbers, "max error %.3g; %.2f s", max_error, seconds);
  tap(problem.empty(), name + ": " + std::to_string(mips) + " levels " + (bound == 0 ? "bit-exact" : within) +
                           " after each of 2 dispatches, " + numbers + " (" + schedule + ")");
  if (!problem.empty()) diag(problem);
}

// A sub-rectangle update after the full dispatches: new values in a rectangle touching the
// right and bottom edges (every layer), the tiles and parameters from the header's
// spd_update_dispatch, one dispatch of those tiles only; every level must then equal the
// reference of the changed source, and the counters be back at 0.
void run_update(const spd_contract& c, const options& o, uint32_t w, uint32_t h, std::vector<float> src,
                spd_host& host) {
  uint32_t x = w - std::max(1u, w / 4), y = h - std::max(1u, h / 3), grid[2];
  std::string name = o.label + " " + size_text(w, h) + ": update of (" + std::to_string(x) + ", " +
                     std::to_string(y) + ") to the corner";
  std::vector<float> fresh = make_source(w, h, o.layers, 4242u + w);
  for (uint32_t l = 0; l < o.layers; ++l)
    for (uint32_t j = y; j < h; ++j)
      for (uint32_t i = x; i < w; ++i) {
        size_t t = (size_t(l) * h + j) * w + i;
        std::copy(&fresh[t * 4], &fresh[t * 4 + 4], &src[t * 4]);
        host.set_source(o, t, &src[t * 4]);
      }
  spdrt_spd_levels ref{};
  std::string problem;
  if (spd_ref_run_edge(o.op, o.edge, o.format, w, h, o.layers, c.mip_count(w, h), 0, src.data(), &ref) != 0) {
    problem = "the reference failed";
  } else if (c.update(w, h, x, y, w - x, h - y, host.params, grid) != 0) {
    problem = "spd_update_dispatch refused the rectangle";
  } else {
    msl_exec::dispatch_params p;
    p.groups = metal::uint3{grid[0], grid[1], o.layers};
    p.threads = metal::uint3{c.threads[0], c.threads[1], c.threads[2]};
    p.simd_width = o.widths.back();
    p.ord = msl_exec::order::shuffled;
    p.seed = w + h;
    problem = msl_exec::dispatch(spd_kernel, host.res, p);
    comparison cmp = compare(host, ref, c.channels, spd_ref_bound(o.op, o.format));
    for (uint32_t v : host.counters)
      if (v != 0) problem = "a counter is " + std::to_string(v) + ", not reset to 0";
    if (problem.empty() && cmp.levels.mismatches)
      problem = std::to_string(cmp.levels.mismatches) + " mismatches; first: " + cmp.levels.first;
    name += ", " + std::to_string(grid[0]) + "x" + std::to_string(grid[1]) + " tiles";
  }
  tap(problem.empty(), name + ": every level equals the reference of the changed source");
  if (!problem.empty()) diag(problem);
  spdrt_spd_levels_free(&ref);
}

std::vector<uint32_t> read_words(const std::string& path) {
  std::vector<uint32_t> words;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    uint32_t buf[1024];
    size_t n;
    while ((n = std::fread(buf, 4, 1024, f)) > 0) words.insert(words.end(), buf, buf + n);
    std::fclose(f);
  }
  return words;
}

// The same source through each SPIR-V module on the Vulkan device: every level of every
// module must be bit-identical to the executor's (after the second dispatch of each).
void parity(spdrt_context* ctx, const spd_contract& c, const options& o, uint32_t w, uint32_t h,
            const std::vector<float>& src, const spd_host& host, int subgroup) {
  std::string name = "parity " + o.label + " " + size_text(w, h) + ": ";
  for (const auto& s : o.spirv) name += s.first + ", ";
  name += "msl (executor) bit-identical";
  if (!ctx) {
    std::printf("ok # SKIP %s: no Vulkan device\n", name.c_str());
    return;
  }
  std::string problem;
  for (const auto& s : o.spirv) {
    std::vector<uint32_t> words = read_words(s.second);
    spdrt_spd_params params{};
    params.width = w;
    params.height = h;
    params.layers = o.layers;
    params.is_array = o.layers > 1;
    params.mips_bound = c.max_mips;
    params.subgroup = uint32_t(subgroup);
    params.format = o.format;
    params.edge = o.edge;
    params.dispatches = 2;
    params.sentinel = sentinel;
    params.refill_between_dispatches = 1;
    spdrt_spd_levels gpu{};
    if (words.empty()) {
      problem = s.first + ": cannot read " + s.second;
    } else if (spdrt_spd_run(ctx, words.data(), words.size(), &params, src.data(), &gpu) != SPDRT_OK) {
      problem = s.first + ": " + spdrt_last_error(ctx);
    } else {
      comparison cmp = compare(host, gpu, c.channels, 0.0);
      if (gpu.mip_count != c.mip_count(w, h)) problem = s.first + ": " + std::to_string(gpu.mip_count) + " levels";
      else if (cmp.levels.mismatches)
        problem = s.first + " vs msl: " + std::to_string(cmp.levels.mismatches) + " differ; first: " + cmp.levels.first;
    }
    spdrt_spd_levels_free(&gpu);
    if (!problem.empty()) break;
  }
  tap(problem.empty(), name);
  if (!problem.empty()) diag(problem);
}

} // namespace

int main(int argc, char** argv) {
  options o = parse(argc, argv);
  const spd_contract& c = spd_this_contract;
  for (unsigned width : o.widths)
    if (width < c.subgroup) usage("--widths: " + std::to_string(width) + " is narrower than the kernel's SPD_SUBGROUP_SIZE");
  spdrt_context* ctx = nullptr;
  if (!o.spirv.empty()) {
    spdrt_options vk{};
    char err[512];
    if (spdrt_create(&vk, &ctx, err, sizeof err) != SPDRT_OK) {
      diag(std::string("no Vulkan device, parity skipped: ") + err);
      ctx = nullptr;
    }
  }
  for (size_t z = 0; z < o.sizes.size(); ++z) {
    uint32_t w = o.sizes[z].first, h = o.sizes[z].second;
    std::vector<float> src = make_source(w, h, o.layers, w * 7919u + h);
    spdrt_spd_levels ref{};
    if (spd_ref_run_edge(o.op, o.edge, o.format, w, h, o.layers, spdrt_spd_mip_count(w, h, c.max_mips), 0,
                         src.data(), &ref) != 0) {
      tap(false, o.label + " " + size_text(w, h) + ": the reference failed");
      continue;
    }
    spd_host host(c, o, w, h, src);
    run_size(c, o, z, w, h, ref, host);
    if (!o.spirv.empty()) parity(ctx, c, o, w, h, src, host, int(c.subgroup));
    // Updates on the smaller sizes (the executor is slow); the Vulkan tests cover larger ones.
    if (c.mip_count(w, h) > 0 && std::max(w, h) <= 300) run_update(c, o, w, h, src, host);
    spdrt_spd_levels_free(&ref);
  }
  if (ctx) spdrt_destroy(ctx);
  return 0;
}
