/* SPDX-License-Identifier: MIT */
/* json.c - JSON values of scene.glb's document: floats and strings. */
#include "config.h"

#include <math.h>

#include "decode/scene/json.h"
#include "util/floatfmt.h"

void json_float(struct strbuf *sb, float f)
{
	sb_put_float(sb, isfinite(f) ? f : 0.0f);
}

void json_floats(struct strbuf *sb, const float *f, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (i)
			sb_puts(sb, ",");
		json_float(sb, f[i]);
	}
}

void json_string(struct strbuf *sb, const char *s)
{
	sb_puts(sb, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_printf(sb, "\\%c", *p);
		else if (*p < 0x20)
			sb_printf(sb, "\\u%04x", *p);
		else
			sb_append(sb, p, 1);
	}
	sb_puts(sb, "\"");
}
