/* number.h: checked number parsing for every option value. Only plain decimal digits are
 * numbers (no sign, space, hex or exponent), and a value past the limit is an error, never a
 * wrapped-around one, so an error can echo exactly what the user typed. */
#ifndef SPDGEN_NUMBER_H
#define SPDGEN_NUMBER_H

/* Parses the decimal digits at s up to the first non-digit into *out and sets *end there.
 * Returns 0, or -1 when there is no digit or the value exceeds `max`. */
int sg_parse_digits(const char *s, long max, long *out, const char **end);

/* The whole of s as one decimal number 0..max. Returns 0 or -1. */
int sg_parse_number(const char *s, long max, long *out);

/* "AxB" or "AxBxC" (`most` = 2 or 3 fields, at least 2), each field 0..max. Returns the
 * number of fields, or -1. */
int sg_parse_dims(const char *s, int most, long max, long out[3]);

static inline int sg_is_pow2(long v) { return v > 0 && (v & (v - 1)) == 0; }

#endif
