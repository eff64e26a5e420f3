/* SPDX-License-Identifier: MIT */
/* index.h - DATA.BIN's members from the game's index (archive/fdtbl.h),
 * checked against the archive (doc/formats/archive.md, The game's index).
 *
 * Listing and checking are two steps, so that a folder lists from the
 * table alone.  archive_index_list gives the members the records name,
 * named by the records, without reading a member (only the first, to
 * tell a table of this archive from another's); bytes no record
 * accounts for (before the first, between two, after the last, trusting
 * each csize) are scanned as archive_scan does, so a member the table
 * does not name is still found, and marked scan only.
 * archive_index_check then checks one member: its offset must open a
 * gzip header whose name is the record's; where the record says the
 * member ends (offset + csize) the trailer's ISIZE must be its usize and
 * only padding may follow.  That reads a window of two sectors.
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
#define INDEX_NO_HEADER 0x20    /* its offset opens no gzip member */
#define INDEX_NO_READ   0x40    /* its header cannot be read (EIO) */

#define INDEX_STATUS 128

/* A record that names no member: its offset is past the archive or on
 * another record's (what the table alone tells; a record that opens no
 * gzip header is a member that fails its check, INDEX_NO_HEADER). */
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

/* The members the table names, unchecked (header.name is the record's
 * gzip name, mtime 0), and those the bytes it does not account for
 * hold, each with its extent.  0; -EINVAL (why says so) when no record
 * is in the archive or the first in archive order opens no gzip member,
 * so the table does not describe this archive; a negative errno when
 * the archive cannot be read. */
int archive_index_list(const struct blob *b, const struct fdtbl *t,
		       struct archive_index *x, struct reason *why);

/* A member start, its last sector and the next member's first: what
 * one check reads.  A window reused member after member in archive
 * order reads the bytes two neighbours share once. */
#define INDEX_WINDOW (2 * ARCHIVE_SECTOR + 512)
struct index_window {
	uint8_t buf[INDEX_WINDOW];
	uint64_t from;                  /* what buf holds */
	size_t have;
	uint64_t bytes_read;
};

/* Checks one listed member (record >= 0) at both its ends: fills e's
 * header (when its offset opens one), table bits and tail_isize.  Reads
 * through w (have 0: empty).  A read error is a table bit, not a
 * failure: 0 always. */
int archive_index_check(const struct blob *b, const struct fdtbl *t,
			struct archive_entry *e, struct index_window *w);

/* Asks the kernel at once for every window the checks of e[0..n) will
 * read: a thousand reads one after another wait for the disk a
 * thousand times. */
void archive_index_prefetch(const struct blob *b, const struct fdtbl *t,
			    const struct archive_entry *e, size_t n);

/* archive_index_list, then every listed member checked. */
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
