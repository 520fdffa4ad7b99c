// conv_msl: runs one spdgen --conv job's MSL on the CPU executor, every shader in the plan's
// order as libspdrt runs them (runtime/conv/conv_run.c, conv_record.c), and checks the output
// against runtime/conv's references with the bounds tests/conv/matrix.c uses.
//
//   conv_msl --plan DIR/job.convplan --label TEXT --seed S --case "WxH KWxKH [key=value...]"...
//
// Keys of a case: composite=INTENSITY, sharpen=T, scale=PSF_SCALE, simd=WIDTH (8),
// order=forward|reverse|shuffled (forward). Case r (from 0) takes the image of seed S + r
// and the PSF of seed S + 100 + r, made as tests/conv/common.h's conv_image and conv_psf make
// them (random values in [-1, 1); a positive PSF summing to 1 per channel).
// Linked with one unit per shader (exec/unit.cpp, bound by attribute): conv_spectrum1,
// conv_spectrum2, conv_resample (a resampled job only), conv_pass1, conv_pass2, conv_pass3.
// Per case:
//   - the PSF, zk and s buffers start as NaN (all bits set: a NaN as float and as half pairs)
//     and spectrum1, spectrum2 and, resampled, the resample run as spdrt_conv_set_kernel runs
//     them; then z, y and the output start as NaN and pass 1, 2, 3 run as spdrt_conv_run
//     does, with the same push constants and grids;
//   - every dispatch uses the case's SIMD width and threadgroup order; an executor error
//     (a barrier reached by part of a threadgroup, a binding problem) fails the case;
//   - the output against spdrt_conv_reference (exact: the direct sum in double) or
//     spdrt_conv_reference_resampled (the CPU pipeline in double), by spdrt_conv_compare over
//     the convolved channels: SPDRT_CONV_BOUND_* (f32 spectra rel L2 2e-6, max 1e-5; f16
//     2e-3, 4e-3); no value may be non-finite, the channels past --channels must equal the
//     source's exactly, the PSF and a source buffer unchanged, every buffer's guard bands
//     untouched.
// Images are rgba32f or buffers (the shim's textures hold float4 and convert nothing, so an
// rgba16f output is refused). One unnumbered TAP line per case, for the .t to number; exit
// status 0 whatever the results, 2 on usage errors.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "executor.h"
#include "plan.h"
#include "spdrt_conv.h"

extern const msl_exec::bound_kernel conv_spectrum1, conv_spectrum2, conv_pass1, conv_pass2, conv_pass3;
// Linked only for a resampled job: weak, so an exact job's program links without it.
extern const msl_exec::bound_kernel conv_resample __attribute__((weak));

namespace {

using conv_plan::plan;

void tap(bool ok, const std::string& text) {
  std::printf("%sok - %s\n", ok ? "" : "not ", text.c_str());
  std::fflush(stdout);
}
void diag(const std::string& text) { std::printf("# %s\n", text.c_str()); }

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "conv_msl: %s\nusage: conv_msl --plan FILE --label TEXT --seed S --case \"WxH KWxKH "
                       "[composite=I] [sharpen=T] [scale=S] [simd=W] [order=O]\"...\n", why.c_str());
  std::exit(2);
}

struct run_case {
  uint32_t w = 0, h = 0, kw = 0, kh = 0;
  int composite = 0;
  float intensity = 0, sharpen = 0, scale = 0;
  unsigned simd = 8;
  msl_exec::order ord = msl_exec::order::forward;
  std::string text;
};

run_case parse_case(const std::string& s) {
  run_case c;
  c.text = s;
  char rest[256] = "";
  int used = 0;
  if (std::sscanf(s.c_str(), "%ux%u %ux%u%n", &c.w, &c.h, &c.kw, &c.kh, &used) != 4) usage("--case " + s);
  std::snprintf(rest, sizeof rest, "%s", s.c_str() + used);
  for (char* tok = std::strtok(rest, " "); tok; tok = std::strtok(nullptr, " ")) {
    std::string t(tok), key = t.substr(0, t.find('='));
    std::string v = t.find('=') == std::string::npos ? "" : t.substr(t.find('=') + 1);
    if (key == "composite") c.composite = 1, c.intensity = std::strtof(v.c_str(), nullptr);
    else if (key == "sharpen") c.sharpen = std::strtof(v.c_str(), nullptr);
    else if (key == "scale") c.scale = std::strtof(v.c_str(), nullptr);
    else if (key == "simd") c.simd = unsigned(std::strtoul(v.c_str(), nullptr, 10));
    else if (key == "order" && v == "forward") c.ord = msl_exec::order::forward;
    else if (key == "order" && v == "reverse") c.ord = msl_exec::order::reverse;
    else if (key == "order" && v == "shuffled") c.ord = msl_exec::order::shuffled;
    else usage("--case " + s + ": " + t);
  }
  return c;
}

