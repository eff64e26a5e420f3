/* SPDX-License-Identifier: MIT */
/* dbmod.c - DBnnMOD.BIN model databases: table, checks, text and OBJ. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "decode/dbmod.h"

#define OFFSET_MASK 0x1fffffu           /* low 21 bits of a table word */
#define ID_SHIFT 21
#define ID_COUNT 2048                   /* 11 bits of id */
#define BOUNDS_BYTES 16
#define VERTEX_BYTES 8
#define COLOUR_BYTES 4
#define KIND_END 0x00ffu
#define FLAG_SEMI 0x80u                 /* flags bit 7: semi-transparent */

/* ---- small helpers ---- */

static void set_why(char *why, size_t why_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_why(char *why, size_t why_len, const char *fmt, ...)
{
	if (!why || !why_len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
}

/* num/den in decimal, rounded to 8 places, trailing zeros dropped: exact
 * for the u/256 of texture coordinates, and no locale or float printf. */
static void put_ratio(struct strbuf *sb, uint32_t num, uint32_t den)
{
	const uint64_t scale = 100000000u;
	uint64_t twice = (uint64_t)num * scale * 2 + den;
	uint64_t scaled = twice / ((uint64_t)den * 2);
	uint64_t whole = scaled / scale, frac = scaled % scale;
	if (!frac) {
		sb_printf(sb, "%" PRIu64, whole);
		return;
	}
	char digits[9];
	snprintf(digits, sizeof digits, "%08" PRIu64, frac);
	size_t n = 8;
	while (digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	sb_printf(sb, "%" PRIu64 ".%s", whole, digits);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* ---- face kinds ---- */

struct kind_info {
	uint16_t code;
	const char *name;
	unsigned corners;
	bool indexed;           /* bytes 8..11 index the colour table (G3,
				   G4); elsewhere they are r, g, b and
				   code/pad (the seed's layout) */
	bool textured;
	size_t bytes;
};

/* Indexed by enum dbmod_kind; the codes are the GPU's primitive codes. */
static const struct kind_info kinds[DBMOD_KINDS] = {
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
		if (kinds[k].code == code)
			return k;
	return -1;
}

/* One face record as stored.  c: G faces' colour indices; every other
 * kind's r, g, b and code/pad.  GT faces are laid out as FT faces, so
 * their bytes 8..10 are a colour, not indices: checking them against the
 * colour count failed every model whose GT colour was above it. */
struct face {
	enum dbmod_kind kind;
	uint32_t index;         /* in the model's face list */
	size_t at;              /* in the file */
	uint32_t flags;
	uint8_t v[4];
	uint8_t c[4];
	uint8_t uv[4][2];
	uint16_t clut, tpage;
};

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

/* Places the four tables under a reading and checks the seed's order:
 * header end <= bounds <= vertices <= colours <= faces < file size (the
 * colours left out of the chain when there are none, as their offset
 * then means nothing).  Fills m's file offsets when it returns true. */
static bool place_tables(const struct dbmod *db, enum dbmod_base base,
			 struct dbmod_model *m, char *why, size_t why_len)
{
	uint64_t hdr_end = (uint64_t)m->offset + DBMOD_HEADER;
	uint64_t b = place(db, base, m->offset, m->bounds_at);
	uint64_t v = place(db, base, m->offset, m->vertices_at);
	uint64_t c = place(db, base, m->offset, m->colours_at);
	uint64_t f = place(db, base, m->offset, m->faces_at);
	bool order = hdr_end <= b && b <= v && f < db->len &&
		     (m->colours ? v <= c && c <= f : v <= f);
	if (!order) {
		set_why(why, why_len, "offsets out of order: header end 0x%"
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

static int read_table(struct dbmod *db, char *why, size_t why_len)
{
	struct cursor c = cursor_make(db->p, db->len);
	uint32_t magic = cur_u32(&c);
	db->count = cur_u16(&c);
	(void)cur_u16(&c);
	if (c.bad || magic != DBMOD_MAGIC) {
		set_why(why, why_len, "no 0xc0de0001 header");
		return -EIO;
	}
	db->table_end = 8 + 4 * (size_t)db->count;
	if (db->table_end > db->len) {
		set_why(why, why_len, "table of %u entries runs past the file "
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
			place_tables(db, DBMOD_FROM_MODEL, &m, NULL, 0);
		db->fit_table_end +=
			place_tables(db, DBMOD_FROM_TABLE_END, &m, NULL, 0);
	}
	db->base = db->fit_model >= db->fit_table_end ? DBMOD_FROM_MODEL
						       : DBMOD_FROM_TABLE_END;
}

int dbmod_open(struct dbmod *db, const uint8_t *p, size_t len,
	       char *why, size_t why_len)
{
	memset(db, 0, sizeof *db);
	db->p = p;
	db->len = len;
	int rc = read_table(db, why, why_len);
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

/* ---- faces ---- */

typedef int (*face_fn)(void *ctx, const struct face *f);

static void read_face(struct cursor *c, enum dbmod_kind kind,
		      struct face *f)
{
	f->kind = kind;
	f->flags = cur_u32(c);
	for (int i = 0; i < 4; i++)
		f->v[i] = cur_u8(c);
	for (int i = 0; i < 4; i++)
		f->c[i] = cur_u8(c);
	if (!kinds[kind].textured)
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
static bool face_in_range(const struct dbmod_model *m, const struct face *f,
			  char *why, size_t why_len)
{
	const struct kind_info *k = &kinds[f->kind];
	for (unsigned i = 0; i < k->corners; i++) {
		if (f->v[i] >= m->vertices) {
			set_why(why, why_len, "face %u (%s at 0x%zx) names "
				"vertex %u, past the count %u", f->index,
				k->name, f->at, f->v[i], m->vertices);
			return false;
		}
		if (k->indexed && f->c[i] >= m->colours) {
			set_why(why, why_len, "face %u (%s at 0x%zx) names "
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
static int walk_faces(const struct dbmod *db, struct dbmod_model *m,
		      face_fn fn, void *ctx, char *why, size_t why_len)
{
	size_t limit = face_limit(db, m->offset);
	if (m->face_list >= limit) {
		set_why(why, why_len, "face list at 0x%zx is past the model's "
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
			set_why(why, why_len, "unknown face kind 0x%04x at "
				"0x%zx", code, section);
			return -EIO;
		}
		for (uint32_t i = 0; i < count; i++) {
			struct face f = { .index = index++, .at = c.pos };
			read_face(&c, (enum dbmod_kind)kind, &f);
			if (c.bad) {
				set_why(why, why_len, "face %u (%s at 0x%zx) "
					"runs past 0x%zx with no 0xff end",
					f.index, kinds[kind].name, f.at, limit);
				return -EIO;
			}
			if (!face_in_range(m, &f, why, why_len))
				return -EIO;
			m->faces[kind]++;
			int rc = fn ? fn(ctx, &f) : 0;
			if (rc)
				return rc;
		}
	}
	set_why(why, why_len, "face list from 0x%zx reaches 0x%zx (%s) with "
		"no 0xff end", m->face_list, limit,
		limit == db->len ? "the file's end" : "the next model");
	return -EIO;
}

/* ---- one model ---- */

/* Header, tables in order and inside the file; not the faces. */
static int check_tables(const struct dbmod *db, const struct dbmod_entry *e,
			struct dbmod_model *m, char *why, size_t why_len)
{
	if (!read_header(db, e, m)) {
		set_why(why, why_len, "model at 0x%" PRIx64 " runs past the "
			"file (size 0x%zx)", e->offset, db->len);
		return -EIO;
	}
	if (!place_tables(db, db->base, m, why, why_len))
		return -EIO;
	struct { const char *name; size_t at; uint64_t bytes; } t[3] = {
		{ "bounds", m->bounds, BOUNDS_BYTES },
		{ "vertex table", m->vertex_table,
		  (uint64_t)m->vertices * VERTEX_BYTES },
		{ "colour table", m->colour_table,
		  (uint64_t)m->colours * COLOUR_BYTES },
	};
	for (int i = 0; i < 3; i++) {
		if (t[i].bytes && t[i].at + t[i].bytes > db->len) {
			set_why(why, why_len, "%s at 0x%zx (0x%" PRIx64
				" bytes) runs past the file (size 0x%zx)",
				t[i].name, t[i].at, t[i].bytes, db->len);
			return -EIO;
		}
	}
	return 0;
}

static int entry_at(const struct dbmod *db, size_t position,
		    const struct dbmod_entry **e, char *why, size_t why_len)
{
	if (position >= db->count || !db->entries[position].present) {
		set_why(why, why_len, "no model at table position %zu",
			position);
		return -ENOENT;
	}
	*e = &db->entries[position];
	return 0;
}

/* The whole check, calling fn with every face on the way. */
static int decode(const struct dbmod *db, size_t position,
		  struct dbmod_model *m, face_fn fn, void *ctx,
		  char *why, size_t why_len)
{
	const struct dbmod_entry *e;
	int rc = entry_at(db, position, &e, why, why_len);
	if (!rc)
		rc = check_tables(db, e, m, why, why_len);
	if (!rc)
		rc = walk_faces(db, m, fn, ctx, why, why_len);
	return rc;
}

int dbmod_check(const struct dbmod *db, size_t position,
		struct dbmod_model *m, char *why, size_t why_len)
{
	struct dbmod_model local;
	return decode(db, position, m ? m : &local, NULL, NULL, why, why_len);
}

int dbmod_model_bytes(const struct dbmod *db, size_t position,
		      size_t *start, size_t *len, char *why, size_t why_len)
{
	struct dbmod_model m;
	int rc = dbmod_check(db, position, &m, why, why_len);
	if (rc)
		return rc;
	*start = m.offset;
	*len = m.end - m.offset;
	return 0;
}

/* ---- model.txt ---- */

static const char *base_name(enum dbmod_base base)
{
	return base == DBMOD_FROM_MODEL ? "the model's start"
					: "the table's end";
}


static void text_face(struct strbuf *sb, const struct face *f)
{
	const struct kind_info *k = &kinds[f->kind];
	sb_printf(sb, "face %u %s at 0x%zx: flags 0x%08x v %u %u %u",
		  f->index, k->name, f->at, f->flags, f->v[0], f->v[1],
		  f->v[2]);
	sb_printf(sb, k->corners == 4 ? " %u" : " pad %u", f->v[3]);
	if (k->indexed)
		sb_printf(sb, " colours %u %u %u%s%u", f->c[0], f->c[1],
			  f->c[2], k->corners == 4 ? " " : " pad ", f->c[3]);
	else
		sb_printf(sb, " rgb %u %u %u %s 0x%02x", f->c[0], f->c[1],
			  f->c[2], k->textured ? "pad" : "code", f->c[3]);
	if (k->textured)
		sb_printf(sb, " uv %u,%u %u,%u %u,%u%s%u,%u clut 0x%04x "
			  "tpage 0x%04x", f->uv[0][0], f->uv[0][1],
			  f->uv[1][0], f->uv[1][1], f->uv[2][0], f->uv[2][1],
			  k->corners == 4 ? " " : " pad ", f->uv[3][0],
			  f->uv[3][1], f->clut, f->tpage);
	sb_puts(sb, "\n");
}

static int text_face_cb(void *ctx, const struct face *f)
{
	text_face(ctx, f);
	return 0;
}

static void text_header(struct strbuf *sb, const struct dbmod *db,
			const struct dbmod_model *m)
{
	const uint8_t *b = db->p + m->bounds;
	sb_printf(sb, "id %04u\nposition %u\noffset 0x%zx\n"
		  "link 0x%08x\nunknown_04 0x%08x\nradius %u\n"
		  "unknown_0a 0x%04x\n", m->id, m->position, m->offset,
		  m->link, m->unknown_04, m->radius, m->unknown_0a);
	sb_printf(sb, "# the _at fields count from %s\n",
		  base_name(db->base));
	sb_printf(sb, "bounds_at 0x%08x (file 0x%zx):", m->bounds_at,
		  m->bounds);
	for (int i = 0; i < 8; i++)
		sb_printf(sb, " %d", (int16_t)rd_u16le(b + 2 * i));
	sb_printf(sb, "\nvertices %u\ncolours %u\n"
		  "vertices_at 0x%08x (file 0x%zx)\n", m->vertices,
		  m->colours, m->vertices_at, m->vertex_table);
	if (m->colours)
		sb_printf(sb, "colours_at 0x%08x (file 0x%zx)\n",
			  m->colours_at, m->colour_table);
	else
		sb_printf(sb, "colours_at 0x%08x (unused)\n", m->colours_at);
	sb_printf(sb, "faces_at 0x%08x (file 0x%zx)\nend 0x%zx "
		  "(model.bin: %zu bytes)\nfaces", m->faces_at, m->face_list,
		  m->end, m->end - m->offset);
	for (int k = 0; k < DBMOD_KINDS; k++)
		sb_printf(sb, " %s %u", kinds[k].name, m->faces[k]);
	sb_puts(sb, "\n");
}

int dbmod_model_text(const struct dbmod *db, size_t position,
		     struct strbuf *out, char *why, size_t why_len)
{
	struct dbmod_model m;
	int rc = dbmod_check(db, position, &m, why, why_len);
	if (rc)
		return rc;
	text_header(out, db, &m);
	rc = walk_faces(db, &m, text_face_cb, out, why, why_len);
	if (rc)
		return rc;
	return out->failed ? -ENOMEM : 0;
}

/* ---- model.obj ---- */

/* An OBJ vertex: a stored vertex with one corner colour. */
struct obj_vertex {
	uint16_t vertex;
	uint32_t rgb;           /* r | g << 8 | b << 16, or NONE: no face */
};

#define NONE 0xffffffffu

/* A material's key: textured faces by (tpage, clut, semi); untextured
 * ones by semi and, when semi, the blend mode from flags bits 5-6. */
struct obj_material {
	bool textured, semi;
	uint16_t tpage, clut;
	uint8_t blend;
};

/* An open-addressing map of 64-bit keys to indices, so hostile models
 * (one vertex in thousands of colours) stay linear. */
struct hmap {
	uint64_t *keys;         /* key + 1; 0 empty */
	uint32_t *vals;
	size_t cap, count;
};

static size_t hmap_home(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static uint32_t hmap_get(const struct hmap *h, uint64_t key)
{
	if (!h->cap)
		return NONE;
	for (size_t j = hmap_home(key, h->cap); h->keys[j];
	     j = (j + 1) & (h->cap - 1))
		if (h->keys[j] == key + 1)
			return h->vals[j];
	return NONE;
}

static bool hmap_put(struct hmap *h, uint64_t key, uint32_t val)
{
	if ((h->count + 1) * 2 > h->cap) {
		struct hmap n = { NULL, NULL, h->cap ? h->cap * 2 : 64, 0 };
		n.keys = calloc(n.cap, sizeof *n.keys);
		n.vals = calloc(n.cap, sizeof *n.vals);
		if (!n.keys || !n.vals) {
			free(n.keys);
			free(n.vals);
			return false;
		}
		for (size_t i = 0; i < h->cap; i++)
			if (h->keys[i])
				(void)hmap_put(&n, h->keys[i] - 1, h->vals[i]);
		free(h->keys);
		free(h->vals);
		*h = n;
	}
	size_t j = hmap_home(key, h->cap);
	while (h->keys[j])
		j = (j + 1) & (h->cap - 1);
	h->keys[j] = key + 1;
	h->vals[j] = val;
	h->count++;
	return true;
}

static void hmap_free(struct hmap *h)
{
	free(h->keys);
	free(h->vals);
}

struct obj_state {
	const struct dbmod *db;
	const struct dbmod_model *m;
	/* OBJ vertices: the stored ones in order, then the repeats in other
	 * colours; found by (vertex << 24 | rgb). */
	struct obj_vertex *verts;
	size_t vert_count, vert_cap;
	struct hmap vert_map;
	/* vt: (u << 8 | v) -> OBJ index (1-based), in order of first use. */
	uint32_t *uv_index;
	uint16_t *uvs;
	size_t uv_count, uv_cap;
	/* materials in order of first use. */
	struct obj_material *mats;
	size_t mat_count, mat_cap;
	struct hmap mat_map;
	struct strbuf *obj;
	uint64_t current_key;   /* the last usemtl's key + 1, 0 none */
};

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t cap2 = *cap ? *cap * 2 : 64;
	while (cap2 < need)
		cap2 *= 2;
	void *q = realloc(*p, cap2 * size);
	if (!q)
		return false;
	*p = q;
	*cap = cap2;
	return true;
}

static uint32_t corner_rgb(const struct obj_state *s, const struct face *f,
			   unsigned i)
{
	if (!kinds[f->kind].indexed)
		return f->c[0] | (uint32_t)f->c[1] << 8 |
		       (uint32_t)f->c[2] << 16;
	const uint8_t *c = s->db->p + s->m->colour_table +
			   (size_t)f->c[i] * COLOUR_BYTES;
	return c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16;
}

static uint64_t material_key(const struct face *f,
			     struct obj_material *mat)
{
	memset(mat, 0, sizeof *mat);
	mat->textured = kinds[f->kind].textured;
	mat->semi = f->flags & FLAG_SEMI;
	if (mat->textured) {
		mat->tpage = f->tpage;
		mat->clut = f->clut;
	} else if (mat->semi) {
		mat->blend = (uint8_t)((f->flags >> 5) & 3);
	}
	return (uint64_t)mat->tpage | (uint64_t)mat->clut << 16 |
	       (uint64_t)mat->semi << 32 | (uint64_t)mat->blend << 33 |
	       (uint64_t)mat->textured << 35;
}

static uint64_t vertex_key(uint16_t v, uint32_t rgb)
{
	return (uint64_t)v << 24 | rgb;
}

/* The OBJ vertex (0-based) of stored vertex v in colour rgb, added as a
 * repeat when new; NONE when out of memory. */
static uint32_t vertex_for(struct obj_state *s, uint16_t v, uint32_t rgb)
{
	uint32_t i = hmap_get(&s->vert_map, vertex_key(v, rgb));
	if (i != NONE)
		return i;
	if (!grow((void **)&s->verts, &s->vert_cap, s->vert_count + 1,
		  sizeof *s->verts))
		return NONE;
	i = (uint32_t)s->vert_count;
	if (!hmap_put(&s->vert_map, vertex_key(v, rgb), i))
		return NONE;
	s->verts[s->vert_count++] = (struct obj_vertex){ v, rgb };
	return i;
}

static uint32_t uv_for(struct obj_state *s, const uint8_t uv[2])
{
	uint16_t key = (uint16_t)(uv[0] << 8 | uv[1]);
	if (s->uv_index[key])
		return s->uv_index[key];
	if (!grow((void **)&s->uvs, &s->uv_cap, s->uv_count + 1,
		  sizeof *s->uvs))
		return 0;
	s->uvs[s->uv_count++] = key;
	return s->uv_index[key] = (uint32_t)s->uv_count;
}

static bool material_add(struct obj_state *s, const struct face *f)
{
	struct obj_material mat;
	uint64_t key = material_key(f, &mat);
	if (hmap_get(&s->mat_map, key) != NONE)
		return true;
	if (!grow((void **)&s->mats, &s->mat_cap, s->mat_count + 1,
		  sizeof *s->mats) ||
	    !hmap_put(&s->mat_map, key, (uint32_t)s->mat_count))
		return false;
	s->mats[s->mat_count++] = mat;
	return true;
}

/* Pass one: every (vertex, colour) pair, (u, v) pair and material, in
 * order of first use, so the vertex lines can all come first. */
static int collect_cb(void *ctx, const struct face *f)
{
	struct obj_state *s = ctx;
	const struct kind_info *k = &kinds[f->kind];
	for (unsigned i = 0; i < k->corners; i++) {
		if (vertex_for(s, f->v[i], corner_rgb(s, f, i)) == NONE)
			return -ENOMEM;
		if (k->textured && !uv_for(s, f->uv[i]))
			return -ENOMEM;
	}
	return material_add(s, f) ? 0 : -ENOMEM;
}

static void material_name(struct strbuf *sb, const struct obj_material *m)
{
	if (m->textured)
		sb_printf(sb, "tpage_%04x_clut_%04x%s", m->tpage, m->clut,
			  m->semi ? "_semi" : "");
	else if (m->semi)
		sb_printf(sb, "untextured_semi%u", m->blend);
	else
		sb_puts(sb, "untextured");
}

/* The GPU's order: quads draw v0 v1 v2 and v1 v2 v3, so the outline is
 * v0 v1 v3 v2. */
static const unsigned quad_order[4] = { 0, 1, 3, 2 };

/* Pass two: usemtl when the material changes, then the face. */
static int face_cb(void *ctx, const struct face *f)
{
	struct obj_state *s = ctx;
	const struct kind_info *k = &kinds[f->kind];
	struct obj_material mat;
	uint64_t key = material_key(f, &mat) + 1;
	if (key != s->current_key) {
		sb_puts(s->obj, "usemtl ");
		material_name(s->obj, &mat);
		sb_puts(s->obj, "\n");
		s->current_key = key;
	}
	sb_puts(s->obj, "f");
	for (unsigned n = 0; n < k->corners; n++) {
		unsigned i = k->corners == 4 ? quad_order[n] : n;
		uint32_t v = vertex_for(s, f->v[i], corner_rgb(s, f, i));
		sb_printf(s->obj, " %u", v + 1);
		if (k->textured)
			sb_printf(s->obj, "/%u", uv_for(s, f->uv[i]));
	}
	sb_puts(s->obj, "\n");
	return 0;
}

static void put_colour(struct strbuf *sb, uint32_t rgb)
{
	for (int i = 0; i < 3; i++) {
		sb_puts(sb, " ");
		put_ratio(sb, (rgb >> (8 * i)) & 0xff, 255);
	}
}

/* v lines: every stored vertex in order (with its first corner colour;
 * none when no face uses it), then the repeats in other colours. */
static void write_vertices(struct obj_state *s)
{
	const struct dbmod_model *m = s->m;
	const uint8_t *t = s->db->p + m->vertex_table;
	for (uint32_t i = 0; i < s->vert_count; i++) {
		const uint8_t *v = t + (size_t)s->verts[i].vertex *
				       VERTEX_BYTES;
		sb_printf(s->obj, "v %d %d %d", (int16_t)rd_u16le(v),
			  (int16_t)rd_u16le(v + 2), (int16_t)rd_u16le(v + 4));
		if (s->verts[i].rgb != NONE)
			put_colour(s->obj, s->verts[i].rgb);
		sb_puts(s->obj, "\n");
	}
	for (size_t i = 0; i < s->uv_count; i++) {
		sb_puts(s->obj, "vt ");
		put_ratio(s->obj, s->uvs[i] >> 8, 256);
		sb_puts(s->obj, " ");
		put_ratio(s->obj, 256 - (s->uvs[i] & 0xff), 256);
		sb_puts(s->obj, "\n");
	}
}

static const char *const blend_modes[4] = {
	"back/2 + front/2", "back + front", "back - front", "back + front/4",
};

static void write_material(struct strbuf *mtl, const struct obj_material *m)
{
	sb_puts(mtl, "newmtl ");
	material_name(mtl, m);
	sb_puts(mtl, "\n");
	if (m->textured) {
		static const char *const depth[4] = {
			"4-bit", "8-bit", "15-bit", "reserved" };
		sb_printf(mtl, "# tpage 0x%04x: VRAM page x %u y %u, %s, "
			  "blend %u (%s)\n", m->tpage, (m->tpage & 15) * 64,
			  (m->tpage >> 4 & 1) * 256, depth[m->tpage >> 7 & 3],
			  m->tpage >> 5 & 3, blend_modes[m->tpage >> 5 & 3]);
		sb_printf(mtl, "# clut 0x%04x: VRAM x %u y %u\n", m->clut,
			  (m->clut & 63) * 16, m->clut >> 6 & 511);
	}
	sb_puts(mtl, "Kd 1 1 1\n");
	if (m->semi) {
		unsigned blend = m->textured ? (m->tpage >> 5 & 3) : m->blend;
		sb_printf(mtl, "# semi-transparent (face flags bit 7): %s\n"
			  "d 0.5\n", blend_modes[blend]);
	}
	sb_puts(mtl, "\n");
}

static void obj_state_free(struct obj_state *s)
{
	free(s->verts);
	hmap_free(&s->vert_map);
	free(s->uv_index);
	free(s->uvs);
	free(s->mats);
	hmap_free(&s->mat_map);
}

/* Every stored vertex is an OBJ vertex first, so vertex i is OBJ vertex
 * i + 1 in the colour of the first face corner that uses it. */
static int obj_state_init(struct obj_state *s, const struct dbmod *db,
			  const struct dbmod_model *m, struct strbuf *obj)
{
	memset(s, 0, sizeof *s);
	s->db = db;
	s->m = m;
	s->obj = obj;
	s->uv_index = calloc(65536, sizeof *s->uv_index);
	if (!s->uv_index || !grow((void **)&s->verts, &s->vert_cap,
				  m->vertices + 1u, sizeof *s->verts))
		return -ENOMEM;
	for (uint32_t i = 0; i < m->vertices; i++)
		s->verts[i] = (struct obj_vertex){ (uint16_t)i, NONE };
	s->vert_count = m->vertices;
	return 0;
}

/* Pass zero: the first corner to use a stored vertex gives it its
 * colour. */
static int claim_cb(void *ctx, const struct face *f)
{
	struct obj_state *s = ctx;
	for (unsigned i = 0; i < kinds[f->kind].corners; i++) {
		struct obj_vertex *v = &s->verts[f->v[i]];
		if (v->rgb != NONE)
			continue;
		v->rgb = corner_rgb(s, f, i);
		if (!hmap_put(&s->vert_map, vertex_key(f->v[i], v->rgb),
			      f->v[i]))
			return -ENOMEM;
	}
	return 0;
}

int dbmod_model_obj(const struct dbmod *db, size_t position,
		    struct strbuf *obj, struct strbuf *mtl,
		    char *why, size_t why_len)
{
	struct dbmod_model m;
	int rc = dbmod_check(db, position, &m, why, why_len);
	if (rc)
		return rc;
	struct obj_state s;
	rc = obj_state_init(&s, db, &m, obj);
	if (!rc)
		rc = walk_faces(db, &m, claim_cb, &s, why, why_len);
	if (!rc)
		rc = walk_faces(db, &m, collect_cb, &s, why, why_len);
	if (!rc) {
		sb_printf(obj, "# DBnnMOD.BIN model %04u (table position %u)\n"
			  "mtllib model.mtl\n", m.id, m.position);
		write_vertices(&s);
		rc = walk_faces(db, &m, face_cb, &s, why, why_len);
	}
	for (size_t i = 0; !rc && mtl && i < s.mat_count; i++)
		write_material(mtl, &s.mats[i]);
	obj_state_free(&s);
	if (!rc && (obj->failed || (mtl && mtl->failed)))
		rc = -ENOMEM;
	return rc;
}

/* ---- models.txt ---- */

int dbmod_models_text(const struct dbmod *db, struct strbuf *out)
{
	sb_printf(out, "# %u table entries; offsets from the file's start\n"
		  "# _at fields count from %s: models in order under it %u, "
		  "under %s %u, of %u with a whole header\n",
		  db->count, base_name(db->base),
		  db->base == DBMOD_FROM_MODEL ? db->fit_model
					       : db->fit_table_end,
		  base_name(db->base == DBMOD_FROM_MODEL
				    ? DBMOD_FROM_TABLE_END : DBMOD_FROM_MODEL),
		  db->base == DBMOD_FROM_MODEL ? db->fit_table_end
					       : db->fit_model,
		  db->headers);
	sb_puts(out, "# position id offset radius vertices colours");
	for (int k = 0; k < DBMOD_KINDS; k++)
		sb_printf(out, " %s", kinds[k].name);
	sb_puts(out, "\n");
	for (uint32_t i = 0; i < db->count; i++) {
		const struct dbmod_entry *e = &db->entries[i];
		if (!e->present) {
			sb_printf(out, "%u none\n", i);
			continue;
		}
		sb_printf(out, "%u %04u 0x%" PRIx64, i, e->id, e->offset);
		struct dbmod_model m;
		char why[DBMOD_WHY];
		if (dbmod_check(db, i, &m, why, sizeof why)) {
			sb_printf(out, " error: %s\n", why);
			continue;
		}
		sb_printf(out, " %u %u %u", m.radius, m.vertices, m.colours);
		for (int k = 0; k < DBMOD_KINDS; k++)
			sb_printf(out, " %u", m.faces[k]);
		sb_puts(out, e->duplicate ? " duplicate id: not shown\n"
					  : "\n");
	}
	return out->failed ? -ENOMEM : 0;
}
