// Self-tests of the MSL executor: runs the kernels next to this file and checks what the
// executor must do with them (see each kernel's opening comment):
//   - barriers and threadgroup memory: right under every order with the barrier, wrong
//     under some order without it (neighbour, last_group mode 2);
//   - cross-threadgroup synchronization: the atomic-counter election is right under every
//     threadgroup order, "threadgroup 0 goes last" is wrong under some (last_group);
//   - divergence: each divergent barrier or SIMD-group call is an error naming its line
//     (divergent);
//   - SIMD-group and quad functions at widths 4, 8, 16, 32 against the specification's
//     definitions (simd_ops);
//   - binding by attribute, and the errors for missing or unfit resources (bindings).
// Expected values are computed here from the definitions, never taken from a run.
//   selftest SOURCE_DIR   (the directory of the .metal files, to find the marked lines)
// Prints one unnumbered TAP line per check, for the calling .t to number; exit status 0.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "executor.h"
#include "fiber.h"

extern const msl_exec::bound_kernel neighbour_kernel, last_group_kernel, divergent_kernel, simd_ops_kernel,
    bindings_kernel;

namespace {

using metal::uint3;
using msl_exec::order;

const order all_orders[] = {order::forward, order::reverse, order::shuffled};

void tap(bool ok, const std::string& text) {
  std::printf("%sok - [%s] %s\n", ok ? "" : "not ", msl_exec::fiber_implementation(), text.c_str());
  std::fflush(stdout);
}
void diag(const std::string& text) { std::printf("# %s\n", text.c_str()); }

msl_exec::dispatch_params params(uint3 groups, uint3 threads, unsigned width, order o) {
  msl_exec::dispatch_params p;
  p.groups = groups;
  p.threads = threads;
  p.simd_width = width;
  p.ord = o;
  p.seed = 7;
  return p;
}

// ---- neighbour: a missing barrier ------------------------------------------------------
// Returns "right", "wrong" or the executor's error, for one order.
std::string run_neighbour(bool barrier, order o) {
  const unsigned n = 256, groups = 4;
  std::vector<float> in(n * groups), out(n * groups, -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 97) + 1.0f;
  uint32_t flag[4] = {barrier ? 1u : 0u};
  msl_exec::resources res;
  res.bind_buffer(0, in.data(), in.size() * 4);
  res.bind_buffer(1, out.data(), out.size() * 4);
  res.bind_buffer(2, flag, sizeof flag);
  std::string error = msl_exec::dispatch(neighbour_kernel, res, params(uint3{groups, 1, 1}, uint3{n, 1, 1}, 32, o));
  if (!error.empty()) return error;
  for (size_t i = 0; i < in.size(); ++i)
    if (out[i] != in[i] + (i % n ? in[i - 1] : 0.0f)) return "wrong";
  return "right";
}

void test_neighbour() {
  std::string with, without;
  bool all_right = true, some_wrong = false;
  for (order o : all_orders) {
    std::string r = run_neighbour(true, o);
    all_right &= r == "right";
    with += std::string(with.empty() ? "" : ", ") + msl_exec::order_name(o) + " " + r;
    r = run_neighbour(false, o);
    some_wrong |= r != "right";
    without += std::string(without.empty() ? "" : ", ") + msl_exec::order_name(o) + " " + r;
  }
  tap(all_right, "threadgroup memory with its barrier: right under every thread order (" + with + ")");
  tap(some_wrong, "threadgroup memory without its barrier: wrong under some thread order (" + without + ")");
}

// ---- last_group: cross-threadgroup hand-off ---------------------------------------------
std::string run_last_group(uint32_t mode, order o, unsigned width) {
  const unsigned n = 64, groups = 16;
  std::vector<uint32_t> in(n * groups), partial(groups, 0xdeadbeefu), total(1, 0u), counter(1, 0u);
  uint32_t expected = 0;
  for (size_t i = 0; i < in.size(); ++i) expected += in[i] = uint32_t(i * 2654435761u >> 7);
  uint32_t p[2] = {mode, groups};
  msl_exec::resources res;
  res.bind_buffer(0, in.data(), in.size() * 4);
  res.bind_buffer(1, partial.data(), partial.size() * 4);
  res.bind_buffer(2, counter.data(), 4);
  res.bind_buffer(3, total.data(), 4);
  res.bind_buffer(4, p, sizeof p);
  std::string error = msl_exec::dispatch(last_group_kernel, res, params(uint3{groups, 1, 1}, uint3{n, 1, 1}, width, o));
  if (!error.empty()) return error;
  return total[0] == expected && counter[0] == 0 ? "right" : "wrong";
}

void test_last_group() {
  static const char* what[] = {
      "the last threadgroup, elected by an atomic counter: right under every threadgroup order",
      "threadgroup 0 without waiting for the others (missing cross-group synchronization): wrong under some order",
      "the elected threadgroup without the barrier after the election (missing barrier): caught under some order",
  };
  for (uint32_t mode = 0; mode < 3; ++mode) {
    std::string results;
    bool all_right = true, some_wrong = false;
    for (order o : all_orders)
      for (unsigned width : {4u, 32u}) {
        std::string r = run_last_group(mode, o, width);
        all_right &= r == "right";
        some_wrong |= r != "right";
        results += std::string(results.empty() ? "" : "; ") + msl_exec::order_name(o) + " simd " +
                   std::to_string(width) + ": " + r;
      }
    tap(mode == 0 ? all_right : some_wrong, std::string("hand-off to ") + what[mode]);
    diag(results);
  }
}

// ---- divergent: errors that name the line ------------------------------------------------
// Lines of file marked "// @mode".
std::vector<unsigned> marked_lines(const std::string& file, unsigned mode) {
  std::vector<unsigned> lines;
  std::ifstream f(file);
  std::string line, mark = "// @" + std::to_string(mode);
  for (unsigned number = 1; std::getline(f, line); ++number)
    if (line.size() >= mark.size() && line.compare(line.size() - mark.size(), mark.size(), mark) == 0)
      lines.push_back(number);
  return lines;
}

void test_divergent(const std::string& dir) {
  const unsigned n = 64;
  static const char* what[] = {
      "", "a barrier inside a branch", "two barriers for even and odd threads", "a shuffle inside a branch",
      "an early return before a barrier", "a barrier in a loop of varying trip count", "a quad function inside a branch",
  };
  for (uint32_t mode = 0; mode < 7; ++mode) {
    std::vector<uint32_t> out(n, ~0u);
    uint32_t m[4] = {mode};
    msl_exec::resources res;
    res.bind_buffer(0, out.data(), out.size() * 4);
    res.bind_buffer(1, m, sizeof m);
    std::string error = msl_exec::dispatch(divergent_kernel, res, params(uint3{1, 1, 1}, uint3{n, 1, 1}, 8, order::forward));
    if (mode == 0) {
      bool right = error.empty();
      for (uint32_t t = 0; t < n && right; ++t) right = out[t] == t;
      tap(right, "convergent control flow runs without error" + (error.empty() ? "" : ": " + error));
      continue;
    }
    std::vector<unsigned> lines = marked_lines(dir + "/divergent.metal", mode);
    bool named = !error.empty() && !lines.empty();
    for (unsigned l : lines) named &= error.find("divergent.metal:" + std::to_string(l)) != std::string::npos;
    tap(named, std::string(what[mode]) + " is reported with its line");
    diag(error.empty() ? "no error reported" : error);
  }
}

// ---- simd_ops: SIMD-group and quad functions ------------------------------------------------
// What the MSL specification defines for result j of thread i (16 per thread, see
// simd_ops.metal), for SIMD-groups of width w laid out as consecutive threads.
uint32_t simd_expected(const std::vector<uint32_t>& in, unsigned i, unsigned j, unsigned w) {
  unsigned lane = i % w, base = i - lane, quad = i & ~3u;
  auto at = [&](unsigned l) { return in[base + l]; };
  uint32_t r = 0;
  switch (j) {
  case 0: return at(lane ^ 1u);
  case 1: return at(lane ^ (w / 2u));
  case 2: return at(w - 1u - lane);
  case 3: return lane >= 1u ? at(lane - 1u) : at(lane); // the lowest delta lanes keep theirs
  case 4: return lane + 3u < w ? at(lane + 3u) : at(lane);
  case 5: return at(2u);
  case 6: return at((lane + 1u) % w);
  case 7: return in[quad + ((i & 3u) ^ 2u)];
  case 8: return in[quad + 3u];
  case 9: r = ~0u; for (unsigned l = 0; l < w; ++l) r = at(l) < r ? at(l) : r; return r;
  case 10: for (unsigned l = 0; l < w; ++l) r = at(l) > r ? at(l) : r; return r;
  case 11: for (unsigned l = 0; l < w; ++l) r += at(l); return r;
  case 12: for (unsigned l = 0; l < lane; ++l) r += at(l); return r;
  case 13: for (unsigned l = 0; l < w; ++l) r |= (at(l) & 1u) << l; return r;
  case 14: return lane == 0u;
  default: return at(lane ^ 3u);
  }
}

void test_simd_ops() {
  const unsigned n = 64, groups = 2;
  for (unsigned w : {4u, 8u, 16u, 32u}) {
    std::vector<uint32_t> in(n * groups), out(16 * n * groups, 0xffffffffu);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint32_t((i * 7919u + 13u) % 1000u); // exact as floats
    msl_exec::resources res;
    res.bind_buffer(0, in.data(), in.size() * 4);
    res.bind_buffer(1, out.data(), out.size() * 4);
    std::string error = msl_exec::dispatch(simd_ops_kernel, res, params(uint3{groups, 1, 1}, uint3{n, 1, 1}, w, order::shuffled));
    std::string first;
    size_t wrong = 0;
    for (unsigned i = 0; i < n * groups && error.empty(); ++i)
      for (unsigned j = 0; j < 16; ++j) {
        uint32_t want = simd_expected(in, i, j, w), got = out[16 * i + j];
        if (got != want && wrong++ == 0)
          first = "thread " + std::to_string(i) + " result " + std::to_string(j) + ": got " + std::to_string(got) +
                  ", want " + std::to_string(want);
      }
    tap(error.empty() && wrong == 0, "SIMD-group and quad functions at width " + std::to_string(w) +
                                         " match the specification (shuffles, broadcasts, reductions, prefix, ballot)");
    if (!error.empty()) diag(error);
    if (wrong) diag(std::to_string(wrong) + " wrong; first: " + first);
  }
}

// ---- bindings ----------------------------------------------------------------------------
void test_bindings() {
  const uint3 groups{3, 2, 2}, threads{4, 4, 2};
  const unsigned width = 8, gx = groups.x * threads.x, gy = groups.y * threads.y, gz = groups.z * threads.z;
  metal::__msl::texture_storage<float> src, dst;
  std::vector<metal::float4> src_texels, dst_texels;
  src.width = gx;
  src.height = gy;
  src_texels.resize(src.texel_count());
  for (size_t i = 0; i < src_texels.size(); ++i) src_texels[i] = metal::float4(float(i % 50));
  src.texels = src_texels.data();
  dst.width = gx;
  dst.height = gy;
  dst.array_size = gz;
  dst_texels.assign(dst.texel_count(), metal::float4(-1.0f));
  dst.texels = dst_texels.data();
  std::vector<uint32_t> out(16 * gx * gy * gz, ~0u);
  uint32_t scale[4] = {3};
  msl_exec::resources res;
  res.bind_texture(2, src);
  res.bind_texture(0, dst);
  res.bind_buffer(3, out.data(), out.size() * 4);
  res.bind_buffer(1, scale, sizeof scale);
  std::string error = msl_exec::dispatch(bindings_kernel, res, params(groups, threads, width, order::reverse));
  size_t wrong = 0;
  std::string first;
  for (unsigned z = 0; z < gz && error.empty(); ++z)
    for (unsigned y = 0; y < gy; ++y)
      for (unsigned x = 0; x < gx; ++x) {
        unsigned linear = (z * gy + y) * gx + x;
        unsigned tx = x % threads.x, ty = y % threads.y, tz = z % threads.z;
        unsigned index = tx + threads.x * (ty + threads.y * tz);
        uint32_t want[16] = {x / threads.x, y / threads.y, z / threads.z, tx, ty, index, x, y, z,
                             index % width, index / width, threads.x * 100 + threads.y,
                             (groups.x * 100 + groups.y) * 100 + groups.z, width, index % 4,
                             uint32_t(src_texels[y * gx + x].x) * scale[0]};
        for (unsigned j = 0; j < 16; ++j)
          if (out[16 * linear + j] != want[j] && wrong++ == 0)
            first = "thread (" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) +
                    ") value " + std::to_string(j) + ": got " + std::to_string(out[16 * linear + j]) +
                    ", want " + std::to_string(want[j]);
        if (dst_texels[linear].x != float(linear) && wrong++ == 0) first = "dst texel " + std::to_string(linear);
      }
  tap(error.empty() && wrong == 0,
      "15 parameters in an order unrelated to their indices, builtins as uint, ushort, uint2, ushort2, uint3, "
      "textures and buffers: each bound by its attribute");
  if (!error.empty()) diag(error);
  if (wrong) diag(std::to_string(wrong) + " wrong; first: " + first);

