/* header.h: the C contract header (--emit-header), rendered here for every kernel and job
 * from the contracts as data (contract.h): provenance, the numbers, the bindings and the
 * push-constant struct; the kernel appends its helper functions (sg_kernel.header). No
 * template text reaches the header except checked identifiers, numbers and comment text. */
#ifndef SPDGEN_HEADER_H
#define SPDGEN_HEADER_H

#include "text.h"

struct sg_run;
struct sg_job;

/* The contract's name: --name, else "<kernel>_<8 hex digits>", the low 32 bits of the FNV-1a
 * 64 of the regenerate command and the override list: the command pins every generation
 * option, so two configurations get two names, and one configuration always the same. */
void sg_header_name(const struct sg_run *run, char *buf, unsigned long size);

/* Returns the malloc'd header text, or NULL when out of memory. */
char *sg_header_render(const struct sg_run *run, const struct sg_job *job);

/* "#define PREFIXNAME value" with its comment: on the line where it fits in 100 columns,
 * else above it, wrapped. For kernels' helper sections too. */
void sg_header_define(sg_text *t, const char *prefix, const char *name, const char *value,
                      const char *doc);
/* The regenerate command after `head` (" *   ", "#   "): one line where it fits in 100
 * columns, else broken before an option with shell continuations (" \\"), the later lines
 * after `pad`, so the lines pasted without their comment marks run it. */
void sg_text_command(sg_text *t, const char *head, const char *pad, const char *command);

/* A C comment of free text, wrapped at 100 columns. */
void sg_header_comment(sg_text *t, const char *text);

/* 64-bit FNV-1a of a byte string (the module hash the header carries). */
unsigned long long sg_fnv1a64(const void *data, unsigned long size);

#endif
