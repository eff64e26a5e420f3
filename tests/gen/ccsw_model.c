/* SPDX-License-Identifier: MIT */
/* ccsw_model.c - model chunks (rigid, bone, skin, shadow) and hit
 * meshes, every vertex a function of seed and index. */
#include "ccsw_internal.h"

/* ---- models ---- */

uint16_t ccsw_layout_mtype(const struct ccsw *w, uint16_t mtype)
{
	return w->version < 0x100 ? (uint16_t)(mtype & 0xff) : mtype;
}

static uint32_t strip_len(const struct ccsw_mmat *m)
{
	return m->strip >= 3 ? m->strip : 6;
}

/* A zigzag band: even vertices on one edge, odd on the other, with a
 * seeded wobble so the mesh is not flat. */
static void gen_position(const struct ccsw_mmat *m, uint32_t i,
			 int16_t out[3])
{
	uint32_t s = strip_len(m), strip = i / s, k = i % s;
	int32_t x = (int32_t)(k / 2) * 400 - 1600;
	int32_t y = (int32_t)(k & 1) * 400 + (int32_t)strip * 500 - 2000;
	int32_t z = (int32_t)((strip * 37 + k * 11) % 64) * 8 +
		    (int32_t)(mix32(m->seed, i) % 32) - 256;
	out[0] = (int16_t)x;
	out[1] = (int16_t)y;
	out[2] = (int16_t)z;
}

/* Byte 3 is the strip flag: the first two vertices of each strip open it. */
static uint32_t gen_normal(const struct ccsw_mmat *m, uint32_t i)
{
	uint32_t h = mix32(m->seed ^ 0x5a5a, i);
	int8_t nx = (int8_t)((int)(h & 3) - 2), ny = (int8_t)((int)(h >> 4 & 3) - 2);
	int8_t nz = 62;
	uint32_t flag = (i % strip_len(m)) < 2 ? 1 : 0;
	return (uint8_t)nx | (uint32_t)(uint8_t)ny << 8 |
	       (uint32_t)(uint8_t)nz << 16 | flag << 24;
}

/* A colour per strip, lightly varied per vertex (vertex-lit art). */
static uint32_t gen_colour(const struct ccsw_mmat *m, uint32_t i)
{
	uint32_t base = mix32(m->seed ^ 0xc0c0, i / strip_len(m));
	uint32_t h = mix32(m->seed ^ 0xc1c1, i) & 3;
	return (0x40 + (base & 0x3c) + h) | (0x40 + (base >> 8 & 0x3c)) << 8 |
	       (0x40 + (base >> 16 & 0x3c)) << 16 | 0x80u << 24;
}

static uint32_t gen_st(const struct ccsw_mmat *m, uint32_t i)
{
	uint32_t s = strip_len(m), k = i % s;
	uint32_t S = (k / 2) * 256 / ((s + 1) / 2), T = (k & 1) * 255;
	T += (i / s) % 4 * 16;
	return S | T << 16;
}

static void put_positions(struct buf *p, const struct ccsw_mmat *m,
			  uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		int16_t v[3];
		if (m->pos)
			memcpy(v, m->pos + 3 * (size_t)i, sizeof v);
		else
			gen_position(m, i, v);
		put_s16s(p, v, 3);
	}
	put_align4(p, 0);
}

static void put_words(struct buf *p, const struct ccsw_mmat *m,
		      const uint32_t *given, uint32_t n,
		      uint32_t (*gen)(const struct ccsw_mmat *, uint32_t))
{
	for (uint32_t i = 0; i < n; i++)
		put_u32(p, given ? given[i] : gen(m, i));
}

static void put_rigid(struct buf *p, const struct ccsw_mmat *m,
		      uint16_t mtype)
{
	put_u32(p, m->name);
	put_u32(p, m->material);
	put_u32(p, m->vertices);
	put_positions(p, m, m->vertices);
	if (!(mtype & 0x40))
		put_words(p, m, m->normal, m->vertices, gen_normal);
	if (!(mtype & 0x200))
		put_words(p, m, m->colour, m->vertices, gen_colour);
	if (!(mtype & 0x400))
		put_words(p, m, m->st, m->vertices, gen_st);
}

static void put_bone(struct buf *p, const struct ccsw_mmat *m)
{
	put_u32(p, m->node);
	put_positions(p, m, m->vertices);
	put_words(p, m, m->normal, m->vertices, gen_normal);
	put_words(p, m, m->st, m->vertices, gen_st);
}

/* Spreads offsets entries over the vertices: vertex v gets one entry plus
 * one extra while extras remain, weights summing to 256. */
static struct ccsw_skin_entry gen_skin_entry(const struct ccsw_mmat *m,
					     uint32_t e, bool *last)
{
	uint32_t extra = m->offsets - m->vertices;
	if (m->offsets < m->vertices || extra > m->vertices) {
		fprintf(stderr, "ccsw: generated skin needs vertices <= "
			"offsets <= 2 * vertices\n");
		abort();
	}
	/* vertices below `extra` have two entries, the rest one */
	uint32_t v, first;
	if (e < 2 * extra) {
		v = e / 2;
		first = !(e & 1);
		*last = !first;
	} else {
		v = extra + (e - 2 * extra);
		first = 1;
		*last = true;
	}
	bool two = v < extra;
	uint32_t weight = !two ? 256 : first ? 160 : 96;
	uint32_t node = (v + (first ? 0 : 1)) % 8;
	struct ccsw_skin_entry s;
	gen_position(m, v, s.pos);
	s.w = (uint16_t)(weight | (*last ? 1u << 9 : 0) | node << 10);
	return s;
}

