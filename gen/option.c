/* option.c: parsing, errors, help and the regenerate command, all from one declaration per
 * option (option.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "number.h"
#include "option.h"

#define HELP_WIDTH 92  /* --help wraps here */
#define HELP_INDENT 24 /* where the help text starts */

int sg_option_count(const sg_option *table)
{
    int n = 0;
    while (table && table[n].name) n++;
    return n;
}

const sg_option *sg_option_find(const sg_option *table, const char *name)
{
    for (int i = 0; table && table[i].name; i++)
        if (strcmp(table[i].name, name) == 0) return &table[i];
    return NULL;
}

/* "a | b | c": the listed choices. */
static void choice_list(const sg_option *o, char *buf, size_t size)
{
    int n = 0;
    while (o->choices[n]) n++;
    buf[0] = '\0';
    for (int i = 0; i < n - o->hidden_choices; i++)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? " | " : "", o->choices[i]);
}

/* "2, 4, 8 or 16" for a short list of numbers. */
static void number_list(const long *v, int n, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%ld",
                 i == 0 ? "" : i == n - 1 ? " or " : ", ", v[i]);
}

/* What the values of a numeric option may be, as the error line says it. */
static void allowed(const sg_option *o, char *buf, size_t size)
{
    long v[16];
    int n = 0;
    switch (o->kind) {
    case SG_OPT_UINT:
        snprintf(buf, size, "%ld..%ld", o->min, o->max);
        return;
    case SG_OPT_POW2:
    case SG_OPT_LIST2:
        for (long p = o->min; p <= o->max && n < 8; p *= 2) v[n++] = p;
        if (n < 8) number_list(v, n, buf, size);
        else snprintf(buf, size, "a power of two %ld..%ld", o->min, o->max);
        return;
    case SG_OPT_ONE_OF:
        while (o->numbers[n] >= 0 && n < 16) n++;
        number_list(o->numbers, n, buf, size);
        return;
    default:
        buf[0] = '\0';
    }
}

static int value_error(const sg_option *o, const char *value)
{
    char what[256];
    const char *why = o->why ? o->why : "";
    switch (o->kind) {
    case SG_OPT_CHOICE:
        choice_list(o, what, sizeof what);
        return sg_usage_error("%s %s: must be %s%s%s%s", o->name, value, what, *why ? " (" : "",
                              why, *why ? ")" : "");
    case SG_OPT_SIZE:
        return sg_usage_error("%s %s: must be WxH with each side %ld..%ld%s%s%s", o->name, value,
                              o->min, o->max, *why ? " (" : "", why, *why ? ")" : "");
    case SG_OPT_SIZE3:
        return sg_usage_error("%s %s: must be WxH or WxHxLAYERS, sides %ld..%ld, layers 1..%ld",
                              o->name, value, o->min, o->max, o->max_layers);
    case SG_OPT_SET:
        choice_list(o, what, sizeof what);
        return sg_usage_error("%s %s: must be none or a comma-separated list of %s%s%s%s", o->name,
                              value, what, *why ? " (" : "", why, *why ? ")" : "");
    case SG_OPT_IDENT:
        return sg_usage_error("%s %s: must be a C name of lowercase letters, digits and '_' that "
                              "starts with a letter, at most %ld characters%s%s%s", o->name, value,
                              o->max, *why ? " (" : "", why, *why ? ")" : "");
    default:
        allowed(o, what, sizeof what);
        return sg_usage_error("%s %s: must be %s%s%s%s", o->name, value, what, *why ? " (" : "",
                              why, *why ? ")" : "");
    }
}

/* One power of two min..max, or -1. */
static long pow2_value(const sg_option *o, const char *text)
{
    long v;
    if (sg_parse_number(text, o->max, &v) || !sg_is_pow2(v) || v < o->min) return -1;
    return v;
}

static int parse_list2(const sg_option *o, const char *value, void *base)
{
    long *field = &SG_FIELD(base, o, long);
    char first[32];
    const char *comma = strchr(value, ',');
    size_t len = comma ? (size_t)(comma - value) : strlen(value);
    if (len >= sizeof first) return value_error(o, value);
    memcpy(first, value, len);
    first[len] = '\0';
    long a = pow2_value(o, first), b = comma ? pow2_value(o, comma + 1) : a;
    if (a < 0 || b < 0) return value_error(o, value);
    field[0] = a;
    field[1] = b;
    *(int *)((char *)base + o->offset2) = comma ? 2 : 1;
    return 0;
}

