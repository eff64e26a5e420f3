/* SPDX-License-Identifier: MIT */
/* srt.c - the game's subtitle lines as SubRip cues. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "decode/gametext/gametext.h"
#include "decode/gametext/srt.h"

/* HH:MM:SS,mmm of a frame, rounded to the millisecond. */
static void put_time(struct strbuf *sb, int32_t frame)
{
	uint64_t ms = frame > 0 ? ((uint64_t)frame * 1000 + SRT_FPS / 2) / SRT_FPS
				: 0;
	sb_printf(sb, "%02" PRIu64 ":%02" PRIu64 ":%02" PRIu64 ",%03" PRIu64,
		  ms / 3600000, ms / 60000 % 60, ms / 1000 % 60, ms % 1000);
}

void srt_cue(struct strbuf *sb, unsigned index, int32_t from, int32_t to,
	     const uint8_t *name, const uint8_t *text, size_t len)
{
	sb_printf(sb, "%u\n", index);
	put_time(sb, from);
	sb_puts(sb, " --> ");
	put_time(sb, to);
	sb_puts(sb, "\n");
	bool first = true;
	if (name) {
		gametext_put(sb, name, strlen((const char *)name),
			     GAMETEXT_PLAIN);
		sb_puts(sb, ":");
	}
	for (size_t at = 0; at < len;) {
		const uint8_t *nul = memchr(text + at, 0, len - at);
		size_t n = nul ? (size_t)(nul - (text + at)) : len - at;
		if (n) {
			sb_puts(sb, first && name ? " " : first ? "" : "\n");
			gametext_put(sb, text + at, n, GAMETEXT_PLAIN);
			first = false;
		}
		at += n + 1;
	}
	sb_puts(sb, "\n\n");
}
