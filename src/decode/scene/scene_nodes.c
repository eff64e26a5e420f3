/* SPDX-License-Identifier: MIT */
/* scene_nodes.c - a cutscene's nodes as the game makes them
 * (doc/formats/scene-glb.md, Cutscenes): the Obj and ExtObj chunks the
 * scene file's own Clump chunks list, each ExtObj followed through its
 * targets, across files by the '#' entries, to the Obj that carries its
 * model. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/scene/scene_gltf.h"
#include "util/bytes.h"
#include "util/vec.h"

#define NONE UINT32_MAX
#define SCENE_FILE UINT32_MAX   /* a place in the scene file itself */
/* Steps an ExtObj chain may take; a longer one goes round in a circle
 * (no file of the game chains more than two). */
#define MAX_STEPS 64

/* Per object of one file, its Obj and ExtObj chunks (the first of each). */
struct file_chunks {
	const struct ccsf_scene *s;
	const uint8_t *data;
	size_t len;
	uint32_t *obj, *ext;
};

static int chunks_index(struct file_chunks *fc, const struct ccsf_scene *s,
			const uint8_t *data, size_t len)
{
	size_t n = s->object_count ? s->object_count : 1;
	*fc = (struct file_chunks){ s, data, len, malloc(n * sizeof *fc->obj),
				    malloc(n * sizeof *fc->ext) };
	if (!fc->obj || !fc->ext)
		return -ENOMEM;
	for (size_t o = 0; o < n; o++)
		fc->obj[o] = fc->ext[o] = NONE;
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		if (c->in_frames || !c->object || c->object >= s->object_count)
			continue;
		if (c->kind == CCSF_OBJ && fc->obj[c->object] == NONE)
			fc->obj[c->object] = i;
		else if (c->kind == CCSF_EXTOBJ && fc->ext[c->object] == NONE)
			fc->ext[c->object] = i;
	}
	return 0;
}

static void chunks_free(struct file_chunks *fc)
{
	free(fc->obj);
	free(fc->ext);
}

/* Word k of chunk i's payload, or 0 when it is too short. */
static uint32_t chunk_word(const struct file_chunks *fc, uint32_t i,
			   unsigned k)
{
	size_t plen;
	const uint8_t *p = ccsf_chunk_payload(&fc->s->chunks[i], fc->data,
					      fc->len, &plen);
	return p && plen >= 4 * (k + 1) ? rd_u32le(p + 4 * k) : 0;
}

/* An object the file marks as another file's ('#' before its path). */
static bool marked_elsewhere(const struct ccsf_scene *s, uint32_t o)
{
	uint16_t f = s->objects[o].file;
	return f < s->file_count && s->files[f][0] == '#';
}

/* A scene file's node lists: its Clump chunks in object-index order. */
struct finder {
	const struct scene_frames *f;
	struct file_chunks scene;
	struct file_chunks *src;        /* per source; NULL: none given */
	uint32_t count;
	struct strbuf *problems;
};

static const char *scene_name(const struct finder *fd, uint32_t o, char *buf,
			      size_t n)
{
	const struct scene_frames *f = fd->f;
	const char *name = o && o < f->s->object_count && f->object_name
			   ? f->object_name(f->ctx, o) : NULL;
	if (name && *name)
		return name;
	snprintf(buf, n, "#%" PRIu32, o);
	return buf;
}

/* The source other than k that has an Obj or ExtObj chunk for the
 * object named as k's object o; {SCENE_NOWHERE, 0} when none does. */
static struct scene_def by_name(const struct finder *fd, uint32_t k,
				uint32_t o)
{
	const uint8_t *name = fd->src[k].s->objects[o].name;
	for (uint32_t j = 0; j < fd->count; j++) {
		const struct file_chunks *fc = &fd->src[j];
		for (uint32_t i = 1; j != k && i < fc->s->object_count; i++)
			if ((fc->obj[i] != NONE || fc->ext[i] != NONE) &&
			    !marked_elsewhere(fc->s, i) &&
			    strcmp((const char *)fc->s->objects[i].name,
				   (const char *)name) == 0)
				return (struct scene_def){ j, i };
	}
	return (struct scene_def){ SCENE_NOWHERE, 0 };
}

