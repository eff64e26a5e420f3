/* SPDX-License-Identifier: MIT */
/* scene_frames.c - a cutscene's frame section as the records scene.glb
 * animates (doc/formats/scene-glb.md, Cutscenes): the walk that hands
 * them out with their frame, and what the pair cannot show. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/scene/scene_gltf.h"
#include "util/bytes.h"

#define END_FRAME UINT32_MAX    /* the Top that ends the section */

void scene_frames_each(const struct scene_frames *f, anime_record_fn fn,
		       void *arg, uint32_t *went_back)
{
	const struct ccsf_scene *s = f->s;
	struct anime_record r = { .frame = -1 };
	bool skipping = false;
	uint32_t latest = 0;
	if (went_back)
		*went_back = 0;
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		if (!c->in_frames || !(r.p = ccsf_chunk_payload(c, f->data,
							       f->len, &r.len)))
			continue;
		if (c->kind == CCSF_TOP && r.len >= 4) {
			uint32_t frame = rd_u32le(r.p);
			if (frame == END_FRAME)
				return;
			/* Keys must rise: a Top that goes back is a lie
			 * about time, and its records are passed over. */
			skipping = (r.frame >= 0 && frame < latest) ||
				   frame > INT32_MAX;
			if (skipping && went_back && !*went_back)
				*went_back = c->offset;
			if (!skipping)
				r.frame = (int32_t)(latest = frame);
			continue;
		}
		if (skipping || r.frame < 0)
			continue;
		r.kind = c->kind;
		r.offset = c->offset;
		fn(&r, arg);
	}
}

struct scene_def scene_frames_def(const struct scene_frames *f,
				  uint32_t object)
{
	if (object < f->s->object_count)
		return f->def_of[object];
	return (struct scene_def){ SCENE_NOWHERE, 0 };
}

uint32_t scene_frames_object(const struct scene_frames *f, uint32_t object)
{
	struct scene_def d = scene_frames_def(f, object);
	return d.source == 0 ? d.object : UINT32_MAX;
}

uint32_t scene_frames_camera(const struct scene_frames *f)
{
	uint32_t best = 0;
	for (uint32_t i = 0; i < f->s->chunk_count; i++) {
		const struct ccsf_chunk *c = &f->s->chunks[i];
		if (c->kind == CCSF_CAMERA && !c->in_frames && c->object &&
		    (!best || c->object < best))
			best = c->object;
	}
	return best;
}

/* ---- the records in the setup file's terms ---- */

struct mapped {
	const struct scene_frames *f;
	anime_record_fn fn;
	void *arg;
	uint8_t *buf;           /* the record, its objects the setup's */
	size_t cap;
	bool failed;
	bool own_camera;        /* F_Camera records name the scene file's */
};

static void put_object(const struct scene_frames *f, uint8_t *p)
{
	uint32_t o = scene_frames_object(f, rd_u32le(p));
	wr_u32le(p, o == UINT32_MAX ? 0 : o);
}

static void map_record(const struct anime_record *r, void *arg)
{
	struct mapped *m = arg;
	/* Cameras and morphers are the setup file's; an F_Obj record's
	 * object may be any source's, so it is looked up as it is. */
	if ((r->kind != CCSF_F_CAMERA && r->kind != CCSF_F_MORPHER) ||
	    r->len < 4 || (r->kind == CCSF_F_CAMERA && m->own_camera)) {
		m->fn(r, m->arg);
		return;
	}
	if (r->len > m->cap) {
		uint8_t *n = realloc(m->buf, r->len);
		if (!n) {
			m->failed = true;
			return;
		}
		m->buf = n;
		m->cap = r->len;
	}
	memcpy(m->buf, r->p, r->len);
	put_object(m->f, m->buf);
	/* F_Morpher: u32 MPH_, u16 count, u16 pad, then (u32 MDL_, f32). */
	if (r->kind == CCSF_F_MORPHER && r->len >= 8)
		for (size_t k = 0, n = rd_u16le(r->p + 4);
		     k < n && 8 + 8 * k + 8 <= r->len; k++)
			put_object(m->f, m->buf + 8 + 8 * k);
	struct anime_record copy = *r;
	copy.p = m->buf;
	m->fn(&copy, m->arg);
}

int scene_frames_each_mapped(const struct scene_frames *f, anime_record_fn fn,
			     void *arg)
{
	struct mapped m = { .f = f, .fn = fn, .arg = arg,
			    .own_camera = scene_nodes_game_layout(f) &&
					  scene_frames_camera(f) };
	scene_frames_each(f, map_record, &m, NULL);
	free(m.buf);
	return m.failed ? -ENOMEM : 0;
}

