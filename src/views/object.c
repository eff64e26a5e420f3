/* SPDX-License-Identifier: MIT */
/* object.c - object folders: chunks raw and as text, textures as PNG. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "decode/cutscene/cutscene.h"
#include "decode/model/material.h"
#include "decode/model/model.h"
#include "decode/motion/anime.h"
#include "decode/motion/model_pose.h"
#include "decode/motion/morph.h"
#include "decode/text/chunk_text.h"
#include "decode/texture/texture_scene.h"
#include "util/log.h"
#include "util/strbuf.h"
#include "views/object.h"

/* A made file's argument packs a chunk index and a mip level. */
#define ARG(chunk, level) ((chunk) * TEXTURE_MAX_LEVELS + (level))
#define ARG_CHUNK(arg) ((arg) / TEXTURE_MAX_LEVELS)
#define ARG_LEVEL(arg) ((arg) % TEXTURE_MAX_LEVELS)

static const char *object_name_cb(void *ctx, uint32_t index)
{
	return member_object_name(ctx, index);
}

/* The member's bytes of one chunk, by reference. */
static int chunk_bytes(struct fs *fs, struct member *m, uint32_t chunk,
		       struct cache_ref *ref, const uint8_t **p, size_t *len)
{
	const struct ccsf_chunk *c = &member_scene(m)->chunks[chunk];
	int rc = member_bytes(fs, m, ref);
	if (rc < 0)
		return rc;
	if ((uint64_t)c->offset + c->length > ref->len) {
		cache_put(fs_cache(fs), ref);
		return -EIO;
	}
	*p = ref->data + c->offset;
	*len = c->length;
	return 0;
}

static int chunk_text_of(struct member *m, const uint8_t *data, size_t len,
			 uint32_t chunk, struct strbuf *out)
{
	const struct ccsf_chunk *c = &member_scene(m)->chunks[chunk];
	if ((uint64_t)c->offset + c->length > len)
		return -EIO;
	struct chunk_text_ctx ctx = { member_scene(m)->version,
				      object_name_cb, m };
	return chunk_text(data + c->offset, c->length, &ctx, out);
}

static int produce_chunk_text(struct fs *fs, struct node *n, uint8_t **data,
			      size_t *len)
{
	return member_text(fs, n, chunk_text_of, data, len);
}

/* What a made PNG says of itself: where it comes from, and what made it. */
#define PNG_TEXT_ENTRIES 2
struct png_text {
	char source[512];
	struct png_text_entry entry[PNG_TEXT_ENTRIES];
};

static void png_text_of(struct png_text *t, struct member *m,
			uint32_t object)
{
	snprintf(t->source, sizeof t->source, "%s %s %s", member_archive(m),
		 member_name(m), member_object_name(m, object));
	t->entry[0] = (struct png_text_entry){ "Source", t->source };
	t->entry[1] = (struct png_text_entry){ "Software", PACKAGE_STRING };
}

static int produce_texture_png(struct fs *fs, struct node *n, uint8_t **data,
			       size_t *len)
{
	struct member *m = tree_made_ctx(n);
	const struct ccsf_scene *s = member_scene(m);
	uint32_t chunk = ARG_CHUNK(tree_made_arg(n));
	struct cache_ref ref;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0)
		return rc;
	struct png_text text;
	png_text_of(&text, m, s->chunks[chunk].object);
	struct reason why = { "" };
	rc = texture_scene_png(s, ref.data, ref.len, chunk,
			       ARG_LEVEL(tree_made_arg(n)), text.entry,
			       PNG_TEXT_ENTRIES, fs_png_level(fs), data, len,
			       &why);
	cache_put(fs_cache(fs), &ref);
	return rc;
}

static int produce_palette_png(struct fs *fs, struct node *n, uint8_t **data,
			       size_t *len)
{
	struct member *m = tree_made_ctx(n);
	const struct ccsf_scene *s = member_scene(m);
	uint32_t chunk = tree_made_arg(n);
	struct cache_ref ref;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0)
		return rc;
	struct png_text text;
	png_text_of(&text, m, s->chunks[chunk].object);
	struct reason why = { "" };
	rc = texture_scene_palette_png(s, ref.data, ref.len, chunk, text.entry,
				       PNG_TEXT_ENTRIES, fs_png_level(fs),
				       data, len, &why);
	cache_put(fs_cache(fs), &ref);
	return rc;
}

/* What model.c asks of the scene: materials and texture paths. */
struct model_scene {
	struct member *m;
	const uint8_t *data;
	size_t len;
	char path[512];         /* the last texture_path answer */
};

