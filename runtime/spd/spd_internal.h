/* spd_internal.h: what spd_run.c and the benchmarks share of the SPD pipeline (the binding
 * contract in spdrt_spd.h); not installed. */
#ifndef SPDRT_SPD_INTERNAL_H
#define SPDRT_SPD_INTERNAL_H

#include "core/internal.h"

#define SPDRT_SPD_MAX_PASSES 16 /* a 15-level chain one level per pass */

/* The pipeline of one SPD shader: the contract's layout (binding 4 the immutable linear
 * sampler, made once per context) and SPDRT_SPD_MAX_PASSES descriptor sets, one per pass of
 * a chain split with --max-mips-per-pass (pass p reads level p x mips_bound). */
spdrt_result spdrt__spd_pipeline_create(spdrt_context *ctx, const uint32_t *spirv,
                                        size_t spirv_words, uint32_t mips_bound,
                                        uint32_t subgroup, int normalized_sampler,
                                        spdrt_pipeline *out);
/* Points `set` at the contract's bindings 0-3: views[base] as the source, views[base + 1 ..]
 * as the mips_bound storage images (mips: room for them), the counters and the hand-off.
 * Elements past views[last] repeat it: every element of a statically used array must be
 * valid even though the shader never writes a level above mip_count. */
void spdrt__spd_write_set(spdrt_context *ctx, VkDescriptorSet set, const VkImageView *views,
                          uint32_t base, uint32_t last, uint32_t mips_bound,
                          VkDescriptorImageInfo *mips, const VkDescriptorBufferInfo *counters,
                          const VkDescriptorBufferInfo *handoff);
/* The pipeline for a shader: the cached one when it was built from the same SPIR-V and
 * parameters, else a new one that replaces it. Owned by the context. */
spdrt_result spdrt__spd_pipeline_get(spdrt_context *ctx, const uint32_t *spirv,
                                     size_t spirv_words, uint32_t mips_bound, uint32_t subgroup,
                                     int normalized_sampler, const spdrt_pipeline **out);

#endif
