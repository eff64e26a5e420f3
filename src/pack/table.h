/* SPDX-License-Identifier: MIT */
/* table.h - the executable's tables of the archives, made to follow the
 * members that moved or were compressed again (doc/formats/pack.md, The
 * tables).
 *
 * Each kind of table (DATA.BIN's index; the stream tables plug in the
 * same way) finds its records in the executable's bytes and rewrites,
 * for each record whose archive changed, the member's new offset and,
 * for an edited member, its compressed and inflated sizes.  A record
 * that names no member of its archive cannot follow it: the pack is
 * refused rather than written with a table the game would misread.
 */
#ifndef CCSFS_PACK_TABLE_H
#define CCSFS_PACK_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "archive/fdtbl.h"
#include "pack/plan.h"
#include "util/reason.h"

/* An archive that changed: its path from the disc's root, as the tree
 * shows it ("DATA/DATA.BIN"), and its plan. */
struct pack_layout {
	const char *path;
	const struct pack_plan *plan;
};

/* One kind of table.  patch rewrites its records in exe[0..len) for the
 * archives of l[0..n) and counts them in *records: 0 (also when the
 * executable has no such table, or its archive did not change);
 * -EINVAL with why when a record cannot follow its member, -ENOMEM. */
struct pack_table_kind {
	const char *name;
	int (*patch)(uint8_t *exe, size_t len, const struct pack_layout *l,
		     size_t n, size_t *records, struct reason *why);
};

/* The layout of the archive at path (matched without regard to case),
 * or NULL when it did not change. */
const struct pack_plan *pack_table_layout(const struct pack_layout *l,
					  size_t n, const char *path);

/* Every kind of table patched in turn; records[k] counts the kind k's
 * records rewritten (PACK_TABLE_KINDS of them, named by
 * pack_table_name).  0 or the first kind's failure, why naming it. */
#define PACK_TABLE_KINDS 2
int pack_table_patch(uint8_t *exe, size_t len, const struct pack_layout *l,
		     size_t n, size_t records[PACK_TABLE_KINDS],
		     struct reason *why);
const char *pack_table_name(unsigned kind);

/* DATA.BIN's index (archive/fdtbl.h), read from exe into t, rewritten
 * to the plan p: each category's offset (cateCDOfsTbl) and each
 * record's offset, and an edited member's csize and usize.  -EINVAL
 * with why when a record names no member or no longer fits its field. */
extern const struct pack_table_kind pack_table_fdtbl;
/* The stream tables (archive/strtbl.h): each stream's header offset,
 * each member record's offset from it, an edited member's size and
 * inflated size. */
extern const struct pack_table_kind pack_table_stream;
int pack_table_fdtbl_apply(uint8_t *exe, size_t len, const struct fdtbl *t,
			   const struct pack_plan *p, struct reason *why);

#endif
