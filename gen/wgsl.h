/* wgsl.h: what --target wgsl adds to a run: the WebGPU device's limits and features the
 * shader may rely on (--wg-invocations, --wg-storage, --storage-textures, --features), and
 * the refusals every kernel shares, each a one-line error naming the WebGPU rule (exit 2).
 * The kernels' own WebGPU rules live beside their checks (gen/<kernel>/<kernel>_wgsl.c). */
#ifndef SPDGEN_WGSL_H
#define SPDGEN_WGSL_H

#include "cli.h"

struct sg_contract;

/* WebGPU's default limits (the WebGPU specification's limits table). */
#define SG_WGSL_DEFAULT_INVOCATIONS 256
#define SG_WGSL_DEFAULT_STORAGE 16384
#define SG_WGSL_DEFAULT_STORAGE_TEXTURES 4

/* Where targets/wgsl.lua binds what has no binding number of its own in the contract: the
 * parameter block (a uniform buffer, group 0) and the elements of an array of storage
 * textures (WebGPU binds no arrays: element i at binding i of this group). */
#define SG_WGSL_PARAMS_BINDING 8
#define SG_WGSL_ARRAY_GROUP 1

/* --features' names, in the order of the SG_WGSL_* bits (cli.h). */
extern const char *const sg_wgsl_features[];

void sg_wgsl_defaults(sg_common *common);

static inline int sg_is_wgsl(const sg_run *run) { return run->common.target == SG_TARGET_WGSL; }

/* 0 where the run is not WGSL or --features enables `feature` (an SG_WGSL_* bit); else a
 * usage error: "<what>: WGSL needs the WebGPU feature ... (<why>); add --features ...". */
int sg_wgsl_need(const sg_run *run, int feature, const char *what);

/* 0 where the run is not WGSL or WebGPU can bind the project's storage format `format`
 * ("r16f", "rgba8", ...) as a write-only storage texture with the features given; else a
 * usage error naming `flag`, the WebGPU format and the rule. */
int sg_wgsl_storage_format(const sg_run *run, const char *flag, const char *format);

/* After generation: the shader's workgroup, workgroup storage and storage textures against
 * the limits given (exit 2 naming the limit and the option that raises it). */
int sg_wgsl_check_contract(const sg_run *run, const struct sg_contract *contract);

#endif
