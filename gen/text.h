/* text.h: a growable string for the text spdgen writes itself (headers, manifests,
 * depfiles). Appending never fails silently: after an allocation failure `failed` is set and
 * the text stays what it was; the caller checks once at the end. */
#ifndef SPDGEN_TEXT_H
#define SPDGEN_TEXT_H

#include <stddef.h>

typedef struct {
    char *data; /* NUL-terminated; NULL while empty */
    size_t len, cap;
    int failed;
} sg_text;

void sg_text_printf(sg_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sg_text_append(sg_text *t, const char *s, size_t len);
/* Takes the string (never NULL unless failed; "" when empty) and resets t. */
char *sg_text_take(sg_text *t);
void sg_text_free(sg_text *t);

#endif
