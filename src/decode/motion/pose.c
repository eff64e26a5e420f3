/* SPDX-License-Identifier: MIT */
/* pose.c - nodes, clumps and their frame-0 pose from the Anime chunks. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "decode/motion/anime.h"
#include "decode/motion/pose.h"
#include "util/bytes.h"
#include "util/vec.h"

static uint32_t node_at(const struct pose *p, uint32_t object)
{
	return object && object < p->object_count ? p->node_of[object]
						  : POSE_NONE;
}

/* The payload of setup chunk i when it is of kind and holds at least min
 * bytes, else NULL. */
static const uint8_t *setup_payload(const struct ccsf_scene *s,
				    const uint8_t *data, size_t len,
				    uint32_t i, uint16_t kind, size_t min,
				    size_t *plen)
{
	const struct ccsf_chunk *c = &s->chunks[i];
	const uint8_t *q;
	if (c->kind != kind || c->in_frames ||
	    !(q = ccsf_chunk_payload(c, data, len, plen)) || *plen < min)
		return NULL;
	return q;
}

/* Obj chunks: u32 object, u32 parent, u32 model, then the shadow model
 * from version 0x96.  The first chunk of an object wins. */
static int read_nodes(const struct ccsf_scene *s, const uint8_t *data,
		      size_t len, struct pose *p, uint32_t *parents)
{
	size_t cap = 0;
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		size_t plen;
		const uint8_t *q = setup_payload(s, data, len, i, CCSF_OBJ, 12,
						 &plen);
		if (!q)
			continue;
		uint32_t object = rd_u32le(q);
		if (!object || object >= p->object_count ||
		    p->node_of[object] != POSE_NONE)
			continue;
		if (vec_reserve(p->nodes, &cap, p->node_count + 1, 16) < 0)
			return -ENOMEM;
		struct pose_node *n = &p->nodes[p->node_count];
		memset(n, 0, sizeof *n);
		n->object = object;
		n->model = rd_u32le(q + 8);
		n->shadow = s->version >= 0x96 && plen >= 16 ? rd_u32le(q + 12)
							     : 0;
		n->anime = POSE_NONE;
		n->s[0] = n->s[1] = n->s[2] = 1;
		parents[object] = rd_u32le(q + 4);
		p->node_of[object] = p->node_count++;
	}
	for (uint32_t i = 0; i < p->node_count; i++)
		p->nodes[i].parent = node_at(p, parents[p->nodes[i].object]);
	return 0;
}

/* Clump chunks: u32 object, u16 n, padding to 4, u32 node[n]; a count
 * past the chunk keeps the nodes that fit. */
static int read_clumps(const struct ccsf_scene *s, const uint8_t *data,
		       size_t len, struct pose *p)
{
	size_t cap = 0;
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		size_t plen;
		const uint8_t *q = setup_payload(s, data, len, i, CCSF_CLUMP, 8,
						 &plen);
		if (!q)
			continue;
		uint32_t n = rd_u16le(q + 4);
		if (n > (plen - 8) / 4)
			n = (uint32_t)((plen - 8) / 4);
		if (vec_reserve(p->clumps, &cap, p->clump_count + 1, 8) < 0)
			return -ENOMEM;
		struct pose_clump *cl = &p->clumps[p->clump_count];
		cl->object = rd_u32le(q);
		cl->count = n;
		cl->anime = POSE_NONE;
		cl->nodes = malloc((n ? n : 1) * sizeof *cl->nodes);
		if (!cl->nodes)
			return -ENOMEM;
		p->clump_count++;
		for (uint32_t k = 0; k < n; k++)
			cl->nodes[k] = node_at(p, rd_u32le(q + 8 + 4 * k));
	}
	p->clump_of = malloc((p->node_count + 1) * sizeof *p->clump_of);
	if (!p->clump_of)
		return -ENOMEM;
	for (uint32_t n = 0; n < p->node_count; n++)
		p->clump_of[n] = POSE_NONE;
	for (uint32_t c = p->clump_count; c-- > 0;)
		for (uint32_t k = 0; k < p->clumps[c].count; k++)
			if (p->clumps[c].nodes[k] != POSE_NONE)
				p->clump_of[p->clumps[c].nodes[k]] = c;
	return 0;
}

