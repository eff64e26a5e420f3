/* SPDX-License-Identifier: MIT */
/* fuzz_text.c - the input as the game's executable and, before it, a
 * symbol list: up to the first "\n\n" (when the input starts with '#'),
 * the list (io/symfile.c), the rest the executable.  elf_open, the list
 * given when it has no symbols, then the message tables (archive/
 * msgtbl.c) and the stream tables (archive/strtbl.c).  Every message must
 * lie inside the input, its text three NUL-ended lines; each must make a
 * PO entry whose msgid turns back into its very bytes (po_text_bytes),
 * and a SubRip cue.  Every stream record's file_offset must lie inside
 * the input with its fields. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

#include "archive/msgtbl.h"
#include "archive/strtbl.h"
#include "decode/gametext/gametext.h"
#include "decode/gametext/po.h"
#include "decode/gametext/srt.h"
#include "io/elf.h"
#include "io/symfile.h"

static bool inside(const uint8_t *data, size_t size, const uint8_t *p,
		   size_t n)
{
	return p >= data && n <= size && (size_t)(p - data) <= size - n;
}

/* The text back from its PO entry's msgid, as a tool would read it. */
static void round_trip(const struct msgtbl_msg *m)
{
	struct strbuf u = STRBUF_INIT, back = STRBUF_INIT, sb = STRBUF_INIT;
	size_t at = 0;
	for (int line = 0; line < MSGTBL_LINES; line++) {
		size_t n = strlen((const char *)m->text + at);
		struct strbuf esc = STRBUF_INIT;
		gametext_put(&esc, m->text + at, n, GAMETEXT_PO);
		if (po_unescape(esc.data ? esc.data : "", esc.len, &u) < 0)
			abort();
		if (line < MSGTBL_LINES - 1)
			sb_append(&u, "\n", 1);
		sb_free(&esc);
		at += n + 1;
	}
	size_t bad;
	if (at != m->text_len ||
	    po_text_bytes(u.data ? u.data : "", u.len, &back, &bad) < 0 ||
	    back.len != m->text_len || memcmp(back.data, m->text, back.len))
		abort();
	po_message(&sb, "ctx", m->text, m->text_len);
	srt_cue(&sb, 1, 0, 30, m->name, m->text, m->text_len);
	if (sb.failed || memchr(sb.data, 0, sb.len))
		abort();
	sb_free(&u);
	sb_free(&back);
	sb_free(&sb);
}

static void messages(const struct elf_image *e, const uint8_t *data,
		     size_t size)
{
	struct msgtbl t;
	struct reason why;
	if (msgtbl_read(e, &t, &why) < 0)
		return;
	for (int k = 0; k < MSGTBL_KINDS; k++)
		for (size_t i = 0; i < t.list[k].count; i++) {
			const struct msgtbl_msg *m = &t.list[k].msg[i];
			if (!inside(data, size, m->text, m->text_len) ||
			    m->text[m->text_len - 1] != 0 ||
			    (m->name && !inside(data, size, m->name,
						strlen((const char *)m->name) + 1)))
				abort();
			round_trip(m);
		}
	msgtbl_free(&t);
}

static void streams(const struct elf_image *e, size_t size)
{
	struct strtbl t;
	struct reason why;
	if (strtbl_read(e, &t, &why) < 0)
		return;
	for (int v = 0; v < STRTBL_VOICES; v++)
		for (size_t i = 0; i < t.voice[v].nfiles; i++) {
			const struct strtbl_file *f = &t.voice[v].files[i];
			if (f->r.file_offset > size ||
			    size - f->r.file_offset < STRTBL_RECORD ||
			    memchr(f->r.name, 0, sizeof f->r.name) == NULL)
				abort();
		}
	strtbl_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symfile *syms = NULL;
	const uint8_t *end = size && data[0] == '#'
			     ? memmem(data, size, "\n\n", 2) : NULL;
	if (end) {
		struct reason why;
		(void)symfile_parse((const char *)data, (size_t)(end - data),
				    &syms, &why);
		size -= (size_t)(end + 2 - data);
		data = end + 2;
	}
	uint8_t *copy = fuzz_dup(data, size);
	if (!copy && size) {
		symfile_free(syms);
		return 0;
	}
	struct elf_image e;
	struct reason why;
	int rc = elf_open(&e, copy, size, &why);
	if (rc == -ENOENT && syms) {
		elf_use_symbols(&e, syms);
		rc = 0;
	}
	if (rc == 0) {
		messages(&e, copy, size);
		streams(&e, size);
	}
	free(copy);
	symfile_free(syms);
	return 0;
}
