/* SPDX-License-Identifier: MIT */
/* table.c - the kinds of table, patched in turn. */
#include "config.h"

#include <errno.h>
#include <strings.h>

#include "pack/table.h"

/* Every kind, in turn: each moves its records to their members' new
 * offsets and sizes. */
static const struct pack_table_kind *const kinds[PACK_TABLE_KINDS] = {
	&pack_table_fdtbl,
	&pack_table_stream,
};

const struct pack_plan *pack_table_layout(const struct pack_layout *l,
					  size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(l[i].path, path) == 0)
			return l[i].plan;
	return NULL;
}

int pack_table_patch(uint8_t *exe, size_t len, const struct pack_layout *l,
		     size_t n, size_t records[PACK_TABLE_KINDS],
		     struct reason *why)
{
	for (unsigned k = 0; k < PACK_TABLE_KINDS; k++) {
		records[k] = 0;
		struct reason r = { "" };
		int rc = kinds[k]->patch(exe, len, l, n, &records[k], &r);
		if (rc < 0) {
			reason_set(why, "%s: %s", kinds[k]->name, r.text);
			return rc;
		}
	}
	return 0;
}

const char *pack_table_name(unsigned kind)
{
	return kind < PACK_TABLE_KINDS ? kinds[kind]->name : "";
}
