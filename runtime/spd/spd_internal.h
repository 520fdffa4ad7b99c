/* spd_internal.h: what spd_run.c and the benchmarks share of the SPD pipeline (the binding
 * contract in spdrt_spd.h); not installed. */
#ifndef SPDRT_SPD_INTERNAL_H
#define SPDRT_SPD_INTERNAL_H

#include "core/internal.h"

#define SPDRT_SPD_MAX_PASSES 16 /* a 15-level chain one level per pass */

/* spd_plan.c: how a shader's dispatches are laid out, for spd_run.c and spd_record.c. */
/* Each workgroup reduces a T x T tile of level 0 (--tile; 64 unless the params say). */
uint32_t spdrt__spd_tile(const spdrt_spd_params *p);
/* --tail hierarchy: the chain continues through a hierarchy of counters (always below 64). */
int spdrt__spd_hierarchy(const spdrt_spd_params *p);
/* The sampler a --sampler linear shader expects: normalized with --sampler-coords normalized
 * or --array, else texel coordinates. */
int spdrt__spd_normalized_sampler(const spdrt_spd_params *p);
/* Tiles per workgroup of a whole-image dispatch, as given; 0 = the 64x64 tails' defaults
 * where there is a hand-off to save (more than 6 levels per dispatch), else one (always one
 * for smaller tiles: no default was chosen for them). */
uint32_t spdrt__spd_tiles_per_workgroup(const spdrt_spd_params *p);
/* Passes of a chain of mip_count levels of p's source, one dispatch each: pass i reads level
 * base[i] as its source and writes levels base[i]+1 .. base[i+1] (spd_pass_end: mips_bound
 * levels at most, and with --edge weighted a new pass wherever a level's odd input is not
 * read directly). Between passes the levels just written are read, so a shader-write ->
 * shader-read dependency separates them. Returns the pass count; base[] holds count + 1
 * entries. */
/* The shader description of p (format, mips_bound, tile, tiles_per_workgroup), and its
 * source (size, layers, what the sampler and the shared memory allow): 0, or -1 with what is
 * wrong in err. */
int spdrt__spd_check_shader(const spdrt_spd_params *p, char *err, size_t size);
int spdrt__spd_check_source(const spdrt_spd_params *p, char *err, size_t size);
uint32_t spdrt__spd_passes(const spdrt_spd_params *p, uint32_t mip_count,
                           uint32_t base[SPDRT_SPD_MAX_PASSES + 1]);

/* The pipeline of one SPD shader: the contract's layout (binding 4 the immutable linear
 * sampler, made once per context; binding 1 views of level_format, which the shader must
 * declare) and SPDRT_SPD_MAX_PASSES descriptor sets, one per pass of a chain split with
 * --max-mips-per-pass (pass p reads level p x mips_bound). */
spdrt_result spdrt__spd_pipeline_create(spdrt_context *ctx, const uint32_t *spirv,
                                        size_t spirv_words, uint32_t mips_bound,
                                        uint32_t subgroup, int normalized_sampler,
                                        VkFormat level_format, spdrt_pipeline *out);
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
                                     int normalized_sampler, VkFormat level_format,
                                     const spdrt_pipeline **out);

#endif
