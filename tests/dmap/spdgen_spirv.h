/* spdgen_spirv.h: the shaders the tests of tests/dmap run: a SPIR-V file read whole, and
 * spdgen itself ($SPDGEN_BUILD/spdgen) run for one. */
#ifndef DMAP_SPDGEN_SPIRV_H
#define DMAP_SPDGEN_SPIRV_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The words of a SPIR-V file (free them), or NULL. */
static inline uint32_t *read_spirv(const char *path, size_t *words)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *code = size > 0 ? malloc((size_t)size) : NULL;
    if (code && fread(code, 1, (size_t)size, f) != (size_t)size) {
        free(code);
        code = NULL;
    }
    fclose(f);
    *words = (size_t)size / 4;
    return code;
}

/* `spdgen ARGS --target spirv -o TMP`, the module it wrote (free it), or NULL when spdgen
 * failed. ARGS come from the tests themselves (no quoting needed). */
static inline uint32_t *spdgen_spirv(const char *args, size_t *words)
{
    const char *build = getenv("SPDGEN_BUILD");
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "/tmp/dmap_test_%d.spv", (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s/spdgen' %s --target spirv -o %s", build ? build : "build", args, path);
    uint32_t *code = system(cmd) == 0 ? read_spirv(path, words) : NULL;
    remove(path);
    return code;
}

#endif
