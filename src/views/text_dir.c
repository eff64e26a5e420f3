/* SPDX-License-Identifier: MIT */
/* text_dir.c - %text/ at the root: the game's text as gettext templates,
 * one per table the executable carries (doc/formats/tree.md, The game's
 * text).  Everything comes from the executable, read once: listing
 * %text/ or stat'ing a template reads no archive, and a template's size
 * is counted by the same code that writes it. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "decode/gametext/po.h"
#include "util/strbuf.h"
#include "views/gameindex.h"
#include "views/text_dir.h"

#define TEXT_DIR "%text"

static const char *const file_names[MSGTBL_KINDS] = {
	"events.pot", "events-parody.pot", "subtitles.pot",
	"subtitles-parody.pot",
};

static const char *const titles[MSGTBL_KINDS] = {
	"The event dialogue (evMsgTbl)",
	"The event dialogue of Parody Mode (evMsgTblp)",
	"The cutscene subtitles (evStrMsgTbl)",
	"The cutscene subtitles of Parody Mode (evStrMsgTblp)",
};

static const char *window(uint32_t emode)
{
	switch (emode & 0xff) {
	case 0: return "the window fades";
	case 1: return "chains to the next message";
	case 2: return "the window stays up";
	case 3: return "asks a question";
	default: return "an unknown mode";
	}
}

static void put_comments(struct strbuf *sb, enum msgtbl_kind k,
			 const struct msgtbl_msg *m)
{
	if (m->name)
		po_comment_name(sb, "speaker", m->name);
	else
		sb_puts(sb, "#. no speaker\n");
	if (k == MSGTBL_EVENTS || k == MSGTBL_EVENTS_PARODY)
		sb_printf(sb, "#. window: %s%s (emode 0x%" PRIx32 ")\n",
			  window(m->mode), m->mode & 0x100 ? ", the text at once"
							   : "", m->mode);
	else
		sb_printf(sb, "#. flag 0x%" PRIx32 "%s\n", m->mode,
			  m->mode & 0x800 ? ": shown with Movie Text off too"
					  : "");
}

/* One template, whole: the header and an entry per message. */
static void put_template(struct strbuf *sb, const struct msgtbl_list *l,
			 enum msgtbl_kind k, const char *exe)
{
	char title[256];
	snprintf(title, sizeof title, "%s of %s.", titles[k], exe);
	po_header(sb, title, exe);
	bool event = k == MSGTBL_EVENTS || k == MSGTBL_EVENTS_PARODY;
	for (size_t i = 0; i < l->count; i++) {
		const struct msgtbl_msg *m = &l->msg[i];
		char ctx[64];
		snprintf(ctx, sizeof ctx, "%s %" PRIu32 " %s %" PRIu32,
			 event ? "event" : "stream", m->number,
			 event ? "message" : "line", m->index);
		put_comments(sb, k, m);
		po_message(sb, ctx, m->text, m->text_len);
	}
}

static int produce_template(struct fs *fs, struct node *n, uint8_t **data,
			    size_t *len)
{
	(void)fs;
	struct game_index *gi = tree_made_ctx(n);
	enum msgtbl_kind k = (enum msgtbl_kind)tree_made_arg(n);
	const char *exe;
	const struct msgtbl *t = game_index_text(gi, &exe, NULL);
	if (!t || k >= MSGTBL_KINDS)
		return -EIO;
	struct strbuf sb;
	tree_made_text_init(n, data, &sb);
	put_template(&sb, &t->list[k], k, exe);
	return sb_finish(&sb, data, len);
}

static int produce_errors(struct fs *fs, struct node *n, uint8_t **data,
			  size_t *len)
{
	(void)fs;
	struct game_index *gi = tree_made_ctx(n);
	const struct msgtbl *t = game_index_text(gi, NULL, NULL);
	if (!t)
		return -EIO;
	struct strbuf sb;
	tree_made_text_init(n, data, &sb);
	for (int k = 0; k < MSGTBL_KINDS; k++) {
		const struct msgtbl_list *l = &t->list[k];
		if (l->bad)
			sb_printf(&sb, "%s: %zu message%s left out; the first: "
				  "%s\n", msgtbl_symbol((enum msgtbl_kind)k),
				  l->bad, l->bad == 1 ? "" : "s", l->why.text);
		else if (!l->present && l->why.text[0])
			sb_printf(&sb, "%s\n", l->why.text);
	}
	return sb_finish(&sb, data, len);
}

static int populate_text(struct fs *fs, struct node *dir)
{
	struct game_index *gi = tree_dir_ctx(dir);
	const struct msgtbl *t = game_index_text(gi, NULL, NULL);
	if (!t)
		return -EIO;
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	bool errors = false;
	for (int k = 0; k < MSGTBL_KINDS; k++) {
		const struct msgtbl_list *l = &t->list[k];
		if (l->present)
			dir_add_measured(&b, file_names[k], tree_mtime(dir),
					 produce_template, gi, (uint32_t)k);
		errors |= l->bad || (!l->present && l->why.text[0]);
	}
	if (errors)
		dir_add_measured(&b, "error.txt", tree_mtime(dir),
				 produce_errors, gi, 0);
	return dir_publish(&b);
}

void text_dir_add(struct dir_builder *b, struct game_index *gi, time_t mtime)
{
	if (!gi || !game_index_text(gi, NULL, NULL))
		return;
	dir_add_dir(b, TEXT_DIR, mtime, populate_text, gi);
}
