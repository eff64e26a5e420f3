/* SPDX-License-Identifier: MIT */
/* table_stream.c - the stream tables (streamTbl, streamTblE), made to
 * follow the STREAM archives' new layouts (doc/formats/pack.md, The
 * tables; archive/strtbl.h).
 *
 * A stream's header record says where the stream starts in its archive
 * (ofs, rounded up to a sector), each later record where its member is
 * from there (ofs, rounded up) and the member's length and inflated
 * length.  A header moves with the byte it names; a member's record
 * gets its member's new offset from the header's, and an edited
 * member's new sizes.  A value that did not change is left as written. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "archive/strtbl.h"
#include "io/elf.h"
#include "pack/table.h"
#include "util/bytes.h"

#define SECTOR 2048u

static uint64_t up(int32_t v)
{
	return ((uint64_t)v + SECTOR - 1) / SECTOR * SECTOR;
}

/* Writes v at the record's field when it differs from old. */
static void put(uint8_t *exe, const struct strtbl_record *r, size_t at,
		uint64_t v, uint64_t old)
{
	if (v != old)
		wr_u32le(exe + r->file_offset + at, (uint32_t)v);
}

/* One stream's records, of the archive laid out by p. */
static int follow(uint8_t *exe, const struct strtbl_voice_table *v,
		  const struct strtbl_stream *st, const struct pack_plan *p,
		  size_t *records, struct reason *why)
{
	uint64_t base = up(st->header.ofs);
	uint64_t nbase = pack_plan_map(p, base);
	if (nbase > INT32_MAX) {
		reason_set(why, "stream %" PRIu32 ": its new offset does not "
			   "fit its field", st->number);
		return -EINVAL;
	}
	put(exe, &st->header, STRTBL_OFS_AT, nbase, base);
	for (size_t i = st->first; i < st->first + st->count; i++) {
		const struct strtbl_file *f = &v->files[i];
		const struct pack_member *m = pack_plan_member_at(p, f->offset);
		if (!m) {
			reason_set(why, "stream %" PRIu32 ": record %s at %"
				   PRIu64 " names no member of the archive",
				   st->number, f->r.name, f->offset);
			return -EINVAL;
		}
		uint64_t rel = m->new_offset - nbase;
		if (m->new_offset < nbase || rel > INT32_MAX ||
		    (m->edited && m->csize > INT32_MAX)) {
			reason_set(why, "stream %" PRIu32 ": record %s: its new "
				   "offset or size does not fit its field",
				   st->number, f->r.name);
			return -EINVAL;
		}
		put(exe, &f->r, STRTBL_OFS_AT, rel, up(f->r.ofs));
		if (m->edited) {
			uint8_t *at = exe + f->r.file_offset;
			wr_u32le(at + STRTBL_SIZE_AT, (uint32_t)m->csize);
			wr_u32le(at + STRTBL_GZIP_AT, m->usize);
		}
		(*records)++;
	}
	(*records)++;
	return 0;
}

/* Every stream of one table that reads the archive at path. */
static int follow_archive(uint8_t *exe, const struct strtbl *t,
			  const char *path, const struct pack_plan *p,
			  size_t *records, struct reason *why)
{
	const char *slash = strrchr(path, '/');
	enum strtbl_voice voice;
	int16_t type;
	if (strtbl_archive(slash ? slash + 1 : path, &voice, &type) < 0)
		return 0;
	const struct strtbl_voice_table *v = &t->voice[voice];
	if (!v->present)
		return 0;
	if (v->bad) {
		reason_set(why, "%s: %s, so its records cannot follow %s",
			   strtbl_symbol(voice), v->why.text, path);
		return -EINVAL;
	}
	int rc = 0;
	for (size_t s = 0; rc == 0 && s < v->nstreams; s++)
		if (v->streams[s].header.type == type)
			rc = follow(exe, v, &v->streams[s], p, records, why);
	return rc;
}

static int patch(uint8_t *exe, size_t len, const struct pack_layout *l,
		 size_t n, size_t *records, struct reason *why)
{
	bool any = false;
	for (size_t i = 0; i < n; i++)
		any |= strncasecmp(l[i].path, "STREAM/", 7) == 0;
	struct elf_image e;
	struct strtbl t;
	struct reason r = { "" };
	if (!any || elf_open(&e, exe, len, &r) < 0 || strtbl_read(&e, &t, &r) < 0)
		return 0;       /* no tables: nothing to follow */
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = follow_archive(exe, &t, l[i].path, l[i].plan, records, why);
	strtbl_free(&t);
	return rc;
}

const struct pack_table_kind pack_table_stream = {
	"the stream tables (streamTbl, streamTblE)", patch,
};