/* ExtObj chunks (u32 object, u32 parent, u32 target): a controller of
 * the ExtObj drives its target. */
static void read_extobjs(const struct ccsf_scene *s, const uint8_t *data,
			 size_t len, uint32_t *target_of)
{
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		size_t plen;
		const uint8_t *q = setup_payload(s, data, len, i, CCSF_EXTOBJ, 12,
						 &plen);
		if (!q)
			continue;
		uint32_t object = rd_u32le(q);
		if (object && object < s->object_count && !target_of[object])
			target_of[object] = rd_u32le(q + 8);
	}
}

struct drive_walk {
	struct pose *p;
	uint32_t anime;         /* index into p->animes */
	uint32_t *first;        /* per node: the first anime driving it */
	bool posing;            /* second pass: take the values */
	uint8_t *posed;
};

/* posed[] marks: a controller placed the node, or an F_Obj record did
 * (a record holds from its frame on, so at frame 0 it wins). */
enum { BY_NONE, BY_CONTROLLER, BY_F_OBJ };

static void drive_record(const struct anime_record *r, void *arg)
{
	struct drive_walk *w = arg;
	struct anime_controller c;
	float t[3], rot[3], sc[3];
	uint32_t target;
	bool f_obj = anime_f_obj(r, &target, t, rot, sc);
	if (!f_obj && (r->kind != 0x0102 ||
	    anime_controller_parse(r->kind, r->p, r->len, &c, NULL) < 0))
		return;
	uint32_t n = pose_node_of_target(w->p, f_obj ? target : c.target);
	if (n == POSE_NONE)
		return;
	struct pose_node *node = &w->p->nodes[n];
	if (!w->posing) {
		if (w->first[n] == POSE_NONE)
			w->first[n] = w->anime;
		return;
	}
	if (node->anime != w->p->animes[w->anime])
		return;
	if (f_obj && r->frame <= 0) {
		w->posed[n] = BY_F_OBJ;
		memcpy(node->t, t, sizeof t);
		memcpy(node->r, rot, sizeof rot);
		memcpy(node->s, sc, sizeof sc);
	} else if (!f_obj && w->posed[n] == BY_NONE) {
		w->posed[n] = BY_CONTROLLER;
		anime_object_pose(&c, node->t, node->r, node->s);
	}
}

/* Runs the walk over every Anime chunk's records. */
static void each_anime(const struct ccsf_scene *s, const uint8_t *data,
		       size_t len, struct drive_walk *w)
{
	for (uint32_t a = 0; a < w->p->anime_count; a++) {
		size_t plen;
		const uint8_t *q = ccsf_chunk_payload(
			&s->chunks[w->p->animes[a]], data, len, &plen);
		w->anime = a;
		if (q)
			anime_each_record(q, plen, drive_record, w, NULL);
	}
}

static int list_animes(const struct ccsf_scene *s, struct pose *p)
{
	size_t cap = 0;
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		if (s->chunks[i].kind != CCSF_ANIME || s->chunks[i].in_frames)
			continue;
		if (vec_reserve(p->animes, &cap, p->anime_count + 1, 4) < 0)
			return -ENOMEM;
		p->animes[p->anime_count++] = i;
	}
	return 0;
}

/* Which chunk poses each node, then the values it gives. */
static int choose_animes(const struct ccsf_scene *s, const uint8_t *data,
			 size_t len, struct pose *p)
{
	uint32_t *first = malloc((p->node_count + 1) * sizeof *first);
	uint8_t *posed = calloc(p->node_count + 1, 1);
	if (!first || !posed) {
		free(first);
		free(posed);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < p->node_count; i++)
		first[i] = POSE_NONE;
	struct drive_walk w = { p, 0, first, false, posed };
	each_anime(s, data, len, &w);
	for (uint32_t c = 0; c < p->clump_count; c++)
		for (uint32_t k = 0; k < p->clumps[c].count; k++) {
			uint32_t n = p->clumps[c].nodes[k];
			if (n != POSE_NONE && first[n] < p->clumps[c].anime)
				p->clumps[c].anime = first[n];
		}
	for (uint32_t n = 0; n < p->node_count; n++) {
		const struct pose_clump *cl = pose_clump_of(p, n);
		uint32_t a = cl ? cl->anime : first[n];
		p->nodes[n].anime = a == POSE_NONE ? POSE_NONE : p->animes[a];
	}
	for (uint32_t c = 0; c < p->clump_count; c++)
		if (p->clumps[c].anime != POSE_NONE)
			p->clumps[c].anime = p->animes[p->clumps[c].anime];
	w.posing = true;
	each_anime(s, data, len, &w);
	free(first);
	free(posed);
	return 0;
}

