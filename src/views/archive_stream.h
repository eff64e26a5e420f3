/* SPDX-License-Identifier: MIT */
/* archive_stream.h - a STREAM archive's members against the stream
 * tables of the game's executable (archive/strtbl.h). */
#ifndef CCSFS_ARCHIVE_STREAM_H
#define CCSFS_ARCHIVE_STREAM_H

#include "views/member_internal.h"

/* Each member's streams and table status, when the archive is one the
 * stream tables read (STRCMN.BIN, STR1.BIN and their English twins) and
 * the executable has them: 1; 0 when not; -ENOMEM. */
int archive_stream_text(struct fs *fs, struct archive_dir *ar);

/* Every record of this archive's table against its member (after the
 * members are inflated): each disagreement reported. */
int archive_stream_check(struct fs *fs, struct archive_dir *ar,
			 table_report_fn report, void *ctx);

/* The lowest stream number whose list has the member at offset of this
 * archive; -ENOENT when none does (or there are no tables). */
int archive_stream_lowest(const struct archive_dir *ar, uint64_t offset,
			  uint32_t *stream);

#endif
