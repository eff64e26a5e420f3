/* SPDX-License-Identifier: MIT */
/* floatfmt.c - floats as "%.9g" and as their shortest exact decimal.
 *
 * Both scale the float by a power of ten in double arithmetic, whose
 * error (a few parts in 2^53) is far below what nine digits resolve; a
 * value whose digits that error could change is decided exactly.  A
 * rounding within 1e-6 of a tie, common in "%.9g" of a model's positions,
 * is decided in integers (round_scaled_exactly), and by printf only
 * outside 1e-9 to 1e9; a boundary within 1e-5 of an integer, a few in a
 * million for the shortest text, by strtof.  The shortest texts made
 * last are kept, one small table a thread (see "memo" below).
 */
#include "config.h"

#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/floatfmt.h"
#include "util/numfmt.h"

/* How near a tie or an integer the scaled value may come before the
 * double arithmetic is not trusted: three roundings at most, each 2^-53
 * relative, below 4e-7 at 1e9. */
#define UNSURE 1e-6
/* The same for ten digits (scaled below 2e10). */
#define UNSURE_WIDE 1e-5

static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* d * 10^p: exact powers, at most three roundings. */
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

/* 10^-46 .. 10^53, each correctly rounded by the compiler: a float's
 * range and the scale that brings its smallest to nine digits. */
static const double pow10_neg[] = {
	1e-0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10,
	1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18, 1e-19, 1e-20,
	1e-21, 1e-22, 1e-23, 1e-24, 1e-25, 1e-26, 1e-27, 1e-28, 1e-29, 1e-30,
	1e-31, 1e-32, 1e-33, 1e-34, 1e-35, 1e-36, 1e-37, 1e-38, 1e-39, 1e-40,
	1e-41, 1e-42, 1e-43, 1e-44, 1e-45, 1e-46,
};
static const double pow10_pos[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23,
	1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31, 1e32, 1e33, 1e34,
	1e35, 1e36, 1e37, 1e38, 1e39, 1e40, 1e41, 1e42, 1e43, 1e44, 1e45,
	1e46, 1e47, 1e48, 1e49, 1e50, 1e51, 1e52, 1e53,
};

static double pow10_of(int e)
{
	return e >= 0 ? pow10_pos[e] : pow10_neg[-e];
}

/* floor(log10(d)) of a float's positive finite value d: an estimate from
 * the binary exponent (off by a few for subnormals), then exact against
 * the table (a float never equals an inexact power, so the nearest double
 * to one compares with it as the power itself would). */
static int decimal_exponent(float f, double d)
{
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	int e2 = (int)((bits >> 23) & 0xff) - 127;
	int e10 = e2 * 30103 / 100000 - (e2 < 0);
	while (e10 > -46 && d < pow10_of(e10))
		e10--;
	while (e10 < 38 && d >= pow10_of(e10 + 1))
		e10++;
	return e10;
}

static size_t put_uint(char *buf, uint64_t v)
{
	return (size_t)(numfmt_uint(buf, v) - buf);
}

/* ---- "%.9g" ------------------------------------------------------------ */

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

