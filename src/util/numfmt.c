/* SPDX-License-Identifier: MIT */
/* numfmt.c - integers as decimal text, fast, and sizes as the options
 * take them (floats: floatfmt.c). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"

/* Two digits at a time: output is mostly digits, and one division per
 * pair instead of per digit made OBJ writing a third faster. */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

void numfmt_digits(char *end, uint64_t v, unsigned n)
{
	for (; n >= 2; n -= 2) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (n)
		end[-1] = (char)('0' + v % 10);
}

static unsigned digit_count(uint64_t v)
{
	unsigned n = 1;
	for (; v >= 100; v /= 100)
		n += 2;
	return n + (v >= 10);
}

/* 0 to 999 left-aligned in four bytes, so that one move writes any of
 * them: the colours, normals and small indices of the texts. */
static char three_digits[1000][4];

__attribute__((constructor)) static void make_three_digits(void)
{
	for (unsigned v = 0; v < 1000; v++) {
		char *o = three_digits[v];
		if (v >= 100)
			*o++ = (char)('0' + v / 100);
		if (v >= 10)
			*o++ = (char)('0' + v / 10 % 10);
		*o = (char)('0' + v % 10);
	}
}

/* Digits of a 32-bit number of four digits or more. */
static unsigned digit_count32(uint32_t v)
{
	unsigned n = 4;
	for (v /= 1000; v >= 10; v /= 10)
		n++;
	return n;
}

static void put_pair(char *o, uint32_t v)
{
	memcpy(o, digit_pairs + 2 * v, 2);
}

/* v < 10000 in exactly four digits. */
static void put_four(char *o, uint32_t v)
{
	put_pair(o, v / 100);
	put_pair(o + 2, v % 100);
}

/* In 32 bits a division by 100 is a shorter multiply than in 64.  Nine
 * digits and more (every float's digits) go in groups of four, by
 * divisions that do not wait on each other. */
static char *put_uint32(char *o, uint32_t v)
{
	if (v < 1000) {
		memcpy(o, three_digits[v], 4);
		return o + 1 + (v >= 10) + (v >= 100);
	}
	if (v >= 100000000) {
		uint32_t low = v % 100000000;
		o = put_uint32(o, v / 100000000);
		put_four(o, low / 10000);
		put_four(o + 4, low % 10000);
		return o + 8;
	}
	char *end = o + digit_count32(v), *p = end;
	while (v >= 100) {
		p -= 2;
		put_pair(p, v % 100);
		v /= 100;
	}
	if (v >= 10)
		put_pair(p - 2, v);
	else
		p[-1] = (char)('0' + v);
	return end;
}

char *numfmt_uint_digits(char *o, uint64_t v)
{
	if (v <= UINT32_MAX)
		return put_uint32(o, (uint32_t)v);
	unsigned n = digit_count(v);
	numfmt_digits(o + n, v, n);
	return o + n;
}

size_t numfmt_parse_size(const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	/* strtoull takes "-1" as ULLONG_MAX: a sign is refused first. */
	if (errno || end == s || strchr(s, '-'))
		return 0;
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (*end == 'i' && *(end + 1) == 'B')
		end += 2;
	else if (*end == 'B')
		end++;
	if (*end || v > (SIZE_MAX >> shift))
		return 0;
	return (size_t)(v << shift);
}
