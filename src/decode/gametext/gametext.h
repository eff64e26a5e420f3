/* SPDX-License-Identifier: MIT */
/* gametext.h - the game's text bytes as UTF-8 and back, exactly
 * (doc/formats/text.md).
 *
 * The game writes ASCII mixed with Shift-JIS pairs (code page 932, as
 * iconv names it), and escapes of one sign and one byte: `#0`, `#R`,
 * `%9`, `%%`.  Out of it comes UTF-8 that any translation tool reads:
 *   - ASCII as it is, and each pair that converts as its character;
 *   - the byte after `#` or `%` alone, as the renderer reads it;
 *   - any other byte (one that is no Shift-JIS, a pair whose character
 *     would convert back to other bytes, a control byte but tab) as the
 *     private-use character U+F700 plus its value (GAMETEXT_RAW_BASE),
 *     which no pair converts to.
 * So gametext_encode gives back the very bytes gametext_put was given.
 */
#ifndef CCSFS_GAMETEXT_H
#define CCSFS_GAMETEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

#define GAMETEXT_RAW_BASE 0xf700u

enum gametext_style {
	GAMETEXT_PLAIN,         /* UTF-8 as it is (a comment, a SRT line) */
	GAMETEXT_PO,            /* inside a PO string: \" \\ \t */
};

/* Appends raw[0..n) as UTF-8.  A NUL or a line feed in raw is a raw
 * byte like any control byte: the caller splits lines first. */
void gametext_put(struct strbuf *sb, const uint8_t *raw, size_t n,
		  enum gametext_style style);

/* The bytes of UTF-8 text (unescaped: a PO string read and its escapes
 * undone), appended to out.  A line feed is byte 0x0a.  0; -EILSEQ when
 * the text is not UTF-8 or holds a character code page 932 lacks, and
 * *bad is then its offset in utf8. */
int gametext_encode(const char *utf8, size_t n, struct strbuf *out,
		    size_t *bad);

#endif
