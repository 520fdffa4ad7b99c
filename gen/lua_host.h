/* lua_host.h: runs the embedded Lua templates for a config and returns what they emit. */
#ifndef SPDGEN_LUA_HOST_H
#define SPDGEN_LUA_HOST_H

#include <stddef.h>
#include "config.h"

typedef struct {
    char *text;            /* the shader source */
    size_t text_size;
    char *header;          /* the C contract header, when asked for; else NULL */
    size_t header_size;
    char entry[64];        /* entry point name */
    unsigned workgroup[3]; /* local size */
    char **deps;           /* files read from disk (--template-dir overrides), in load order */
    int dep_count;
} sg_generated;

/* Generates the kernel of `cfg` in `dialect` ("glsl", "hlsl" or "msl"). Returns 0, or
 * prints "spdgen: error: ..." and returns SG_EXIT_FAILURE. */
int sg_generate(const sg_config *cfg, const char *dialect, int want_header, sg_generated *out);
void sg_generated_free(sg_generated *g);

/* The depfile text for `target`: spdgen itself (the embedded templates are part of it) and
 * every template the generations in `list` read from --template-dir, once each. */
char *sg_generated_depfile(const char *target, const sg_generated *const *list, int count);

#endif