static const char *model_object_name(void *ctx, uint32_t index)
{
	struct model_scene *ms = ctx;
	return member_object_name(ms->m, index);
}

static int model_material(void *ctx, uint32_t material, uint32_t *texture,
			  float *transparency)
{
	struct model_scene *ms = ctx;
	return material_chunk(member_scene(ms->m), ms->data, ms->len,
			      material, texture, transparency);
}

/* A texture's PNG exists where its object owns a texture chunk. */
static const char *model_texture_path(void *ctx, uint32_t texture)
{
	struct model_scene *ms = ctx;
	uint32_t chunk;
	if (ccsf_find_owned(member_scene(ms->m), CCSF_TEXTURE, texture, &chunk) < 0)
		return NULL;
	snprintf(ms->path, sizeof ms->path, "../%s/texture.png",
		 member_object_name(ms->m, texture));
	return ms->path;
}

enum model_part { PART_OBJ, PART_MTL, PART_HIT };

static int produce_model(struct fs *fs, struct node *n, uint8_t **data,
			 size_t *len, enum model_part part)
{
	struct member *m = tree_made_ctx(n);
	struct cache_ref ref;
	const uint8_t *p;
	size_t plen;
	int rc = chunk_bytes(fs, m, tree_made_arg(n), &ref, &p, &plen);
	if (rc < 0)
		return rc;
	struct model_scene ms = { m, ref.data, ref.len, "" };
	struct model_env env = { &ms, model_object_name, model_material,
				 model_texture_path };
	struct strbuf out;
	tree_made_text_init(n, data, &out);
	struct reason why = { "" };
	if (part == PART_HIT)
		rc = model_hit_obj(p, plen, &env, &out, &why);
	else
		/* Each is made alone, the MTL without the OBJ's text: a
		 * viewer reads it once, when it loads the OBJ, and it does
		 * not depend on where vertices sit. */
		rc = model_pose_obj(member_scene(m), ref.data, ref.len,
				    tree_made_arg(n), part == PART_OBJ, &env,
				    part == PART_OBJ ? &out : NULL,
				    part == PART_MTL ? &out : NULL, &why);
	cache_put(fs_cache(fs), &ref);
	if (rc < 0) {
		sb_free(&out);
		return rc;
	}
	return sb_finish(&out, data, len);
}

static int produce_model_obj(struct fs *fs, struct node *n, uint8_t **data,
			     size_t *len)
{
	return produce_model(fs, n, data, len, PART_OBJ);
}

static int produce_model_mtl(struct fs *fs, struct node *n, uint8_t **data,
			     size_t *len)
{
	return produce_model(fs, n, data, len, PART_MTL);
}

static int produce_hit_obj(struct fs *fs, struct node *n, uint8_t **data,
			   size_t *len)
{
	return produce_model(fs, n, data, len, PART_HIT);
}

/* The object's F_Obj transforms over the frames. */
static int track_text(struct member *m, const uint8_t *data, size_t len,
		      uint32_t object, struct strbuf *out)
{
	return cutscene_track_text(member_scene(m), data, len, object, out);
}

static int produce_track_text(struct fs *fs, struct node *n, uint8_t **data,
			      size_t *len)
{
	return member_text(fs, n, track_text, data, len);
}

static int anime_text(struct member *m, const uint8_t *data, size_t len,
		      uint32_t chunk, struct strbuf *out)
{
	return cutscene_anime_text(member_scene(m), data, len, chunk,
				   object_name_cb, m, out);
}

static int produce_anime_text(struct fs *fs, struct node *n, uint8_t **data,
			      size_t *len)
{
	return member_text(fs, n, anime_text, data, len);
}

/* Why the object's made files could not be made is found while listing,
 * into one strbuf that becomes error.txt. */

static int produce_object_errors(struct fs *fs, struct node *n,
				 uint8_t **data, size_t *len)
{
	(void)fs;
	const char *text = tree_made_ctx(n);
	*len = strlen(text);
	*data = malloc(*len ? *len : 1);
	if (!*data)
		return -ENOMEM;
	memcpy(*data, text, *len);
	return 0;
}

static void note_error(struct strbuf *errs, struct member *m,
		       uint32_t object, const char *file, const char *why)
{
	sb_printf(errs, "%s: %s\n", file, why);
	log_error("%s: member %s: %s/%s: %s", member_archive(m),
		  member_name(m), member_object_name(m, object), file, why);
}

