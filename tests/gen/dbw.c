/* SPDX-License-Identifier: MIT */
/* dbw.c - synthetic DBnnMOD.BIN model databases. */
#include "dbw.h"

#include <stdlib.h>
#include <string.h>

#define MAGIC 0xc0de0001u
#define HEADER 0x20u
#define BOUNDS 16u
#define PAST_FILE_OFFSET 0x1ffff0u

/* A growable little-endian byte buffer. */
struct out {
	uint8_t *p;
	size_t len, cap;
	bool failed;
};

static uint8_t *room(struct out *o, size_t n)
{
	if (o->failed)
		return NULL;
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 1024;
		while (cap < o->len + n)
			cap *= 2;
		uint8_t *p = realloc(o->p, cap);
		if (!p) {
			o->failed = true;
			return NULL;
		}
		o->p = p;
		o->cap = cap;
	}
	uint8_t *at = o->p + o->len;
	o->len += n;
	return at;
}

static void put8(struct out *o, uint8_t v)
{
	uint8_t *p = room(o, 1);
	if (p)
		p[0] = v;
}

static void put16(struct out *o, uint16_t v)
{
	put8(o, (uint8_t)v);
	put8(o, (uint8_t)(v >> 8));
}

static void put32(struct out *o, uint32_t v)
{
	put16(o, (uint16_t)v);
	put16(o, (uint16_t)(v >> 16));
}

