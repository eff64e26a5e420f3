/* SPDX-License-Identifier: MIT */
/* archive.h - the gzip archives (DATA.BIN and the STREAM archives): members laid end
 * to end on 2048-byte boundaries, with no directory of their own.
 *
 * The scan finds members by looking at every sector boundary, in large
 * reads and without inflating anything; a member's bytes run to the next
 * member's start (its extent).  What only inflation can tell (the exact
 * compressed length, CRC, ISIZE) is learnt later, per member.
 */
#ifndef CCSFS_ARCHIVE_H
#define CCSFS_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "archive/gzip.h"
#include "io/blob.h"

#define ARCHIVE_SECTOR 2048

struct archive_entry {
	uint64_t offset;                /* of the gzip header */
	uint64_t extent;                /* bytes up to the next member */
	struct gzip_header header;
	/* From the game's index (archive/index.h): the table entry that
	 * names the member, or -1; what disagrees with it (INDEX_*); the
	 * ISIZE where the record says the member ends. */
	int32_t record;
	uint8_t table;
	uint32_t tail_isize;
};

/* True when the bytes (a file's first sector) open a gzip member as the
 * archives write them. */
bool archive_probe(const uint8_t *p, size_t len);

/* The member's folder name: its gzip name without its extension,
 * escaped (util/names.h); member-<sector> when it has none.  out holds
 * GZIP_NAME_MAX * 3 + 32 bytes.  A name seen before in the archive gets
 * ~2, ~3 from the caller, in archive order. */
void archive_member_name(const struct archive_entry *e, char *out,
			 size_t outsz);

/* Finds every member.  Returns 0 with a malloc'ed array (possibly empty),
 * or a negative errno when the source cannot be read. */
int archive_scan(const struct blob *b, struct archive_entry **entries,
		 size_t *count);
/* The same in two halves on two threads when parts is 2 and the archive
 * spans more than two reads (archive_scan does so for large archives);
 * the result is the same. */
int archive_scan_parts(const struct blob *b, unsigned parts,
		       struct archive_entry **entries, size_t *count);

#endif
