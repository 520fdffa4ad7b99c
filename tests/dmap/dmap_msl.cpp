// dmap_msl: runs one spdgen --dmap fdm|fsr configuration's MSL on the CPU executor
// (tests/msl/exec) and compares every map texel with the CPU reference
// (runtime/dmap/dmap_ref.c), as tests/dmap/gen.c does for GLSL and HLSL on the device.
//
//   dmap_msl --dmap fdm|fsr --texel T --foveation F [--content] [--combine C] --views N
//            --max-rate R [--subgroup S] [--rate-map] --widths W1[,W2] WxH...
//
// The configuration's flags are spdgen's (the kernel unit linked in was made with them).
// For each size: spdrt_dmap_scene's frame, random parameters, inputs read as 16-bit floats
// (rounded as libspdrt uploads them), the map filled with a sentinel before each of two
// dispatches (and --rate-map's buffer with all ones, compared with the axes of the
// reference's map), SIMD-group widths and threadgroup orders rotating. Prints one unnumbered TAP
// line per size ("ok - ..."), for the calling .t to number. Exit 0 whatever the results; 2
// on usage errors.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "executor.h"
#include "spdrt_dmap.h"

extern const msl_exec::bound_kernel dmap_kernel;
// libspdrt's own conversions (runtime/core/fp16.c), so the executor reads what the device
// would: the uploads go through them.
extern "C" uint16_t spdrt__float_to_half(float f);
extern "C" float spdrt__half_to_float(uint16_t h);

namespace {

using metal::float4;
using metal::uint4;

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "dmap_msl: %s\n", why.c_str());
  std::exit(2);
}

struct options {
  spdrt_dmap_gen_config c{};
  std::vector<unsigned> widths;
  std::vector<std::pair<uint32_t, uint32_t>> sizes;
  std::string label;
  bool half_inputs = false; // --inputs f16: the kernel reads texture2d<half>
};

options parse(int argc, char** argv) {
  options o;
  o.c = {SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_GAZE, 0, 0, 4, 0, 0};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--dmap") {
      std::string v = value();
      if (v != "fdm" && v != "fsr") usage("--dmap " + v + ": fdm or fsr");
      o.c.kind = v == "fdm" ? SPDRT_DMAP_FDM : SPDRT_DMAP_FSR;
    } else if (a == "--foveation") {
      std::string v = value();
      o.c.foveation = v == "off" ? SPDRT_DMAP_FOVEATION_OFF : v == "fixed" ? SPDRT_DMAP_FOVEATION_FIXED
                                                                           : SPDRT_DMAP_FOVEATION_GAZE;
    } else if (a == "--content") {
      o.c.content = 1;
    } else if (a == "--rate-map") {
      o.c.rate_map = 1;
    } else if (a == "--combine") {
      o.c.combine_coarser = value() == "coarser";
    } else if (a == "--texel" || a == "--views" || a == "--max-rate" || a == "--subgroup") {
      uint32_t v = uint32_t(std::strtoul(value().c_str(), nullptr, 10));
      (a == "--texel" ? o.c.texel : a == "--views" ? o.c.views : a == "--max-rate" ? o.c.max_rate : o.c.subgroup) = v;
    } else if (a == "--inputs") {
      std::string v = value();
      if (v != "f16" && v != "f32") usage("--inputs " + v + ": f16 or f32");
      o.half_inputs = v == "f16";
    } else if (a == "--batch" || a == "--fetch" || a == "--ring") {
      value(); // how the shader loads; the reference's map does not depend on it
    } else if (a == "--fence") {
      // likewise
    } else if (a == "--widths") {
      std::string v = value();
      for (char* p = &v[0]; *p;) {
        o.widths.push_back(unsigned(std::strtoul(p, &p, 10)));
        if (*p == ',') ++p;
        else if (*p) usage("--widths " + v);
      }
    } else {
      unsigned w, h;
      char end;
      if (std::sscanf(a.c_str(), "%ux%u%c", &w, &h, &end) != 2 || !w || !h) usage("unknown argument " + a);
      o.sizes.emplace_back(w, h);
      continue;
    }
    if (a.rfind("--", 0) == 0 && a != "--widths") o.label += (o.label.empty() ? "" : " ") + a + (
        a == "--content" || a == "--rate-map" || a == "--fence" ? "" : " " + std::string(argv[i]));
  }
  if (o.widths.empty() || o.sizes.empty()) usage("--widths and at least one size are required");
  return o;
}