static void make_c_locale(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/* printf itself, in the C locale, for the values near a tie. */
static size_t g9_by_printf(float f, char *buf)
{
	pthread_once(&c_locale_once, make_c_locale);
	locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
	int n = snprintf(buf, FLOATFMT_MAX, "%.9g", (double)f);
	if (old)
		uselocale(old);
	return n > 0 ? (size_t)n : 0;
}

/* 5^0 .. 5^17: the powers whose product with a float's 24-bit
 * significand still fits in 64 bits. */
static const uint64_t pow5[] = {
	1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625,
	48828125, 244140625, 1220703125, 6103515625, 30517578125,
	152587890625, 762939453125,
};

/* f * 10^s rounded to an integer, ties to even as printf rounds them,
 * decided exactly in integers: f is m * 2^e, so f * 10^s is m * 5^s *
 * 2^(e + s), a 64-bit integer over a power of two for 0 <= s <= 17.
 * False outside that (values above 1e9 or below 1e-9).  The near-ties
 * this decides are common, not rare: a model's positions are int16 /
 * 4096 times a scale, short binary fractions whose decimals end in a 5
 * at the ninth digit once in a few hundred, and printf cost fifty times
 * the rest. */
static bool round_scaled_exactly(float f, int s, uint64_t *out)
{
	if (s < 0 || s > 17)
		return false;
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	int ef = (int)((bits >> 23) & 0xff);
	uint64_t m = bits & 0x7fffff;
	if (ef)
		m |= 0x800000;
	int t = (ef ? ef : 1) - 150 + s;        /* the power of two */
	/* A near-tie has a fraction (t < 0), and nine digits of one leave
	 * well under 64 bits below the point: else printf decides. */
	if (t >= 0 || t <= -64)
		return false;
	uint64_t n = m * pow5[s];
	unsigned sh = (unsigned)-t;
	uint64_t whole = n >> sh, rest = n & ((UINT64_C(1) << sh) - 1);
	uint64_t half = UINT64_C(1) << (sh - 1);
	*out = whole + (rest > half || (rest == half && (whole & 1)));
	return true;
}

/* Nine significant digits of d (finite, nonzero) as an integer in [1e8,
 * 1e9), and the decimal exponent of the first; false when the ninth digit
 * is a tie too close to call.  Inlined into the text and its length
 * alike (as shortest_digits): called out of line from both, making every
 * file of an 8 MiB slice of DATA.BIN took 1.3% more instructions
 * (callgrind of ccsfs-check). */
static inline __attribute__((always_inline)) bool
nine_digits(float f, double d, uint64_t *out, int *exp10)
{
	int e10 = decimal_exponent(f, d);
	double scaled = scale10(d, 8 - e10);
	uint64_t digits = (uint64_t)scaled;
	double frac = scaled - (double)digits;
	if (fabs(frac - 0.5) < UNSURE) {
		if (!round_scaled_exactly(f, 8 - e10, &digits))
			return false;
	} else if (frac > 0.5) {
		digits++;
	}
	if (digits >= 1000000000u) {    /* 999999999.6 rounded up */
		digits /= 10;
		e10++;
	}
	*out = digits;
	*exp10 = e10;
	return true;
}

/* The %.9g layout of the digits: fixed for exponents -4..8, else
 * scientific; trailing zeros dropped. */
static size_t layout_g(char *buf, const char *dig, int nd, int x)
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

size_t floatfmt_g9(float f, char *buf)
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
	uint64_t digits;
	if (!nine_digits(f, d, &digits, &x))
		return g9_by_printf(f, buf);
	char dig[10];
	put_uint(dig, digits);
	int nd = 9;
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	n += layout_g(buf + n, dig, nd, x);
	buf[n] = '\0';
	return n;
}

void sb_put_float(struct strbuf *sb, float f)
{
	char buf[FLOATFMT_MAX];
	sb_append(sb, buf, floatfmt_g9(f, buf));
}

/* floatfmt_g9's length from the same digits, laid out by count. */
size_t floatfmt_g9_len(float f)
{
	size_t n = signbit(f) ? 1 : 0;
	if (isnan(f) || isinf(f))
		return n + 3;
	double d = n ? -(double)f : (double)f;
	if (d < 1e9 && d == (double)(uint64_t)d)
		return n + numfmt_uint_len((uint64_t)d);
	int x;
	uint64_t digits;
	if (!nine_digits(f, d, &digits, &x)) {
		char buf[FLOATFMT_MAX];
		return g9_by_printf(f, buf);
	}
	size_t nd = 9;
	for (; digits % 10 == 0; digits /= 10)
		nd--;
	if (x >= 0 && x < 9)            /* ddd.ddd, or ddd0 */
		return n + (nd > (size_t)x + 1 ? nd + 1 : (size_t)x + 1);
	if (x < 0 && x >= -4)           /* 0.000ddd */
		return n + 1 + (size_t)-x + nd;
	size_t ax = (size_t)(x < 0 ? -x : x);   /* d.ddde+XX */
	return n + nd + (nd > 1) + 2 + (ax < 100 ? 2 : 3);
}

/* ---- shortest ---------------------------------------------------------- */

/* c * 10^q (no decimal point: the same in every locale) reads back as f. */
static bool reads_back(float f, uint64_t c, int q)
{
	char s[48];
	snprintf(s, sizeof s, "%" PRIu64 "e%d", c, q);
	return strtof(s, NULL) == f;
}

