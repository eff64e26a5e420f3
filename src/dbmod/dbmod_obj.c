/* SPDX-License-Identifier: MIT */
/* dbmod_obj.c - DBnnMOD.BIN models as Wavefront OBJ and MTL. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbmod/dbmod.h"
#include "dbmod/dbmod_internal.h"
#include "util/bytes.h"
#include "util/fixfmt.h"
#include "util/strbuf.h"

#define FLAG_SEMI 0x80u                 /* flags bit 7: semi-transparent */

/* num/den in decimal, rounded to 8 places, trailing zeros dropped (the
 * colours' c / 255), and no locale or float printf. */
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

static uint32_t corner_rgb(const struct obj_state *s, const struct dbmod_face *f,
			   unsigned i)
{
	if (!dbmod_kinds[f->kind].indexed)
		return f->c[0] | (uint32_t)f->c[1] << 8 |
		       (uint32_t)f->c[2] << 16;
	const uint8_t *c = s->db->p + s->m->colour_table +
			   (size_t)f->c[i] * DBMOD_COLOUR_BYTES;
	return c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16;
}

static uint64_t material_key(const struct dbmod_face *f,
			     struct obj_material *mat)
{
	memset(mat, 0, sizeof *mat);
	mat->textured = dbmod_kinds[f->kind].textured;
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

static bool material_add(struct obj_state *s, const struct dbmod_face *f)
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
static int collect_cb(void *ctx, const struct dbmod_face *f)
{
	struct obj_state *s = ctx;
	const struct dbmod_kind_info *k = &dbmod_kinds[f->kind];
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
static int face_cb(void *ctx, const struct dbmod_face *f)
{
	struct obj_state *s = ctx;
	const struct dbmod_kind_info *k = &dbmod_kinds[f->kind];
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
				       DBMOD_VERTEX_BYTES;
		sb_printf(s->obj, "v %d %d %d", (int16_t)rd_u16le(v),
			  (int16_t)rd_u16le(v + 2), (int16_t)rd_u16le(v + 4));
		if (s->verts[i].rgb != NONE)
			put_colour(s->obj, s->verts[i].rgb);
		sb_puts(s->obj, "\n");
	}
	/* vt: u / 256 and 1 - v / 256, exactly (util/fixfmt.h, as
	 * decode's model.obj writes its S and T). */
	for (size_t i = 0; i < s->uv_count; i++) {
		char line[64], *o = line + 3;
		memcpy(line, "vt ", 3);
		o = fixfmt_put_256ths(o, s->uvs[i] >> 8);
		*o++ = ' ';
		o = fixfmt_put_256ths(o, (uint16_t)(256 - (s->uvs[i] & 0xff)));
		*o++ = '\n';
		sb_append(s->obj, line, (size_t)(o - line));
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
static int claim_cb(void *ctx, const struct dbmod_face *f)
{
	struct obj_state *s = ctx;
	for (unsigned i = 0; i < dbmod_kinds[f->kind].corners; i++) {
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
		    struct reason *why)
{
	struct dbmod_model m;
	int rc = dbmod_check(db, position, &m, why);
	if (rc)
		return rc;
	struct obj_state s;
	rc = obj_state_init(&s, db, &m, obj);
	if (!rc)
		rc = dbmod_walk_faces(db, &m, claim_cb, &s, why);
	if (!rc)
		rc = dbmod_walk_faces(db, &m, collect_cb, &s, why);
	if (!rc) {
		sb_printf(obj, "# DBnnMOD.BIN model %04u (table position %u)\n"
			  "mtllib model.mtl\n", m.id, m.position);
		write_vertices(&s);
		rc = dbmod_walk_faces(db, &m, face_cb, &s, why);
	}
	for (size_t i = 0; !rc && mtl && i < s.mat_count; i++)
		write_material(mtl, &s.mats[i]);
	obj_state_free(&s);
	if (!rc && (obj->failed || (mtl && mtl->failed)))
		rc = -ENOMEM;
	return rc;
}
