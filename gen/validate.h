/* validate.h: in-process GLSL/HLSL -> SPIR-V compilation (glslang) and SPIR-V validation
 * (SPIRV-Tools), behind a C interface. The implementation is C++ (validate.cpp) because
 * glslang 12's C API cannot set an HLSL entry point (FACTS.md) and SPIRV-Tools 2023.1 has
 * no C optimizer API. */
#ifndef SPDGEN_VALIDATE_H
#define SPDGEN_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SV_LANG_GLSL, SV_LANG_HLSL } sv_lang;
typedef enum { SV_ENV_VULKAN_1_1, SV_ENV_VULKAN_1_2, SV_ENV_VULKAN_1_3 } sv_env;

typedef struct {
    uint32_t *words; /* malloc'd SPIR-V words */
    size_t count;    /* number of words */
} sv_spirv;

/* Compiles `source` (`len` bytes; `name` is used in diagnostics, e.g. "spd.comp") with entry
 * point "main" for the compute stage, records `stamp` (when not NULL or empty) in the module
 * as OpModuleProcessed, then validates the module with spvValidate for `env`.
 * Returns 0 on success and fills *out. On failure returns nonzero, leaves *out empty and sets
 * *log to a malloc'd, NUL-terminated diagnostic: one "name:LINE: error: message" line per
 * compiler error followed by the emitted source line it refers to, or the SPIRV-Tools
 * message. The caller frees *log. */
int sv_compile(sv_lang lang, sv_env env, const char *name, const char *source, size_t len,
               const char *stamp, sv_spirv *out, char **log);

/* Checks that `module` declares a GLCompute entry point named `entry` with LocalSize
 * (x, y, z). Returns 0 if so; otherwise nonzero with a malloc'd message in *log.
 * (glslang's C API silently produced empty HLSL modules; this guards against any repeat.) */
int sv_check_entry(const sv_spirv *module, const char *entry, uint32_t x, uint32_t y,
                   uint32_t z, char **log);

void sv_free(sv_spirv *module);

#ifdef __cplusplus
}
#endif
#endif
