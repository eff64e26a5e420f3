/* SPDX-License-Identifier: MIT */
/* members.h - one archive of the source: its members as the tree lists
 * and names them, the edited ones compressed again into a spill file,
 * its plan, and its bytes written (doc/formats/pack.md, The archives).
 */
#ifndef CCSFS_PACK_MEMBERS_H
#define CCSFS_PACK_MEMBERS_H

#include <stddef.h>
#include <stdint.h>

#include "archive/archive.h"
#include "archive/fdtbl.h"
#include "io/blob.h"
#include "pack/copy.h"
#include "pack/edits.h"
#include "pack/plan.h"
#include "util/reason.h"

struct pack_members {
	const char *path;       /* from the disc's root, "" for the source */
	struct blob src;
	struct archive_entry *entries;
	size_t count;
	char **names;           /* each member's folder name */
	struct pack_plan plan;
	uint64_t *spill_at;     /* where an edited member's bytes are */
};

/* The spill file: edited members, compressed, one after another, so
 * that a pack holds one member at a time whatever the edits. */
struct pack_spill {
	int fd;
	uint64_t end;
};

/* Lists a's members (from the game's index t when t is not NULL and
 * describes the archive, else by a scan: as the tree does), asks e for
 * each one's edit, compresses the edited ones into spill and lays the
 * archive out.  0; -EINVAL with why when an edit is refused or the
 * archive cannot be laid out; another negative errno (why says so). */
int pack_members_plan(struct pack_members *a, const struct fdtbl *t,
		      struct pack_edits *e, size_t max_member,
		      struct pack_spill *spill, struct reason *why);

/* Writes the archive as planned at base of out: runs of members that
 * did not change copied as they are, each edited member from the spill
 * and its padding.  0 or a negative errno. */
int pack_members_write(const struct pack_members *a, int spill_fd, int out,
		       uint64_t base, struct pack_progress *pg);

void pack_members_free(struct pack_members *a);

#endif
