/* SPDX-License-Identifier: MIT */
/* fdtbl.h - DATA.BIN's index as the game's executable carries it
 * (doc/formats/archive.md, The game's index).
 *
 * categoryFDTbl points at one table of 44-byte records per category,
 * cateCDOfsTbl gives each category's byte offset in DATA.BIN.  Both are
 * found by symbol name, and every pointer, offset and table end is
 * checked: a table is a claim to check against the archive, never a
 * reason to read outside the executable.
 */
#ifndef CCSFS_FDTBL_H
#define CCSFS_FDTBL_H

#include <stddef.h>
#include <stdint.h>
#include "util/reason.h"

#define FDTBL_CATEGORIES 20
#define FDTBL_RECORD 44
#define FDTBL_NAME 32
/* Records one table may hold before it counts as having no end. */
#define FDTBL_MAX_RECORDS 65536

struct fdtbl_entry {
	char name[FDTBL_NAME + 1];      /* as stored: XASC00.CCS */
	uint8_t category;
	uint64_t offset;                /* in DATA.BIN: category's + record's */
	uint32_t csize, usize;
	size_t at;                      /* the record's offset in the file */
};

struct fdtbl {
	char category[FDTBL_CATEGORIES][FDTBL_NAME];    /* "pc", "npc" ... */
	uint64_t base[FDTBL_CATEGORIES];        /* cateCDOfsTbl */
	size_t base_at;                 /* cateCDOfsTbl's offset in the file */
	struct fdtbl_entry *entries;    /* category by category, in order */
	size_t count;
};

/* Reads the tables from the executable's bytes.  0; -ENOENT when it has
 * no symbols or not these (a stripped executable); -EINVAL when a
 * pointer leads outside it, a table has no end or a record is not on a
 * sector; -ENOMEM.  why says which.  The table is empty on failure. */
int fdtbl_read(const uint8_t *exe, size_t len, struct fdtbl *t, struct reason *why);
/* The same from an executable opened (and given its symbols). */
struct elf_image;
int fdtbl_read_elf(const struct elf_image *e, struct fdtbl *t,
		   struct reason *why);
void fdtbl_free(struct fdtbl *t);

/* The gzip member's own name for an entry: lower case, .CCS as .cmp. */
void fdtbl_gzip_name(const struct fdtbl_entry *e, char *out, size_t n);

/* The executable that SYSTEM.CNF's text names on its BOOT2 line
 * ("BOOT2 = cdrom0:\\SLUS_202.67;1" gives "SLUS_202.67"; a path inside
 * folders keeps its backslashes).  0; -ENOENT when no line is BOOT2;
 * -EINVAL when it names nothing or more than n - 1 bytes. */
int fdtbl_boot_path(const char *cnf, size_t len, char *out, size_t n);

#endif
