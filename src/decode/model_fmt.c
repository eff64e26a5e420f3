/* SPDX-License-Identifier: MIT */
/* model_fmt.c - the numbers, names and lines of OBJ and MTL text.
 *
 * The writers format numbers themselves: printf's %f and %g follow
 * LC_NUMERIC, and a file system whose bytes change with the reader's
 * locale would break `ls -l` sizes and caching; formatting by hand is also
 * several times faster.  Floats are util/floatfmt's shortest text; the
 * format's fixed-point values are exact by table, here.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "decode/model_fmt.h"
#include "util/numfmt.h"

/* ---- numbers ----------------------------------------------------------- */

/* k / 256 for every k, as the point and the digits after it, trailing
 * zeros dropped, and nothing for 0: every fixed-point value of the
 * format (s8 / 64, colour / 128, S / 256) is an integer plus one of
 * these, so they print exactly, by table. */
static struct {
	char text[9];
	uint8_t len;            /* of the text: 0, or 2 to 9 */
} frac256[256];

/* Made before main, not with a pthread_once on every number: with that
 * (and the integer part's call, now inline in numfmt.h), obj_put_dyadic
 * took 8 ns a number against 4.5, and the OBJs print tens of millions. */
__attribute__((constructor)) static void make_frac256(void)
{
	for (unsigned k = 0; k < 256; k++) {
		frac256[k].text[0] = '.';
		numfmt_digits(frac256[k].text + 9, k * 390625ull, 8);
		unsigned n = 9;
		while (n > 1 && frac256[k].text[n - 1] == '0')
			n--;
		frac256[k].len = (uint8_t)(n > 1 ? n : 0);
	}
}

/* v / 2^shift (shift at most 8) as its sign, whole part and the
 * 256ths after the point. */
struct dyadic {
	bool negative;
	uint32_t whole;
	unsigned frac;
};

static struct dyadic dyadic_of(int32_t v, unsigned shift)
{
	uint32_t u = v < 0 ? 0 - (uint32_t)v : (uint32_t)v;
	return (struct dyadic){ v < 0, u >> shift, (u << (8 - shift)) & 0xff };
}

/* v / 2^shift, exactly, without trailing zeros.  The sign and the
 * fraction are written whether there or not, and counted only when
 * they are: whether a normal is negative or a coordinate whole is the
 * data's whim, and branching on it cost more than the bytes. */
char *obj_put_dyadic(char *o, int32_t v, unsigned shift)
{
	struct dyadic x = dyadic_of(v, shift);
	*o = '-';
	o = numfmt_uint(o + x.negative, x.whole);
	memcpy(o, frac256[x.frac].text, 9);
	return o + frac256[x.frac].len;
}

struct obj_byte_text obj_normal_text[256], obj_colour_text[256];

/* By printf, which runs before main in the C locale, so that the table
 * depends on no other table made then (the order of constructors across
 * files is the linker's): the value is exact in eight decimals. */
static void make_byte_text(struct obj_byte_text *t, int32_t v,
			   unsigned shift)
{
	char text[32];
	int n = snprintf(text, sizeof text, "%.8f", v / (double)(1u << shift));
	while (text[n - 1] == '0')
		n--;
	if (text[n - 1] == '.')
		n--;
	memcpy(t->text, text, (size_t)n);
	t->len = (uint8_t)n;
}

__attribute__((constructor)) static void make_byte_texts(void)
{
	for (unsigned b = 0; b < 256; b++) {
		make_byte_text(&obj_normal_text[b], (int8_t)b, 6);
		make_byte_text(&obj_colour_text[b], (int32_t)b, 7);
	}
}

size_t obj_dyadic_len(int32_t v, unsigned shift)
{
	struct dyadic x = dyadic_of(v, shift);
	return x.negative + numfmt_uint_len(x.whole) + frac256[x.frac].len;
}

/* ---- lines ------------------------------------------------------------- */

char *obj_line_start(struct strbuf *sb)
{
	return sb_line_start(sb, OBJ_LINE_ROOM);
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