// Bytes with guard bands of a pattern before and after, aligned for float2.
struct guarded {
  static constexpr size_t guard = 256;
  static constexpr unsigned char pattern = 0xa5; // not the NaN fill: a stray NaN store shows
  std::vector<uint64_t> store;
  size_t bytes;
  explicit guarded(size_t b) : store((b + 2 * guard + 7) / 8), bytes(b) {
    std::memset(store.data(), pattern, store.size() * 8);
    std::memset(data(), 0xff, bytes);
  }
  unsigned char* data() { return reinterpret_cast<unsigned char*>(store.data()) + guard; }
  float* floats() { return reinterpret_cast<float*>(data()); }
  size_t guards_changed() const {
    const unsigned char* all = reinterpret_cast<const unsigned char*>(store.data());
    size_t changed = 0;
    for (size_t i = 0; i < store.size() * 8; ++i)
      if ((i < guard || i >= guard + bytes) && all[i] != pattern) ++changed;
    return changed;
  }
};

// The push constants every shader takes (the contract's order, 32 bytes).
struct push {
  uint32_t width, height, psf_width, psf_height;
  float intensity;
  uint32_t composite;
  float sharpen, psf_scale;
};

// The host's resources of one case, by what they hold.
enum slot { PSF, ZK, S, R, Z, Y, SRC, DST, SLOTS };

// Each shader's resources in binding order (templates/conv/resources.lua).
std::vector<slot> resources_of(int role) {
  switch (role) {
  case conv_plan::spectrum1: return {PSF, ZK};
  case conv_plan::spectrum2: return {ZK, S};
  case conv_plan::resample: return {S, R};
  case conv_plan::pass1: return {SRC, Z};
  case conv_plan::pass2: return {Z, Y, R}; // R: the spectrum pass 2 reads (s for an exact job)
  default: return {Y, SRC, DST};
  }
}

struct host {
  const plan& p;
  std::vector<guarded*> buffers{SLOTS, nullptr};
  metal::__msl::texture_storage<float> src_tex, dst_tex;
  std::vector<metal::float4> src_texels, dst_texels;
  explicit host(const plan& pl) : p(pl) {}
  bool is_texture(slot s) const { return (s == SRC && !p.info.input_buffer) || (s == DST && !p.info.output_buffer); }
};

// Binds a shader's resources at the indices targets/msl.lua gives them: per kind in binding
// order, buffer(2) left to the parameter block.
void bind(host& h, int role, msl_exec::resources& res, push& params) {
  unsigned next_texture = 0, next_buffer = 0;
  for (slot s : resources_of(role)) {
    if (h.is_texture(s)) {
      res.bind_texture(next_texture++, s == SRC ? h.src_tex : h.dst_tex);
      continue;
    }
    if (next_buffer == 2) ++next_buffer;
    slot from = s == R && !h.p.info.resampled ? S : s;
    res.bind_buffer(next_buffer++, h.buffers[from]->data(), h.buffers[from]->bytes);
  }
  res.bind_buffer(2, &params, sizeof params);
}

const msl_exec::bound_kernel* kernel_of(int role) {
  switch (role) {
  case conv_plan::spectrum1: return &conv_spectrum1;
  case conv_plan::spectrum2: return &conv_spectrum2;
  case conv_plan::resample: return &conv_resample;
  case conv_plan::pass1: return &conv_pass1;
  case conv_plan::pass2: return &conv_pass2;
  default: return &conv_pass3;
  }
}

// Workgroups of a shader's dispatch (runtime/conv/conv_run.c): a line pass one per pair of
// lines along the second axis, a column pass channels x groups per channel.
uint32_t groups_of(const plan& p, int role, uint32_t w, uint32_t h) {
  if (role == conv_plan::spectrum1 || role == conv_plan::pass1 || role == conv_plan::pass3)
    return ((p.info.first_axis_y ? w : h) + 1) / 2;
  return p.info.channels * p.shaders[role].groups;
}

std::string dispatch(host& h, int role, push params, uint32_t w, uint32_t hgt, const run_case& c, uint32_t seed) {
  msl_exec::resources res;
  bind(h, role, res, params);
  msl_exec::dispatch_params d;
  d.groups = metal::uint3{groups_of(h.p, role, w, hgt), 1, 1};
  d.threads = metal::uint3{h.p.shaders[role].wg, 1, 1};
  d.simd_width = c.simd;
  d.ord = c.ord;
  d.seed = seed + unsigned(role);
  std::string e = msl_exec::dispatch(*kernel_of(role), res, d);
  return e.empty() ? e : std::string(conv_plan::role_name(role)) + ": " + e;
}