/* The slow path: for n digits from 1 up, the n-digit decimals nearest d
 * (the rounding and its neighbours: the rounding itself can miss where
 * the gap below a power of two is half the gap above) tried by strtof. */
static uint64_t shortest_by_strtof(float f, double d, int x, int *q)
{
	for (int n = 1;; n++) {
		*q = x - n + 1;
		uint64_t r = (uint64_t)(scale10(d, -*q) + 0.5);
		uint64_t best = 0;
		double best_gap = INFINITY;
		for (uint64_t c = r ? r - 1 : 0; c <= r + 1; c++) {
			double gap = fabs(scale10((double)c, *q) - d);
			if (c && reads_back(f, c, *q) && gap < best_gap) {
				best = c;
				best_gap = gap;
			}
		}
		if (best || n >= 9)
			return best ? best : (uint64_t)(scale10(d, 8 - x) + 0.5);
	}
}

/* The decimal with the fewest digits strictly inside (lo, hi), the values
 * that round to f, as digits c and exponent *q (value c * 10^*q); 0 when
 * a boundary is too near an integer at the scale of nine or ten digits
 * (x is floor(log10(d)) or one less) to tell whether that integer is
 * in. */
static uint64_t shortest_inside(double d, double lo, double hi, int x,
				int *q)
{
	int k = 8 - x;
	double scale = pow10_of(k);     /* one rounding more, at most */
	double sl = lo * scale, sh = hi * scale;
	uint64_t a = (uint64_t)sl, b = (uint64_t)sh;
	double fa = sl - (double)a, fb = sh - (double)b;
	if (fa < UNSURE_WIDE || fa > 1 - UNSURE_WIDE || fb < UNSURE_WIDE ||
	    fb > 1 - UNSURE_WIDE)
		return 0;
	a++;                            /* the first integer above lo */
	int p = 0;
	while ((a + 9) / 10 <= b / 10) {        /* a multiple of 10 is in */
		a = (a + 9) / 10;
		b /= 10;
		p++;
	}
	if (a > b)
		return 0;
	uint64_t c = (uint64_t)(d * scale * pow10_of(-p) + 0.5);
	c = c < a ? a : c > b ? b : c;
	*q = p - k;
	return c;
}

/* k digits from src, which has 16 bytes to read.  A copy of a length
 * known only at run time is a call into libc, which was a fifth of the
 * shortest text's cost in every model.obj; 16 bytes are one move, and
 * what lies past the k digits is overwritten or left past the end. */
static char *put_digits(char *o, const char *src, int k)
{
	if (k <= 16)
		memcpy(o, src, 16);
	else
		memcpy(o, src, (size_t)k);
	return o + k;
}

/* d.ddde+XX: the n digits of a number 10^e big. */
static char *put_exponent_form(char *o, const char *dig, int n, int e)
{
	*o++ = dig[0];
	if (n > 1) {
		*o++ = '.';
		o = put_digits(o, dig + 1, n - 1);
	}
	*o++ = 'e';
	*o++ = e < 0 ? '-' : '+';
	int ae = e < 0 ? -e : e;
	*o++ = (char)('0' + ae / 10);
	*o++ = (char)('0' + ae % 10);
	return o;
}

/* The same digits as a plain decimal. */
static char *put_plain_form(char *o, const char *dig, int n, int e)
{
	if (e < 0) {
		*o++ = '0';
		*o++ = '.';
		for (int i = -1; i > e; i--)
			*o++ = '0';
		return put_digits(o, dig, n);
	}
	for (int i = 0; i <= e; i++)
		*o++ = i < n ? dig[i] : '0';
	if (n > e + 1) {
		*o++ = '.';
		o = put_digits(o, dig + e + 1, n - e - 1);
	}
	return o;
}

/* The gaps to the neighbouring floats, halved: the values within them
 * read back as f.  Below a power of two the gap is half as wide. */
static void rounding_interval(float f, double d, double *lo, double *hi)
{
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	int ef = (int)((bits >> 23) & 0xff);
	uint64_t ulp_bits = (uint64_t)((ef ? ef : 1) - 150 + 1023) << 52;
	double ulp;                     /* 2^(ef - 150), a normal double */
	memcpy(&ulp, &ulp_bits, sizeof ulp);
	*hi = d + ulp / 2;
	*lo = d - ((bits & 0x7fffff) == 0 && ef > 1 ? ulp / 4 : ulp / 2);
}

