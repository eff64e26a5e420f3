/* SPDX-License-Identifier: MIT */
/* cutscene_srt.c - subtitles.srt in a cutscene's scene file folder: the
 * lines its F_Note records open, from the subtitle table of the lowest
 * stream number whose list has this file (doc/formats/tree.md, The
 * game's text).  A line the table lacks is said in error.txt. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/cutscene/subtitles.h"
#include "decode/gametext/srt.h"
#include "util/log.h"
#include "views/archive_stream.h"
#include "views/cutscene_srt.h"
#include "views/gameindex.h"

struct srt_plan {
	uint32_t stream;
	size_t count;
	struct subtitles_cue *cues;
	const struct msgtbl_msg **msg;  /* each cue's line, NULL: none */
};

/* Appends text to the member's error.txt lines. */
static int add_problem(struct fs *fs, struct member *m, const char *text)
{
	size_t old = m->frames_problems ? strlen(m->frames_problems) : 0;
	char *s = tree_alloc(fs, m->dir, old + strlen(text) + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, m->frames_problems ? m->frames_problems : "", old);
	strcpy(s + old, text);
	m->frames_problems = s;
	return 0;
}

static const struct msgtbl_msg *line_of(const struct msgtbl_list *l,
					uint32_t stream, uint32_t line)
{
	size_t first, n;
	msgtbl_stream(l, stream, &first, &n);
	for (size_t i = first; i < first + n; i++)
		if (l->msg[i].index == line)
			return &l->msg[i];
	return NULL;
}

/* Each cue's line, or a problem line for the first it lacks. */
static int match_lines(struct fs *fs, struct member *m, struct srt_plan *p,
		       const struct msgtbl_list *l)
{
	size_t missing = 0;
	for (size_t i = 0; i < p->count; i++) {
		p->msg[i] = line_of(l, p->stream, p->cues[i].line);
		if (p->msg[i] || missing++)
			continue;
		char text[256];
		snprintf(text, sizeof text, "subtitles: frame %" PRId32 " opens "
			 "line %" PRIu32 " of stream %" PRIu32 ", which its "
			 "table (evStrMsgTbl) lacks\n", p->cues[i].from,
			 p->cues[i].line, p->stream);
		log_error("%s: member %s: %.*s", m->ar->label, m->name,
			  (int)strlen(text) - 1, text);
		if (add_problem(fs, m, text) < 0)
			return -ENOMEM;
	}
	return 0;
}

int cutscene_srt_prepare(struct fs *fs, struct member *m, const uint8_t *data,
			 size_t len)
{
	m->subtitles = NULL;
	if (!m->ar->gi || m->scene.frame_chunk_count <= 1)
		return 0;
	uint32_t stream;
	if (archive_stream_lowest(m->ar, m->e->offset, &stream) < 0)
		return 0;
	/* A stream without a table shows no lines, as in the game. */
	const struct msgtbl *t = game_index_text(m->ar->gi, NULL, NULL);
	size_t first, lines = 0;
	if (t)
		msgtbl_stream(&t->list[MSGTBL_SUBTITLES], stream, &first,
			      &lines);
	if (!lines)
		return 0;
	struct subtitles_cue *cues;
	size_t n;
	int rc = subtitles_cues(&m->scene, data, len, &cues, &n);
	if (rc < 0 || !n)
		return rc;
	struct srt_plan *p = tree_alloc(fs, m->dir, sizeof *p);
	struct subtitles_cue *kept = tree_alloc(fs, m->dir, n * sizeof *cues);
	const struct msgtbl_msg **msg = tree_alloc(fs, m->dir, n * sizeof *msg);
	if (!p || !kept || !msg) {
		free(cues);
		return -ENOMEM;
	}
	memcpy(kept, cues, n * sizeof *cues);
	free(cues);
	*p = (struct srt_plan){ stream, n, kept, msg };
	rc = match_lines(fs, m, p, &t->list[MSGTBL_SUBTITLES]);
	m->subtitles = p;
	return rc;
}

static int produce_srt(struct fs *fs, struct node *n, uint8_t **data,
		       size_t *len)
{
	(void)fs;
	struct member *m = tree_made_ctx(n);
	const struct srt_plan *p = m->subtitles;
	if (!p)
		return -EIO;
	struct strbuf sb;
	tree_made_text_init(n, data, &sb);
	unsigned index = 0;
	for (size_t i = 0; i < p->count; i++) {
		const struct msgtbl_msg *msg = p->msg[i];
		/* Three empty lines and no speaker: nothing to show. */
		bool empty = msg && !msg->name && msg->text_len == 3;
		if (!msg || empty || p->cues[i].to <= p->cues[i].from)
			continue;
		srt_cue(&sb, ++index, p->cues[i].from, p->cues[i].to,
			msg->name, msg->text, msg->text_len);
	}
	return sb_finish(&sb, data, len);
}

void cutscene_srt_add(struct member *m, struct dir_builder *b)
{
	if (m->subtitles)
		dir_add_measured(b, "subtitles.srt", m->e->header.mtime,
				 produce_srt, m, 0);
}
