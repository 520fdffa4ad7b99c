// The contract of one configuration: compiled with -DSPD_CONTRACT_HEADER='"X.h"', the
// header spdgen --emit-header wrote for it (plain C, no MSL).
#include "contract.h"

#include SPD_CONTRACT_HEADER

namespace {

void grid(uint32_t width, uint32_t height, uint32_t layers, uint32_t out[3]) {
  out[0] = SPD_GRID_X(width);
  out[1] = SPD_GRID_Y(height);
  out[2] = SPD_GRID_Z(layers);
  (void)layers; // SPD_GRID_Z ignores it without --array
}

size_t counter_bytes(uint32_t layers) {
#ifdef SPD_COUNTER_BYTES
  return SPD_COUNTER_BYTES(layers);
#else // --mips <= 6: no hand-off, no counters
  (void)layers;
  return 0;
#endif
}

size_t level6_bytes(uint32_t width, uint32_t height, uint32_t layers) {
#ifdef SPD_LEVEL6_BYTES
  return SPD_LEVEL6_BYTES(width, height, layers);
#else
  (void)width, (void)height, (void)layers;
  return 0;
#endif
}

void params(uint32_t width, uint32_t height, void* out) {
  SpdPushConstants* p = static_cast<SpdPushConstants*>(out);
  *p = SpdPushConstants{};
  p->src_width = width;
  p->src_height = height;
  p->mip_count = spd_mip_count(width, height);
}

int update(uint32_t width, uint32_t height, uint32_t x, uint32_t y, uint32_t w, uint32_t h, void* out,
           uint32_t grid[2]) {
  return spd_update_dispatch(width, height, x, y, w, h, 0, static_cast<SpdPushConstants*>(out), grid);
}

} // namespace

extern const spd_contract spd_this_contract = {
    {SPD_WORKGROUP_SIZE_X, SPD_WORKGROUP_SIZE_Y, SPD_WORKGROUP_SIZE_Z},
    SPD_MAX_MIPS,
    SPD_CHANNELS,
    SPD_SUBGROUP_SIZE,
    grid,
    spd_mip_count,
    counter_bytes,
    level6_bytes,
    sizeof(SpdPushConstants),
    params,
    update,
};