/* World matrices, parents first; a parent chain that comes back to a node
 * on it is cut there, so the hierarchy is a forest. */
static int place_nodes(struct pose *p)
{
	uint8_t *state = calloc(p->node_count + 1, 1); /* 0 new, 1 on path, 2 done */
	uint32_t *path = malloc((p->node_count + 1) * sizeof *path);
	if (!state || !path) {
		free(state);
		free(path);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < p->node_count; i++) {
		uint32_t depth = 0;
		for (uint32_t n = i; n != POSE_NONE && state[n] != 2;
		     n = p->nodes[n].parent) {
			if (state[n] == 1) {
				p->nodes[path[depth - 1]].parent = POSE_NONE;
				p->loops_cut++;
				break;
			}
			state[n] = 1;
			path[depth++] = n;
		}
		while (depth--) {
			struct pose_node *node = &p->nodes[path[depth]];
			xform local;
			xform_trs(local, node->t, node->r, node->s);
			if (node->parent == POSE_NONE)
				memcpy(node->world, local, sizeof local);
			else
				xform_mul(node->world,
					  p->nodes[node->parent].world, local);
			state[path[depth]] = 2;
		}
	}
	free(state);
	free(path);
	return 0;
}

int pose_build(const struct ccsf_scene *s, const uint8_t *data, size_t len,
	       struct pose *p)
{
	memset(p, 0, sizeof *p);
	p->object_count = s->object_count;
	size_t n = s->object_count ? s->object_count : 1;
	p->node_of = malloc(n * sizeof *p->node_of);
	uint32_t *parents = calloc(n, sizeof *parents);
	uint32_t *target_of = p->target_of = calloc(n, sizeof *target_of);
	int rc = -ENOMEM;
	if (!p->node_of || !parents || !target_of)
		goto out;
	for (size_t i = 0; i < n; i++)
		p->node_of[i] = POSE_NONE;
	read_extobjs(s, data, len, target_of);
	if ((rc = read_nodes(s, data, len, p, parents)) < 0 ||
	    (rc = read_clumps(s, data, len, p)) < 0 ||
	    (rc = list_animes(s, p)) < 0 ||
	    (rc = choose_animes(s, data, len, p)) < 0)
		goto out;
	rc = place_nodes(p);
out:
	free(parents);
	return rc;
}

void pose_free(struct pose *p)
{
	for (uint32_t c = 0; c < p->clump_count; c++)
		free(p->clumps[c].nodes);
	free(p->clumps);
	free(p->clump_of);
	free(p->nodes);
	free(p->node_of);
	free(p->target_of);
	free(p->animes);
	memset(p, 0, sizeof *p);
}

uint32_t pose_owner_of(const struct pose *p, uint32_t model)
{
	for (uint32_t i = 0; model && i < p->node_count; i++)
		if (p->nodes[i].model == model)
			return i;
	return POSE_NONE;
}

const struct pose_clump *pose_clump_of(const struct pose *p, uint32_t n)
{
	if (n >= p->node_count || !p->clump_of ||
	    p->clump_of[n] == POSE_NONE)
		return NULL;
	return &p->clumps[p->clump_of[n]];
}

const double *pose_slot_world(const struct pose *p,
			      const struct pose_clump *c, uint32_t slot)
{
	static const xform identity = { 1, 0, 0, 0, 0, 1, 0, 0,
					0, 0, 1, 0, 0, 0, 0, 1 };
	if (!c || slot >= c->count || c->nodes[slot] == POSE_NONE)
		return identity;
	return p->nodes[c->nodes[slot]].world;
}

uint32_t pose_node_of_target(const struct pose *p, uint32_t object)
{
	if (object && object < p->object_count && p->target_of &&
	    p->target_of[object])
		object = p->target_of[object];
	return node_at(p, object);
}
