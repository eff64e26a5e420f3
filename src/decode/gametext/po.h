/* SPDX-License-Identifier: MIT */
/* po.h - gettext templates of the game's text, and their strings read
 * back (doc/formats/text.md).
 *
 * A template is a header entry, then one entry per message:
 *	#. speaker: Orca
 *	#. window: chains to the next message (emode 0x1)
 *	msgctxt "event 3 message 0"
 *	msgid ""
 *	"first line\n"
 *	"second line\n"
 *	"third line"
 *	msgstr ""
 * msgid is the text's three lines joined by line feeds, always three
 * (an empty message is "\n\n"), so a PO file's msgstr turns back into
 * the game's bytes by po_text_bytes.
 */
#ifndef CCSFS_PO_H
#define CCSFS_PO_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* The header entry: title on a comment line, project as
 * Project-Id-Version. */
void po_header(struct strbuf *sb, const char *title, const char *project);

/* "#. <label>: <name as UTF-8>", name NUL-ended. */
void po_comment_name(struct strbuf *sb, const char *label,
		     const uint8_t *name);

/* msgctxt, msgid of the three NUL-ended lines at text (len bytes, the
 * NULs included), an empty msgstr, and the blank line after. */
void po_message(struct strbuf *sb, const char *context, const uint8_t *text,
		size_t len);

/* The UTF-8 of a PO string's body (what stands between its quotes, the
 * lines of a msgid joined): its escapes undone.  0; -EINVAL on an escape
 * other than \" \\ \n \t \r or a lone backslash at the end. */
int po_unescape(const char *s, size_t n, struct strbuf *out);

/* The game's bytes of a msgid or msgstr (UTF-8, unescaped): each of its
 * three lines NUL-ended.  0; -EINVAL when it has more than three lines;
 * -EILSEQ (gametext_encode) with *bad its offset. */
int po_text_bytes(const char *utf8, size_t n, struct strbuf *out,
		  size_t *bad);

#endif
