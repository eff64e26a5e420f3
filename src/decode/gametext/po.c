/* SPDX-License-Identifier: MIT */
/* po.c - the game's messages as gettext template entries, and back. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "decode/gametext/gametext.h"
#include "decode/gametext/po.h"

void po_header(struct strbuf *sb, const char *title, const char *project)
{
	sb_puts(sb, "# ");
	sb_puts(sb, title);
	sb_puts(sb, "\n#, fuzzy\nmsgid \"\"\nmsgstr \"\"\n\"Project-Id-Version: ");
	sb_puts(sb, project);
	sb_puts(sb, "\\n\"\n"
		"\"Report-Msgid-Bugs-To: \\n\"\n"
		"\"POT-Creation-Date: 2000-01-01 00:00+0000\\n\"\n"
		"\"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n\"\n"
		"\"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n\"\n"
		"\"Language-Team: LANGUAGE <LL@li.org>\\n\"\n"
		"\"Language: \\n\"\n"
		"\"MIME-Version: 1.0\\n\"\n"
		"\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
		"\"Content-Transfer-Encoding: 8bit\\n\"\n\n");
}

void po_comment_name(struct strbuf *sb, const char *label,
		     const uint8_t *name)
{
	sb_puts(sb, "#. ");
	sb_puts(sb, label);
	sb_puts(sb, ": ");
	gametext_put(sb, name, strlen((const char *)name), GAMETEXT_PLAIN);
	sb_puts(sb, "\n");
}

void po_message(struct strbuf *sb, const char *context, const uint8_t *text,
		size_t len)
{
	sb_puts(sb, "msgctxt \"");
	sb_puts(sb, context);
	sb_puts(sb, "\"\nmsgid \"\"\n");
	size_t at = 0;
	for (int line = 0; line < 3; line++) {
		const uint8_t *nul = at < len ? memchr(text + at, 0, len - at)
				     : NULL;
		size_t n = nul ? (size_t)(nul - (text + at)) : len - at;
		sb_puts(sb, "\"");
		gametext_put(sb, text + at, n, GAMETEXT_PO);
		sb_puts(sb, line < 2 ? "\\n\"\n" : "\"\n");
		at += n + 1;
	}
	sb_puts(sb, "msgstr \"\"\n\n");
}

int po_unescape(const char *s, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c != '\\') {
			sb_append(out, &c, 1);
			continue;
		}
		if (++i == n)
			return -EINVAL;
		switch (s[i]) {
		case '"': c = '"'; break;
		case '\\': c = '\\'; break;
		case 'n': c = '\n'; break;
		case 't': c = '\t'; break;
		case 'r': c = '\r'; break;
		default: return -EINVAL;
		}
		sb_append(out, &c, 1);
	}
	return 0;
}

int po_text_bytes(const char *utf8, size_t n, struct strbuf *out,
		  size_t *bad)
{
	size_t at = 0;
	for (int line = 0; line < 3; line++) {
		const char *nl = at < n ? memchr(utf8 + at, '\n', n - at)
			       : NULL;
		size_t len = nl ? (size_t)(nl - (utf8 + at))
			     : at <= n ? n - at : 0;
		if (at <= n) {
			int rc = gametext_encode(utf8 + at, len, out, bad);
			if (rc < 0) {
				if (bad)
					*bad += at;
				return rc;
			}
		}
		sb_append(out, "", 1);
		at += len + 1;
	}
	return at <= n ? -EINVAL : 0;
}
