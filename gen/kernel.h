/* kernel.h: what a kernel gives spdgen. One struct per kernel (gen/<kernel>/<kernel>.c),
 * listed once in kernels.c; main.c, cli.c and job.c know kernels only through it.
 *
 * A run: cli.c parses argv with the common table and the kernel's table, then `check`
 * resolves defaults and checks the combination. `plan` names the job's shaders; job.c
 * generates each from templates/<name>/kernel.lua (the options with a Lua name, then
 * `push` for derived fields), validates it, reads its contract and writes the outputs:
 * the shaders, `manifest` for a job of several, the C header (header.c, plus `header`
 * for the kernel's helper functions) and the depfile. `selftest` runs the job on the
 * local device. */
#ifndef SPDGEN_KERNEL_H
#define SPDGEN_KERNEL_H

#include <stddef.h>

#include "cli.h"
#include "option.h"
#include "text.h"

struct lua_State;
struct sg_job;
struct sg_job_shader;
struct sg_contract;

typedef struct sg_kernel {
    const char *name;         /* "spd": templates/spd/, the contract's default name */
    const char *flag;         /* "--spd" */
    const char *title;        /* what the kernel is, for headers: "single-pass downsampler" */
    const char *summary;      /* --help: what it emits, a few lines */
    const char *examples;     /* --help: example command lines */
    const sg_option *options; /* the kernel's table; the kernel flag is one of them */
    size_t params_size;
    void (*defaults)(void *params);
    /* Resolves derived values and checks the combination: 0, or 2 after a one-line error. */
    int (*check)(sg_run *run);
    /* Names the job's shaders (sg_job_add_shader); 0, or 2 after a one-line error. */
    int (*plan)(const sg_run *run, struct sg_job *job);
    /* Sets the derived fields of one shader's Lua config (the table on top of the stack). */
    void (*push)(struct lua_State *L, const sg_run *run, const struct sg_job_shader *shader);
    /* A job of several shaders: its own contract (values the header renders before the
     * shaders') and the manifest libspdrt loads; NULL where a kernel has one shader. */
    void (*job_contract)(const sg_run *run, const struct sg_job *job, struct sg_contract *out);
    char *(*manifest)(const sg_run *run, const struct sg_job *job);
    const char *manifest_ext; /* "fftplan": -o NAME.EXT writes NAME.fftplan */
    /* Appends the kernel's C helper functions to the contract header. */
    void (*header)(sg_text *out, const sg_run *run, const struct sg_job *job, const char *prefix,
                   const char *fn);
    int (*selftest)(const sg_run *run, const struct sg_job *job);
} sg_kernel;

/* The registry (kernels.c): every kernel, ending with NULL. */
extern const sg_kernel *const sg_kernels[];

#endif
