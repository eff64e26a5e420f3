/* SPDX-License-Identifier: MIT */
/* table_fdtbl.c - DATA.BIN's index in the executable, made to follow the
 * archive's new layout. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>

#include "pack/table.h"
#include "util/bytes.h"

int pack_table_fdtbl_apply(uint8_t *exe, size_t len, const struct fdtbl *t,
			   const struct pack_plan *p, struct reason *why)
{
	uint64_t base[FDTBL_CATEGORIES];
	if (t->base_at > len || len - t->base_at < 8 * FDTBL_CATEGORIES) {
		reason_set(why, "cateCDOfsTbl lies outside the file");
		return -EINVAL;
	}
	/* Categories lie back to back: each starts where its first byte
	 * went, whatever member is there. */
	for (unsigned c = 0; c < FDTBL_CATEGORIES; c++) {
		base[c] = pack_plan_map(p, t->base[c]);
		uint8_t *at = exe + t->base_at + 8 * c;
		wr_u32le(at, (uint32_t)base[c]);
		wr_u32le(at + 4, (uint32_t)(base[c] >> 32));
	}
	for (size_t i = 0; i < t->count; i++) {
		const struct fdtbl_entry *e = &t->entries[i];
		const struct pack_member *m = pack_plan_member_at(p, e->offset);
		if (!m) {
			reason_set(why, "record %s at %" PRIu64 " names no "
				   "member of the archive", e->name, e->offset);
			return -EINVAL;
		}
		uint64_t rel = m->new_offset - base[e->category];
		if (m->new_offset < base[e->category] || rel > UINT32_MAX ||
		    (m->edited && m->csize > UINT32_MAX) ||
		    e->at > len || len - e->at < FDTBL_RECORD) {
			reason_set(why, "record %s: its new offset or size "
				   "does not fit its field", e->name);
			return -EINVAL;
		}
		uint8_t *r = exe + e->at;
		wr_u32le(r + FDTBL_NAME, (uint32_t)rel);
		if (m->edited) {
			wr_u32le(r + FDTBL_NAME + 4, (uint32_t)m->csize);
			wr_u32le(r + FDTBL_NAME + 8, m->usize);
		}
	}
	return 0;
}

static int patch(uint8_t *exe, size_t len, const struct pack_layout *l,
		 size_t n, size_t *records, struct reason *why)
{
	const struct pack_plan *p = pack_table_layout(l, n, "DATA/DATA.BIN");
	if (!p)
		return 0;
	struct fdtbl t;
	int rc = fdtbl_read(exe, len, &t, why);
	/* An executable without the index gives the game nothing to
	 * misread: the archive is read by its own bytes. */
	if (rc == -ENOENT)
		return 0;
	if (rc == 0)
		rc = pack_table_fdtbl_apply(exe, len, &t, p, why);
	if (rc == 0)
		*records = t.count;
	fdtbl_free(&t);
	return rc;
}

const struct pack_table_kind pack_table_fdtbl = {
	"DATA.BIN's index (categoryFDTbl, cateCDOfsTbl)", patch,
};
