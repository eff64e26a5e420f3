/* SPDX-License-Identifier: MIT */
/* numfmt.c - integers as decimal text, fast, and sizes as the options
 * take them (floats: floatfmt.c). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"

/* Two digits at a time, for numbers of more than 32 bits and for
 * numfmt_digits: one division per pair instead of per digit made OBJ
 * writing a third faster, before the lanes below. */
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

uint64_t numfmt_digits_below(uint64_t n)
{
	uint64_t sum = 0, lo = 0, hi = 10;
	for (unsigned k = 1; lo < n; k++) {
		uint64_t top = n < hi ? n : hi;
		sum += (top - lo) * k;
		lo = hi;
		hi = hi > UINT64_MAX / 10 ? UINT64_MAX : hi * 10;
	}
	return sum;
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

/* v < 10^8 as eight ASCII digits, zeros in front, the first in the
 * lowest byte: both halves of four digits split into pairs (16-bit
 * lanes, each below 100), then the pairs into digits (pair_digits),
 * by multiplies that work on every lane at once.  Each lane's product
 * stays within its lane: 9999 * 10486 < 2^32 and 99 * 103 < 2^16.  A
 * loop of one division per pair, whose count follows the length, took
 * 13 to 19 ns a number of mixed lengths here against 7: mispredicted
 * branches. */
static inline __attribute__((always_inline)) uint64_t
pair_digits(uint64_t x)
{
	uint64_t q = (x * 103 >> 10) & 0x000f000f000f000full;    /* / 10 */
	return (q | (x - q * 10) << 8) + 0x3030303030303030ull;
}

static inline __attribute__((always_inline)) uint64_t
eight_digits(uint32_t v)
{
	uint64_t x = v / 10000 | (uint64_t)(v % 10000) << 32;
	uint64_t q = (x * 10486 >> 20) & 0x0000007f0000007full;   /* / 100 */
	return pair_digits(q | (x - q * 100) << 16);
}

/* The last n (1 to 8) of those digits at o, in eight bytes' move. */
static inline __attribute__((always_inline)) char *
put_last_digits(char *o, uint64_t eight, unsigned n)
{
	uint64_t x = eight >> (8 * (8 - n));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);       /* the first digit first in memory */
#endif
	memcpy(o, &x, 8);
	return o + n;
}

static void put_pair(char *o, uint32_t v)
{
	memcpy(o, digit_pairs + 2 * v, 2);
}

/* In 32 bits a division by 100 is a shorter multiply than in 64. */
static char *put_uint32(char *o, uint32_t v)
{
	if (v < 1000) {
		memcpy(o, three_digits[v], 4);
		return o + 1 + (v >= 10) + (v >= 100);
	}
	if (v < 10000)          /* an OBJ's face numbers: the low half only */
		return put_last_digits(o, pair_digits((uint64_t)(v / 100) << 32 |
						      (uint64_t)(v % 100) << 48), 4);
	if (v < 100000000)
		return put_last_digits(o, eight_digits(v), numfmt_uint_len(v));
	uint32_t top = v / 100000000;   /* 1 to 42 */
	if (top >= 10) {
		put_pair(o, top);
		o += 2;
	} else {
		*o++ = (char)('0' + top);
	}
	return put_last_digits(o, eight_digits(v % 100000000), 8);
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
