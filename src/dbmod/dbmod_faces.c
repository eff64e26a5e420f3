/* SPDX-License-Identifier: MIT */
/* dbmod_faces.c - DBnnMOD.BIN face kinds and the walk over a face list. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "dbmod/dbmod.h"
#include "dbmod/dbmod_internal.h"
#include "util/bytes.h"

#define KIND_END 0x00ffu

/* Indexed by enum dbmod_kind; the codes are the GPU's primitive codes. */
const struct dbmod_kind_info dbmod_kinds[DBMOD_KINDS] = {
	[DBMOD_F3] = { 0x20, "F3", 3, false, false, 12 },
	[DBMOD_F4] = { 0x28, "F4", 4, false, false, 12 },
	[DBMOD_G3] = { 0x30, "G3", 3, true, false, 12 },
	[DBMOD_G4] = { 0x38, "G4", 4, true, false, 12 },
	[DBMOD_FT3] = { 0x24, "FT3", 3, false, true, 24 },
	[DBMOD_FT4] = { 0x2c, "FT4", 4, false, true, 24 },
	[DBMOD_GT3] = { 0x34, "GT3", 3, false, true, 24 },
	[DBMOD_GT4] = { 0x3c, "GT4", 4, false, true, 24 },
};

static int kind_of(uint16_t code)
{
	for (int k = 0; k < DBMOD_KINDS; k++)
		if (dbmod_kinds[k].code == code)
			return k;
	return -1;
}

/* Where the face list must end by: the next model's start or the file's
 * end. */
static size_t face_limit(const struct dbmod *db, size_t model)
{
	size_t lo = 0, hi = db->start_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (db->starts[mid] <= model)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < db->start_count && db->starts[lo] < db->len)
		return (size_t)db->starts[lo];
	return db->len;
}

static void read_face(struct cursor *c, enum dbmod_kind kind,
		      struct dbmod_face *f)
{
	f->kind = kind;
	f->flags = cur_u32(c);
	for (int i = 0; i < 4; i++)
		f->v[i] = cur_u8(c);
	for (int i = 0; i < 4; i++)
		f->c[i] = cur_u8(c);
	if (!dbmod_kinds[kind].textured)
		return;
	f->uv[0][0] = cur_u8(c);
	f->uv[0][1] = cur_u8(c);
	f->clut = cur_u16(c);
	f->uv[1][0] = cur_u8(c);
	f->uv[1][1] = cur_u8(c);
	f->tpage = cur_u16(c);
	for (int i = 2; i < 4; i++) {
		f->uv[i][0] = cur_u8(c);
		f->uv[i][1] = cur_u8(c);
	}
}

/* A face's vertex indices, and a G face's colour indices, must name
 * entries that exist; nothing else in a face is an index. */
static bool face_in_range(const struct dbmod_model *m, const struct dbmod_face *f,
			  struct reason *why)
{
	const struct dbmod_kind_info *k = &dbmod_kinds[f->kind];
	for (unsigned i = 0; i < k->corners; i++) {
		if (f->v[i] >= m->vertices) {
			reason_set(why, "face %u (%s at 0x%zx) names "
				"vertex %u, past the count %u", f->index,
				k->name, f->at, f->v[i], m->vertices);
			return false;
		}
		if (k->indexed && f->c[i] >= m->colours) {
			reason_set(why, "face %u (%s at 0x%zx) names "
				"colour %u, past the count %u", f->index,
				k->name, f->at, f->c[i], m->colours);
			return false;
		}
	}
	return true;
}

/* Walks the face list from its start to the 0xff end, calling fn (which
 * may be NULL) with every face.  Sets m->end and m->faces.  The end's
 * section header is u16 0xff and a u16 count; model.bin takes both
 * when they fit before the limit. */
int dbmod_walk_faces(const struct dbmod *db, struct dbmod_model *m,
		      dbmod_face_fn fn, void *ctx, struct reason *why)
{
	size_t limit = face_limit(db, m->offset);
	if (m->face_list >= limit) {
		reason_set(why, "face list at 0x%zx is past the model's "
			"end 0x%zx", m->face_list, limit);
		return -EIO;
	}
	struct cursor c = cursor_make(db->p, limit);
	c.pos = m->face_list;
	uint32_t index = 0;
	memset(m->faces, 0, sizeof m->faces);
	for (;;) {
		size_t section = c.pos;
		uint16_t code = cur_u16(&c);
		if (c.bad)
			break;
		if (code == KIND_END) {
			(void)cur_u16(&c);
			m->end = c.bad ? section + 2 : c.pos;
			return 0;
		}
		uint16_t count = cur_u16(&c);
		int kind = kind_of(code);
		if (c.bad)
			break;
		if (kind < 0) {
			reason_set(why, "unknown face kind 0x%04x at "
				"0x%zx", code, section);
			return -EIO;
		}
		for (uint32_t i = 0; i < count; i++) {
			struct dbmod_face f = { .index = index++, .at = c.pos };
			read_face(&c, (enum dbmod_kind)kind, &f);
			if (c.bad) {
				reason_set(why, "face %u (%s at 0x%zx) "
					"runs past 0x%zx with no 0xff end",
					f.index, dbmod_kinds[kind].name, f.at, limit);
				return -EIO;
			}
			if (!face_in_range(m, &f, why))
				return -EIO;
			m->faces[kind]++;
			int rc = fn ? fn(ctx, &f) : 0;
			if (rc)
				return rc;
		}
	}
	reason_set(why, "face list from 0x%zx reaches 0x%zx (%s) with "
		"no 0xff end", m->face_list, limit,
		limit == db->len ? "the file's end" : "the next model");
	return -EIO;
}
