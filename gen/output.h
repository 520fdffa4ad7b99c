/* output.h: atomic output. Each file is written to a temporary beside its destination and
 * renamed into place only after every output of the run was written, so a failed run
 * leaves earlier outputs intact and never a partial file. */
#ifndef SPDGEN_OUTPUT_H
#define SPDGEN_OUTPUT_H

#include <stddef.h>

#define SG_MAX_OUTPUTS 4

typedef struct {
    const char *path[SG_MAX_OUTPUTS]; /* destination ("-" = stdout) */
    char *temp[SG_MAX_OUTPUTS];       /* temporary file, NULL for stdout */
    const void *data[SG_MAX_OUTPUTS]; /* stdout data, written at commit */
    size_t size[SG_MAX_OUTPUTS];
    int count;
} sg_outputs;

/* Writes `data` to a temporary file for `path` (or keeps it for stdout). Returns 0, or
 * prints "spdgen: error: ..." and returns -1. */
int sg_output_stage(sg_outputs *o, const char *path, const void *data, size_t size);
/* Renames every staged file into place and writes stdout data. Returns 0 or -1. */
int sg_output_commit(sg_outputs *o);
/* Removes every staged temporary. */
void sg_output_abort(sg_outputs *o);

/* The gcc -M style depfile text "target: dep...\n" plus an empty rule per dependency so a
 * deleted template does not break the build. Returns a malloc'd string or NULL. */
char *sg_depfile_text(const char *target, const char *const *deps, int count);

#endif
