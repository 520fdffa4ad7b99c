/* example.h: what the examples share. Option values are checked: a bad one is a usage error
 * naming the flag, the value and what is allowed (exit 2), never a number read halfway
 * ("32junk" as 32, 4294967328 as 32) or a crash later. Files are written with every error
 * checked (a full disk is a failure, exit 1). Header-only: each example is one file plus this. */
#ifndef SPDGEN_EXAMPLE_H
#define SPDGEN_EXAMPLE_H

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints "PROG: error: FLAG VALUE: ALLOWED" (no VALUE where it is ""), one line; returns 2
 * (the usage exit). */
static inline int ex_bad(const char *prog, const char *flag, const char *value, const char *allowed)
{
    fprintf(stderr, "%s: error: %s%s%s: %s\n", prog, flag, *value ? " " : "", value, allowed);
    return 2;
}

/* A whole number lo..hi, all of v digits: 0, else -1. */
static inline int ex_u32(const char *v, uint32_t lo, uint32_t hi, uint32_t *out)
{
    if (!*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 10) return -1;
    unsigned long long n = strtoull(v, NULL, 10);
    if (n < lo || n > hi) return -1;
    *out = (uint32_t)n;
    return 0;
}

/* "WxH", each lo..hi: 0, else -1. */
static inline int ex_size(const char *v, uint32_t lo, uint32_t hi, uint32_t *w, uint32_t *h)
{
    char first[16];
    const char *x = strchr(v, 'x');
    if (!x || (size_t)(x - v) >= sizeof first) return -1;
    memcpy(first, v, (size_t)(x - v));
    first[x - v] = '\0';
    return ex_u32(first, lo, hi, w) || ex_u32(x + 1, lo, hi, h) ? -1 : 0;
}

/* A finite number lo..hi, all of v: 0, else -1. */
static inline int ex_float(const char *v, float lo, float hi, float *out)
{
    char *end;
    float f = strtof(v, &end);
    if (!*v || *end || !isfinite(f) || f < lo || f > hi) return -1;
    *out = f;
    return 0;
}

/* A SPIR-V module's words: NULL if the file cannot be read, is empty, or is not whole 4-byte
 * words (a cut file would lose its tail and still run). */
static inline uint32_t *ex_read_spirv(const char *path, size_t *words)
{
    FILE *f = fopen(path, "rb");
    long size = -1;
    uint32_t *code = NULL;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (size > 0 && size % 4 == 0 && fseek(f, 0, SEEK_SET) == 0 && (code = malloc((size_t)size)) &&
        fread(code, 1, (size_t)size, f) != (size_t)size) {
        free(code);
        code = NULL;
    }
    fclose(f);
    *words = code ? (size_t)size / 4 : 0;
    return code;
}

/* Writes size bytes to path: 0, else 1 after "PROG: cannot write PATH: reason". */
static inline int ex_write_file(const char *prog, const char *path, const void *data, size_t size)
{
    errno = 0;
    FILE *f = fopen(path, "wb");
    int failed = !f || fwrite(data, 1, size, f) != size;
    failed |= f && fclose(f) != 0;
    if (failed) fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, errno ? strerror(errno) : "write error");
    return failed;
}

#endif
