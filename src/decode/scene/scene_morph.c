/* SPDX-License-Identifier: MIT */
/* scene_morph.c - scene.glb's morph targets: a morpher's targets on its
 * base's mesh, its F_Morpher records as STEP weights
 * (doc/formats/scene-glb.md, Morph targets). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decode/scene/scene_internal.h"

static void note_targets(const struct anime_record *r, void *arg)
{
	struct scene_build *b = arg;
	if (morph_list_note(&b->morphs, r) < 0)
		b->failed = true;
}

int scene_morph_setup(struct scene_build *b)
{
	int rc = morph_list_build(b->s, b->data, b->len, &b->morphs);
	/* A cutscene's targets are named by its frame section's records. */
	if (rc == 0 && b->frames)
		scene_walk_records(b, FRAME_SECTION, note_targets, b);
	if (rc == 0 && b->failed)
		rc = -ENOMEM;
	if (rc < 0)
		return rc;
	b->morph = calloc(b->morphs.count + 1, sizeof *b->morph);
	if (!b->morph)
		return -ENOMEM;
	for (uint32_t j = 0; j < b->morphs.count; j++) {
		b->morph[j].mesh = GNONE;
		b->morph[j].m = &b->morphs.m[j];
	}
	return 0;
}

void scene_morph_free(struct scene_build *b)
{
	for (uint32_t j = 0; b->morph && j < b->morphs.count; j++)
		free(b->morph[j].kept);
	free(b->morph);
	morph_list_free(&b->morphs);
}

/* The first morpher of the base; later ones are left out (and said so),
 * as a mesh has one set of targets. */
static struct scene_morph *morph_of_base(struct scene_build *b, uint32_t model)
{
	struct scene_morph *first = NULL;
	for (uint32_t j = 0; j < b->morphs.count; j++) {
		const struct morph *m = b->morph[j].m;
		if (m->base != model)
			continue;
		if (!first) {
			first = &b->morph[j];
			continue;
		}
		scene_left_out(b, "%s: its base %s is %s's too; its targets "
			       "are left out", scene_object_name(b, m->morpher),
			       scene_object_name(b, model),
			       scene_object_name(b, first->m->morpher));
	}
	return first && first->m->target_count ? first : NULL;
}

/* Keeps the targets that fit the base, decoded; says why of the others. */
static void keep_targets(struct scene_build *b, const struct model_mesh *base,
			 struct scene_morph *sm, struct morph_mesh *mm)
{
	const struct morph *m = sm->m;
	sm->kept = malloc(m->target_count * sizeof *sm->kept);
	mm->t = calloc(m->target_count, sizeof *mm->t);
	if (!sm->kept || !mm->t) {
		b->failed = true;
		return;
	}
	for (uint32_t k = 0; k < m->target_count; k++) {
		struct reason why = { "" };
		struct model_mesh *t = &mm->t[sm->count];
		int rc = morph_target_decode(b->s, b->data, b->len, base,
					     m->targets[k], t, &why);
		if (rc == 0) {
			sm->kept[sm->count++] = k;
			continue;
		}
		model_mesh_free(t);
		if (rc == -ENOMEM)
			b->failed = true;
		else
			scene_left_out(b, "%s: morph target of %s (%s): %s",
				       scene_object_name(b, m->targets[k]),
				       scene_object_name(b, m->base),
				       scene_object_name(b, m->morpher), why.text);
	}
}

void scene_morph_begin(struct scene_build *b, const struct model_mesh *base,
		       bool skinned, struct morph_mesh *mm)
{
	memset(mm, 0, sizeof *mm);
	struct scene_morph *sm = morph_of_base(b, base->object);
	if (!sm || sm->mesh != GNONE || sm->kept)
		return;
	for (uint32_t i = 0; skinned && i < base->mmat_count; i++)
		if (base->mmats[i].layout == MODEL_SKIN) {
			scene_left_out(b, "%s: morph targets of a skin model "
				       "are not made (%s)",
				       scene_object_name(b, base->object),
				       scene_object_name(b, sm->m->morpher));
			return;
		}
	keep_targets(b, base, sm, mm);
	if (sm->count)
		mm->sm = sm;
}

static float fin(double f)
{
	return isfinite(f) ? (float)f : 0;
}

/* Target t's deltas of mmat i into pos and (when both have normals)
 * normal; returns whether normal was written. */
static bool deltas(struct scene_build *b, const struct model_mesh *base,
		   const struct model_mesh *t, uint32_t i,
		   const struct pose_clump *clump, float *pos, float *normal)
{
	const struct model_mmat *mm = &base->mmats[i], *tm = &t->mmats[i];
	bool normals = normal && mm->has_normal && tm->has_normal;
	for (uint32_t k = 0; k < mm->vertex_count; k++) {
		const struct model_vertex *v = &base->vertices[mm->first_vertex + k];
		const struct model_vertex *w = &t->vertices[tm->first_vertex + k];
		const double *turn = clump && mm->layout == MODEL_BONE ?
				     pose_slot_world(&scene_main(b)->pose, clump, v->node) : NULL;
		double d[3], r[3];
		for (int c = 0; c < 3; c++)
			d[c] = (double)w->pos[c] - v->pos[c];
		xform_turn(turn, d, r);
		for (int c = 0; c < 3; c++)
			pos[3 * k + c] = fin(r[c]);
		if (!normals)
			continue;
		double nb[3], nt[3], tb[3], tt[3];
		float ub[3], ut[3];
		for (int c = 0; c < 3; c++) {
			nb[c] = v->normal[c];
			nt[c] = w->normal[c];
		}
		xform_turn(turn, nb, tb);
		xform_turn(turn, nt, tt);
		xform_unit(tb, ub);
		xform_unit(tt, ut);
		for (int c = 0; c < 3; c++)
			normal[3 * k + c] = ut[c] - ub[c];
	}
	return normals;
}

