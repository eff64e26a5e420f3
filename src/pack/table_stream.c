/* SPDX-License-Identifier: MIT */
/* table_stream.c - the stream tables (streamTbl, streamTblE), which
 * name each STREAM archive's members by offset, length and inflated
 * length (doc/formats/pack.md, The tables).
 *
 * Their records are not read yet, so they cannot follow a STREAM
 * archive that changed: while an executable carries them, such a pack
 * is refused rather than written with tables the game would misread.
 * Their patch, once the records are read, moves each record as
 * table_fdtbl.c moves DATA.BIN's. */
#include "config.h"

#include <errno.h>
#include <strings.h>

#include "io/elf.h"
#include "pack/table.h"

static bool is_stream(const char *path)
{
	return strncasecmp(path, "STREAM/", 7) == 0;
}

static int patch(uint8_t *exe, size_t len, const struct pack_layout *l,
		 size_t n, size_t *records, struct reason *why)
{
	*records = 0;
	const char *changed = NULL;
	for (size_t i = 0; i < n && !changed; i++)
		if (is_stream(l[i].path))
			changed = l[i].path;
	if (!changed)
		return 0;
	struct elf_image e;
	struct reason r = { "" };
	uint32_t v, size;
	if (elf_open(&e, exe, len, &r) < 0 ||
	    (elf_symbol(&e, "streamTbl", &v, &size) < 0 &&
	     elf_symbol(&e, "streamTblE", &v, &size) < 0))
		return 0;
	reason_set(why, "they name the members of %s, which changed, and "
		   "cannot be patched yet", changed);
	return -EINVAL;
}

const struct pack_table_kind pack_table_stream = {
	"the stream tables (streamTbl, streamTblE)", patch,
};
