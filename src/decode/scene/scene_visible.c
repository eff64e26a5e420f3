/* SPDX-License-Identifier: MIT */
/* scene_visible.c - when a game-layout cutscene's nodes are drawn
 * (doc/formats/scene-glb.md, Cutscenes): from their F_Obj records, with
 * the transparency of a node whose Obj2 says so multiplied by its
 * parent's, which can hide or show it between its own records. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decode/scene/scene_internal.h"
#include "util/bytes.h"
#include "util/vec.h"

#define F_OBJ_BYTES 52
#define DRAWN_ABOVE (1.0f / 128)

/* One F_Obj record's part in the drawing. */
struct own {
	uint32_t frame;
	float tp;               /* clamped to 0..1 */
	bool on;                /* flags bit 0, and not a part at the origin */
};

struct vis_build {
	const struct scene_build *b;
	struct own **own;       /* per node, in frame order */
	size_t *count, *cap;
	bool failed;
};

static void collect(const struct anime_record *r, void *arg)
{
	struct vis_build *v = arg;
	const struct scene_nodes *n = &v->b->cut;
	if (r->kind != CCSF_F_OBJ || r->len < F_OBJ_BYTES || r->frame < 0)
		return;
	uint32_t o = rd_u32le(r->p);
	uint32_t i = o < v->b->frames->s->object_count ? n->node_of[o]
						      : UINT32_MAX;
	if (i == UINT32_MAX)
		return;
	float tp = rd_f32le(r->p + 44);
	tp = !(tp > 0) ? 0 : tp > 1 ? 1 : tp;
	bool origin = rd_f32le(r->p + 8) == 0 && rd_f32le(r->p + 12) == 0 &&
		      rd_f32le(r->p + 16) == 0;
	bool on = (rd_u32le(r->p + 48) & 1) &&
		  !((n->nodes[i].obj2 & SCENE_OBJ2_PART) && origin);
	size_t k = v->count[i];
	/* Of two records at one frame the later holds. */
	if (k && v->own[i][k - 1].frame == (uint32_t)r->frame)
		k--;
	else if (vec_reserve(v->own[i], &v->cap[i], k + 1, 8) < 0) {
		v->failed = true;
		return;
	}
	v->own[i][k] = (struct own){ (uint32_t)r->frame, tp, on };
	v->count[i] = k + 1;
}

/* The latest entry of n at or before frame, or -1. */
static ptrdiff_t at_frame(const uint32_t *frames, uint32_t n, uint32_t frame)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (frames[mid] <= frame)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ptrdiff_t)lo - 1;
}

/* Node i's timeline: its own records' frames, and for an inheriting
 * node its parent's too from its own first on; the effective
 * transparency at each.  The parent's is made first. */
static int node_timeline(struct vis_build *v, struct scene_vis *out,
			 uint32_t i, unsigned depth)
{
	struct scene_vis *t = &out[i];
	const struct scene_node *n = &v->b->cut.nodes[i];
	if (t->done)
		return 0;
	t->done = true;
	uint32_t up = n->parent;
	bool inherit = (n->obj2 & SCENE_OBJ2_INHERIT_TP) && up != SCENE_NOWHERE &&
		       depth < 64;
	if (inherit && node_timeline(v, out, up, depth + 1) < 0)
		return -ENOMEM;
	const struct own *own = v->own[i];
	size_t nown = v->count[i], np = inherit ? out[up].count : 0;
	t->frames = malloc((nown + np + 1) * sizeof *t->frames);
	t->tp = malloc((nown + np + 1) * sizeof *t->tp);
	t->drawn = malloc(nown + np + 1);
	if (!t->frames || !t->tp || !t->drawn)
		return -ENOMEM;
	size_t a = 0, c = 0;
	const uint32_t *pf = inherit ? out[up].frames : NULL;
	while (a < nown || c < np) {
		/* The next frame of either list; the parent's only once the
		 * node has a record. */
		uint32_t f = a < nown ? own[a].frame : UINT32_MAX;
		if (c < np && pf[c] < f)
			f = pf[c];
		if (a < nown && own[a].frame == f)
			a++;
		while (c < np && pf[c] <= f)
			c++;
		if (!a)
			continue;
		const struct own *o = &own[a - 1];
		float tp = o->tp;
		if (inherit) {
			ptrdiff_t k = at_frame(out[up].frames, out[up].count, f);
			tp *= k < 0 ? 0 : out[up].tp[k];
		}
		t->frames[t->count] = f;
		t->tp[t->count] = tp;
		t->drawn[t->count++] = o->on && tp > DRAWN_ABOVE;
	}
	return 0;
}

int scene_visibility(const struct scene_build *b, struct scene_vis **out)
{
	uint32_t n = b->cut.count;
	struct vis_build v = { b, calloc(n + 1, sizeof *v.own),
			       calloc(n + 1, sizeof *v.count),
			       calloc(n + 1, sizeof *v.cap), false };
	*out = calloc(n + 1, sizeof **out);
	int rc = v.own && v.count && v.cap && *out ? 0 : -ENOMEM;
	if (rc == 0) {
		scene_frames_each(b->frames, collect, &v, NULL);
		rc = v.failed ? -ENOMEM : 0;
	}
	for (uint32_t i = 0; rc == 0 && i < n; i++)
		rc = node_timeline(&v, *out, i, 0);
	for (uint32_t i = 0; v.own && i < n; i++)
		free(v.own[i]);
	free(v.own);
	free(v.count);
	free(v.cap);
	if (rc < 0) {
		scene_visibility_free(*out, n);
		*out = NULL;
	}
	return rc;
}

bool scene_vis_drawn(const struct scene_vis *v, uint32_t frame)
{
	ptrdiff_t k = at_frame(v->frames, v->count, frame);
	return k >= 0 && v->drawn[k];
}

void scene_visibility_free(struct scene_vis *v, uint32_t n)
{
	for (uint32_t i = 0; v && i < n; i++) {
		free(v[i].frames);
		free(v[i].tp);
		free(v[i].drawn);
	}
	free(v);
}