/* texture.png and texture-mipN.png, checked now so error.txt can say at
 * once what will fail; a stored PNG's size follows from its shape, so a
 * listing gives it without making the file. */
static void add_texture_pngs(struct dir_builder *b,
			     const struct object_build *ob, uint32_t chunk,
			     struct strbuf *errs)
{
	const struct ccsf_scene *s = member_scene(ob->m);
	time_t t = member_mtime(ob->m);
	struct png_text text;
	png_text_of(&text, ob->m, s->chunks[chunk].object);
	unsigned levels = 1;
	for (unsigned level = 0; level < levels; level++) {
		struct reason why = { "" };
		size_t size;
		int rc = texture_scene_png_size(s, ob->data, ob->len, chunk,
						level, text.entry,
						PNG_TEXT_ENTRIES,
						fs_png_level(b->fs), &levels,
						&size, &why);
		char name[32];
		if (level == 0)
			snprintf(name, sizeof name, "texture.png");
		else
			snprintf(name, sizeof name, "texture-mip%u.png", level);
		struct node *n = dir_add_made(b, name, t, produce_texture_png,
					      ob->m, ARG(chunk, level));
		if (rc == 0 && n && size)
			node_set_size(n, size);
		if (rc < 0)
			note_error(errs, ob->m, ob->object, name,
				   reason_or_errno(&why, rc));
	}
}

static void add_palette_png(struct dir_builder *b,
			    const struct object_build *ob, uint32_t chunk,
			    struct strbuf *errs)
{
	const struct ccsf_scene *s = member_scene(ob->m);
	struct node *n = dir_add_made(b, "palette.png", member_mtime(ob->m),
				      produce_palette_png, ob->m, chunk);
	struct png_text text;
	png_text_of(&text, ob->m, s->chunks[chunk].object);
	struct reason why = { "" };
	size_t size;
	int rc = texture_scene_palette_size(s, ob->data, ob->len, chunk,
					    text.entry, PNG_TEXT_ENTRIES,
					    fs_png_level(b->fs), &size, &why);
	if (rc == 0 && n && size)
		node_set_size(n, size);
	if (rc < 0)
		note_error(errs, ob->m, ob->object, "palette.png",
			   reason_or_errno(&why, rc));
}

/* A controller anime.txt cannot read ends its record with an error line
 * there; error.txt names the first of each chunk, found now. */
static void check_anime(const struct object_build *ob,
			const struct ccsf_chunk *c, const char *name,
			struct strbuf *errs)
{
	if (c->length < CCSF_CHUNK_HEADER ||
	    (uint64_t)c->offset + c->length > ob->len)
		return;
	struct reason why = { "" };
	if (anime_chunk_check(ob->data + c->offset + CCSF_CHUNK_HEADER,
			      c->length - CCSF_CHUNK_HEADER, &why) < 0)
		note_error(errs, ob->m, ob->object, name, why.text);
}

struct morph_note {
	const struct object_build *ob;
	struct strbuf *errs;
};

static void note_morph_target(void *arg, uint32_t target, const char *why)
{
	struct morph_note *mn = arg;
	char line[REASON_MAX + 160];
	snprintf(line, sizeof line, "morph target %s left out: %s",
		 member_object_name(mn->ob->m, target), why);
	note_error(mn->errs, mn->ob->m, mn->ob->object, "scene.glb", line);
}

/* A morpher's targets that scene.glb leaves out, named now. */
static void check_morpher(const struct object_build *ob, struct strbuf *errs)
{
	struct morph_note mn = { ob, errs };
	if (morph_each_left_out(member_scene(ob->m), ob->data, ob->len,
				ob->object, note_morph_target, &mn) < 0)
		errs->failed = true;
}

/* Each chunk as <kind>.bin and, where a decoder exists, <kind>.txt. */
static void add_chunk_files(struct dir_builder *b,
			    const struct object_build *ob,
			    struct strbuf *errs)
{
	const struct ccsf_scene *s = member_scene(ob->m);
	time_t t = member_mtime(ob->m);
	for (uint32_t i = 0; i < ob->count; i++) {
		const struct ccsf_chunk *c = &s->chunks[ob->chunks[i]];
		unsigned nth = 1;
		for (uint32_t j = 0; j < i; j++)
			nth += s->chunks[ob->chunks[j]].kind == c->kind;
		char base[32], name[40];
		if (nth == 1)
			snprintf(base, sizeof base, "%s", ccsf_kind_name(c->kind));
		else
			snprintf(base, sizeof base, "%s-%u",
				 ccsf_kind_name(c->kind), nth);
		snprintf(name, sizeof name, "%s.bin", base);
		dir_add_view(b, name, t, &member_view_ops, ob->m, c->offset, c->length, false);
		if (c->kind == CCSF_MORPHER && nth == 1)
			check_morpher(ob, errs);
		if (chunk_text_has(c->kind)) {
			snprintf(name, sizeof name, "%s.txt", base);
			dir_add_measured(b, name, t, produce_chunk_text,
					 ob->m, ob->chunks[i]);
		} else if (c->kind == CCSF_ANIME) {
			snprintf(name, sizeof name, "%s.txt", base);
			dir_add_measured(b, name, t, produce_anime_text,
					 ob->m, ob->chunks[i]);
			check_anime(ob, c, name, errs);
		}
	}
}

