/* plan_text.c: what the loaders of spdgen's plan files (FFT plans, conv jobs) share. Both
 * formats are "key value..." lines, so one strict reading serves both: a damaged plan never
 * runs with a default in place of what it lost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The plans are a few hundred bytes; anything past this is not one. */
#define PLAN_MAX_BYTES (1L << 20)

/* The whole file at path, at most max bytes, with a NUL after it (NULL: unreadable, larger
 * or out of memory); *size its bytes. */
static char *read_all(const char *path, long max, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    long n = -1;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n >= 0 && n <= max && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1)) &&
        fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data) data[n] = '\0', *size = (size_t)n;
    return data;
}

char *spdrt__plan_text(const char *path, int *nul_line)
{
    size_t size = 0;
    char *text = read_all(path, PLAN_MAX_BYTES, &size);
    *nul_line = 0;
    /* A NUL would end the text early and hide the lines after it. */
    size_t len = text ? strlen(text) : 0;
    if (text && len < size) {
        *nul_line = 1;
        for (size_t i = 0; i < len; i++) *nul_line += text[i] == '\n';
    }
    return text;
}

uint32_t *spdrt__read_words(const char *path, size_t *words)
{
    size_t size = 0;
    char *data = read_all(path, 0x7fffffffL, &size);
    *words = 0;
    if (data && (size == 0 || size % 4)) {
        free(data);
        return NULL;
    }
    if (data) *words = size / 4;
    return (uint32_t *)(void *)data; /* malloc's alignment serves uint32_t */
}

char *spdrt__plan_line(char **cursor)
{
    char *line = *cursor;
    if (!line || !*line) return NULL;
    char *end = strchr(line, '\n');
    if (end) {
        *end = '\0';
        *cursor = end + 1;
    } else {
        *cursor = line + strlen(line);
    }
    size_t len = strlen(line);
    if (len && line[len - 1] == '\r') line[len - 1] = '\0';
    return line;
}

int spdrt__plan_words(char *line, char **words, int max)
{
    int count = 0;
    for (char *p = line;;) {
        p += strspn(p, " \t");
        if (!*p) return count;
        if (count == max) return max + 1;
        words[count++] = p;
        p += strcspn(p, " \t");
        if (*p) *p++ = '\0';
    }
}

int spdrt__plan_u64(const char *word, uint64_t *out)
{
    uint64_t v = 0;
    if (!word || !*word) return -1;
    for (const char *p = word; *p; p++) {
        if (*p < '0' || *p > '9') return -1;
        unsigned digit = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - digit) / 10) return -1;
        v = v * 10 + digit;
    }
    *out = v;
    return 0;
}

int spdrt__plan_u32(const char *word, uint32_t *out)
{
    uint64_t v;
    if (spdrt__plan_u64(word, &v) || v > UINT32_MAX) return -1;
    *out = (uint32_t)v;
    return 0;
}

int spdrt__plan_choice(const char *word, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(word, names[i])) return i;
    return -1;
}

int spdrt__plan_key(const char *word, const char *const *keys, unsigned *seen)
{
    int k = spdrt__plan_choice(word, keys);
    if (k < 0 || (*seen & (1u << k))) return -1;
    *seen |= 1u << k;
    return k;
}