/* ---- what scene.glb leaves out ---- */

struct tally {
	const struct scene_frames *f;
	/* The game's layout: its nodes (found in the scene file alone) and
	 * its camera are known objects too. */
	const struct scene_nodes *nodes;
	uint32_t camera;
	uint32_t *unknown;      /* per object (+1 for out of range) */
	uint32_t *camera_records; /* per object: F_Camera records with values */
	uint32_t *common;       /* per object: camera and morpher records
				 * for a common file's object */
};

static void count_record(const struct anime_record *r, void *arg)
{
	struct tally *t = arg;
	uint32_t n = t->f->s->object_count;
	if ((r->kind != CCSF_F_OBJ && r->kind != CCSF_F_CAMERA &&
	     r->kind != CCSF_F_MORPHER) || r->len < 8)
		return;
	uint32_t o = rd_u32le(r->p);
	if (o >= n)
		o = n;
	uint32_t source = scene_frames_def(t->f, o).source;
	bool node = t->nodes && o < n && (t->nodes->node_of[o] != UINT32_MAX ||
					  (o == t->camera && o));
	if (node)
		return;
	if (source == SCENE_NOWHERE)
		t->unknown[o]++;
	else if (source && r->kind != CCSF_F_OBJ)
		t->common[o]++;
	else if (r->kind == CCSF_F_CAMERA && !(rd_u32le(r->p + 4) & 1))
		t->camera_records[o]++;
}

static const char *name_of(const struct scene_frames *f, uint32_t o,
			   char *buf, size_t n)
{
	const char *name = o < f->s->object_count && f->object_name ?
			   f->object_name(f->ctx, o) : NULL;
	if (name)
		return name;
	snprintf(buf, n, "#%" PRIu32, o);
	return buf;
}

/* One line per object the records name that no source defines, per
 * common file's object with camera or morpher records (only the setup
 * file's cameras and morphers are made), and per camera of the pair
 * that no record places. */
static void tally_lines(const struct ccsf_scene *setup, struct tally *t,
			struct strbuf *out)
{
	const struct scene_frames *f = t->f;
	char buf[24];
	for (uint32_t o = 0; o <= f->s->object_count; o++) {
		if (t->unknown[o])
			sb_printf(out, "frames: %" PRIu32 " records for %s, "
				  "which the pair does not define: left out\n",
				  t->unknown[o], name_of(f, o, buf, sizeof buf));
		if (t->common[o])
			sb_printf(out, "frames: %" PRIu32 " camera or morpher "
				  "records for %s, which a common setup file "
				  "defines: left out\n", t->common[o],
				  name_of(f, o, buf, sizeof buf));
		uint32_t so = scene_frames_object(f, o), chunk;
		if (so != UINT32_MAX && !t->camera_records[o] && !t->nodes &&
		    ccsf_find_owned(setup, CCSF_CAMERA, so, &chunk) == 0)
			sb_printf(out, "frames: camera %s has no F_Camera "
				  "record: it stays where its setup puts it\n",
				  name_of(f, o, buf, sizeof buf));
	}
}

int scene_frames_problems(const struct ccsf_scene *setup,
			  const struct scene_frames *f, struct strbuf *out)
{
	size_t n = (size_t)f->s->object_count + 1;
	struct scene_nodes nodes = { 0 };
	struct tally t = { f, NULL, 0, calloc(n, sizeof *t.unknown),
			   calloc(n, sizeof *t.camera_records),
			   calloc(n, sizeof *t.common) };
	uint32_t went_back;
	int rc = t.unknown && t.camera_records && t.common ? 0 : -ENOMEM;
	if (rc == 0 && scene_nodes_game_layout(f)) {
		rc = scene_nodes_find(NULL, 0, f, &nodes, out);
		t.nodes = &nodes;
		t.camera = scene_frames_camera(f);
	}
	if (rc == 0) {
		scene_frames_each(f, count_record, &t, &went_back);
		tally_lines(setup, &t, out);
	}
	scene_nodes_free(&nodes);
	free(t.unknown);
	free(t.camera_records);
	free(t.common);
	if (rc < 0)
		return rc;
	if (went_back)
		sb_printf(out, "frames: the Top at byte %" PRIu32 " goes back "
			  "in time: its records are left out\n", went_back);
	if (reason_given(&f->s->error))
		sb_printf(out, "frames: the file is cut at byte %zu (%s): the "
			  "animation stops at its last whole record\n",
			  f->s->error_offset, f->s->error.text);
	return out->failed ? -ENOMEM : 0;
}