void scene_morph_prim(struct scene_build *b, const struct morph_mesh *mm,
		      const struct model_mesh *base, uint32_t i,
		      const struct pose_clump *clump, struct strbuf *o)
{
	if (!mm->sm)
		return;
	uint32_t n = base->mmats[i].vertex_count;
	float *pos = malloc(((size_t)n + 1) * 3 * sizeof *pos);
	float *normal = malloc(((size_t)n + 1) * 3 * sizeof *normal);
	if (!pos || !normal)
		b->failed = true;
	sb_puts(o, ",\"targets\":[");
	for (uint32_t k = 0; k < mm->sm->count && pos && normal; k++) {
		bool with_normal = deltas(b, base, &mm->t[k], i, clump, pos,
					  normal);
		sb_printf(o, "%s{\"POSITION\":%" PRIu32, k ? "," : "",
			  glb_floats(&b->g, pos, n, 3, true, GLB_ARRAY_BUFFER));
		if (with_normal)
			sb_printf(o, ",\"NORMAL\":%" PRIu32, glb_floats(&b->g,
				  normal, n, 3, false, GLB_ARRAY_BUFFER));
		sb_puts(o, "}");
	}
	sb_puts(o, "]");
	free(pos);
	free(normal);
}

void scene_morph_mesh(const struct scene_build *b,
		      const struct morph_mesh *mm, struct strbuf *o)
{
	if (!mm->sm)
		return;
	sb_puts(o, ",\"weights\":[");
	for (uint32_t k = 0; k < mm->sm->count; k++)
		sb_puts(o, k ? ",0" : "0");
	sb_puts(o, "],\"extras\":{\"targetNames\":[");
	for (uint32_t k = 0; k < mm->sm->count; k++) {
		if (k)
			sb_puts(o, ",");
		json_string(o, scene_object_name(b, mm->sm->m->targets[
			    mm->sm->kept[k]]));
	}
	sb_puts(o, "]}");
}

void scene_morph_end(struct morph_mesh *mm, uint32_t mesh)
{
	if (mm->sm) {
		mm->sm->mesh = mesh;
		for (uint32_t k = 0; k < mm->sm->count; k++)
			model_mesh_free(&mm->t[k]);
	}
	free(mm->t);
	memset(mm, 0, sizeof *mm);
}

/* The keys of one morph being gathered from a chunk's records. */
struct keys {
	const struct scene_morph *sm;
	float *times, *weights;
	uint32_t n, last;
	size_t cap;
	size_t room;            /* weights the keys may hold in all */
	bool failed, full;
};

/* A new key at frame (all weights 0), or NULL. */
static float *new_key(struct keys *k, uint32_t frame)
{
	uint32_t c = k->sm->count;
	if (k->n + 1 > k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 8;
		float *t = realloc(k->times, cap * sizeof *t);
		if (t)
			k->times = t;
		float *w = t ? realloc(k->weights, cap * c * sizeof *w) : NULL;
		if (!w) {
			k->failed = true;
			return NULL;
		}
		k->weights = w;
		k->cap = cap;
	}
	k->times[k->n] = (float)frame / 30.0f;
	k->last = frame;
	float *w = k->weights + (size_t)k->n++ * c;
	memset(w, 0, c * sizeof *w);
	return w;
}

/* A record holds from its frame on; of two at one frame the later wins;
 * before the first, every weight is 0. */
static void key_record(const struct anime_record *r, void *arg)
{
	struct keys *k = arg;
	uint32_t morpher, pairs;
	if (k->failed || r->frame < 0 || !morph_record(r, &morpher, &pairs) ||
	    morpher != k->sm->m->morpher)
		return;
	uint32_t frame = (uint32_t)r->frame;
	if (k->n && frame < k->last)
		return;
	/* Keys times targets is the file's to choose: bounded by its size. */
	if ((size_t)(k->n + 2) * k->sm->count > k->room) {
		k->full = true;
		return;
	}
	if (!k->n && frame > 0 && !new_key(k, 0))
		return;
	if (k->n && frame == k->last)
		k->n--;
	float *w = new_key(k, frame);
	for (uint32_t p = 0; w && p < pairs; p++) {
		uint32_t target;
		float weight;
		morph_record_pair(r, p, &target, &weight);
		for (uint32_t j = 0; j < k->sm->count; j++)
			if (k->sm->m->targets[k->sm->kept[j]] == target)
				w[j] = weight;
	}
}

int scene_morph_keys(struct scene_build *b, uint32_t chunk, uint32_t j,
		     float **times, float **weights, uint32_t *n)
{
	size_t bytes = b->len + (b->frames ? b->frames->len : 0);
	struct keys k = { .sm = &b->morph[j], .room = bytes / 4 + 65536 };
	*times = *weights = NULL;
	*n = 0;
	if (k.sm->mesh == GNONE || !k.sm->count)
		return 0;
	scene_walk_records(b, chunk, key_record, &k);
	if (k.failed) {
		free(k.times);
		free(k.weights);
		return -ENOMEM;
	}
	if (k.full)
		scene_left_out(b, "%s: F_Morpher records after frame %" PRIu32
			       " (more weights than the file has bytes)",
			       scene_object_name(b, k.sm->m->morpher), k.last);
	*times = k.times;
	*weights = k.weights;
	*n = k.n;
	return 0;
}
