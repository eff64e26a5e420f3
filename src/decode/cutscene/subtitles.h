/* SPDX-License-Identifier: MIT */
/* subtitles.h - when a cutscene's subtitle lines show: the frame
 * section's F_Note records (doc/formats/ccsf.md, Notes).  Event 0x8001
 * opens line `param` of the stream's subtitle table, 0x8011 closes the
 * line shown; a line shows until it is closed, another opens, or the
 * section ends (the frame after its last Top).
 */
#ifndef CCSFS_SUBTITLES_H
#define CCSFS_SUBTITLES_H

#include <stddef.h>
#include <stdint.h>

#include "ccsf/ccsf.h"

#define SUBTITLES_OPEN 0x8001
#define SUBTITLES_CLOSE 0x8011
/* Cues one scene may give before the rest are dropped. */
#define SUBTITLES_MAX_CUES 65536

struct subtitles_cue {
	uint32_t line;          /* the table's record */
	int32_t from, to;       /* frames: shown from `from` until `to` */
};

/* The cues of the walked scene, in frame order, into *cues (malloc'ed;
 * NULL when there are none).  0 or -ENOMEM. */
int subtitles_cues(const struct ccsf_scene *s, const uint8_t *data,
		   size_t len, struct subtitles_cue **cues, size_t *n);

#endif
