/* SPDX-License-Identifier: MIT */
/* model_fmt.c - the numbers, names and lines of OBJ and MTL text.
 *
 * The writers format numbers themselves: printf's %f and %g follow
 * LC_NUMERIC, and a file system whose bytes change with the reader's
 * locale would break `ls -l` sizes and caching; formatting by hand is also
 * several times faster.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include "decode/model_fmt.h"
#include "util/numfmt.h"

/* ---- numbers ----------------------------------------------------------- */

/* Room one formatted number may take (see obj_put_float7). */
#define OBJ_NUMBER_ROOM 24

/* k / 256 for every k, as the digits after the point with trailing zeros
 * dropped: every fixed-point value of the format (s8 / 64, colour / 128,
 * S / 256) is an integer plus one of these, so they print exactly, by
 * table. */
static struct {
	char digits[8];
	uint8_t len;
} frac256[256];
static pthread_once_t frac256_once = PTHREAD_ONCE_INIT;

static void make_frac256(void)
{
	for (unsigned k = 0; k < 256; k++) {
		numfmt_digits(frac256[k].digits + 8, k * 390625ull, 8);
		unsigned n = 8;
		while (n && frac256[k].digits[n - 1] == '0')
			n--;
		frac256[k].len = (uint8_t)n;
	}
}

/* v / 2^shift, exactly, shift at most 8, without trailing zeros. */
char *obj_put_dyadic(char *o, int32_t v, unsigned shift)
{
	pthread_once(&frac256_once, make_frac256);
	uint32_t u = (uint32_t)v;
	if (v < 0) {
		*o++ = '-';
		u = 0 - u;
	}
	o = numfmt_uint(o, u >> shift);
	unsigned k = (u << (8 - shift)) & 0xff;
	if (k) {
		*o++ = '.';
		memcpy(o, frac256[k].digits, 8);
		o += frac256[k].len;
	}
	return o;
}

#define P10(x) 1e##x
#define N10(x) 1e-##x
/* 10^-46 .. 10^52: a float's range and the scaling of its mantissa. */
static const double pow10_neg[] = {
	N10(0), N10(1), N10(2), N10(3), N10(4), N10(5), N10(6), N10(7),
	N10(8), N10(9), N10(10), N10(11), N10(12), N10(13), N10(14), N10(15),
	N10(16), N10(17), N10(18), N10(19), N10(20), N10(21), N10(22),
	N10(23), N10(24), N10(25), N10(26), N10(27), N10(28), N10(29),
	N10(30), N10(31), N10(32), N10(33), N10(34), N10(35), N10(36),
	N10(37), N10(38), N10(39), N10(40), N10(41), N10(42), N10(43),
	N10(44), N10(45), N10(46),
};
static const double pow10_pos[] = {
	P10(0), P10(1), P10(2), P10(3), P10(4), P10(5), P10(6), P10(7),
	P10(8), P10(9), P10(10), P10(11), P10(12), P10(13), P10(14), P10(15),
	P10(16), P10(17), P10(18), P10(19), P10(20), P10(21), P10(22),
	P10(23), P10(24), P10(25), P10(26), P10(27), P10(28), P10(29),
	P10(30), P10(31), P10(32), P10(33), P10(34), P10(35), P10(36),
	P10(37), P10(38), P10(39), P10(40), P10(41), P10(42), P10(43),
	P10(44), P10(45), P10(46), P10(47), P10(48), P10(49), P10(50),
	P10(51), P10(52),
};

static double pow10_of(int e)
{
	return e >= 0 ? pow10_pos[e] : pow10_neg[-e];
}

#define SIG_DIGITS 7

/* d.dddddde+XX: `used` significant digits d of a number 10^e big. */
static char *put_exponent_form(char *o, const char *d, int used, int e)
{
	*o++ = d[0];
	if (used > 1) {
		*o++ = '.';
		memcpy(o, d + 1, (size_t)used - 1);
		o += used - 1;
	}
	*o++ = 'e';
	*o++ = e < 0 ? '-' : '+';
	int ae = e < 0 ? -e : e;
	*o++ = (char)('0' + ae / 10);
	*o++ = (char)('0' + ae % 10);
	return o;
}

/* The same digits as a plain decimal. */
static char *put_plain_form(char *o, const char *d, int used, int e)
{
	if (e < 0) {
		*o++ = '0';
		*o++ = '.';
		for (int i = -1; i > e; i--)
			*o++ = '0';
		memcpy(o, d, (size_t)used);
		return o + used;
	}
	for (int i = 0; i <= e; i++)
		*o++ = i < SIG_DIGITS ? d[i] : '0';
	if (used > e + 1) {
		*o++ = '.';
		memcpy(o, d + e + 1, (size_t)(used - e - 1));
		o += used - e - 1;
	}
	return o;
}

/* A float to 7 significant digits, trailing zeros dropped, plain decimal
 * from 1e-5 to below 1e16 and d.dddddde+XX outside.  Seven digits keep
 * an s16 * scale / 4096 position exact to its source step (six would do;
 * the seventh is margin).  At most 17 bytes. */
char *obj_put_float7(char *o, float f)
{
	if (isnan(f))
		return memcpy(o, "nan", 3), o + 3;
	if (f == 0) {                   /* -0 too: "-0" would only puzzle */
		*o++ = '0';
		return o;
	}
	if (f < 0) {
		*o++ = '-';
		f = -f;
	}
	if (isinf(f))
		return memcpy(o, "inf", 3), o + 3;
	double a = f;
	/* floor(log10(a)) to within a few from the binary exponent (a
	 * subnormal's field is 0), then exact by the table; no libm */
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	int e2 = (int)((bits >> 23) & 0xff) - 127;
	int e = e2 * 30103 / 100000;
	while (e < 38 && a >= pow10_of(e + 1))
		e++;
	while (e > -46 && a < pow10_of(e))
		e--;
	int k = SIG_DIGITS - 1 - e;
	double m = k >= 0 ? a * pow10_of(k) : a / pow10_of(-k);
	uint64_t mi = (uint64_t)(m + 0.5);
	if (mi >= 10000000) {           /* 9999999.5 rounded up */
		mi = (mi + 5) / 10;
		e++;
	}
	char d[SIG_DIGITS];
	numfmt_digits(d + SIG_DIGITS, mi, SIG_DIGITS);
	int used = SIG_DIGITS;
	while (used > 1 && d[used - 1] == '0')
		used--;
	if (e >= 16 || e < -5)
		return put_exponent_form(o, d, used, e);
	return put_plain_form(o, d, used, e);
}

/* ---- lines ------------------------------------------------------------- */

char *obj_line_start(struct strbuf *sb)
{
	return sb_reserve(sb, OBJ_LINE_ROOM);
}

void obj_line_done(struct strbuf *sb, char *start, char *end)
{
	*end++ = '\n';
	sb->len += (size_t)(end - start);
	*end = '\0';
}

/* A name as an OBJ/MTL token: whitespace and control bytes would split
 * the line, so they become '_'. */
void obj_put_name(struct strbuf *sb, const char *name)
{
	size_t n = strlen(name);
	char *o = sb_reserve(sb, n);
	if (!o)
		return;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)name[i];
		o[i] = ch <= 0x20 || ch == 0x7f ? '_' : (char)ch;
	}
	sb->len += n;
	o[n] = '\0';
}

const char *obj_env_name(const struct model_env *env, uint32_t i)
{
	return env && env->object_name ? env->object_name(env->ctx, i) : NULL;
}
