/* lua_host.h: runs a kernel's Lua template for one shader of a job and returns the text and
 * the contract it made. The Lua state is a sandbox with limits (lua_host.c): no files, no
 * environment, an instruction budget and a memory cap. */
#ifndef SPDGEN_LUA_HOST_H
#define SPDGEN_LUA_HOST_H

#include <stddef.h>

#include "cli.h"
#include "contract.h"

struct sg_job_shader;

/* The limits a template runs under (docs/design.md states them). */
#define SG_LUA_MEMORY_LIMIT (256u << 20)        /* bytes allocated at once */
#define SG_LUA_INSTRUCTION_LIMIT 1000000000LL   /* Lua VM instructions per generation */

typedef struct {
    char *text; /* the shader source */
    size_t text_size;
    sg_contract contract;
    char **deps; /* what the depfile names: override files read, and directories searched */
    int dep_count;
} sg_generated;

/* Generates `shader` of the run's job in `dialect` ("glsl", "hlsl" or "msl"). Returns 0, or
 * prints "spdgen: error: ..." and returns SG_EXIT_FAILURE. */
int sg_generate(const sg_run *run, const struct sg_job_shader *shader, const char *dialect,
                sg_generated *out);
void sg_generated_free(sg_generated *g);

/* The template overrides a run uses: "templates/spd/kernel.lua 0123456789abcdef, ..." (each
 * file under --template-dir's templates/ and targets/ with its FNV-1a 64 hash, sorted), or
 * "" without --template-dir. Returns 0, or -1 when the directory cannot be read. */
int sg_template_overrides(const char *dir, char *out, size_t size);

#endif
