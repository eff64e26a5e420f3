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
	for (; n >= 2 && v > UINT32_MAX; n -= 2) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v > UINT32_MAX) {           /* n is 0 or 1 here */
		if (n)
			end[-1] = (char)('0' + v % 10);
		return;
	}
	/* 32-bit division by 100 is a shorter multiply than 64-bit; almost
	 * every number in the files (indices, counts) is small. */
	uint32_t u = (uint32_t)v;
	for (; n >= 2; n -= 2) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (u % 100), 2);
		u /= 100;
	}
	if (n)
		end[-1] = (char)('0' + u % 10);
}

/* From the bit length: log10(2) is about 1233 / 4096, and one compare
 * with a power of ten corrects the estimate (no loop of divisions). */
static unsigned digit_count(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
		10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
		100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull,
		10000000000000000000ull
	};
	uint64_t w = v | 1;
	unsigned t = ((64u - (unsigned)__builtin_clzll(w)) * 1233u) >> 12;
	return t + 1 - (w < pow10[t]);
}

char *numfmt_uint(char *o, uint64_t v)
{
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
