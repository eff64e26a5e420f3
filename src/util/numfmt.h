/* SPDX-License-Identifier: MIT */
/* numfmt.h - numbers as text for the decoded files.
 *
 * The .txt files print millions of floats; snprintf's "%.9g" was most of
 * their cost.  numfmt_float writes the same text (nine significant digits:
 * every f32 reads back exactly) in the C locale whatever the user's.
 * Integers are written a digit pair per division, for OBJ faces.
 */
#ifndef CCSFS_NUMFMT_H
#define CCSFS_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

#define NUMFMT_FLOAT_MAX 24     /* "-1.23456789e-38" and a NUL, with room */

/* Writes f as "%.9g" would in the C locale, NUL-ended (the last digit may
 * differ in rare halfway cases; the text still reads back as the same
 * float); returns the length. */
size_t numfmt_float(float f, char *buf);
/* v in decimal at o (at most 20 bytes, no NUL); returns the end. */
char *numfmt_uint(char *o, uint64_t v);
/* The n bytes ending at end: v's last n digits, zeros in front. */
void numfmt_digits(char *end, uint64_t v, unsigned n);
void sb_put_float(struct strbuf *sb, float f);

/* A size as the options take it: "256M", "64MiB", "1g", "4096" -> bytes;
 * 0 when malformed, negative or too large for size_t. */
size_t numfmt_parse_size(const char *s);

#endif
