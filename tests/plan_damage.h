/* tests/plan_damage.h: damaged copies of a plan file, for the tests that check libspdrt
 * refuses them (tests/fft/plan.c, tests/conv/props.c). Header-only, as tap.h. */
#ifndef SPDGEN_TESTS_PLAN_DAMAGE_H
#define SPDGEN_TESTS_PLAN_DAMAGE_H

#include <stdio.h>
#include <string.h>

/* One damage: `to` replaces the first line of the plan that starts with `from` (`to` may hold
 * a "\n" and so add a line; NULL keeps the line), then `tail` (if any) is appended to it;
 * `why` names it in the TAP line. */
typedef struct {
    const char *from, *to, *why, *tail;
} plan_damage;

/* Reads the plan file at path into text (size bytes at most); its length, 0 on failure. */
static inline size_t plan_read(const char *path, char *text, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t len = f ? fread(text, 1, size - 1, f) : 0;
    if (f) fclose(f);
    text[len] = '\0';
    return len;
}

/* Writes text to path with damage d applied (NULL: unchanged); 0, or -1 when the line is
 * missing or the file cannot be written. */
static inline int plan_write_damaged(const char *text, const plan_damage *d, const char *path)
{
    const char *at = NULL;
    for (const char *l = text; d && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
        if (!strncmp(l, d->from, strlen(d->from))) {
            at = l;
            break;
        }
    if (d && !at) return -1;
    FILE *out = fopen(path, "w");
    if (!out) return -1;
    if (d) {
        const char *end = strchr(at, '\n');
        if (!end) end = at + strlen(at);
        fprintf(out, "%.*s", (int)(at - text), text);
        if (d->to) fputs(d->to, out);
        else fprintf(out, "%.*s", (int)(end - at), at);
        fprintf(out, "%s%s", d->tail ? d->tail : "", end);
    } else {
        fputs(text, out);
    }
    return fclose(out) ? -1 : 0;
}

#endif
