/* text.c: the growable string (text.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static int reserve(sg_text *t, size_t extra)
{
    if (t->failed) return -1;
    if (t->len + extra + 1 <= t->cap) return 0;
    size_t cap = t->cap ? t->cap : 1024;
    while (cap < t->len + extra + 1) cap *= 2;
    char *grown = realloc(t->data, cap);
    if (!grown) {
        t->failed = 1;
        return -1;
    }
    t->data = grown;
    t->cap = cap;
    return 0;
}

void sg_text_append(sg_text *t, const char *s, size_t len)
{
    if (reserve(t, len)) return;
    memcpy(t->data + t->len, s, len);
    t->len += len;
    t->data[t->len] = '\0';
}

void sg_text_printf(sg_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(t, (size_t)n)) {
        t->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(t->data + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

char *sg_text_take(sg_text *t)
{
    char *s = t->failed ? NULL : t->data ? t->data : strdup("");
    if (t->failed) free(t->data);
    memset(t, 0, sizeof *t);
    return s;
}

void sg_text_free(sg_text *t)
{
    free(t->data);
    memset(t, 0, sizeof *t);
}