/* model.obj and model.mtl, or hit.obj; checked now like textures. */
static void add_mesh(struct dir_builder *b, const struct object_build *ob,
		     uint32_t chunk, struct strbuf *errs)
{
	const struct ccsf_scene *s = member_scene(ob->m);
	const struct ccsf_chunk *c = &s->chunks[chunk];
	time_t t = member_mtime(ob->m);
	bool hit = c->kind == CCSF_HIT;
	const char *name = hit ? "hit.obj" : "model.obj";
	dir_add_measured(b, name, t,
			 hit ? produce_hit_obj : produce_model_obj, ob->m,
			 chunk);
	if (!hit)
		dir_add_measured(b, "model.mtl", t, produce_model_mtl, ob->m,
				 chunk);
	if ((uint64_t)c->offset + c->length > ob->len)
		return;
	struct reason why = { "" };
	int rc = 0;
	if (!hit)
		rc = model_check(ob->data + c->offset, c->length, s->version,
				 &why);
	if (rc < 0)
		note_error(errs, ob->m, ob->object, name,
			   reason_or_errno(&why, rc));
}

/* What is made of the object's chunks: the first texture, CLUT, model
 * and hit chunk it owns (the game keeps the first of a kind per object). */
static void add_made_files(struct dir_builder *b,
			   const struct object_build *ob,
			   struct strbuf *errs)
{
	const struct ccsf_scene *s = member_scene(ob->m);
	bool texture = false, clut = false, model = false, hit = false;
	for (uint32_t i = 0; i < ob->count; i++) {
		uint32_t chunk = ob->chunks[i];
		uint16_t kind = s->chunks[chunk].kind;
		if (kind == CCSF_TEXTURE && !texture) {
			texture = true;
			add_texture_pngs(b, ob, chunk, errs);
		} else if (kind == CCSF_CLUT && !clut) {
			clut = true;
			add_palette_png(b, ob, chunk, errs);
		} else if (kind == CCSF_MODEL && !model) {
			model = true;
			add_mesh(b, ob, chunk, errs);
		} else if (kind == CCSF_HIT && !hit) {
			hit = true;
			add_mesh(b, ob, chunk, errs);
		}
	}
}

int object_populate(struct fs *fs, struct node *dir,
		    const struct object_build *ob)
{
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	struct strbuf errs = STRBUF_INIT;
	add_chunk_files(&b, ob, &errs);
	add_made_files(&b, ob, &errs);
	if (cutscene_has_track(member_scene(ob->m), ob->object))
		dir_add_measured(&b, "track.txt", member_mtime(ob->m),
				 produce_track_text, ob->m, ob->object);
	if (ob->defined) {
		/* The object folder is one level deeper than the links. */
		char target[1024];
		snprintf(target, sizeof target, "../%s", ob->defined);
		dir_add_link(&b, "defined", member_mtime(ob->m), target);
	}
	if (errs.len) {
		char *text = tree_strdup(fs, dir, errs.data);
		if (text)
			dir_add_made(&b, "error.txt", member_mtime(ob->m),
				     produce_object_errors, text, 0);
		else
			b.failed = true;
	}
	sb_free(&errs);
	return dir_publish(&b);
}

enum object_png object_png_of(const struct node *file, uint32_t *chunk,
			      unsigned *level)
{
	produce_fn p = tree_made_produce(file);
	if (p == produce_texture_png) {
		*chunk = ARG_CHUNK(tree_made_arg(file));
		*level = ARG_LEVEL(tree_made_arg(file));
		return OBJECT_PNG_TEXTURE;
	}
	if (p == produce_palette_png) {
		*chunk = tree_made_arg(file);
		*level = 0;
		return OBJECT_PNG_PALETTE;
	}
	return OBJECT_PNG_NONE;
}
