// One SPD configuration's dispatch contract, as the harness (spd_msl.cpp) uses it. Each
// configuration's contract.o fills it from the header spdgen wrote with --emit-header,
// so the harness takes grid, buffer sizes, mip count and parameter block from what
// spdgen states, not from its own copy of the rules.
#pragma once

#include <cstddef>
#include <cstdint>

struct spd_contract {
  uint32_t threads[3];  // SPD_WORKGROUP_SIZE_X/Y/Z
  uint32_t max_mips;    // SPD_MAX_MIPS: textures dst_mips binds
  uint32_t channels;    // SPD_CHANNELS
  uint32_t subgroup;    // SPD_SUBGROUP_SIZE: the narrowest SIMD-group the kernel allows
  void (*grid)(uint32_t width, uint32_t height, uint32_t layers, uint32_t out[3]);
  uint32_t (*mip_count)(uint32_t width, uint32_t height);
  size_t (*counter_bytes)(uint32_t layers);   // 0 when the kernel has no counters
  size_t (*level6_bytes)(uint32_t width, uint32_t height, uint32_t layers);
  size_t params_bytes;                         // sizeof(SpdPushConstants)
  void (*params)(uint32_t width, uint32_t height, void* out); // fills SpdPushConstants
  // spd_update_dispatch: SpdPushConstants and grid (x, y) of an update of a rectangle
  int (*update)(uint32_t width, uint32_t height, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
                void* out, uint32_t grid[2]);
};

extern const spd_contract spd_this_contract;
