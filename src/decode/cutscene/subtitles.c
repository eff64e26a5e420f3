/* SPDX-License-Identifier: MIT */
/* subtitles.c - a cutscene's subtitle cues from its F_Note records. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "decode/cutscene/subtitles.h"
#include "util/bytes.h"
#include "util/vec.h"

struct cues {
	struct subtitles_cue *c;
	size_t n, cap;
	bool open;
};

/* Ends the cue shown, if any, at frame. */
static void close_at(struct cues *q, int32_t frame)
{
	if (q->open)
		q->c[q->n - 1].to = frame;
	q->open = false;
}

static int open_at(struct cues *q, uint32_t line, int32_t frame)
{
	close_at(q, frame);
	if (q->n >= SUBTITLES_MAX_CUES)
		return 0;
	if (vec_reserve(q->c, &q->cap, q->n + 1, 16) < 0)
		return -ENOMEM;
	q->c[q->n++] = (struct subtitles_cue){ line, frame, frame };
	q->open = true;
	return 0;
}

int subtitles_cues(const struct ccsf_scene *s, const uint8_t *data,
		   size_t len, struct subtitles_cue **cues, size_t *n)
{
	struct cues q = { NULL, 0, 0, false };
	int32_t frame = 0, last = -1;
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		size_t plen;
		const uint8_t *p = c->in_frames
				   ? ccsf_chunk_payload(c, data, len, &plen)
				   : NULL;
		if (!p)
			continue;
		if (c->kind == CCSF_TOP && plen >= 4) {
			frame = (int32_t)rd_u32le(p);
			if (frame > last)
				last = frame;
		}
		if (c->kind != CCSF_F_NOTE || plen < 12)
			continue;
		uint32_t event = rd_u32le(p + 4);
		int rc = 0;
		if (event == SUBTITLES_OPEN)
			rc = open_at(&q, rd_u32le(p + 8), frame);
		else if (event == SUBTITLES_CLOSE)
			close_at(&q, frame);
		if (rc < 0) {
			free(q.c);
			return rc;
		}
	}
	close_at(&q, last + 1);
	*cues = q.c;
	*n = q.n;
	return 0;
}
