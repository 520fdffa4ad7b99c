/* tests/runtime/interface.c: TAP test of libspdrt's reading of a SPIR-V module's interface
 * (runtime/core/spirv_interface.c), which every pipeline now passes through with the caller's
 * module: damaged modules must get an answer, never a crash or a hang. Thousands of mutations
 * of spdgen's own modules (words overwritten, lengths changed, the module cut short), and a
 * module whose push-constant block nests wide structs six deep (50^6 member visits to a
 * reader that does not remember a type's size). Modules from the folder given (interface.t
 * writes them). */
#define _POSIX_C_SOURCE 200809L  /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/internal.h"

#include "tap.h"

static uint32_t *read_module(const char *dir, const char *name, size_t *words) {
    char path[4096];
    uint32_t *w = NULL;
    long bytes;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *words = 0;
    if (!(f = fopen(path, "rb"))) return NULL;
    if (!fseek(f, 0, SEEK_END) && (bytes = ftell(f)) > 0 && bytes % 4 == 0 &&
        !fseek(f, 0, SEEK_SET) && (w = malloc((size_t)bytes)) &&
        fread(w, 1, (size_t)bytes, f) == (size_t)bytes)
        *words = (size_t)bytes / 4;
    fclose(f);
    return w;
}

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* The SPD layout (any would do: the reader is what is under test). */
static const spdrt_binding layout[4] = {{VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, NULL, 0},
                                        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 12, NULL, 0},
                                        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0},
                                        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, NULL, 0}};

/* Mutations of one module: each copy gets 1-4 changes, then the reader. */
static void mutate(const char *name, const uint32_t *w, size_t words, uint32_t seed) {
    enum { COPIES = 3000 };
    uint32_t *copy = malloc(words * 4), s = seed;
    char why[256];
    size_t i, refused = 0, unexplained = 0;
    double t0 = seconds();
    for (i = 0; i < COPIES; i++) {
        size_t n = words, k, changes = 1 + lcg(&s) % 4;
        memcpy(copy, w, words * 4);
        for (k = 0; k < changes; k++) {
            size_t at = 5 + lcg(&s) % (words - 5);
            switch (lcg(&s) % 5) {
            case 0: copy[at] = lcg(&s) | lcg(&s) << 24; break;       /* any word */
            case 1: copy[at] = lcg(&s) % 64; break;                   /* a small id or value */
            case 2: copy[at] = (copy[at] & 0xffffu) | (lcg(&s) % 16) << 16; break; /* a length */
            case 3: n = 5 + lcg(&s) % (n - 4); break;                 /* cut short */
            default: copy[3] = lcg(&s) % 5000; break;                 /* the id bound */
            }
        }
        why[0] = 0;
        if (spdrt__spirv_fits(copy, n, layout, 4, 32, why, sizeof why) != 0) {
            refused++;
            if (!why[0] || strchr(why, '\n')) unexplained++;
        }
    }
    ok(seconds() - t0 < 20.0 && unexplained == 0,
       "%s: %d damaged copies read in %.2f s, each refusal one line (%zu refused, %zu without "
       "one)", name, COPIES, seconds() - t0, refused, unexplained);
    free(copy);
}

/* A module whose push constants are a struct of 50 structs of 50 structs ... six deep, each
 * member at its own Offset: small to write, 50^6 members to a reader that visits each. */
static void wide_structs(void) {
    enum { K = 50, LEVELS = 6 };
    size_t cap = 64 + LEVELS * (2 + K) + LEVELS * K * 5, n = 0, i, d;
    uint32_t *w = malloc(cap * 4), f32 = 2, first = 3, ptr = first + LEVELS, var = ptr + 1;
    char why[256];
    double t0;
    int r;
    w[n++] = 0x07230203u, w[n++] = 0x00010300u, w[n++] = 0, w[n++] = var + 1, w[n++] = 0;
    w[n++] = 2u << 16 | 17, w[n++] = 1;                        /* OpCapability Shader */
    w[n++] = 3u << 16 | 14, w[n++] = 0, w[n++] = 1;             /* OpMemoryModel */
    w[n++] = 5u << 16 | 15, w[n++] = 5, w[n++] = 1, w[n++] = 0x6e69616du, w[n++] = 0;
    for (d = 0; d < LEVELS; d++)
        for (i = 0; i < K; i++) {                               /* OpMemberDecorate Offset */
            w[n++] = 5u << 16 | 72, w[n++] = first + (uint32_t)d, w[n++] = (uint32_t)i;
            w[n++] = 35, w[n++] = (uint32_t)i * 4;
        }
    w[n++] = 3u << 16 | 22, w[n++] = f32, w[n++] = 32;          /* OpTypeFloat 32 */
    for (d = LEVELS; d-- > 0;) {                                /* OpTypeStruct, innermost first */
        w[n++] = (uint32_t)(2 + K) << 16 | 30, w[n++] = first + (uint32_t)d;
        for (i = 0; i < K; i++) w[n++] = d + 1 < LEVELS ? first + (uint32_t)d + 1 : f32;
    }
    w[n++] = 4u << 16 | 32, w[n++] = ptr, w[n++] = 9, w[n++] = first;  /* OpTypePointer */
    w[n++] = 4u << 16 | 59, w[n++] = ptr, w[n++] = var, w[n++] = 9;    /* OpVariable */
    t0 = seconds();
    r = spdrt__spirv_fits(w, n, layout, 4, 32, why, sizeof why);
    ok(r == -1 && strstr(why, "push constants take") && seconds() - t0 < 1.0,
       "push constants of structs 50 wide and 6 deep: refused in %.3f s (%s)", seconds() - t0,
       why);
    free(w);
}

int main(int argc, char **argv) {
    static const char *names[] = {"spd.spv", "dmap.spv", "fft.spv", "conv.pass2.spv"};
    size_t i, words;
    char why[256];
    if (argc != 2) {
        fprintf(stderr, "usage: interface DIR (interface.t writes the modules)\n");
        return 2;
    }
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        uint32_t *w = read_module(argv[1], names[i], &words);
        if (!ok(w && words > 5, "%s read (%zu words)", names[i], words)) continue;
        why[0] = 0;
        if (i == 0)
            ok(spdrt__spirv_fits(w, words, layout, 4, 32, why, sizeof why) == 0,
               "%s fits the SPD layout it was made for (%s)", names[i], why);
        else
            ok(spdrt__spirv_fits(w, words, layout, 4, 32, why, sizeof why) == -1 &&
                   strstr(why, "binding"),
               "%s as written: refused by the SPD layout, naming a binding (%s)", names[i], why);
        mutate(names[i], w, words, 12345u + (uint32_t)i);
        free(w);
    }
    wide_structs();
    return tap_plan();
}
