/* SPDX-License-Identifier: MIT */
/* pack.h - ccsfs-pack: the disc SOURCE with the edits of DIR, written
 * to OUTPUT as an image, a folder or an archive, as SOURCE is
 * (doc/formats/pack.md).
 *
 * Everything is planned before a byte is written: every edit taken or
 * refused, every archive laid out, every table patched.  A refusal
 * writes nothing; a failure while writing leaves no OUTPUT (the output
 * is written under a temporary name and renamed at the end).
 */
#ifndef CCSFS_PACK_PACK_H
#define CCSFS_PACK_PACK_H

#include <stdio.h>

#include "pack/copy.h"
#include "pack/edits.h"
#include "util/reason.h"

struct pack_options {
	size_t max_member;      /* an edited member's largest inflated size */
	FILE *report;           /* what was done, a line a file */
	void (*show)(const struct pack_progress *pg, void *ctx);
	void *show_ctx;
	/* Called once DIR is listed, to say where edited members' bytes
	 * come from (pack_edits_use_reader); NULL: DIR's .ccs files. */
	int (*edits_ready)(struct pack_edits *e, void *ctx, struct reason *why);
	void *edits_ctx;
};

/* 0; -EINVAL when an edit is refused or a table cannot be patched
 * (nothing written); another negative errno.  why says what. */
int pack_run(const char *source, const char *dir, const char *output,
	     const struct pack_options *o, struct reason *why);

#endif
