/* number.c: checked decimal parsing (number.h). */
#include "number.h"

int sg_parse_digits(const char *s, long max, long *out, const char **end)
{
    long v = 0;
    const char *p = s;
    if (*p < '0' || *p > '9') return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        int digit = *p - '0';
        /* v * 10 + digit would pass max (digit > max first: (max - digit) / 10 rounds a
         * negative toward 0, which let 7 pass a maximum of 6) */
        if (digit > max || v > (max - digit) / 10) return -1;
        v = v * 10 + digit;
    }
    *out = v;
    *end = p;
    return 0;
}

int sg_parse_number(const char *s, long max, long *out)
{
    const char *end;
    return sg_parse_digits(s, max, out, &end) || *end ? -1 : 0;
}

int sg_parse_dims(const char *s, int most, long max, long out[3])
{
    int n = 0;
    const char *p = s;
    for (;;) {
        if (sg_parse_digits(p, max, &out[n], &p)) return -1;
        n++;
        if (*p == '\0') break;
        if (*p != 'x' || n == most) return -1;
        p++;
    }
    return n >= 2 ? n : -1;
}
