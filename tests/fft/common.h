/* tests/fft/common.h: what the FFT device tests share: generating a configuration with the real
 * spdgen binary (SPIR-V plus its contract header), building its pipeline, random data.
 * Header-only so each tests/fft/NAME.c stays one program (the Makefile builds every
 * tests/KERNEL/NAME.c into build/tests/KERNEL/NAME). */
#ifndef SPDGEN_FFT_COMMON_H
#define SPDGEN_FFT_COMMON_H

#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spdrt_fft.h"

/* One configuration, as spdgen flags and as the runtime sees it. */
typedef struct {
    uint32_t n, ept, wg, subgroup;
    int inverse, native, real, strided, f16, lut;
    int squared;      /* --twiddles squared */
    const char *norm; /* NULL = default (inverse) */
    uint32_t rows;    /* --rows-per-wg (0 = not given) */
    uint32_t prefetch; /* --prefetch-rows (0 = not given) */
    const char *layout; /* --column-layout (NULL = not given) */
    uint32_t cols;    /* --columns-per-wg (0 = not given) */
    int paired;       /* --shared-layout paired */
} fft_case;

/* Accuracy bars: spdrt_fft.h's (docs/fft.md). */
#define FFT_BOUND_REL_L2 SPDRT_FFT_BOUND_REL_L2
#define FFT_BOUND_MAX_REL SPDRT_FFT_BOUND_MAX_REL
#define FFT_BOUND_F16_REL_L2 SPDRT_FFT_BOUND_F16_REL_L2
#define FFT_BOUND_F16_MAX_REL SPDRT_FFT_BOUND_F16_MAX_REL

static inline void fft_case_flags(const fft_case *c, char *buf, size_t size)
{
    char rows[128] = "";
    if (c->rows) snprintf(rows, sizeof rows, " --rows-per-wg %u", c->rows);
    if (c->prefetch) snprintf(rows, sizeof rows, " --prefetch-rows %u", c->prefetch);
    if (c->layout) snprintf(rows + strlen(rows), sizeof rows - strlen(rows), " --column-layout %s", c->layout);
    if (c->cols) snprintf(rows + strlen(rows), sizeof rows - strlen(rows), " --columns-per-wg %u", c->cols);
    /* Named either way: the default depends on N (SG_FFT_PAIRED_FROM_N). */
    snprintf(rows + strlen(rows), sizeof rows - strlen(rows), " --shared-layout %s", c->paired ? "paired" : "split");
    snprintf(buf, size, "--fft %u --ept %u --wg %u --subgroup %u --direction %s%s%s%s%s%s%s%s%s",
             c->n, c->ept, c->wg, c->subgroup, c->inverse ? "inverse" : "forward",
             c->native ? " --order native" : "", c->real ? " --real" : "",
             c->strided ? " --stride" : "", c->f16 ? " --storage f16" : "",
             c->lut ? " --twiddles lut" : c->squared ? " --twiddles squared" : "", c->norm ? " --norm " : "", c->norm ? c->norm : "", rows);
}

static inline uint32_t *read_words(const char *path, size_t *words)
{
    FILE *f = fopen(path, "rb");
    uint32_t *data = NULL;
    long size;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (size > 0 && (data = malloc((size_t)size)) && fread(data, 1, (size_t)size, f) != (size_t)size) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *words = (size_t)size / 4;
    return data;
}

/* The value of `#define NAME value` in a contract header, or -1. */
static inline long header_define(const char *path, const char *name)
{
    FILE *f = fopen(path, "r");
    char line[512], key[128];
    long value = -1, v;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "#define %127s %ld", key, &v) == 2 && strcmp(key, name) == 0) value = v;
    fclose(f);
    return value;
}

/* Generates the case's SPIR-V through `lang` (glsl|hlsl) and fills the runtime config from
 * the contract header (the local size is C x W with the columns in lanes, and the subgroup
 * size 0 where the shader has no shuffles). Returns the SPIR-V (free it) or NULL after
 * printing why. */
static inline uint32_t *fft_generate(const fft_case *c, const char *lang, spdrt_fft_config *cfg, size_t *words)
{
    const char *build = getenv("SPDGEN_BUILD");
    char flags[512], spv[128], header[128], cmd[1024];
    fft_case_flags(c, flags, sizeof flags);
    snprintf(spv, sizeof spv, "/tmp/fft_test_%d.spv", (int)getpid());
    snprintf(header, sizeof header, "/tmp/fft_test_%d.h", (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s/spdgen' %s --target spirv --spirv-from %s -o %s --name fft --emit-header %s",
             build ? build : "build", flags, lang, spv, header);
    if (system(cmd) != 0) {
        printf("# spdgen failed: %s\n", cmd);
        return NULL;
    }
    uint32_t *code = read_words(spv, words);
    memset(cfg, 0, sizeof *cfg);
    cfg->n = c->n;
    cfg->wg = (uint32_t)header_define(header, "FFT_WORKGROUP_SIZE_X");
    cfg->subgroup = (uint32_t)header_define(header, "FFT_SUBGROUP_SIZE");
    cfg->columns = (uint32_t)header_define(header, "FFT_COLUMNS_PER_WORKGROUP");
    cfg->shared_bytes = (uint32_t)header_define(header, "FFT_SHARED_MEMORY_BYTES");
    cfg->inverse = c->inverse;
    cfg->native = c->native;
    cfg->real = c->real;
    cfg->strided = c->strided;
    cfg->f16 = c->f16;
    cfg->lut = c->lut;
    cfg->norm = !c->norm || !strcmp(c->norm, "inverse") ? SPDRT_FFT_NORM_INVERSE
              : !strcmp(c->norm, "none") ? SPDRT_FFT_NORM_NONE : SPDRT_FFT_NORM_UNITARY;
    unlink(spv);
    unlink(header);
    if (!code || (long)cfg->columns < 1 || (long)cfg->wg < 1 || cfg->subgroup == (uint32_t)-1) {
        printf("# cannot read the SPIR-V or the contract header of: %s\n", cmd);
        free(code);
        return NULL;
    }
    return code;
}

/* Uniform values in [-1, 1) (the runtime's test data): the same seed, the same data. */
static inline void fft_random(float *data, size_t count, uint32_t seed)
{
    spdrt_random_floats(data, count, seed, -1.0f, 1.0f);
}

#endif