float h(float x) { return spdrt__half_to_float(spdrt__float_to_half(x)); }

uint32_t rng = 31337;
uint32_t rnd(uint32_t n) {
  rng = rng * 1664525u + 1013904223u;
  return (rng >> 8) % n;
}

// Random parameters, as tests/dmap/gen.c draws them.
void random_params(const spdrt_dmap_gen_config& c, uint32_t w, uint32_t ht, spdrt_dmap_gen_params& p) {
  spdrt_dmap_gen_defaults(&c, w, ht, &p);
  uint32_t side = w > ht ? w : ht, r = 0;
  for (int k = 0; k < 4; k++) p.radii[k] = r += 1 + rnd(side / 3 + 1);
  for (int k = 0; k < 5; k++) p.ring_rates[k] = spdrt_dmap_rate_code(rnd(5), rnd(5));
  p.aspect[0] = 64 + rnd(193);
  p.aspect[1] = 64 + rnd(193);
  for (uint32_t v = 0; v < c.views; v++) p.gaze[v][0] = rnd(w + 40), p.gaze[v][1] = rnd(ht + 40);
  if (rnd(3) == 0) p.rate_mask &= ~(1u << (rnd(3) * 5 + rnd(3)));
  p.cutoff = 0.01f + float(rnd(100)) / 1000.0f;
  p.cutoff4 = rnd(2) ? p.cutoff / float(2 + rnd(4)) : 0.0f;
  p.motion_factor = float(rnd(4)) * 0.01f;
}

// The dispatch grid of the contract (spdrt_dmap.h).
metal::uint3 grid_of(const spdrt_dmap_gen_config& c, uint32_t w, uint32_t ht) {
  spdrt_dmap_extent e = spdrt_dmap_gen_extent(&c, w, ht);
  if (!c.content) return {(e.width + 7) / 8, (e.height + 7) / 8, c.views};
  if (c.texel > 64) return {e.width, e.height, c.views};
  return {(w + 63) / 64, (ht + 63) / 64, c.views};
}

template <class T> struct map_texture {
  metal::__msl::texture_storage<T> storage;
  std::vector<metal::vec<T, 4>> texels;
  void make(uint32_t w, uint32_t ht, uint32_t layers) {
    storage.width = w, storage.height = ht, storage.array_size = layers;
    texels.assign(storage.texel_count(), metal::vec<T, 4>(T(0)));
    storage.texels = texels.data();
  }
};