/* Where the scene file's object o is defined (f->def_of). */
static struct scene_def def_of(const struct finder *fd, uint32_t o)
{
	const struct scene_frames *f = fd->f;
	if (!o || o >= f->s->object_count)
		return (struct scene_def){ SCENE_NOWHERE, 0 };
	return f->def_of[o];
}

/* One step of a chain: ON when it moved on to *file, *at; DONE when it
 * reached an Obj (*model: its model, or none) or, without the sources,
 * a '#' entry that a source defines; MISSING when nothing follows. */
enum { STEP_ON, STEP_DONE, STEP_MISSING };

/* An ExtObj's target within its file, or 0. */
static uint32_t ext_target(const struct file_chunks *fc, uint32_t at)
{
	uint32_t t = chunk_word(fc, fc->ext[at], 2);
	return t < fc->s->object_count ? t : 0;
}

static int step_scene(struct finder *fd, uint32_t *file, uint32_t *at,
		      struct scene_def *model)
{
	const struct file_chunks *fc = &fd->scene;
	if (fc->obj[*at] != NONE) {
		*model = def_of(fd, chunk_word(fc, fc->obj[*at], 2));
		return STEP_DONE;
	}
	if (fc->ext[*at] != NONE)
		return (*at = ext_target(fc, *at)) ? STEP_ON : STEP_MISSING;
	struct scene_def d = marked_elsewhere(fc->s, *at) ? def_of(fd, *at)
			     : (struct scene_def){ SCENE_NOWHERE, 0 };
	if (d.source == SCENE_NOWHERE)
		return STEP_MISSING;
	if (!fd->src)
		return STEP_DONE;       /* defined; the rest is unseen */
	if (d.source >= fd->count ||
	    d.object >= fd->src[d.source].s->object_count)
		return STEP_MISSING;
	*file = d.source;
	*at = d.object;
	return STEP_ON;
}

static int step_source(struct finder *fd, uint32_t *file, uint32_t *at,
		       struct scene_def *model)
{
	const struct file_chunks *fc = &fd->src[*file];
	if (fc->obj[*at] != NONE) {
		uint32_t m = chunk_word(fc, fc->obj[*at], 2);
		if (m && m < fc->s->object_count)
			*model = (struct scene_def){ *file, m };
		return STEP_DONE;
	}
	if (fc->ext[*at] != NONE)
		return (*at = ext_target(fc, *at)) ? STEP_ON : STEP_MISSING;
	struct scene_def d = marked_elsewhere(fc->s, *at)
		? by_name(fd, *file, *at)
		: (struct scene_def){ SCENE_NOWHERE, 0 };
	if (d.source == SCENE_NOWHERE)
		return STEP_MISSING;
	*file = d.source;
	*at = d.object;
	return STEP_ON;
}

/* Follows node object o of the scene file to the Obj that gives its
 * model.  Returns 0 with *model set ({SCENE_NOWHERE, 0}: no model, or
 * the sources were not given), or -ENOENT when a target is missing or
 * the chain goes round (said in problems). */
static int resolve(struct finder *fd, uint32_t o, struct scene_def *model)
{
	uint32_t file = SCENE_FILE, at = o, last = o;
	*model = (struct scene_def){ SCENE_NOWHERE, 0 };
	int step = STEP_ON;
	for (unsigned n = 0; n < MAX_STEPS && step == STEP_ON; n++) {
		last = at;
		step = file == SCENE_FILE ? step_scene(fd, &file, &at, model)
					  : step_source(fd, &file, &at, model);
	}
	if (step == STEP_DONE)
		return 0;
	if (fd->problems) {
		char b1[24], b2[24];
		const char *node = scene_name(fd, o, b1, sizeof b1);
		/* The entry the chain could not follow: where it stopped. */
		const char *t = file == SCENE_FILE
			? scene_name(fd, at ? at : last, b2, sizeof b2)
			: (const char *)fd->src[file].s->objects[at ? at : last].name;
		if (step == STEP_ON)
			sb_printf(fd->problems, "nodes: %s: its ExtObj "
				  "targets go round in a circle: left out\n",
				  node);
		else
			sb_printf(fd->problems, "nodes: %s: its target %s is "
				  "an Obj or ExtObj of no file of the pair: "
				  "left out\n", node, t);
	}
	return -ENOENT;
}