static void put_skin(struct buf *p, const struct ccsw_mmat *m)
{
	uint32_t ends = 0;
	for (uint32_t e = 0; e < m->offsets; e++) {
		struct ccsw_skin_entry s;
		bool last;
		if (m->entries) {
			s = m->entries[e];
			last = s.w & (1u << 9);
		} else {
			s = gen_skin_entry(m, e, &last);
		}
		ends += last;
		put_s16s(p, s.pos, 3);
		put_u16(p, s.w);
	}
	put_words(p, m, m->normal, m->offsets, gen_normal);
	put_words(p, m, m->st, ends, gen_st);
}

static void put_shadow(struct buf *p, const struct ccsw_mmat *m)
{
	put_u32(p, m->vertices);
	put_u32(p, m->indices);
	if (m->vertices == 0)
		return;
	put_positions(p, m, m->vertices);
	for (uint32_t i = 0; i < m->indices; i++) {
		int32_t v = m->tri ? m->tri[i]
				   : (int32_t)((i / 3 + i % 3) % m->vertices);
		put_u32(p, (uint32_t)v);
	}
}

void ccsw_model(struct ccsw *w, const struct ccsw_model *m)
{
	uint16_t layout = ccsw_layout_mtype(w, m->mtype);
	struct buf p = {0};
	put_u32(&p, m->object);
	put_f32(&p, m->vertex_scale);
	put_u16(&p, m->mtype);
	put_u16(&p, m->mmat_count);
	put_u16(&p, m->flag);
	put_u16(&p, 0);                 /* zoffs */
	put_u8(&p, 0x70);
	put_align4(&p, 0);
	for (uint16_t i = 0; i < m->mmat_count; i++) {
		const struct ccsw_mmat *mm = &m->mmats[i];
		if (layout & 4) {
			put_u32(&p, mm->material);
			put_u32(&p, mm->vertices);
			put_u32(&p, mm->offsets);
			if (mm->offsets)
				put_skin(&p, mm);
			else
				put_bone(&p, mm);
		} else if (layout & 8) {
			put_shadow(&p, mm);
		} else {
			put_rigid(&p, mm, layout);
		}
	}
	long long size = m->size_field;
	if (size < 0) {
		size = (long long)(p.len / 4);
		if (layout & 4)
			size += 15LL * m->mmat_count;
	}
	emit(w, CCSW_MODEL, &p, size, m->object);
}

/* ---- hit meshes ---- */

static float approx_sqrt(float x)
{
	if (x <= 0.0f)
		return 0.0f;
	float r = x > 1.0f ? x / 2.0f : 1.0f;
	for (int i = 0; i < 20; i++)
		r = 0.5f * (r + x / r);
	return r;
}

static void gen_hit_vertex(const struct ccsw_hit_group *g, uint32_t i,
			   float out[3])
{
	uint32_t tri = i / 3, corner = i % 3;
	float x = (float)(tri % 8) * 10.0f + (corner == 1 ? 10.0f : 0.0f);
	float y = (float)(tri / 8) * 10.0f + (corner == 2 ? 10.0f : 0.0f);
	float z = (float)(mix32(g->seed, tri) % 100) / 20.0f;
	out[0] = x;
	out[1] = y;
	out[2] = z;
}

static void put_hit_group(struct buf *p, const struct ccsw_hit_group *g)
{
	uint32_t n = g->vertices;
	float *pos = xrealloc(NULL, (size_t)(n ? n : 1) * 3 * sizeof *pos);
	for (uint32_t i = 0; i < n; i++) {
		if (g->pos)
			memcpy(pos + 3 * i, g->pos + 3 * i, 3 * sizeof *pos);
		else
			gen_hit_vertex(g, i, pos + 3 * i);
	}
	put_u32(p, n);
	put_u32(p, g->attribute);
	put_f32s(p, pos, (size_t)n * 3);
	for (uint32_t i = 0; i < n; i++) {
		const float *a = pos + 3 * (i - i % 3);
		float nrm[3] = { 0.0f, 0.0f, 1.0f };
		if (i - i % 3 + 2 < n) {
			float u[3], v[3];
			for (int k = 0; k < 3; k++) {
				u[k] = a[3 + k] - a[k];
				v[k] = a[6 + k] - a[k];
			}
			nrm[0] = u[1] * v[2] - u[2] * v[1];
			nrm[1] = u[2] * v[0] - u[0] * v[2];
			nrm[2] = u[0] * v[1] - u[1] * v[0];
			float len = approx_sqrt(nrm[0] * nrm[0] +
						nrm[1] * nrm[1] +
						nrm[2] * nrm[2]);
			for (int k = 0; k < 3 && len > 0.0f; k++)
				nrm[k] /= len;
		}
		put_f32s(p, nrm, 3);
	}
	free(pos);
}

void ccsw_hit(struct ccsw *w, uint32_t object, uint32_t parent,
	      uint16_t groups, const struct ccsw_hit_group *g)
{
	struct buf p = {0};
	uint32_t total = 0;
	for (uint16_t i = 0; i < groups; i++)
		total += g[i].vertices;
	put_u32(&p, object);
	put_u32(&p, parent);
	put_u16(&p, groups);
	put_u16(&p, 0);
	put_u32(&p, total);
	for (uint16_t i = 0; i < groups; i++)
		put_hit_group(&p, &g[i]);
	emit(w, CCSW_HIT, &p, CCSW_SIZE_AUTO, object);
}
