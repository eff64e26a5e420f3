/* SPDX-License-Identifier: MIT */
/* fuzz_pack.c - the pack's relayout and DATA.BIN's index patched to
 * follow it (src/pack/plan.c, src/pack/table_fdtbl.c).  The input is an
 * archive's members and their edits, and a table over them: whatever
 * the sizes, the plan keeps members in order on sectors, moves none but
 * by whole sectors after a growth, gives each edited member room for
 * its bytes and each other member its old extent; and the patched table
 * names, for every record, its member's new offset and, for an edited
 * one, its new sizes.  A record that names no member is refused.
 *
 * Input: byte 0, the member count (1-64); then per member 4 bytes: its
 * extent in sectors (1-16; the last member's cut short by byte 1 % 2048
 * when nonzero), bit 0 of the next byte edited, bit 1 a new category
 * opens here, bit 2 its record points one byte off, and 2 bytes of the
 * new compressed length in units of 37 bytes. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "archive/fdtbl.h"
#include "pack/plan.h"
#include "pack/table.h"
#include "util/bytes.h"

#define S 2048u
#define MAX_MEMBERS 64
#define REC_AT(i) (8 * FDTBL_CATEGORIES + (size_t)(i) * FDTBL_RECORD)

static void check_plan(const struct pack_plan *p)
{
	uint64_t shift = 0;
	for (size_t i = 0; i < p->count; i++) {
		const struct pack_member *m = &p->m[i];
		uint64_t end = i + 1 < p->count ? p->m[i + 1].new_offset
						: p->new_size;
		if (m->new_offset % S || m->new_offset + m->new_extent != end ||
		    m->new_offset != m->offset + shift)
			abort();
		if (!m->edited && m->new_extent != m->extent)
			abort();
		if (m->edited && (m->new_extent < m->csize ||
				  (m->csize <= m->extent &&
				   m->new_extent != m->extent)))
			abort();
		if (i + 1 < p->count && (m->new_extent - m->extent) % S)
			abort();
		shift += m->new_extent - m->extent;
	}
}

/* The table's records read back from the patched bytes. */
static void check_table(const uint8_t *exe, const struct fdtbl *t,
			const struct pack_plan *p)
{
	for (size_t i = 0; i < t->count; i++) {
		const struct fdtbl_entry *e = &t->entries[i];
		const uint8_t *r = exe + e->at;
		uint64_t base = rd_u32le(exe + 8 * e->category) |
				(uint64_t)rd_u32le(exe + 8 * e->category + 4)
				<< 32;
		const struct pack_member *m = pack_plan_member_at(p, e->offset);
		if (!m || base + rd_u32le(r + FDTBL_NAME) != m->new_offset)
			abort();
		uint32_t cs = rd_u32le(r + FDTBL_NAME + 4);
		uint32_t us = rd_u32le(r + FDTBL_NAME + 8);
		if (m->edited ? cs != m->csize || us != m->usize
			      : cs != 1 || us != 2)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	size_t n = data[0] % MAX_MEMBERS + 1;
	if (size < 2 + 4 * n)
		return 0;
	struct pack_member m[MAX_MEMBERS];
	struct fdtbl_entry rec[MAX_MEMBERS];
	struct fdtbl t;
	memset(m, 0, sizeof m);
	memset(&t, 0, sizeof t);
	uint8_t exe[REC_AT(MAX_MEMBERS)];
	memset(exe, 0, sizeof exe);
	uint64_t at = 0;
	unsigned cat = 0;
	bool off_by_one = false;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *d = data + 2 + 4 * i;
		m[i].offset = at;
		m[i].extent = (uint64_t)(d[0] % 16 + 1) * S;
		if (i == n - 1 && data[1] % S)
			m[i].extent -= S - data[1] % S;
		at += m[i].extent;
		m[i].edited = d[1] & 1;
		m[i].csize = (uint64_t)rd_u16le(d + 2) * 37 + 18;
		m[i].usize = (uint32_t)m[i].csize * 3;
		if ((d[1] & 2) && i && cat + 1 < FDTBL_CATEGORIES) {
			t.base[++cat] = m[i].offset;
			/* An empty category between: its offset is where
			 * the next begins. */
			if (cat + 1 < FDTBL_CATEGORIES && (d[1] & 8))
				t.base[++cat] = m[i].offset;
		}
		off_by_one |= (d[1] & 4) != 0;
		rec[i] = (struct fdtbl_entry){ .category = (uint8_t)cat,
			.offset = m[i].offset + ((d[1] & 4) ? 1 : 0),
			.csize = 1, .usize = 2, .at = REC_AT(i) };
		wr_u32le(exe + REC_AT(i) + FDTBL_NAME + 4, 1);
		wr_u32le(exe + REC_AT(i) + FDTBL_NAME + 8, 2);
	}
	/* Categories with no member start at the archive's end. */
	while (++cat < FDTBL_CATEGORIES)
		t.base[cat] = at;
	struct pack_plan p = { m, n, at, 0, 0, 0 };
	struct reason why = { "" };
	if (pack_plan_lay_out(&p, &why) < 0)
		abort();        /* the members tile the archive */
	check_plan(&p);
	t.entries = rec;
	t.count = n;
	t.base_at = 0;
	int rc = pack_table_fdtbl_apply(exe, sizeof exe, &t, &p, &why);
	if (off_by_one != (rc == -EINVAL) || (rc < 0 && rc != -EINVAL))
		abort();
	if (rc == 0)
		check_table(exe, &t, &p);
	return 0;
}
