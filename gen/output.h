/* output.h: a run's files, written as one set.
 *
 * sg_output_add records a destination and checks it at once: a directory, a read-only file
 * or one the user may not write is refused before anything is written. A symbolic link is
 * followed to the file it names (the link stays); a device or FIFO is written in place at
 * commit (it cannot be replaced). sg_output_commit writes every regular destination to a
 * temporary beside it (keeping an existing file's mode, and its owner where spdgen may set
 * it), then, holding a lock on each destination directory, renames them all into place, so
 * two runs writing the same files leave the complete set of one of them. stdout comes last.
 *
 * What is not atomic across files: if a rename fails after others succeeded (the disk or
 * directory changed under the run), the files already renamed stay new; spdgen names the
 * file that failed. Temporaries are removed on failure and on SIGINT, SIGTERM and SIGHUP. */
#ifndef SPDGEN_OUTPUT_H
#define SPDGEN_OUTPUT_H

#include <stddef.h>

#define SG_MAX_OUTPUTS 16

typedef struct {
    const char *path;  /* as the user named it ("-" = stdout) */
    char *target;      /* the file written: path with symbolic links followed */
    char *temp;        /* the staged temporary, or NULL */
    const void *data;
    size_t size;
    int in_place;      /* a device or FIFO: written directly */
    int keep_mode;     /* the target exists: its mode and owner are kept */
    unsigned mode, uid, gid;
    char *same;        /* what makes two names one file: "dev:ino" of an existing file,
                          else the real path of its directory and its name */
} sg_output;

typedef struct {
    sg_output file[SG_MAX_OUTPUTS];
    int count;
} sg_outputs;

void sg_output_init(sg_outputs *o);
/* Records one output (data must stay valid until commit). Returns 0, or prints
 * "spdgen: error: cannot write PATH: reason" and returns -1. */
int sg_output_add(sg_outputs *o, const char *path, const void *data, size_t size);
/* Writes every recorded output. Returns 0, or -1 after printing why. */
int sg_output_commit(sg_outputs *o);
/* Removes every staged temporary and forgets the outputs. */
void sg_output_abort(sg_outputs *o);

#endif