/* The parent field of the node's own chunk in the scene file. */
static uint32_t own_parent(const struct finder *fd, uint32_t o)
{
	const struct file_chunks *fc = &fd->scene;
	uint32_t c = fc->obj[o] != NONE ? fc->obj[o] : fc->ext[o];
	return c == NONE ? 0 : chunk_word(fc, c, 1);
}

/* The Obj2 flags of the scene file's object o, 0 without an Obj2. */
static uint32_t obj2_flags(const struct finder *fd, uint32_t o)
{
	const struct ccsf_scene *s = fd->f->s;
	for (uint32_t i = 0; i < s->chunk_count; i++)
		if (s->chunks[i].kind == CCSF_OBJ2 && !s->chunks[i].in_frames &&
		    s->chunks[i].object == o)
			return chunk_word(&fd->scene, i, 1);
	return 0;
}

/* The model's mtype (& 0xff before version 0x100), or 0 when its chunk
 * is not there. */
static uint16_t model_mtype(const struct finder *fd, struct scene_def m)
{
	uint32_t chunk;
	size_t plen;
	if (!fd->src || m.source >= fd->count)
		return 0;
	const struct file_chunks *fc = &fd->src[m.source];
	if (ccsf_find_owned(fc->s, CCSF_MODEL, m.object, &chunk) < 0)
		return 0;
	const uint8_t *p = ccsf_chunk_payload(&fc->s->chunks[chunk], fc->data,
					      fc->len, &plen);
	if (!p || plen < 10)
		return 0;
	uint16_t t = rd_u16le(p + 8);
	return fc->s->version < 0x100 ? t & 0xff : t;
}

/* The Clump chunks of the scene file, ordered by their objects. */
static int clump_order(const struct ccsf_scene *s, uint32_t **order,
		       uint32_t *n)
{
	*n = 0;
	*order = malloc((s->chunk_count ? s->chunk_count : 1) * sizeof **order);
	if (!*order)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		if (s->chunks[i].kind != CCSF_CLUMP || s->chunks[i].in_frames)
			continue;
		uint32_t k = (*n)++;
		while (k > 0 && s->chunks[(*order)[k - 1]].object >
				s->chunks[i].object) {
			(*order)[k] = (*order)[k - 1];
			k--;
		}
		(*order)[k] = i;
	}
	return 0;
}

static int add_node(struct finder *fd, struct scene_nodes *out, size_t *cap,
		    uint32_t o)
{
	struct scene_def model;
	if (out->node_of[o] != NONE || resolve(fd, o, &model) < 0)
		return 0;
	uint16_t mtype = model.source != SCENE_NOWHERE ? model_mtype(fd, model)
						       : 0;
	if (mtype & 8)
		return 0;               /* shadow models are taken out */
	if (vec_reserve(out->nodes, cap, (size_t)out->count + 1, 16) < 0)
		return -ENOMEM;
	out->node_of[o] = out->count;
	out->nodes[out->count++] = (struct scene_node){
		.object = o, .parent = SCENE_NOWHERE, .model = model,
		.obj2 = obj2_flags(fd, o), .skinned = (mtype & 4) != 0 };
	return 0;
}

/* Each node's parent, the node its own parent field names; a parent
 * loop is cut where it closes. */
static void link_parents(struct finder *fd, struct scene_nodes *out)
{
	const struct ccsf_scene *s = fd->f->s;
	for (uint32_t i = 0; i < out->count; i++) {
		uint32_t p = own_parent(fd, out->nodes[i].object);
		out->nodes[i].parent = p && p < s->object_count &&
				       out->node_of[p] != NONE
				       ? out->node_of[p] : SCENE_NOWHERE;
	}
	for (uint32_t i = 0; i < out->count; i++) {
		uint32_t up = out->nodes[i].parent;
		for (uint32_t steps = 0; up != SCENE_NOWHERE &&
		     steps <= out->count; steps++) {
			if (up == i) {
				char b[24];
				out->nodes[i].parent = SCENE_NOWHERE;
				if (fd->problems)
					sb_printf(fd->problems, "nodes: %s: "
						  "its parents go round in a "
						  "circle: placed at the root\n",
						  scene_name(fd, out->nodes[i].object,
							     b, sizeof b));
				break;
			}
			up = out->nodes[up].parent;
		}
	}
}

