/* SPDX-License-Identifier: MIT */
/* numfmt.c - floats as "%.9g" writes them, several times faster, and
 * sizes as the options take them. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"

static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* d * 10^p: exact powers, at most two roundings, so the error stays near
 * 2^-52 relative - far below the 1e-9 the nine digits need. */
static double scale10(double d, int p)
{
	while (p > 22) {
		d *= 1e22;
		p -= 22;
	}
	while (p < -22) {
		d /= 1e22;
		p += 22;
	}
	return p >= 0 ? d * pow10_exact[p] : d / pow10_exact[-p];
}

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

char *numfmt_uint(char *o, uint64_t v)
{
	unsigned n = digit_count(v);
	numfmt_digits(o + n, v, n);
	return o + n;
}

static size_t put_uint(char *buf, uint64_t v)
{
	return (size_t)(numfmt_uint(buf, v) - buf);
}

/* Nine significant digits of f (finite, nonzero; d = |f|) as an integer in
 * [1e8, 1e9), and the decimal exponent of the first.  The estimate from
 * the binary exponent is off by at most one (more for subnormals), and
 * the loops correct it. */
static uint64_t nine_digits(float f, double d, int *exp10)
{
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	int e2 = (int)((bits >> 23) & 0xff) - 127;
	int e10 = e2 * 30103 / 100000 - (e2 < 0);
	double scaled = scale10(d, 8 - e10);
	while (scaled >= 1e9 - 0.5) {
		e10++;
		scaled = scale10(d, 8 - e10);
	}
	while (scaled < 1e8 - 0.5) {
		e10--;
		scaled = scale10(d, 8 - e10);
	}
	/* Halves to even, as printf rounds an exact tie (1950125.125). */
	uint64_t digits = (uint64_t)scaled;
	double frac = scaled - (double)digits;
	if (frac > 0.5 || (frac == 0.5 && (digits & 1)))
		digits++;
	if (digits >= 1000000000u) {
		digits /= 10;
		e10++;
	}
	*exp10 = e10;
	return digits;
}

/* The %.9g layout of the digits: fixed for exponents -4..8, else
 * scientific; trailing zeros dropped. */
static size_t layout_digits(char *buf, const char *dig, int nd, int x)
{
	size_t n = 0;
	if (x >= -4 && x < 9) {
		if (x >= 0) {
			for (int i = 0; i <= x; i++)
				buf[n++] = i < nd ? dig[i] : '0';
			if (nd > x + 1) {
				buf[n++] = '.';
				for (int i = x + 1; i < nd; i++)
					buf[n++] = dig[i];
			}
		} else {
			buf[n++] = '0';
			buf[n++] = '.';
			for (int i = 0; i < -x - 1; i++)
				buf[n++] = '0';
			for (int i = 0; i < nd; i++)
				buf[n++] = dig[i];
		}
		return n;
	}
	buf[n++] = dig[0];
	if (nd > 1) {
		buf[n++] = '.';
		for (int i = 1; i < nd; i++)
			buf[n++] = dig[i];
	}
	buf[n++] = 'e';
	buf[n++] = x < 0 ? '-' : '+';
	unsigned ax = (unsigned)(x < 0 ? -x : x);
	if (ax < 10)
		buf[n++] = '0';
	return n + put_uint(buf + n, ax);
}

/* Written out by hand because the text files print millions of floats and
 * snprintf's "%.9g" is several times slower; the tests hold the two to the
 * same text. */
size_t numfmt_float(float f, char *buf)
{
	size_t n = 0;
	if (signbit(f))
		buf[n++] = '-';
	if (isnan(f)) {
		memcpy(buf + n, "nan", 4);
		return n + 3;
	}
	double d = n ? -(double)f : (double)f;
	if (isinf(f)) {
		memcpy(buf + n, "inf", 4);
		return n + 3;
	}
	if (d < 1e9 && d == (double)(uint64_t)d) {         /* 0, 1, 120: the usual */
		n += put_uint(buf + n, (uint64_t)d);
		buf[n] = '\0';
		return n;
	}
	int x;
	char dig[10];
	uint64_t digits = nine_digits(f, d, &x);
	put_uint(dig, digits);
	int nd = 9;
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	n += layout_digits(buf + n, dig, nd, x);
	buf[n] = '\0';
	return n;
}

void sb_put_float(struct strbuf *sb, float f)
{
	char buf[NUMFMT_FLOAT_MAX];
	sb_append(sb, buf, numfmt_float(f, buf));
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
