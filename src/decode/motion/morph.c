/* SPDX-License-Identifier: MIT */
/* morph.c - morphers, the targets their F_Morpher records name, and the
 * check that a target fits its base (morph.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/motion/morph.h"
#include "util/bytes.h"
#include "util/vec.h"

#define KIND_F_MORPHER 0x1901
#define F_MORPHER_HEAD 8
#define F_MORPHER_PAIR 8

bool morph_record(const struct anime_record *r, uint32_t *morpher,
		  uint32_t *pairs)
{
	if (r->kind != KIND_F_MORPHER || r->len < F_MORPHER_HEAD)
		return false;
	*morpher = rd_u32le(r->p);
	uint32_t n = rd_u16le(r->p + 4);
	size_t room = (r->len - F_MORPHER_HEAD) / F_MORPHER_PAIR;
	*pairs = n < room ? n : (uint32_t)room;
	return true;
}

void morph_record_pair(const struct anime_record *r, uint32_t i,
		       uint32_t *target, float *weight)
{
	const uint8_t *p = r->p + F_MORPHER_HEAD + (size_t)i * F_MORPHER_PAIR;
	*target = rd_u32le(p);
	float w = rd_f32le(p + 4);
	*weight = isfinite(w) ? w : 0;
}

void morph_list_free(struct morph_list *l)
{
	for (uint32_t i = 0; i < l->count; i++)
		free(l->m[i].targets);
	free(l->m);
	memset(l, 0, sizeof *l);
}

struct gather {
	struct morph_list *l;
	bool failed;
};

static void add_target(struct gather *g, struct morph *m, uint32_t target)
{
	for (uint32_t i = 0; i < m->target_count; i++)
		if (m->targets[i] == target)
			return;
	if (m->target_count == MORPH_MAX_TARGETS)
		return;
	/* Grows one at a time: a morpher names a handful of targets. */
	uint32_t *t = realloc(m->targets, (m->target_count + 1) * sizeof *t);
	if (!t) {
		g->failed = true;
		return;
	}
	m->targets = t;
	m->targets[m->target_count++] = target;
}

static void gather_record(const struct anime_record *r, void *arg)
{
	struct gather *g = arg;
	uint32_t morpher, pairs;
	if (!morph_record(r, &morpher, &pairs))
		return;
	for (uint32_t i = 0; i < g->l->count; i++) {
		struct morph *m = &g->l->m[i];
		if (m->morpher != morpher)
			continue;
		for (uint32_t k = 0; k < pairs && !g->failed; k++) {
			uint32_t target;
			float w;
			morph_record_pair(r, k, &target, &w);
			if (target)
				add_target(g, m, target);
		}
		return;
	}
}

int morph_list_note(struct morph_list *l, const struct anime_record *r)
{
	struct gather g = { l, false };
	gather_record(r, &g);
	return g.failed ? -ENOMEM : 0;
}

int morph_list_build(const struct ccsf_scene *s, const uint8_t *data,
		     size_t len, struct morph_list *l)
{
	size_t cap = 0;
	struct gather g = { l, false };
	memset(l, 0, sizeof *l);
	for (uint32_t i = 0; i < s->chunk_count && !g.failed; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		size_t plen;
		const uint8_t *p;
		if (c->kind != CCSF_MORPHER || c->in_frames ||
		    !(p = ccsf_chunk_payload(c, data, len, &plen)) || plen < 8)
			continue;
		if (vec_reserve(l->m, &cap, l->count + 1, 4) < 0) {
			g.failed = true;
			break;
		}
		struct morph *m = &l->m[l->count++];
		memset(m, 0, sizeof *m);
		m->morpher = rd_u32le(p);
		m->base = rd_u32le(p + 4);
	}
	for (uint32_t i = 0; i < s->chunk_count && l->count && !g.failed; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		size_t plen;
		const uint8_t *p;
		if (c->kind == CCSF_ANIME && !c->in_frames &&
		    (p = ccsf_chunk_payload(c, data, len, &plen)))
			anime_each_record(p, plen, gather_record, &g, NULL);
	}
	return g.failed ? -ENOMEM : 0;
}

