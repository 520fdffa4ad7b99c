// The conv harness's reading of a job's plan (spdgen --conv ... -o NAME.metal writes
// NAME.convplan, docs/conv.md "The dispatch contract"): what runtime/conv/conv_load.c
// reads from it, without the Vulkan objects that file builds beside.
#pragma once

#include <cstdint>
#include <string>

#include "spdrt_conv.h"

namespace conv_plan {

// The shaders in the order they run (runtime/conv/conv_internal.h's order).
enum role { spectrum1, spectrum2, resample, pass1, pass2, pass3, roles };
const char* role_name(int r);

struct shader {
  uint32_t wg = 0, subgroup = 0, shared = 0, n = 0, columns = 0, groups = 0; // wg 0: absent
};

struct plan {
  spdrt_conv_info info{};
  uint64_t values[5] = {}; // complex values of z, y, s, zk, r
  shader shaders[roles];
  uint32_t complex_bytes() const { return info.f16 ? 4u : 8u; }
};

// Reads `path`; "" or what is wrong with it.
std::string read(const std::string& path, plan& out);

} // namespace conv_plan
