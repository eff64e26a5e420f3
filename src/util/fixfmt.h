/* SPDX-License-Identifier: MIT */
/* fixfmt.h - fixed-point values (an integer over a power of two) as
 * decimal text, exactly and without trailing zeros, by table: a value
 * is a copy of 16 bytes, not a number formatted.  The OBJ writers' S
 * and T, normals and colours, and the model database's texture
 * coordinates, all such values, are written with these. */
#ifndef CCSFS_FIXFMT_H
#define CCSFS_FIXFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* One value's text, padded to 16 bytes so that a copy is one move. */
struct fixfmt_text {
	char text[15];
	uint8_t len;
};

/* The text at o; returns its end.  Writes 16 bytes: what lies past the
 * end means nothing. */
static inline char *fixfmt_put(char *o, const struct fixfmt_text *t)
{
	memcpy(o, t, 16);
	return o + t->len;
}

/* t: v / 2^shift (shift at most 8), or with fraction_only its point and
 * digits alone (".5"; "" for 0).  By printf, in whatever locale is set:
 * call it before main, as the tables here are made, while that is C. */
void fixfmt_make(struct fixfmt_text *t, int32_t v, unsigned shift,
		 bool fraction_only);

/* v / 256, exactly: two table copies (20 bytes of room); and its
 * length. */
char *fixfmt_put_256ths(char *o, uint16_t v);
size_t fixfmt_256ths_len(uint16_t v);

#endif