  // The errors: each a dispatch that must fail before running, with the reason.
  auto expect_error = [&](const msl_exec::resources& r, uint3 t, const char* what, const char* expect) {
    std::string e = msl_exec::dispatch(bindings_kernel, r, params(groups, t, width, order::forward));
    tap(e.find(expect) != std::string::npos, std::string(what) + " is an error: " + (e.empty() ? "none reported" : e));
  };
  msl_exec::resources missing = res;
  missing.buffers[3] = msl_exec::buffer_slot{};
  expect_error(missing, threads, "a missing buffer", "parameter out: no buffer bound at index 3");
  msl_exec::resources small = res;
  small.buffers[1].size = 4;
  expect_error(small, threads, "a parameter buffer smaller than its type", "parameter params: the buffer at index 1 has 4 bytes");
  msl_exec::resources texel = res;
  metal::__msl::texture_storage<uint> uint_texture;
  texel.bind_texture(2, uint_texture);
  expect_error(texel, threads, "a texture of another texel type", "parameter src: the texture at index 2 has another texel type");
  expect_error(res, uint3{8, 4, 4}, "more threads than [[max_total_threads_per_threadgroup(64)]]",
               "128 threads per threadgroup, more than its [[max_total_threads_per_threadgroup(64)]]");
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: selftest SOURCE_DIR\n");
    return 2;
  }
  test_neighbour();
  test_last_group();
  test_divergent(argv[1]);
  test_simd_ops();
  test_bindings();
  return 0;
}