void run_size(const options& o, size_t index, uint32_t w, uint32_t ht) {
  const spdrt_dmap_gen_config& c = o.c;
  static const msl_exec::order orders[] = {msl_exec::order::forward, msl_exec::order::reverse,
                                           msl_exec::order::shuffled};
  size_t pixels = size_t(w) * ht * c.views;
  std::vector<float> colour(pixels * 4), motion(pixels * 2);
  spdrt_dmap_scene(w, ht, c.views, 100 + index, colour.data(), motion.data());
  spdrt_dmap_gen_params p;
  random_params(c, w, ht, p);
  spdrt_dmap_extent e = spdrt_dmap_gen_extent(&c, w, ht);
  const uint32_t bytes = spdrt_dmap_gen_texel_bytes(&c);
  const size_t texels = size_t(e.width) * e.height * c.views;
  std::vector<uint8_t> ref(texels * bytes);
  spdrt_dmap_gen_reference(&c, &p, colour.data(), motion.data(), ref.data());

  msl_exec::resources res;
  map_texture<float> map_f, in_colour, in_motion;
  map_texture<metal::half> half_colour, half_motion; // --inputs f16
  map_texture<uint32_t> map_u;
  if (c.kind == SPDRT_DMAP_FDM) {
    map_f.make(e.width, e.height, c.views);
    res.bind_texture(0, map_f.storage);
  } else {
    map_u.make(e.width, e.height, c.views);
    res.bind_texture(0, map_u.storage);
  }
  if (c.content) {
    in_colour.make(w, ht, c.views);
    in_motion.make(w, ht, c.views);
    for (size_t i = 0; i < pixels; ++i) {
      in_colour.texels[i] = float4{h(colour[4 * i]), h(colour[4 * i + 1]), h(colour[4 * i + 2]), h(colour[4 * i + 3])};
      in_motion.texels[i] = float4{h(motion[2 * i]), h(motion[2 * i + 1]), 0.0f, 1.0f};
    }
    if (o.half_inputs) {
      // The same 16-bit values, as the half textures the kernel declares.
      half_colour.make(w, ht, c.views);
      half_motion.make(w, ht, c.views);
      auto narrow = [](float4 v) { return metal::half4{metal::half(v.x), metal::half(v.y), metal::half(v.z),
                                                      metal::half(v.w)}; };
      for (size_t i = 0; i < pixels; ++i) {
        half_colour.texels[i] = narrow(in_colour.texels[i]);
        half_motion.texels[i] = narrow(in_motion.texels[i]);
      }
      res.bind_texture(1, half_colour.storage);
      res.bind_texture(2, half_motion.storage);
    } else {
      res.bind_texture(1, in_colour.storage);
      res.bind_texture(2, in_motion.storage);
    }
  }
  // --rate-map: binding 3, the first buffer slot of the MSL interface
  std::vector<uint32_t> axes(spdrt_dmap_gen_axes_count(&c, w, ht)), axes_ref(axes.size());
  spdrt_dmap_gen_axes(&c, w, ht, ref.data(), axes_ref.data());
  if (c.rate_map) res.bind_buffer(0, axes.data(), axes.size() * sizeof(uint32_t));
  alignas(16) uint32_t push[16] = {};
  spdrt_dmap_gen_push(&c, &p, push);
  res.bind_buffer(2, push, sizeof push);

  std::string problem, schedule;
  for (int d = 0; d < 2 && problem.empty(); ++d) {
    // the sentinel: density 128 / 255, texel 238 (no rate encodes them)
    for (auto& t : map_f.texels) t = float4(128.0f / 255.0f);
    for (auto& t : map_u.texels) t = uint4(238u);
    for (auto& a : axes) a = 0xffffffffu;
    msl_exec::dispatch_params dp;
    dp.groups = grid_of(c, w, ht);
    dp.threads = metal::uint3{c.content ? 256u : 64u, 1u, 1u};
    dp.simd_width = o.widths[(index + d) % o.widths.size()];
    dp.ord = orders[(index + d) % 3];
    dp.seed = w * 7919u + ht + d;
    schedule += std::string(d ? ", " : "") + "simd " + std::to_string(dp.simd_width) + " " + msl_exec::order_name(dp.ord);
    std::string error = msl_exec::dispatch(dmap_kernel, res, dp);
    if (!error.empty()) {
      problem = "dispatch " + std::to_string(d + 1) + ": " + error;
      break;
    }
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < texels; ++i) {
      uint8_t got[2];
      if (c.kind == SPDRT_DMAP_FDM) {
        got[0] = uint8_t(std::lrint(map_f.texels[i].x * 255.0f));
        got[1] = uint8_t(std::lrint(map_f.texels[i].y * 255.0f));
      } else {
        got[0] = uint8_t(map_u.texels[i].x);
      }
      if (std::memcmp(got, &ref[i * bytes], bytes) && !wrong++) first = i;
    }
    if (wrong)
      problem = "dispatch " + std::to_string(d + 1) + ": " + std::to_string(wrong) + " texels differ, first " +
                std::to_string(first);
    else if (c.rate_map && axes != axes_ref)
      problem = "dispatch " + std::to_string(d + 1) + ": the rate-map buffer differs from the reference's axes";
  }
  std::printf("%sok - MSL %s %ux%u: %zu texels%s against the reference after each of 2 dispatches (%s)\n",
              problem.empty() ? "" : "not ", o.label.c_str(), w, ht, texels,
              c.rate_map ? " and the rate-map buffer" : "", schedule.c_str());
  if (!problem.empty()) std::printf("# %s\n", problem.c_str());
}

} // namespace

int main(int argc, char** argv) {
  options o = parse(argc, argv);
  for (size_t i = 0; i < o.sizes.size(); ++i) run_size(o, i, o.sizes[i].first, o.sizes[i].second);
  std::fflush(stdout);
  return 0;
}
