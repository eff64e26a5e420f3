/* SPDX-License-Identifier: MIT */
/* edits.h - where an edit's bytes come from: the overlay folder, which
 * holds each edit as a plain file at its path in the tree (doc/formats/
 * pack.md, Edits).
 *
 * A member is edited by DIR/<archive>/<member>/<member>.ccs, its whole
 * inflated file, which must still walk as a CCSF file; a passed-through
 * disc file by DIR/<path>, its whole content.  Every other file in DIR
 * (an editor's backup or lock file) is no part of the disc and is only
 * counted.  This is the one place that knows: a pack that takes its
 * edits through the mount's overlay replaces these functions.
 */
#ifndef CCSFS_PACK_EDITS_H
#define CCSFS_PACK_EDITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util/reason.h"

struct pack_edits;

/* Lists the files of dir.  0; a negative errno with why. */
int pack_edits_open(const char *dir, struct pack_edits **out,
		    struct reason *why);
void pack_edits_free(struct pack_edits *e);

/* The edit of a member: archive is its archive's path from the disc's
 * root ("" when the source is the archive), member its folder's name.
 * 0 with the new inflated bytes (malloc'ed) and the edit's time;
 * -ENOENT when it is not edited; -EINVAL (why says so) when the edit is
 * refused: more than max bytes, or a file that does not walk. */
int pack_edits_member(struct pack_edits *e, const char *archive,
		      const char *member, size_t max, uint8_t **data,
		      size_t *len, time_t *mtime, struct reason *why);

/* The edit of a passed-through disc file at path: its host path (valid
 * until pack_edits_free), size and time; -ENOENT when not edited. */
int pack_edits_file(struct pack_edits *e, const char *path,
		    const char **host, uint64_t *size, time_t *mtime);

/* Whether dir holds a file below path/ (path "": any file). */
bool pack_edits_has_below(const struct pack_edits *e, const char *path);

/* A member's edited inflated bytes from elsewhere: the overlay of a
 * mount, whose edits (a texture.png, a chunk) make a member's bytes
 * that no file of the folder holds.  0, -ENOENT, -EINVAL (why), or
 * another negative errno. */
typedef int (*pack_edits_reader)(void *ctx, const char *archive,
				 const char *member, size_t max,
				 uint8_t **data, size_t *len,
				 struct reason *why);

/* From now on the edited members are those added, their bytes read by
 * fn.  An added member's edit is the folder's file at path (one call
 * each: a texture.png, a chunk, the .ccs), the newest one's time the
 * member's.  0 or -ENOMEM. */
int pack_edits_use_reader(struct pack_edits *e, pack_edits_reader fn,
			  void *ctx);
int pack_edits_add_member(struct pack_edits *e, const char *archive,
			  const char *member, const char *path);

/* After every question: the files of dir that were no edit, one per
 * call from *i = 0 on, then NULL. */
const char *pack_edits_unused(const struct pack_edits *e, size_t *i);

#endif
