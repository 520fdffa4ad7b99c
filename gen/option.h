/* option.h: an option is declared once. Its declaration gives the name, the kind of value,
 * where the value goes, the allowed range or choices, the default as --help states it and
 * one help line; option.c derives parsing, range checks, the one-line errors, --help and
 * the canonical regenerate command from it. Kernels keep their tables in gen/<kernel>/. */
#ifndef SPDGEN_OPTION_H
#define SPDGEN_OPTION_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
    SG_OPT_FLAG,   /* no value; int field set to 1 */
    SG_OPT_UINT,   /* decimal integer min..max; long field */
    SG_OPT_POW2,   /* power of two min..max; long field */
    SG_OPT_ONE_OF, /* one of the integers in `numbers` (ends with -1); long field */
    SG_OPT_CHOICE, /* one of `choices`; int field = its index */
    SG_OPT_SIZE,   /* WxH, each side min..max; long[2] field */
    SG_OPT_SIZE3,  /* WxH or WxHxL (L 1..max_layers; 0 when absent); long[3] field */
    SG_OPT_LIST2,  /* V or V1,V2, powers of two min..max; long[2] field, count at offset2 */
    SG_OPT_PATH,   /* a non-empty path; const char * field */
    SG_OPT_IDENT,  /* a C identifier: a lowercase letter, then lowercase letters, digits and
                      '_', at most max characters; const char * field */
    SG_OPT_SET     /* "none" or some of `choices`, comma-separated; int field: bit i set for
                      choice i */
} sg_option_kind;

/* In the regenerate command: always, never (selftest and output options), or when the
 * kernel's `shown` predicate says the option applies to the resolved configuration. */
typedef enum { SG_CMD_ALWAYS, SG_CMD_NEVER, SG_CMD_WHEN } sg_option_command;

typedef struct sg_option {
    const char *name;            /* "--op" */
    sg_option_kind kind;
    size_t offset;               /* of the field in the table's struct */
    long min, max;               /* UINT, POW2, SIZE, SIZE3 (sides), LIST2; IDENT: max length */
    const char *const *choices;  /* CHOICE, SET: NULL-terminated */
    int hidden_choices;          /* CHOICE: the last this many are accepted but not listed */
    const long *numbers;         /* ONE_OF: ends with -1 */
    const char *meta;            /* the value's name in --help: "OP", "N", "WxH" */
    const char *help;            /* one line: what it does (wrapped by --help) */
    const char *default_text;    /* --help's "(default ...)", NULL for none */
    const char *why;             /* what the allowed values mean, for the error line */
    const char *lua;             /* the templates' name for it (cfg.<lua>); NULL: not passed */
    sg_option_command command;
    /* SG_CMD_WHEN: does the option apply to these resolved parameters? */
    int (*shown)(const void *params);
    size_t offset2;              /* LIST2: int field, how many values were given */
    long max_layers;             /* SIZE3 */
} sg_option;

/* A table ends with an entry whose name is NULL. */
int sg_option_count(const sg_option *table);
/* The entry named `name` (exact), or NULL. */
const sg_option *sg_option_find(const sg_option *table, const char *name);
static inline int sg_option_takes_value(const sg_option *o) { return o->kind != SG_OPT_FLAG; }

/* Parses `value` (NULL for flags) into the field of `o` in `base`. Returns 0, or prints the
 * one-line usage error naming the flag, the value and what is allowed, and returns 2. */
int sg_option_parse(const sg_option *o, const char *value, void *base);

/* Appends " --name value" for `o` as resolved in `base` to buf (size bytes, always
 * terminated); nothing for an unset flag. Returns 0, or -1 when buf is too small. */
int sg_option_render(const sg_option *o, const void *base, char *buf, size_t size);

/* The --help lines of a table: name, meta, help and default, wrapped at 92 columns. */
void sg_option_help(FILE *out, const sg_option *table);

/* Field access for kernels' checks. */
#define SG_FIELD(base, o, type) (*(type *)((char *)(base) + (o)->offset))

#endif
