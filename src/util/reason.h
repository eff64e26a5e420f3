/* SPDX-License-Identifier: MIT */
/* reason.h - the one way a decoder says why it failed: a line of text
 * that the caller logs once or shows in error.txt.  Decoders never log
 * themselves; they only know the bytes, not the path a user would need.
 * Every module takes and keeps its reasons as this one type, so a reason
 * passes from a parser to the view that shows it without being resized
 * or copied through buffers of other lengths. */
#ifndef CCSFS_REASON_H
#define CCSFS_REASON_H

#include <stdbool.h>

/* Room for the longest reason: a host path and what went wrong there. */
#define REASON_MAX 320

struct reason {
	char text[REASON_MAX];  /* NUL-ended; "" while nothing failed */
};

/* Writes the reason, cut to fit; does nothing when r is NULL, so callers
 * that do not care pass NULL. */
void reason_set(struct reason *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Forgets any reason: r says nothing failed. */
static inline void reason_clear(struct reason *r)
{
	if (r)
		r->text[0] = 0;
}

static inline bool reason_given(const struct reason *r)
{
	return r && r->text[0];
}

/* The reason's text, or the errno's when no reason was given (rc < 0). */
const char *reason_or_errno(const struct reason *r, int rc);

#endif
