/* SPDX-License-Identifier: MIT */
/* pack_internal.h - a pack's plan, shared by its planning (pack.c) and
 * its writing (pack_out.c). */
#ifndef CCSFS_PACK_INTERNAL_H
#define CCSFS_PACK_INTERNAL_H

#include "archive/fdtbl.h"
#include "pack/edits.h"
#include "pack/members.h"
#include "pack/pack.h"
#include "pack/source.h"
#include "pack/table.h"

enum change_how { CHANGE_MEMBERS, CHANGE_EDIT, CHANGE_BYTES };

/* A file of the source whose bytes change. */
struct change {
	struct job *job;
	const struct pack_file *f;
	enum change_how how;
	struct pack_members *members;   /* an archive with edited members */
	const char *host;               /* an edit: its file */
	uint8_t *bytes;                 /* a patched executable */
	uint64_t new_size;
};

struct job {
	const struct pack_options *o;
	struct pack_source s;
	struct pack_edits *e;
	struct pack_spill spill;
	struct fdtbl table;
	bool have_table;
	const struct pack_file *exe;
	struct change *c;
	size_t n, cap;
	size_t records[PACK_TABLE_KINDS];
	struct pack_progress pg;
};

/* Writes the output as the plan says, under a temporary name renamed
 * to output at the end.  Sets *size to what was written. */
int pack_out_write(struct job *j, const char *output, uint64_t *size,
		   struct reason *why);

/* The spill file for edited members, in output's folder. */
int pack_out_spill(const char *output, int *fd, struct reason *why);

#endif
