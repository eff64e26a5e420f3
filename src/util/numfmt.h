/* SPDX-License-Identifier: MIT */
/* numfmt.h - integers as text for the decoded files (a digit pair per
 * division, for OBJ faces), and sizes as the options take them.  Floats
 * are util/floatfmt.h's. */
#ifndef CCSFS_NUMFMT_H
#define CCSFS_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/* numfmt_uint's way for two digits or more. */
char *numfmt_uint_digits(char *o, uint64_t v);

/* v in decimal at o, no NUL; returns the end.  Needs 20 bytes of room
 * whatever v is: what it writes past the end means nothing.  One
 * digit inline: the OBJs' normals and colours are 0 to 2 before the
 * point, tens of millions of them. */
static inline char *numfmt_uint(char *o, uint64_t v)
{
	if (v < 10) {
		*o = (char)('0' + v);
		return o + 1;
	}
	return numfmt_uint_digits(o, v);
}
/* v in decimal, a '-' first when negative; 21 bytes of room. */
static inline char *numfmt_int(char *o, int64_t v)
{
	uint64_t u = (uint64_t)v;
	if (v < 0) {
		*o++ = '-';
		u = 0 - u;
	}
	return numfmt_uint(o, u);
}

/* The n bytes ending at end: v's last n digits, zeros in front. */
void numfmt_digits(char *end, uint64_t v, unsigned n);

/* A size as the options take it: "256M", "64MiB", "1g", "4096" -> bytes;
 * 0 when malformed, negative or too large for size_t. */
size_t numfmt_parse_size(const char *s);

#endif