/* The same mmats with the same vertex counts, or why not. */
static int fits(const struct model_mesh *base, const struct model_mesh *t,
		struct reason *why)
{
	if (t->mmat_count != base->mmat_count) {
		reason_set(why, "%" PRIu32 " mmats, the base has %"
			 PRIu32, t->mmat_count, base->mmat_count);
		return -EIO;
	}
	for (uint32_t i = 0; i < t->mmat_count; i++)
		if (t->mmats[i].vertex_count != base->mmats[i].vertex_count) {
			reason_set(why, "mmat %" PRIu32 " has %" PRIu32
				 " vertices, the base %" PRIu32, i,
				 t->mmats[i].vertex_count,
				 base->mmats[i].vertex_count);
			return -EIO;
		}
	return 0;
}

int morph_target_decode(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, const struct model_mesh *base,
			uint32_t target, struct model_mesh *t, struct reason *why)
{
	uint32_t chunk;
	memset(t, 0, sizeof *t);
	if (ccsf_find_owned(s, CCSF_MODEL, target, &chunk) < 0) {
		reason_set(why, "no model chunk");
		return -EIO;
	}
	const struct ccsf_chunk *c = &s->chunks[chunk];
	if ((uint64_t)c->offset + c->length > len) {
		reason_set(why, "its chunk runs past the file");
		return -EIO;
	}
	struct reason inner = { "" };
	int rc = model_decode(data + c->offset, c->length, s->version, t,
			      &inner);
	if (rc == -EIO)
		reason_set(why, "does not decode: %s", inner.text);
	else if (rc == 0)
		rc = fits(base, t, why);
	return rc;
}

/* Whether an Obj chunk names model as its model. */
static bool placed(const struct ccsf_scene *s, const uint8_t *data,
		   size_t len, uint32_t model)
{
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		size_t plen;
		const uint8_t *p;
		if (c->kind == CCSF_OBJ && !c->in_frames &&
		    (p = ccsf_chunk_payload(c, data, len, &plen)) &&
		    plen >= 12 && rd_u32le(p + 8) == model)
			return true;
	}
	return false;
}

static int left_out_of(const struct ccsf_scene *s, const uint8_t *data,
		       size_t len, const struct morph *m, morph_left_out_fn fn,
		       void *arg)
{
	uint32_t chunk;
	if (!placed(s, data, len, m->base) ||
	    ccsf_find_owned(s, CCSF_MODEL, m->base, &chunk) < 0)
		return 0;
	const struct ccsf_chunk *c = &s->chunks[chunk];
	if ((uint64_t)c->offset + c->length > len)
		return 0;
	struct model_mesh base, t;
	struct reason why = { "" };
	int rc = model_decode(data + c->offset, c->length, s->version, &base,
			      &why);
	for (uint32_t k = 0; rc == 0 && !(base.mtype & 8) &&
	     k < m->target_count; k++) {
		reason_clear(&why);
		int trc = morph_target_decode(s, data, len, &base,
					      m->targets[k], &t, &why);
		model_mesh_free(&t);
		if (trc == -ENOMEM)
			rc = trc;
		else if (trc < 0)
			fn(arg, m->targets[k], why.text);
	}
	model_mesh_free(&base);
	return rc == -ENOMEM ? rc : 0;
}

int morph_each_left_out(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, uint32_t morpher, morph_left_out_fn fn,
			void *arg)
{
	struct morph_list l;
	int rc = morph_list_build(s, data, len, &l);
	for (uint32_t j = 0; rc == 0 && j < l.count; j++) {
		if (l.m[j].morpher != morpher)
			continue;
		bool first = true;
		for (uint32_t i = 0; i < j; i++)
			first &= l.m[i].base != l.m[j].base;
		if (first)
			rc = left_out_of(s, data, len, &l.m[j], fn, arg);
		break;
	}
	morph_list_free(&l);
	return rc;
}
