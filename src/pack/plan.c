/* SPDX-License-Identifier: MIT */
/* plan.c - the relayout of an archive whose members were edited. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>

#include "pack/plan.h"

#define SECTOR 2048u
#define SIZE_LIMIT ((uint64_t)1 << 62)

static uint64_t round_up(uint64_t n)
{
	return (n + SECTOR - 1) / SECTOR * SECTOR;
}

int pack_plan_lay_out(struct pack_plan *p, struct reason *why)
{
	uint64_t shift = 0;
	p->rewritten = p->moved = 0;
	for (size_t i = 0; i < p->count; i++) {
		struct pack_member *m = &p->m[i];
		uint64_t next = i + 1 < p->count ? p->m[i + 1].offset : p->size;
		if (m->offset >= next || m->offset % SECTOR ||
		    m->extent != next - m->offset) {
			reason_set(why, "member %zu at %" PRIu64 " does not "
				   "start on a sector before the next", i,
				   m->offset);
			return -EINVAL;
		}
		m->new_offset = m->offset + shift;
		m->new_extent = m->extent;
		if (shift)
			p->moved++;
		if (!m->edited)
			continue;
		p->rewritten++;
		if (m->csize > SIZE_LIMIT) {
			reason_set(why, "member %zu: %" PRIu64 " bytes",
				   i, m->csize);
			return -EINVAL;
		}
		/* Padding is what tells the game's reader nothing: a
		 * member that fits keeps its place and pads the rest. */
		if (m->csize > m->extent) {
			m->new_extent = round_up(m->csize);
			shift += m->new_extent - m->extent;
		}
		if (shift > SIZE_LIMIT) {
			reason_set(why, "the archive would pass 2^62 bytes");
			return -EINVAL;
		}
	}
	p->new_size = p->size + shift;
	return 0;
}

/* The index of the last member starting at or before old, or count. */
static size_t find(const struct pack_plan *p, uint64_t old)
{
	size_t lo = 0, hi = p->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->m[mid].offset <= old)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : p->count;
}

uint64_t pack_plan_map(const struct pack_plan *p, uint64_t old)
{
	size_t i = find(p, old);
	if (i == p->count)
		return old;
	const struct pack_member *m = &p->m[i];
	uint64_t into = old - m->offset;
	/* Past the last member (the archive's end): all growth applies. */
	if (into >= m->extent)
		return old + (p->new_size - p->size);
	return m->new_offset + into;
}

const struct pack_member *pack_plan_member_at(const struct pack_plan *p,
					      uint64_t old)
{
	size_t i = find(p, old);
	return i < p->count && p->m[i].offset == old ? &p->m[i] : NULL;
}
