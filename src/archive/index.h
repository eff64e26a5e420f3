/* SPDX-License-Identifier: MIT */
/* index.h - DATA.BIN's members from the game's index (archive/fdtbl.h),
 * checked against the archive (doc/formats/archive.md, The game's index).
 *
 * Each record's offset must open a gzip header whose name is the
 * record's; where the record says the member ends (offset + csize) the
 * trailer's ISIZE must be its usize and only padding may follow.  That
 * reads one window of two sectors a member, not the archive.  Bytes no
 * record accounts for (before the first, between two, after the last)
 * are scanned as archive_scan does, so a member the table does not name
 * is still found, and marked scan only.
 */
#ifndef CCSFS_INDEX_H
#define CCSFS_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "archive/archive.h"
#include "archive/fdtbl.h"
#include "archive/gzip.h"
#include "io/blob.h"
#include "util/reason.h"

/* archive_entry.table bits. */
#define INDEX_SCAN_ONLY 0x01    /* no record names it */
#define INDEX_NAME      0x02    /* the record's name is another */
#define INDEX_CSIZE     0x04    /* the member does not end at csize */
#define INDEX_USIZE     0x08    /* the ISIZE there is not usize */
#define INDEX_UNREAD    0x10    /* where it ends cannot be read (EIO) */

#define INDEX_STATUS 128

/* A record that names no member: its offset is past the archive, on
 * another record's, opens no gzip header or cannot be read (a bad
 * sector: its bytes are then scanned, as the scan reads them). */
struct index_lost {
	size_t record;
	const char *why;
};

struct archive_index {
	struct archive_entry *entries;  /* in archive order, as the scan's */
	size_t count;
	struct index_lost *lost;
	size_t nlost;
	uint64_t bytes_read;            /* of the archive, for the tests */
};

/* The members the table names, each checked, and those the bytes it
 * does not account for hold.  0; -EINVAL (why says so) when no record
 * lands on a member, so the table does not describe this archive; a
 * negative errno when the archive cannot be read. */
int archive_index_build(const struct blob *b, const struct fdtbl *t,
			struct archive_index *x, struct reason *why);
void archive_index_free(struct archive_index *x);

/* What the table says of a member: "table ok", "scan only", or each
 * field that differs with the table's value and the archive's. */
void archive_index_status(const struct fdtbl *t, const struct archive_entry *e,
			  char *out, size_t n);

/* After inflation: what the header check could not see (compressed
 * length or ISIZE other than the record's).  0 when they agree, else 1
 * and out says which. */
int archive_index_inflated(const struct fdtbl *t, const struct archive_entry *e,
			   const struct gzip_result *g, char *out, size_t n);

#endif
