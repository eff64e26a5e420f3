/* SPDX-License-Identifier: MIT */
/* numfmt.h - integers as text for the decoded files (up to eight digits
 * at once, for OBJ faces and floats' digits), and sizes as the options
 * take them.  Floats are util/floatfmt.h's. */
#ifndef CCSFS_NUMFMT_H
#define CCSFS_NUMFMT_H

#include <stdbool.h>
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

/* The length of v in decimal: the bit length's estimate of the digits
 * (1233 / 4096 ~ log10 2), one more when v reaches the next power of
 * ten. */
static inline unsigned numfmt_uint_len(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
		100000000, 1000000000, 10000000000, 100000000000,
		1000000000000, 10000000000000, 100000000000000,
		1000000000000000, 10000000000000000, 100000000000000000,
		1000000000000000000, 10000000000000000000u,
	};
	if (v < 10)
		return 1;
	unsigned t = (unsigned)(64 - __builtin_clzll(v)) * 1233 >> 12;
	return t + (v >= pow10[t]);
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

static inline unsigned numfmt_int_len(int64_t v)
{
	return v < 0 ? 1 + numfmt_uint_len(0 - (uint64_t)v)
		     : numfmt_uint_len((uint64_t)v);
}

/* v's text at o, or, when a text is only counted (strbuf.h's
 * sb_counts_only), o moved past the room it would take: what lies there
 * then means nothing. */
static inline char *numfmt_uint_or_skip(char *o, uint64_t v, bool skip)
{
	return skip ? o + numfmt_uint_len(v) : numfmt_uint(o, v);
}

static inline char *numfmt_int_or_skip(char *o, int64_t v, bool skip)
{
	return skip ? o + numfmt_int_len(v) : numfmt_int(o, v);
}

/* The digits of the numbers 0 to n - 1, all together: what a run of
 * numbered lines spends on its numbers. */
uint64_t numfmt_digits_below(uint64_t n);

/* The n bytes ending at end: v's last n digits, zeros in front. */
void numfmt_digits(char *end, uint64_t v, unsigned n);

/* A size as the options take it: "256M", "64MiB", "1g", "4096" -> bytes;
 * 0 when malformed, negative or too large for size_t. */
size_t numfmt_parse_size(const char *s);

#endif
