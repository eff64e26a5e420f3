/* SPDX-License-Identifier: MIT */
/* strtbl.h - the stream tables in the game's executable: streamTbl and
 * streamTblE (English voices), each a pointer per stream number to a
 * list of 20-byte records (doc/formats/archive.md, The stream tables).
 *
 * Record 0 of a list is the stream's header (ofs: bytes into the
 * archive; type: the archive, 0 STRCMN, 1 STR1); each later record a
 * member (ofs: bytes after the header's, size: the gzip member's length,
 * gzip: its inflated length); a record with no name ends the list.  The
 * game reads a member at sector ceil(header.ofs / 2048) + ceil(ofs /
 * 2048) of its archive, so that is where strtbl_file.offset says it is.
 *
 * Each record keeps where it lies in the executable file (file_offset),
 * so that a rebuilt disc's tables can be patched in place: the record's
 * ofs, size and gzip fields are at file_offset + STRTBL_OFS_AT,
 * STRTBL_SIZE_AT and STRTBL_GZIP_AT, little-endian s32, s32 and u32.
 */
#ifndef CCSFS_STRTBL_H
#define CCSFS_STRTBL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/elf.h"
#include "util/reason.h"

#define STRTBL_STREAMS 134      /* pointers in each table */
#define STRTBL_RECORD 20
#define STRTBL_NAME_AT 0        /* char *name */
#define STRTBL_OFS_AT 4         /* s32 */
#define STRTBL_SIZE_AT 8        /* s32 */
#define STRTBL_TYPE_AT 12       /* s16 */
#define STRTBL_FLAG_AT 14       /* s16 */
#define STRTBL_GZIP_AT 16       /* u32 */
#define STRTBL_NAME_MAX 63      /* longer names are cut (and escaped) */
#define STRTBL_MAX_RECORDS 1024 /* one list: past it, it has no end */

enum strtbl_voice { STRTBL_JAPANESE, STRTBL_ENGLISH, STRTBL_VOICES };

/* One record as the table holds it, and where. */
struct strtbl_record {
	char name[STRTBL_NAME_MAX + 1]; /* as stored, NUL-ended */
	int32_t ofs, size;
	int16_t type, flag;
	uint32_t gzip;
	uint64_t file_offset;   /* of the record in the executable file */
};

/* A member record of a stream, with its header's archive and where the
 * game reads it. */
struct strtbl_file {
	uint32_t stream;        /* the stream number */
	uint32_t index;         /* its record in the list, from 1 */
	int16_t archive;        /* the header's type: 0 STRCMN, 1 STR1 */
	uint64_t offset;        /* in the archive, as the game reads it */
	struct strtbl_record r;
};

struct strtbl_stream {
	uint32_t number;
	struct strtbl_record header;
	size_t first, count;    /* its files in strtbl_voice.files */
};

struct strtbl_voice_table {
	bool present;           /* its symbol was found */
	struct strtbl_stream *streams;  /* by number, only those listed */
	size_t nstreams;
	struct strtbl_file *files;      /* stream by stream, in list order */
	size_t nfiles;
	size_t bad;             /* lists left out or cut short */
	struct reason why;      /* the first */
};

struct strtbl {
	struct strtbl_voice_table voice[STRTBL_VOICES];
};

/* The symbols' names: streamTbl, streamTblE. */
const char *strtbl_symbol(enum strtbl_voice v);

/* Reads both tables.  0 when at least one is found; -ENOENT when none
 * is (why says so); -ENOMEM. */
int strtbl_read(const struct elf_image *e, struct strtbl *t,
		struct reason *why);
void strtbl_free(struct strtbl *t);

/* Which table and archive type an archive's file name (STR1.BIN,
 * STRCMNE.BIN, without regard to case) is read through; -ENOENT for
 * another name. */
int strtbl_archive(const char *file_name, enum strtbl_voice *v,
		   int16_t *type);

#endif
