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

#include "decode/model/model_fmt.h"

/* ---- numbers ----------------------------------------------------------- *
 *
 * Every fixed-point value of the format is a byte over a power of two (a
 * normal s8 / 64, a colour u8 / 128) or a whole byte plus a byte of 256ths
 * (S and T, u16 / 256), so each prints exactly, without trailing zeros,
 * as one or two table copies.  Made before main, not with a pthread_once
 * on every number (8 ns a number against 4.5 when it was so), and by
 * printf, which runs there in the C locale, so that no table depends on
 * another file's made then (the order of constructors across files is
 * the linker's); eight decimals hold every such value exactly. */

struct obj_byte_text obj_normal_text[256], obj_colour_text[256];
/* 0 to 255, and k / 256 as its point and digits ("" for 0). */
static struct obj_byte_text whole_text[256], frac_text[256];

static void make_byte_text(struct obj_byte_text *t, int32_t v,
			   unsigned shift, bool fraction_only)
{
	char text[32];
	int n = snprintf(text, sizeof text, "%.8f", v / (double)(1u << shift));
	while (text[n - 1] == '0')
		n--;
	if (text[n - 1] == '.')
		n--;
	const char *p = text;
	if (fraction_only) {            /* "0.5" -> ".5", "0" -> "" */
		p++;
		n--;
	}
	memcpy(t->text, p, (size_t)n);
	t->len = (uint8_t)n;
}

__attribute__((constructor)) static void make_byte_texts(void)
{
	for (unsigned b = 0; b < 256; b++) {
		make_byte_text(&whole_text[b], (int32_t)b, 0, false);
		make_byte_text(&frac_text[b], (int32_t)b, 8, true);
		make_byte_text(&obj_normal_text[b], (int8_t)b, 6, false);
		make_byte_text(&obj_colour_text[b], (int32_t)b, 7, false);
	}
}

char *obj_put_st(char *o, uint16_t v)
{
	o = obj_put_byte(o, &whole_text[v >> 8]);
	return obj_put_byte(o, &frac_text[v & 0xff]);
}

size_t obj_st_len(uint16_t v)
{
	return whole_text[v >> 8].len + frac_text[v & 0xff].len;
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
