/* tests/spd/common.h: what the SPD device tests (matrix.c, edge.c) share: the shader
 * under test made by spdgen itself, and deterministic source data. */
#ifndef SPD_TEST_COMMON_H
#define SPD_TEST_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "spdrt.h"

/* Runs `spdgen --spd ARGS --target spirv --spirv-from TARGET` ($SPDGEN_BUILD/spdgen) and
 * returns the SPIR-V it wrote (free it), or NULL if spdgen failed. */
static inline uint32_t *spd_test_spirv(const char *args, const char *target, size_t *words)
{
    const char *build = getenv("SPDGEN_BUILD");
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "/tmp/spd_test_%d.spv", (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s/spdgen' --spd %s --target spirv --spirv-from %s -o %s",
             build ? build : "build", args, target, path);
    if (system(cmd) != 0) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *code = malloc((size_t)size);
    if (code && fread(code, 1, (size_t)size, f) != (size_t)size) {
        free(code);
        code = NULL;
    }
    fclose(f);
    remove(path);
    *words = (size_t)size / 4;
    return code;
}

/* `count` floats of the runtime's test data: values in [0, 1), or with `integers` whole
 * numbers below 2^24 (exact as floats, for r32ui). The same seed, the same data. */
static inline float *spd_test_source(size_t count, uint32_t seed, int integers)
{
    float *data = malloc(count * sizeof *data);
    if (data && integers)
        spdrt_random_integers(data, count, seed);
    else if (data)
        spdrt_random_floats(data, count, seed, 0.0f, 1.0f);
    return data;
}

#endif
