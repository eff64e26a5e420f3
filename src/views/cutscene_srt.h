/* SPDX-License-Identifier: MIT */
/* cutscene_srt.h - subtitles.srt of a cutscene's scene file (SubRip). */
#ifndef CCSFS_CUTSCENE_SRT_H
#define CCSFS_CUTSCENE_SRT_H

#include "views/member_internal.h"

/* After the walk: the cues of the member's frame section and their lines
 * from the lowest stream's subtitle table that lists it (m->subtitles;
 * NULL when there are none), a line the table lacks said in error.txt.
 * 0 or -ENOMEM. */
int cutscene_srt_prepare(struct fs *fs, struct member *m, const uint8_t *data,
			 size_t len);

/* subtitles.srt, when cutscene_srt_prepare found cues. */
void cutscene_srt_add(struct member *m, struct dir_builder *b);

#endif