static void set32(struct out *o, size_t at, uint32_t v)
{
	if (o->failed)
		return;
	for (int i = 0; i < 4; i++)
		o->p[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

static bool textured(uint16_t kind)
{
	return kind & 0x04;
}

static void put_face(struct out *o, const struct dbw_face *f,
		     const uint8_t v[4])
{
	put32(o, f->flags);
	for (int i = 0; i < 4; i++)
		put8(o, v[i]);
	for (int i = 0; i < 4; i++)
		put8(o, f->c[i]);
	if (!textured(f->kind))
		return;
	put8(o, f->uv[0][0]);
	put8(o, f->uv[0][1]);
	put16(o, f->clut);
	put8(o, f->uv[1][0]);
	put8(o, f->uv[1][1]);
	put16(o, f->tpage);
	for (int i = 2; i < 4; i++) {
		put8(o, f->uv[i][0]);
		put8(o, f->uv[i][1]);
	}
}

/* Sections: one per run of faces of the same kind. */
static void put_faces(struct out *o, const struct dbw_model *m)
{
	size_t i = 0;
	while (i < m->face_count) {
		size_t run = 1;
		while (i + run < m->face_count &&
		       m->faces[i + run].kind == m->faces[i].kind)
			run++;
		put16(o, m->faces[i].kind);
		put16(o, (uint16_t)run);
		for (size_t j = i; j < i + run; j++) {
			uint8_t v[4];
			memcpy(v, m->faces[j].v, 4);
			if (j == 0 && m->fault == DBW_BAD_VERTEX)
				v[0] = (uint8_t)m->vertex_count;
			put_face(o, &m->faces[j], v);
		}
		i += run;
	}
	if (m->fault != DBW_NO_END) {
		put16(o, 0xff);
		put16(o, 0);
	}
}

/* The header with its _at fields filled in once the tables are placed. */
static void put_model(struct out *o, const struct dbw_model *m,
		      size_t table_end, enum dbw_base base)
{
	size_t start = o->len;
	size_t from = base == DBW_FROM_MODEL ? start : table_end;
	put32(o, m->link);
	put32(o, m->unknown_04);
	put16(o, m->radius);
	put16(o, m->unknown_0a);
	put32(o, (uint32_t)(start + HEADER - from));
	put16(o, m->vertex_count);
	put16(o, m->colour_count);
	put32(o, 0);
	put32(o, 0);
	put32(o, 0);
	for (int i = 0; i < 8; i++)
		put16(o, (uint16_t)m->bounds[i]);
	size_t vertices = o->len;
	for (uint16_t i = 0; i < m->vertex_count; i++)
		for (int k = 0; k < 4; k++)
			put16(o, (uint16_t)m->vertices[i][k]);
	size_t colours = o->len;
	for (uint16_t i = 0; i < m->colour_count; i++)
		for (int k = 0; k < 4; k++)
			put8(o, m->colours[i][k]);
	size_t faces = o->len;
	put_faces(o, m);
	set32(o, start + 0x14, (uint32_t)(vertices - from));
	set32(o, start + 0x18, (uint32_t)(colours - from));
	set32(o, start + 0x1c, (uint32_t)(faces - from));
}

uint8_t *dbw_build(const struct dbw_entry *table, size_t count,
		   enum dbw_base base, size_t *len)
{
	struct out o = { NULL, 0, 0, false };
	size_t table_end = 8 + 4 * count;
	put32(&o, MAGIC);
	put16(&o, (uint16_t)count);
	put16(&o, 0);
	for (size_t i = 0; i < count; i++)
		put32(&o, 0xffffffffu);
	for (size_t i = 0; i < count; i++) {
		const struct dbw_model *m = table[i].model;
		if (!m)
			continue;
		uint32_t id = (uint32_t)m->id << 21;
		if (m->fault == DBW_PAST_FILE) {
			set32(&o, 8 + 4 * i, id | PAST_FILE_OFFSET);
			continue;
		}
		set32(&o, 8 + 4 * i, id | (uint32_t)(o.len - table_end));
		put_model(&o, m, table_end, base);
	}
	if (o.failed) {
		free(o.p);
		return NULL;
	}
	*len = o.len;
	return o.p;
}

/* ---- canned databases ---- */

static const int16_t tri_vertices[3][4] = {
	{ 0, 0, 0, 0 }, { 100, 0, 0, 0 }, { 0, 100, 0, 0 },
};

static const struct dbw_face tri_face[1] = {
	{ .kind = DBW_F3, .v = { 0, 1, 2, 0 }, .c = { 255, 255, 255, 0x20 } },
};

/* id 0: one flat white triangle. */
static const struct dbw_model model_tri = {
	.id = 0, .radius = 100, .bounds = { 0, 0, 0, 0, 100, 100, 0, 0 },
	.vertices = tri_vertices, .vertex_count = 3,
	.faces = tri_face, .face_count = 1,
};

static const int16_t every_vertices[6][4] = {
	{ -100, -100, 0, 0 }, { 100, -100, 0, 0 }, { -100, 100, 0, 0 },
	{ 100, 100, 0, 0 }, { -50, 200, -30, 0 }, { 50, 200, -30, 0 },
};

static const uint8_t every_colours[4][4] = {
	{ 255, 0, 0, 0 }, { 0, 255, 0, 0 }, { 0, 0, 255, 0 },
	{ 128, 128, 128, 0 },
};

/* Every kind once, in the order F3 F4 G3 G4 FT3 FT4 GT3 GT4.  Vertex 0
 * is red in F3 and green in F4 (a repeat); F4 and FT4 are semi-
 * transparent; FT faces use (tpage 0x001f, clut 0x7fc0), GT faces
 * (0x0090, 0x7f80).  GT faces hold r, g, b as FT faces do (seeds/002),
 * here above the colour count, which a reader must not take for
 * indices. */
static const struct dbw_face every_faces[8] = {
	{ .kind = DBW_F3, .v = { 0, 1, 2, 0 }, .c = { 255, 0, 0, 0x20 } },
	{ .kind = DBW_F4, .flags = 0xa0, .v = { 0, 1, 2, 3 },
	  .c = { 0, 255, 0, 0x28 } },
	{ .kind = DBW_G3, .v = { 1, 2, 3, 0 }, .c = { 0, 1, 2, 0 } },
	{ .kind = DBW_G4, .flags = 0x101, .v = { 2, 3, 4, 5 },
	  .c = { 0, 1, 2, 3 } },
	{ .kind = DBW_FT3, .v = { 0, 1, 2, 0 }, .c = { 128, 128, 128, 0 },
	  .uv = { { 0, 0 }, { 32, 0 }, { 0, 32 }, { 0, 0 } },
	  .clut = 0x7fc0, .tpage = 0x001f },
	{ .kind = DBW_FT4, .flags = 0x80, .v = { 0, 1, 2, 3 },
	  .c = { 128, 128, 128, 0 },
	  .uv = { { 0, 0 }, { 64, 0 }, { 0, 64 }, { 64, 64 } },
	  .clut = 0x7fc0, .tpage = 0x001f },
	{ .kind = DBW_GT3, .v = { 3, 4, 5, 0 }, .c = { 200, 100, 50, 0 },
	  .uv = { { 128, 128 }, { 255, 128 }, { 128, 255 }, { 0, 0 } },
	  .clut = 0x7f80, .tpage = 0x0090 },
	{ .kind = DBW_GT4, .v = { 2, 3, 4, 5 }, .c = { 43, 7, 255, 0 },
	  .uv = { { 0, 0 }, { 16, 0 }, { 0, 16 }, { 16, 16 } },
	  .clut = 0x7f80, .tpage = 0x0090 },
};

/* id 1: every face kind. */
static const struct dbw_model model_every = {
	.id = 1, .link = 0x12345678, .radius = 250, .unknown_0a = 0xbeef,
	.bounds = { -100, -100, -30, 0, 100, 200, 0, 0 },
	.vertices = every_vertices, .vertex_count = 6,
	.colours = every_colours, .colour_count = 4,
	.faces = every_faces, .face_count = 8,
};

static const struct dbw_face gouraud_faces[2] = {
	{ .kind = DBW_G3, .v = { 0, 1, 2, 0 }, .c = { 0, 1, 2, 0 } },
	{ .kind = DBW_G3, .v = { 1, 3, 2, 0 }, .c = { 1, 3, 2, 0 } },
};

/* id 5: two gouraud triangles sharing an edge. */
static const struct dbw_model model_gouraud = {
	.id = 5, .radius = 150, .vertices = every_vertices, .vertex_count = 4,
	.colours = every_colours, .colour_count = 4,
	.faces = gouraud_faces, .face_count = 2,
};

static const struct dbw_face quad_face[1] = {
	{ .kind = DBW_FT4, .v = { 0, 1, 2, 3 }, .c = { 128, 128, 128, 0 },
	  .uv = { { 0, 0 }, { 255, 0 }, { 0, 255 }, { 255, 255 } },
	  .clut = 0x7fc0, .tpage = 0x001f },
};

/* id 102: one textured quad (ids and positions part ways, as in DB22). */
static const struct dbw_model model_quad = {
	.id = 102, .radius = 141, .vertices = every_vertices,
	.vertex_count = 4, .faces = quad_face, .face_count = 1,
};

uint8_t *dbw_every_kind(enum dbw_base base, size_t *len)
{
	const struct dbw_entry table[5] = {
		{ &model_tri }, { &model_every }, { NULL }, { &model_gouraud },
		{ &model_quad },
	};
	return dbw_build(table, 5, base, len);
}

/* id 0: GT faces and no colour table, as in the issue that found them
 * (a GT3 whose colour 43 was read as an index past the count 0). */
static const struct dbw_face bare_faces[2] = {
	{ .kind = DBW_GT3, .v = { 0, 1, 2, 0 }, .c = { 43, 0, 0, 0 },
	  .uv = { { 0, 0 }, { 64, 0 }, { 0, 64 }, { 0, 0 } },
	  .clut = 0x7f00, .tpage = 0x0009 },
	{ .kind = DBW_GT4, .v = { 0, 1, 2, 3 }, .c = { 10, 200, 30, 0 },
	  .uv = { { 0, 0 }, { 64, 0 }, { 0, 64 }, { 64, 64 } },
	  .clut = 0x7f00, .tpage = 0x0009 },
};

static const struct dbw_model model_bare = {
	.id = 0, .radius = 141, .vertices = every_vertices,
	.vertex_count = 4, .faces = bare_faces, .face_count = 2,
};

/* id 1: two colours the G3 face indexes, GT faces above them; vertex 0
 * in three colours (two repeats); the GT4 is semi-transparent. */
static const struct dbw_face mixed_faces[3] = {
	{ .kind = DBW_G3, .v = { 0, 1, 2, 0 }, .c = { 0, 1, 1, 0 } },
	{ .kind = DBW_GT3, .v = { 0, 4, 5, 0 }, .c = { 2, 128, 250, 0 },
	  .uv = { { 1, 2 }, { 3, 4 }, { 5, 6 }, { 0, 0 } },
	  .clut = 0x7f40, .tpage = 0x0019 },
	{ .kind = DBW_GT4, .flags = 0x80, .v = { 0, 3, 4, 5 },
	  .c = { 255, 255, 255, 0 },
	  .uv = { { 7, 8 }, { 9, 10 }, { 11, 12 }, { 13, 14 } },
	  .clut = 0x7f40, .tpage = 0x0019 },
};

static const struct dbw_model model_mixed = {
	.id = 1, .radius = 250, .vertices = every_vertices,
	.vertex_count = 6, .colours = every_colours, .colour_count = 2,
	.faces = mixed_faces, .face_count = 3,
};

/* id 3: GT4 faces only, sharing an edge in different colours. */
static const struct dbw_face strip_faces[2] = {
	{ .kind = DBW_GT4, .v = { 0, 1, 2, 3 }, .c = { 99, 98, 97, 0 },
	  .uv = { { 0, 0 }, { 32, 0 }, { 0, 32 }, { 32, 32 } } },
	{ .kind = DBW_GT4, .v = { 2, 3, 4, 5 }, .c = { 17, 34, 51, 0 },
	  .uv = { { 0, 32 }, { 32, 32 }, { 0, 64 }, { 32, 64 } } },
};

static const struct dbw_model model_strip = {
	.id = 3, .radius = 230, .vertices = every_vertices,
	.vertex_count = 6, .faces = strip_faces, .face_count = 2,
};

uint8_t *dbw_textured_gouraud(size_t *len)
{
	const struct dbw_entry table[3] = {
		{ &model_bare }, { &model_mixed }, { &model_strip },
	};
	return dbw_build(table, 3, DBW_FROM_MODEL, len);
}

uint8_t *dbw_broken(size_t *len)
{
	struct dbw_model past = model_tri, vertex = model_every,
			 no_end = model_gouraud, last = model_quad;
	past.id = 1;
	past.fault = DBW_PAST_FILE;
	vertex.id = 2;
	vertex.fault = DBW_BAD_VERTEX;
	no_end.id = 3;
	no_end.fault = DBW_NO_END;
	last.id = 4;
	const struct dbw_entry table[5] = {
		{ &model_tri }, { &past }, { &vertex }, { &no_end }, { &last },
	};
	return dbw_build(table, 5, DBW_FROM_MODEL, len);
}

uint8_t *dbw_no_magic(size_t *len)
{
	uint8_t *p = dbw_every_kind(DBW_FROM_MODEL, len);
	if (p)
		memset(p, 0, 4);
	return p;
}
