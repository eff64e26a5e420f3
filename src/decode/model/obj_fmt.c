/* SPDX-License-Identifier: MIT */
/* obj_fmt.c - the numbers, names and lines of OBJ and MTL text.
 *
 * The writers format numbers themselves: printf's %f and %g follow
 * LC_NUMERIC, and a file system whose bytes change with the reader's
 * locale would break `ls -l` sizes and caching; formatting by hand is also
 * several times faster.  Floats are util/floatfmt's shortest text; the
 * format's fixed-point values are exact by table, here.
 */
#include "config.h"

#include <string.h>

#include "decode/model/obj_fmt.h"

/* ---- numbers ----------------------------------------------------------- *
 *
 * Every fixed-point value of the format is a byte over a power of two (a
 * normal s8 / 64, a colour u8 / 128) or a whole byte plus a byte of 256ths
 * (S and T, u16 / 256), so each prints exactly, without trailing zeros,
 * as one or two table copies (util/fixfmt.h). */

struct fixfmt_text obj_normal_text[256], obj_colour_text[256];

__attribute__((constructor)) static void make_byte_texts(void)
{
	for (unsigned b = 0; b < 256; b++) {
		fixfmt_make(&obj_normal_text[b], (int8_t)b, 6, false);
		fixfmt_make(&obj_colour_text[b], (int32_t)b, 7, false);
	}
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
