/* args.c: see args.h. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

int bench_parse_u32(const char *s, uint32_t max, uint32_t *out) {
    char *end;
    unsigned long v;
    if (!s || !*s || strspn(s, "0123456789") != strlen(s))
        return -1;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int bench_parse_size(const char *s, uint32_t max, int square, uint32_t *w, uint32_t *h) {
    char first[32];
    const char *x = strchr(s, 'x');
    if (!x) {
        if (!square || bench_parse_u32(s, max, w) || !*w)
            return -1;
        *h = *w;
        return 0;
    }
    if ((size_t)(x - s) >= sizeof first)
        return -1;
    memcpy(first, s, (size_t)(x - s));
    first[x - s] = '\0';
    return bench_parse_u32(first, max, w) || bench_parse_u32(x + 1, max, h) || !*w || !*h ? -1 : 0;
}

int bench_usage(const char *prog, const char *flag, const char *value, const char *allowed) {
    fprintf(stderr, "%s: error: %s %s: %s (see --help)\n", prog, flag, value ? value : "",
            allowed);
    return 2;
}

int bench_common_option(bench_common_options *c, const char *prog, void (*help)(void),
                        int argc, char **argv, int *i) {
    const char *a = argv[*i], *val = *i + 1 < argc ? argv[*i + 1] : NULL, *allowed = NULL;
    const char **path = !strcmp(a, "--json")       ? &c->json_path
                        : !strcmp(a, "--markdown") ? &c->markdown_path
                        : !strcmp(a, "--spdgen")   ? &c->spdgen_path
                        : !strcmp(a, "--device")   ? &c->device
                                                   : NULL;
    int timing;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
        help();
        return BENCH_ARG_HELP;
    } else if (!strcmp(a, "--quick")) {
        c->quick = 1;
        return BENCH_ARG_TAKEN;
    } else if (!strcmp(a, "--validate")) {
        c->validation = 1;
        return BENCH_ARG_TAKEN;
    }
    /* With no value a timing option reads as one with a bad value (-1), and sets nothing. */
    timing = bench_timing_option(&c->timing, a, val, &allowed);
    if (!path && timing == 0)
        return BENCH_ARG_OWN;
    if (!val)
        return bench_usage(prog, a, NULL, BENCH_MISSING_VALUE);
    if (timing < 0)
        return bench_usage(prog, a, val, allowed);
    if (path)
        *path = val;
    ++*i;
    return BENCH_ARG_TAKEN;
}

int bench_each_sep(const char *list, char sep, int (*item)(const char *token, void *user),
                   void *user) {
    char buf[2048], *tok = buf;
    if (strlen(list) >= sizeof buf || !*list)
        return -1;
    snprintf(buf, sizeof buf, "%s", list);
    /* Every item, an empty one too ("64,,128", "64,"): a list with one is refused. */
    for (;;) {
        char *end = strchr(tok, sep);
        if (end)
            *end = '\0';
        if (!*tok || item(tok, user))
            return -1;
        if (!end)
            return 0;
        tok = end + 1;
    }
}

int bench_each_item(const char *list, int (*item)(const char *token, void *user), void *user) {
    return strlen(list) >= 512 ? -1 : bench_each_sep(list, ',', item, user);
}
