/* embedded.h: the Lua templates and target dialects compiled into spdgen (see
 * scripts/embed.lua), and the C sources templates copy into their output (runtime/
 * spd_passes.h; Lua reads them with embedded_source(path)). The table ends with an entry
 * whose path is NULL. */
#ifndef SPDGEN_EMBEDDED_H
#define SPDGEN_EMBEDDED_H

#include <stddef.h>

typedef struct {
    const char *path; /* repository path, e.g. "templates/spd.lua" */
    const char *data; /* Lua source, NUL-terminated */
    size_t size;      /* bytes, without the terminating NUL */
} sg_embedded_file;

extern const sg_embedded_file sg_embedded_files[];

#endif
