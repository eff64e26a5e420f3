/* SPDX-License-Identifier: MIT */
/* plan.h - where each member of an archive goes when some of its members
 * are compressed again (doc/formats/pack.md, The archives).
 *
 * A member that still fits the space up to the next member's start stays
 * where it is; one that does not takes whole sectors more, and every
 * member after it moves on by as many.  Nothing else moves, so the
 * members between two edits are one run of bytes, copied as it is.
 */
#ifndef CCSFS_PACK_PLAN_H
#define CCSFS_PACK_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/reason.h"

struct pack_member {
	/* In: the source archive's member, and its edit. */
	uint64_t offset;        /* of its gzip header, in the source */
	uint64_t extent;        /* bytes up to the next member or the end */
	bool edited;
	uint64_t csize;         /* edited: the new gzip member's length */
	uint32_t usize;         /* edited: its inflated length */
	/* Out: where it goes. */
	uint64_t new_offset;
	uint64_t new_extent;    /* the gzip member and its zero padding */
};

struct pack_plan {
	struct pack_member *m;  /* in the source's order, offsets rising */
	size_t count;
	uint64_t size;          /* the source archive's */
	uint64_t new_size;
	size_t rewritten, moved;        /* members edited; members moved */
};

/* Lays out p->m[0..count) in an archive of p->size bytes: fills each
 * member's new_offset and new_extent, and new_size, rewritten, moved.
 * 0; -EINVAL (why says so) when the members do not rise one after
 * another inside the archive, or the archive would pass 2^63 bytes. */
int pack_plan_lay_out(struct pack_plan *p, struct reason *why);

/* Where a byte of the source archive at old lies in the output: old
 * moved on by what every member before it grew. */
uint64_t pack_plan_map(const struct pack_plan *p, uint64_t old);

/* The member whose gzip header starts at old, or NULL. */
const struct pack_member *pack_plan_member_at(const struct pack_plan *p,
					      uint64_t old);

#endif