/* "none", or names of `choices` separated by commas, each at most once: their bits. */
static int parse_set(const sg_option *o, const char *value, void *base)
{
    int bits = 0;
    if (strcmp(value, "none") == 0) {
        SG_FIELD(base, o, int) = 0;
        return 0;
    }
    for (const char *p = value;;) {
        size_t len = strcspn(p, ",");
        int n, found = -1;
        for (n = 0; o->choices[n]; n++)
            if (strlen(o->choices[n]) == len && strncmp(o->choices[n], p, len) == 0) found = n;
        if (found < 0 || (bits & (1 << found))) return value_error(o, value);
        bits |= 1 << found;
        if (!p[len]) break;
        p += len + 1;
    }
    SG_FIELD(base, o, int) = bits;
    return 0;
}

int sg_option_parse(const sg_option *o, const char *value, void *base)
{
    long v, dims[3];
    int n;
    switch (o->kind) {
    case SG_OPT_FLAG:
        if (value) return sg_usage_error("%s takes no value (got '%s')", o->name, value);
        SG_FIELD(base, o, int) = 1;
        return 0;
    case SG_OPT_UINT:
        if (sg_parse_number(value, o->max, &v) || v < o->min) return value_error(o, value);
        SG_FIELD(base, o, long) = v;
        return 0;
    case SG_OPT_POW2:
        if ((v = pow2_value(o, value)) < 0) return value_error(o, value);
        SG_FIELD(base, o, long) = v;
        return 0;
    case SG_OPT_ONE_OF:
        if (sg_parse_number(value, 1L << 30, &v)) return value_error(o, value);
        for (n = 0; o->numbers[n] >= 0; n++)
            if (o->numbers[n] == v) {
                SG_FIELD(base, o, long) = v;
                return 0;
            }
        return value_error(o, value);
    case SG_OPT_CHOICE:
        for (n = 0; o->choices[n]; n++)
            if (strcmp(o->choices[n], value) == 0) {
                SG_FIELD(base, o, int) = n;
                return 0;
            }
        return value_error(o, value);
    case SG_OPT_SIZE:
    case SG_OPT_SIZE3:
        n = sg_parse_dims(value, o->kind == SG_OPT_SIZE ? 2 : 3, o->max > o->max_layers ? o->max : o->max_layers, dims);
        if (n < 0 || dims[0] < o->min || dims[0] > o->max || dims[1] < o->min || dims[1] > o->max ||
            (n == 3 && (dims[2] < 1 || dims[2] > o->max_layers)))
            return value_error(o, value);
        long *field = &SG_FIELD(base, o, long);
        field[0] = dims[0];
        field[1] = dims[1];
        if (o->kind == SG_OPT_SIZE3) field[2] = n == 3 ? dims[2] : 0;
        return 0;
    case SG_OPT_LIST2:
        return parse_list2(o, value, base);
    case SG_OPT_SET:
        return parse_set(o, value, base);
    case SG_OPT_PATH:
        if (!*value) return sg_usage_error("%s: empty path", o->name);
        SG_FIELD(base, o, const char *) = value;
        return 0;
    case SG_OPT_IDENT:
        /* Lowercase only: the macros are the name in capitals, so "Hiz" and "hiz" would
         * collide there. */
        if (!(value[0] >= 'a' && value[0] <= 'z') || (long)strlen(value) > o->max ||
            strspn(value, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(value))
            return value_error(o, value);
        SG_FIELD(base, o, const char *) = value;
        return 0;
    }
    return value_error(o, value);
}

static int append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int append(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= size - len ? -1 : 0;
}

/* " --name path", the path single-quoted for a shell where it needs quotes. "*" and "/" next
 * to each other are parted by '' (an empty string to the shell): the command sits in a block
 * comment, which "*" "/" would end and, in WGSL, "/" "*" would nest. */
static int append_path(char *buf, size_t size, const char *name, const char *path)
{
    if (strspn(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+-=,:@%") ==
        strlen(path))
        return append(buf, size, " %s %s", name, path);
    if (append(buf, size, " %s '", name)) return -1;
    for (const char *p = path; *p; p++) {
        int parted = (p[0] == '*' && p[1] == '/') || (p[0] == '/' && p[1] == '*');
        if (*p == '\'' ? append(buf, size, "'\\''") : append(buf, size, "%c%s", *p, parted ? "''" : ""))
            return -1;
    }
    return append(buf, size, "'");
}

int sg_option_render(const sg_option *o, const void *base, char *buf, size_t size)
{
    const long *l = &SG_FIELD(base, o, long);
    switch (o->kind) {
    case SG_OPT_FLAG:
        return SG_FIELD(base, o, int) ? append(buf, size, " %s", o->name) : 0;
    case SG_OPT_UINT:
    case SG_OPT_POW2:
    case SG_OPT_ONE_OF:
        return append(buf, size, " %s %ld", o->name, *l);
    case SG_OPT_CHOICE:
        return append(buf, size, " %s %s", o->name, o->choices[SG_FIELD(base, o, int)]);
    case SG_OPT_SIZE:
        return append(buf, size, " %s %ldx%ld", o->name, l[0], l[1]);
    case SG_OPT_SIZE3:
        if (l[2]) return append(buf, size, " %s %ldx%ldx%ld", o->name, l[0], l[1], l[2]);
        return append(buf, size, " %s %ldx%ld", o->name, l[0], l[1]);
    case SG_OPT_LIST2:
        if (*(const int *)((const char *)base + o->offset2) == 2)
            return append(buf, size, " %s %ld,%ld", o->name, l[0], l[1]);
        return append(buf, size, " %s %ld", o->name, l[0]);
    case SG_OPT_PATH:
        return append_path(buf, size, o->name, SG_FIELD(base, o, const char *));
    case SG_OPT_IDENT:
        return append(buf, size, " %s %s", o->name, SG_FIELD(base, o, const char *));
    case SG_OPT_SET: {
        int bits = SG_FIELD(base, o, int);
        const char *sep = " ";
        if (append(buf, size, " %s", o->name)) return -1;
        if (!bits) return append(buf, size, " none");
        for (int n = 0; o->choices[n]; n++) {
            if (!(bits & (1 << n))) continue;
            if (append(buf, size, "%s%s", sep, o->choices[n])) return -1;
            sep = ",";
        }
        return 0;
    }
    }
    return -1;
}

/* Words of `text` from column `col`, wrapped at HELP_WIDTH under HELP_INDENT. */
static void wrap(FILE *out, int col, const char *text)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, " ");
        if (!len) break;
        if (col > HELP_INDENT && col + 1 + (int)len > HELP_WIDTH) {
            fprintf(out, "\n%*s", HELP_INDENT, "");
            col = HELP_INDENT;
        } else if (col > HELP_INDENT) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", (int)len, p);
        col += (int)len;
        p += len;
    }
}

void sg_option_help(FILE *out, const sg_option *table)
{
    char text[1024], head[64];
    for (int i = 0; table && table[i].name; i++) {
        const sg_option *o = &table[i];
        if (!o->help) continue;
        snprintf(head, sizeof head, "  %s%s%s", o->name, o->meta ? " " : "", o->meta ? o->meta : "");
        snprintf(text, sizeof text, "%s", o->help);
        if ((o->kind == SG_OPT_CHOICE || o->kind == SG_OPT_SET) && !strstr(o->help, "|")) {
            char list[256];
            choice_list(o, list, sizeof list);
            snprintf(text + strlen(text), sizeof text - strlen(text), ": %s", list);
        }
        if (o->default_text)
            snprintf(text + strlen(text), sizeof text - strlen(text), " (default %s)", o->default_text);
        int col = (int)strlen(head);
        fputs(head, out);
        if (col >= HELP_INDENT - 1) {
            fprintf(out, "\n%*s", HELP_INDENT, "");
        } else {
            fprintf(out, "%*s", HELP_INDENT - col, "");
        }
        wrap(out, HELP_INDENT, text);
        fputc('\n', out);
    }
}
