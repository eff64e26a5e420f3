/* SPDX-License-Identifier: MIT */
/* dbmod.c - DBnnMOD.BIN model databases: the table, offsets, checks. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbmod/dbmod.h"
#include "dbmod/dbmod_internal.h"
#include "util/bytes.h"
#include "util/reason.h"

#define OFFSET_MASK 0x1fffffu           /* low 21 bits of a table word */
#define ID_SHIFT 21
#define ID_COUNT 2048                   /* 11 bits of id */
#define BOUNDS_BYTES 16

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* ---- the table ---- */

bool dbmod_probe(const uint8_t *p, size_t len)
{
	return len >= 4 && rd_u32le(p) == DBMOD_MAGIC;
}

static uint64_t place(const struct dbmod *db, enum dbmod_base base,
		      size_t model, uint32_t at)
{
	size_t from = base == DBMOD_FROM_MODEL ? model : db->table_end;
	return (uint64_t)from + at;
}

/* The header's fields; false when the header runs past the file. */
static bool read_header(const struct dbmod *db, const struct dbmod_entry *e,
			struct dbmod_model *m)
{
	memset(m, 0, sizeof *m);
	m->position = e->position;
	m->id = e->id;
	m->offset = (size_t)e->offset;
	if (e->offset > db->len || db->len - e->offset < DBMOD_HEADER)
		return false;
	struct cursor c = cursor_make(db->p + e->offset, DBMOD_HEADER);
	m->link = cur_u32(&c);
	m->unknown_04 = cur_u32(&c);
	m->radius = cur_u16(&c);
	m->unknown_0a = cur_u16(&c);
	m->bounds_at = cur_u32(&c);
	m->vertices = cur_u16(&c);
	m->colours = cur_u16(&c);
	m->vertices_at = cur_u32(&c);
	m->colours_at = cur_u32(&c);
	m->faces_at = cur_u32(&c);
	return !c.bad;
}

/* Places the four tables under a reading and checks the order of
 * doc/formats/dbmod.md, Offset reading:
 * header end <= bounds <= vertices <= colours <= faces < file size (the
 * colours left out of the chain when there are none, as their offset
 * then means nothing).  Fills m's file offsets when it returns true. */
static bool place_tables(const struct dbmod *db, enum dbmod_base base,
			 struct dbmod_model *m, struct reason *why)
{
	uint64_t hdr_end = (uint64_t)m->offset + DBMOD_HEADER;
	uint64_t b = place(db, base, m->offset, m->bounds_at);
	uint64_t v = place(db, base, m->offset, m->vertices_at);
	uint64_t c = place(db, base, m->offset, m->colours_at);
	uint64_t f = place(db, base, m->offset, m->faces_at);
	bool order = hdr_end <= b && b <= v && f < db->len &&
		     (m->colours ? v <= c && c <= f : v <= f);
	if (!order) {
		reason_set(why, "offsets out of order: header end 0x%"
			PRIx64 ", bounds 0x%" PRIx64 ", vertices 0x%" PRIx64
			", colours 0x%" PRIx64 ", faces 0x%" PRIx64
			", file size 0x%zx", hdr_end, b, v, c, f, db->len);
		return false;
	}
	m->bounds = (size_t)b;
	m->vertex_table = (size_t)v;
	m->colour_table = m->colours ? (size_t)c : 0;
	m->face_list = (size_t)f;
	return true;
}

static int read_table(struct dbmod *db, struct reason *why)
{
	struct cursor c = cursor_make(db->p, db->len);
	uint32_t magic = cur_u32(&c);
	db->count = cur_u16(&c);
	(void)cur_u16(&c);
	if (c.bad || magic != DBMOD_MAGIC) {
		reason_set(why, "no 0xc0de0001 header");
		return -EIO;
	}
	db->table_end = 8 + 4 * (size_t)db->count;
	if (db->table_end > db->len) {
		reason_set(why, "table of %u entries runs past the file "
			"(size 0x%zx)", db->count, db->len);
		return -EIO;
	}
	db->entries = calloc(db->count ? db->count : 1, sizeof *db->entries);
	if (!db->entries)
		return -ENOMEM;
	bool seen[ID_COUNT] = { false };
	for (uint32_t i = 0; i < db->count; i++) {
		struct dbmod_entry *e = &db->entries[i];
		e->position = i;
		e->raw = cur_u32(&c);
		e->present = e->raw != DBMOD_NONE;
		if (!e->present)
			continue;
		e->id = (uint16_t)(e->raw >> ID_SHIFT);
		e->offset = (uint64_t)db->table_end + (e->raw & OFFSET_MASK);
		e->duplicate = seen[e->id];
		seen[e->id] = true;
	}
	return 0;
}

/* The models' starts, sorted: a face list may not run into the next
 * model, which is how a missing 0xff end is told from a long list. */