std::string sci(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

void run_one(const plan& p, const std::string& label, uint64_t seed, size_t r, const run_case& c) {
  const spdrt_conv_info& i = p.info;
  const uint32_t in_f = i.input_buffer ? i.channels : 4, out_f = i.output_buffer ? i.channels : 4;
  const size_t pixels = size_t(c.w) * c.h;
  std::string problem;
  // The inputs of tests/conv/common.h: conv_image (no rounding: rgba32f or a buffer) and conv_psf.
  std::vector<float> img(pixels * in_f), psf(size_t(c.kw) * c.kh * i.channels);
  spdrt_random_floats(img.data(), img.size(), seed + r, -1.0f, 1.0f);
  spdrt_random_floats(psf.data(), psf.size(), seed + 100 + r, 0.0f, 1.0f);
  for (uint32_t ch = 0; ch < i.channels; ++ch) {
    double sum = 0;
    for (size_t k = ch; k < psf.size(); k += i.channels) sum += psf[k];
    for (size_t k = ch; k < psf.size(); k += i.channels) psf[k] = float(psf[k] / sum);
  }

  host h(p);
  const size_t cb = p.complex_bytes();
  guarded psf_buf(size_t(i.psf_width) * i.psf_height * i.channels * 4), zk(p.values[3] * cb), s(p.values[2] * cb),
      rr(p.values[4] * cb), z(p.values[0] * cb), y(p.values[1] * cb), src_buf(i.input_buffer ? img.size() * 4 : 0),
      dst_buf(i.output_buffer ? pixels * out_f * 4 : 0);
  guarded* all[SLOTS] = {&psf_buf, &zk, &s, &rr, &z, &y, &src_buf, &dst_buf};
  h.buffers.assign(all, all + SLOTS);
  std::memcpy(psf_buf.data(), psf.data(), psf.size() * 4); // runtime: copy_psf, packed at the PSF's width
  if (i.input_buffer) std::memcpy(src_buf.data(), img.data(), img.size() * 4);
  h.src_texels.resize(i.input_buffer ? 0 : pixels);
  for (size_t k = 0; k < h.src_texels.size(); ++k)
    h.src_texels[k] = metal::float4{img[4 * k], img[4 * k + 1], img[4 * k + 2], img[4 * k + 3]};
  h.dst_texels.assign(i.output_buffer ? 0 : pixels, metal::float4(NAN));
  h.src_tex.texels = h.src_texels.data();
  h.dst_tex.texels = h.dst_texels.data();
  h.src_tex.width = h.dst_tex.width = c.w;
  h.src_tex.height = h.dst_tex.height = c.h;

  // spdrt_conv_set_kernel's push constants, then the run's (spdrt__conv_push_of): the resample runs
  // with the run's, as a run whose psf_scale differs from the last resample's does.
  const float scale = c.scale > 0 ? c.scale : 1.0f;
  push kernel_push{1, 1, c.kw, c.kh, 0.0f, 0, 0.0f, 1.0f};
  push run_push{c.w, c.h, c.kw, c.kh, c.intensity, c.composite ? 1u : 0u, c.sharpen, scale};
  const uint32_t dseed = uint32_t(seed * 31 + r);
  auto start = std::chrono::steady_clock::now();
  for (int role = 0; role < conv_plan::roles && problem.empty(); ++role) {
    if (!p.shaders[role].wg) continue;
    bool set_kernel = role == conv_plan::spectrum1 || role == conv_plan::spectrum2;
    // spectrum1's grid counts the PSF's lines, the passes' the image's.
    problem = set_kernel ? dispatch(h, role, kernel_push, c.kw, c.kh, c, dseed)
                         : dispatch(h, role, run_push, c.w, c.h, c, dseed);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::vector<float> out(pixels * out_f);
  if (i.output_buffer) std::memcpy(out.data(), dst_buf.data(), out.size() * 4);
  else
    for (size_t k = 0; k < pixels; ++k)
      for (int ch = 0; ch < 4; ++ch) out[4 * k + ch] = h.dst_texels[k][ch];

  spdrt_conv_ref_config rc{c.w,        c.h,         c.kw,       c.kh, i.channels, i.mirror,
                           c.composite, c.intensity, c.sharpen, in_f, out_f};
  std::vector<double> ref(out.size());
  int ref_rc = i.resampled
                   ? spdrt_conv_reference_resampled(&rc, i.padded_width, i.padded_height, i.spectrum_width,
                                                    i.spectrum_height, scale, img.data(), psf.data(), ref.data())
                   : spdrt_conv_reference(&rc, img.data(), psf.data(), ref.data());
  if (ref_rc && problem.empty()) problem = "the reference ran out of memory";
  // tests/conv/common.h's conv_measure: the convolved channels by spdrt_conv_compare, the
  // copied ones exactly.
  std::vector<float> got;
  std::vector<double> want;
  double copied_err = 0;
  for (size_t k = 0; k < pixels; ++k)
    for (uint32_t ch = 0; ch < out_f; ++ch) {
      size_t at = k * out_f + ch;
      if (ch < i.channels) {
        got.push_back(out[at]);
        want.push_back(ref[at]);
      } else {
        copied_err = std::fmax(copied_err, std::isfinite(out[at]) ? std::fabs(out[at] - ref[at]) : INFINITY);
      }
    }
  spdrt_conv_error e{};
  spdrt_conv_compare(got.data(), want.data(), got.size(), &e);
  const double l2 = i.f16 ? SPDRT_CONV_BOUND_F16_REL_L2 : SPDRT_CONV_BOUND_REL_L2;
  const double mx = i.f16 ? SPDRT_CONV_BOUND_F16_MAX_REL : SPDRT_CONV_BOUND_MAX_REL;
  auto add = [&](const std::string& what) { problem += (problem.empty() ? "" : "; ") + what; };
  if (problem.empty()) {
    if (e.non_finite) add(std::to_string(e.non_finite) + " output values not finite (never written, or poison read)");
    if (copied_err != 0) add("the channels past --channels differ from the source's by " + sci(copied_err));
    if (std::memcmp(psf_buf.data(), psf.data(), psf.size() * 4) ||
        (i.input_buffer && std::memcmp(src_buf.data(), img.data(), img.size() * 4)))
      add("a read-only input (the PSF or the source buffer) was written");
    for (int k = 0; k < SLOTS; ++k)
      if (size_t n = all[k]->guards_changed())
        add(std::to_string(n) + " guard bytes of buffer " + std::to_string(k) + " changed");
    if (!(e.rel_l2 <= l2 && e.max_rel <= mx)) add("error above the bounds; max |err| " + sci(e.max_abs));
  }
  char text[300];
  std::snprintf(text, sizeof text, "%s: %s (simd %u, %s): rel L2 %.3g (<= %g), max %.3g (<= %g); %.2f s",
                label.c_str(), c.text.c_str(), c.simd, msl_exec::order_name(c.ord), e.rel_l2, l2, e.max_rel, mx,
                seconds);
  tap(problem.empty(), text);
  if (!problem.empty()) diag(problem);
}

} // namespace

int main(int argc, char** argv) {
  std::string plan_path, label = "conv";
  uint64_t seed = 17;
  std::vector<run_case> cases;
  for (int a = 1; a < argc; ++a) {
    std::string k = argv[a];
    if (a + 1 >= argc) usage(k + " needs a value");
    std::string v = argv[++a];
    if (k == "--plan") plan_path = v;
    else if (k == "--label") label = v;
    else if (k == "--seed") seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--case") cases.push_back(parse_case(v));
    else usage("unknown " + k);
  }
  if (plan_path.empty() || cases.empty()) usage("--plan and a --case are required");
  plan p;
  std::string error = conv_plan::read(plan_path, p);
  if (error.empty() && !p.info.output_buffer && p.info.output_format != SPDRT_RGBA32F)
    error = "an rgba16f output: the shim's textures convert no format (tests/msl/README.md)";
  if (error.empty() && !p.info.resampled != !&conv_resample)
    error = p.info.resampled ? "a resampled plan, but no conv_resample unit linked"
                             : "an exact plan with a conv_resample unit";
  for (const run_case& c : cases) {
    if (!error.empty()) break;
    if (c.w > p.info.image_width || c.h > p.info.image_height || c.kw > p.info.psf_width || c.kh > p.info.psf_height ||
        !c.w || !c.h || !c.kw || !c.kh)
      error = "--case " + c.text + ": outside the plan's sizes";
    for (int role = 0; role < conv_plan::roles; ++role)
      if (c.simd < p.shaders[role].subgroup || c.simd > 64)
        error = "--case " + c.text + ": SIMD width below " + conv_plan::role_name(role) + "'s subgroup";
  }
  tap(error.empty(), label + ": the plan " + plan_path.substr(plan_path.find_last_of('/') + 1) + " read");
  if (!error.empty()) {
    diag(error);
    return 0;
  }
  for (size_t r = 0; r < cases.size(); ++r) run_one(p, label, seed, r, cases[r]);
  return 0;
}
