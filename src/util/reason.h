/* SPDX-License-Identifier: MIT */
/* reason.h - the one way a decoder says why it failed: a line of text in
 * the caller's buffer, which the caller logs once or shows in error.txt.
 * Decoders never log themselves; they only know the bytes, not the
 * path a user would need. */
#ifndef CCSFS_REASON_H
#define CCSFS_REASON_H

#include <stddef.h>

/* Writes the reason into why (why_len bytes, NUL included, cut to fit);
 * does nothing when why is NULL, so callers that do not care pass NULL. */
void reason_set(char *why, size_t why_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