/* The shortest text's digits: c * 10^q, c without trailing zeros, for a
 * positive finite f that is not an integer below 2^24. */
static inline __attribute__((always_inline)) uint64_t
shortest_digits(float f, int *q)
{
	double d = f;
	/* floor(log10(d)) or one less, from the binary exponent: enough to
	 * scale to nine or ten digits; subnormals are counted exactly. */
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	int e2 = (int)((bits >> 23) & 0xff) - 127;
	int x = e2 > -127 ? e2 * 30103 / 100000 - (e2 < 0)
			  : decimal_exponent(f, d);
	double lo, hi;
	rounding_interval(f, d, &lo, &hi);
	uint64_t c = shortest_inside(d, lo, hi, x, q);
	if (!c)
		c = shortest_by_strtof(f, d, decimal_exponent(f, d), q);
	for (; c > 9 && c % 10 == 0; c /= 10)   /* the slow path's 10^k */
		(*q)++;
	return c;
}

/* Where the shortest text is plain: from 1e-5 to below 1e16. */
static bool plain_exponent(int e)
{
	return e < 16 && e >= -5;
}

static char *shortest_text(char *o, float f)
{
	if (isnan(f))
		return memcpy(o, "nan", 3), o + 3;
	if (f == 0) {
		*o++ = '0';
		return o;
	}
	if (f < 0) {
		*o++ = '-';
		f = -f;
	}
	if (isinf(f))
		return memcpy(o, "inf", 3), o + 3;
	double d = f;
	if (d < 16777216.0 && d == (double)(uint32_t)d)    /* 0 to 2^24 */
		return numfmt_uint(o, (uint32_t)d);
	int q;
	uint64_t c = shortest_digits(f, &q);
	char dig[40];           /* 20 digits at most, and put_digits' 16 */
	int n = (int)put_uint(dig, c);
	int e = q + n - 1;
	if (!plain_exponent(e))
		return put_exponent_form(o, dig, n, e);
	return put_plain_form(o, dig, n, e);
}

/* ---- memo ---------------------------------------------------------------
 *
 * The texts made last, by the float's bits, one table a thread.  A
 * model's vertices repeat: a strip sends again the corners it shares
 * with the strip before, a grid's rows share their columns, and every
 * position is an s16 times one scale; so most floats of an OBJ were
 * formatted a few lines before.  A hit is a hash, a compare and two
 * moves; the shortest text's digits cost several times that. */
#define MEMO_BITS 12
#define MEMO_TEXT 24            /* "-1234567800000000" is 17 */

struct memo_slot {
	char text[MEMO_TEXT];
	uint32_t bits;          /* 0 (the float 0, never kept): empty */
	uint32_t len;
};

static _Thread_local struct memo_slot memo[1u << MEMO_BITS];

/* f's slot, and in *bits f's bits; whether the slot holds f's text. */
static bool memo_find(float f, uint32_t *bits, struct memo_slot **slot)
{
	memcpy(bits, &f, sizeof *bits);
	*slot = &memo[(uint32_t)(*bits * 0x9e3779b1u) >> (32 - MEMO_BITS)];
	return (*slot)->bits == *bits && *bits;
}

char *floatfmt_shortest(char *o, float f)
{
	uint32_t bits;
	struct memo_slot *m;
	if (memo_find(f, &bits, &m)) {
		memcpy(o, m->text, MEMO_TEXT);
		return o + m->len;
	}
	char *e = shortest_text(o, f);
	if (bits && (size_t)(e - o) <= MEMO_TEXT) {
		memcpy(m->text, o, (size_t)(e - o));
		m->bits = bits;
		m->len = (uint32_t)(e - o);
	}
	return e;
}

/* From the memo, or from the text made and kept there: with most
 * floats met before, that is cheaper than their digits counted. */
size_t floatfmt_shortest_len(float f)
{
	uint32_t bits;
	struct memo_slot *m;
	if (memo_find(f, &bits, &m))
		return m->len;
	char text[FLOATFMT_MAX];
	return (size_t)(floatfmt_shortest(text, f) - text);
}