static int collect_starts(struct dbmod *db)
{
	db->starts = calloc(db->count ? db->count : 1, sizeof *db->starts);
	if (!db->starts)
		return -ENOMEM;
	for (uint32_t i = 0; i < db->count; i++)
		if (db->entries[i].present)
			db->starts[db->start_count++] = db->entries[i].offset;
	qsort(db->starts, db->start_count, sizeof *db->starts, cmp_u64);
	return 0;
}

/* Counts, under each reading, the models whose offsets are in order,
 * and keeps the reading that fits more (the model's start on a tie, which
 * is also the case where every model fits both). */
static void choose_base(struct dbmod *db)
{
	for (uint32_t i = 0; i < db->count; i++) {
		const struct dbmod_entry *e = &db->entries[i];
		struct dbmod_model m;
		if (!e->present || e->duplicate || !read_header(db, e, &m))
			continue;
		db->headers++;
		db->fit_model +=
			place_tables(db, DBMOD_FROM_MODEL, &m, NULL);
		db->fit_table_end +=
			place_tables(db, DBMOD_FROM_TABLE_END, &m, NULL);
	}
	db->base = db->fit_model >= db->fit_table_end ? DBMOD_FROM_MODEL
						       : DBMOD_FROM_TABLE_END;
}

int dbmod_open(struct dbmod *db, const uint8_t *p, size_t len,
	       struct reason *why)
{
	memset(db, 0, sizeof *db);
	db->p = p;
	db->len = len;
	int rc = read_table(db, why);
	if (!rc)
		rc = collect_starts(db);
	if (rc) {
		dbmod_close(db);
		return rc;
	}
	choose_base(db);
	return 0;
}

void dbmod_close(struct dbmod *db)
{
	free(db->entries);
	free(db->starts);
	db->entries = NULL;
	db->starts = NULL;
	db->start_count = 0;
}

long dbmod_find(const struct dbmod *db, uint16_t id)
{
	for (uint32_t i = 0; i < db->count; i++) {
		const struct dbmod_entry *e = &db->entries[i];
		if (e->present && !e->duplicate && e->id == id)
			return (long)i;
	}
	return -1;
}

/* ---- one model ---- */

/* Header, tables in order and inside the file; not the faces. */
static int check_tables(const struct dbmod *db, const struct dbmod_entry *e,
			struct dbmod_model *m, struct reason *why)
{
	if (!read_header(db, e, m)) {
		reason_set(why, "model at 0x%" PRIx64 " runs past the "
			"file (size 0x%zx)", e->offset, db->len);
		return -EIO;
	}
	if (!place_tables(db, db->base, m, why))
		return -EIO;
	struct { const char *name; size_t at; uint64_t bytes; } t[3] = {
		{ "bounds", m->bounds, BOUNDS_BYTES },
		{ "vertex table", m->vertex_table,
		  (uint64_t)m->vertices * DBMOD_VERTEX_BYTES },
		{ "colour table", m->colour_table,
		  (uint64_t)m->colours * DBMOD_COLOUR_BYTES },
	};
	for (int i = 0; i < 3; i++) {
		if (t[i].bytes && t[i].at + t[i].bytes > db->len) {
			reason_set(why, "%s at 0x%zx (0x%" PRIx64
				" bytes) runs past the file (size 0x%zx)",
				t[i].name, t[i].at, t[i].bytes, db->len);
			return -EIO;
		}
	}
	return 0;
}

static int entry_at(const struct dbmod *db, size_t position,
		    const struct dbmod_entry **e, struct reason *why)
{
	if (position >= db->count || !db->entries[position].present) {
		reason_set(why, "no model at table position %zu",
			position);
		return -ENOENT;
	}
	*e = &db->entries[position];
	return 0;
}

/* The whole check, calling fn with every face on the way. */
static int decode(const struct dbmod *db, size_t position,
		  struct dbmod_model *m, dbmod_face_fn fn, void *ctx,
		  struct reason *why)
{
	const struct dbmod_entry *e;
	int rc = entry_at(db, position, &e, why);
	if (!rc)
		rc = check_tables(db, e, m, why);
	if (!rc)
		rc = dbmod_walk_faces(db, m, fn, ctx, why);
	return rc;
}

int dbmod_check(const struct dbmod *db, size_t position,
		struct dbmod_model *m, struct reason *why)
{
	struct dbmod_model local;
	return decode(db, position, m ? m : &local, NULL, NULL, why);
}

int dbmod_model_bytes(const struct dbmod *db, size_t position,
		      size_t *start, size_t *len, struct reason *why)
{
	struct dbmod_model m;
	int rc = dbmod_check(db, position, &m, why);
	if (rc)
		return rc;
	*start = m.offset;
	*len = m.end - m.offset;
	return 0;
}
