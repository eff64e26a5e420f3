/* SPDX-License-Identifier: MIT */
/* srt.h - SubRip cues of the game's subtitle lines: a number, the times
 * at 30 frames a second, the speaker's name before the first line, each
 * line that is not empty (an empty line would end the cue). */
#ifndef CCSFS_SRT_H
#define CCSFS_SRT_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

#define SRT_FPS 30

/* Cue number index (from 1), shown from frame from until frame to; name
 * NUL-ended or NULL; text the three NUL-ended lines (len bytes). */
void srt_cue(struct strbuf *sb, unsigned index, int32_t from, int32_t to,
	     const uint8_t *name, const uint8_t *text, size_t len);

#endif