static int find_nodes(struct finder *fd, struct scene_nodes *out)
{
	const struct ccsf_scene *s = fd->f->s;
	uint32_t *order, n;
	size_t cap = 0;
	int rc = clump_order(s, &order, &n);
	for (uint32_t c = 0; rc == 0 && c < n; c++) {
		size_t plen;
		const uint8_t *p = ccsf_chunk_payload(&s->chunks[order[c]],
						      fd->f->data, fd->f->len,
						      &plen);
		if (!p || plen < 8)
			continue;
		uint32_t k = rd_u16le(p + 4);
		if (k > (plen - 8) / 4)
			k = (uint32_t)((plen - 8) / 4);
		for (uint32_t j = 0; rc == 0 && j < k; j++) {
			uint32_t o = rd_u32le(p + 8 + 4 * j);
			if (o && o < s->object_count)
				rc = add_node(fd, out, &cap, o);
		}
	}
	free(order);
	if (rc == 0)
		link_parents(fd, out);
	return rc;
}

bool scene_nodes_game_layout(const struct scene_frames *f)
{
	const struct ccsf_scene *s = f->s;
	/* A Clump node with an Obj or ExtObj chunk of the scene file's
	 * own: the game's layout.  A Clump of '#' stubs alone is not.  One
	 * pass marks the objects with such chunks: a 10-minute cutscene
	 * has 180,000 chunks, and this is asked at each walk. */
	uint8_t *own = calloc(s->object_count ? s->object_count : 1, 1);
	bool game = false;
	for (uint32_t i = 0; own && i < s->chunk_count; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		if (!c->in_frames && (c->kind == CCSF_OBJ ||
				      c->kind == CCSF_EXTOBJ) &&
		    c->object < s->object_count)
			own[c->object] = 1;
	}
	for (uint32_t i = 0; own && !game && i < s->chunk_count; i++) {
		size_t plen;
		const struct ccsf_chunk *c = &s->chunks[i];
		const uint8_t *p = c->kind == CCSF_CLUMP && !c->in_frames
			? ccsf_chunk_payload(c, f->data, f->len, &plen) : NULL;
		if (!p || plen < 8)
			continue;
		uint32_t k = rd_u16le(p + 4);
		for (uint32_t j = 0; j < k && 8 + 4 * (size_t)j + 4 <= plen &&
		     !game; j++) {
			uint32_t o = rd_u32le(p + 8 + 4 * j);
			game = o && o < s->object_count && own[o];
		}
	}
	free(own);
	return game;
}

int scene_nodes_find(const struct scene_source *src, uint32_t count,
		     const struct scene_frames *f, struct scene_nodes *out,
		     struct strbuf *problems)
{
	memset(out, 0, sizeof *out);
	struct finder fd = { .f = f, .count = src ? count : 0,
			     .problems = problems };
	size_t n = f->s->object_count ? f->s->object_count : 1;
	out->node_of = malloc(n * sizeof *out->node_of);
	int rc = out->node_of ? chunks_index(&fd.scene, f->s, f->data, f->len)
			      : -ENOMEM;
	for (size_t o = 0; out->node_of && o < n; o++)
		out->node_of[o] = NONE;
	if (rc == 0 && src && count) {
		fd.src = calloc(count, sizeof *fd.src);
		rc = fd.src ? 0 : -ENOMEM;
		for (uint32_t k = 0; rc == 0 && k < count; k++)
			rc = chunks_index(&fd.src[k], src[k].s, src[k].data,
					  src[k].len);
	}
	if (rc == 0)
		rc = find_nodes(&fd, out);
	chunks_free(&fd.scene);
	for (uint32_t k = 0; fd.src && k < count; k++)
		chunks_free(&fd.src[k]);
	free(fd.src);
	if (rc == 0 && problems && problems->failed)
		rc = -ENOMEM;
	if (rc < 0)
		scene_nodes_free(out);
	return rc;
}

void scene_nodes_free(struct scene_nodes *n)
{
	free(n->nodes);
	free(n->node_of);
	memset(n, 0, sizeof *n);
}
