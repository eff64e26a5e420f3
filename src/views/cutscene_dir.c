/* SPDX-License-Identifier: MIT */
/* cutscene_dir.c - what a member folder of a cutscene pair adds: links to
 * the objects its setup file defines, audio.wav and frames.txt. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/cutscene.h"
#include "decode/scene_gltf.h"
#include "util/log.h"
#include "util/names.h"
#include "views/member_internal.h"

/* A setup file of a cutscene pair (strNNNNe), by its name. */
bool member_is_setup(const char *name)
{
	size_t n = strlen(name);
	return n > 1 && name[n - 1] == 'e';
}

/* Objects a scene file marks as defined in a file loaded alongside. */
bool scene_marked_elsewhere(const struct ccsf_scene *s, uint32_t object)
{
	uint16_t f = s->objects[object].file;
	return f < s->file_count && s->files[f][0] == '#';
}


/* ---- objects defined in another file (stream cutscenes) ---- */

/* A cutscene's scene file strNNNN marks with '#' the objects that its
 * setup file strNNNNe (or the archive's common setup files) defines.
 * Only setup files are looked into, and they are never resolved
 * themselves, so populating one member from another cannot loop. */
static const char *const common_setups[] = { "str8000e", "str8001e",
					     "str8800e" };

static struct member *member_named(struct archive_dir *ar, const char *name)
{
	for (size_t i = 0; i < ar->count; i++)
		if (strcmp(ar->members[i].name, name) == 0)
			return &ar->members[i];
	return NULL;
}

/* Whether setup member `name` has a folder for the object. */
static bool setup_defines(struct fs *fs, struct member *self, const char *name,
			  const char *object)
{
	struct member *o = member_named(self->ar, name);
	if (!o || o == self || !member_is_setup(o->name))
		return false;
	int err = 0;
	if (tree_ready(fs, o->dir) < 0 && !o->dir->u.dir.nkids)
		return false;
	struct node *n = tree_child(fs, o->dir, object, &err);
	return n && n->type == NODE_DIR;
}

/* Finds where each '#' object is defined: "../<setup>/<object>". */
int member_resolve_elsewhere(struct fs *fs, struct member *m)
{
	const struct ccsf_scene *s = &m->scene;
	m->defined_at = fs_alloc(fs, (s->object_count ? s->object_count : 1) *
				     sizeof *m->defined_at);
	if (!m->defined_at)
		return -ENOMEM;
	if (member_is_setup(m->name))
		return 0;
	char pair[GZIP_NAME_MAX * 3 + 8];
	snprintf(pair, sizeof pair, "%se", m->name);
	for (uint32_t o = 1; o < s->object_count; o++) {
		if (!scene_marked_elsewhere(s, o))
			continue;
		const char *where = NULL;
		if (setup_defines(fs, m, pair, m->object_names[o]))
			where = pair;
		for (size_t i = 0; !where && i < sizeof common_setups /
		     sizeof common_setups[0]; i++)
			if (setup_defines(fs, m, common_setups[i],
					  m->object_names[o]))
				where = common_setups[i];
		if (!where)
			continue;
		char target[GZIP_NAME_MAX * 3 + NAME_MAX_OUT(CCSF_OBJECT_NAME_LEN) + 64];
		snprintf(target, sizeof target, "../%s/%s", where,
			 m->object_names[o]);
		m->defined_at[o] = fs_strdup(fs, target);
		if (!m->defined_at[o])
			return -ENOMEM;
	}
	return 0;
}


/* ---- a cutscene's scene.glb: the setup file moved by the frames ---- */

static uint32_t setup_index(const struct member *setup, const char *name)
{
	for (uint32_t j = 1; j < setup->scene.object_count; j++)
		if (strcmp(setup->object_names[j], name) == 0)
			return j;
	return UINT32_MAX;
}

/* The pair's setup member, walked, when it has nodes to move. */
static struct member *walked_setup(struct fs *fs, struct member *m)
{
	char pair[GZIP_NAME_MAX * 3 + 8];
	snprintf(pair, sizeof pair, "%se", m->name);
	struct member *o = member_named(m->ar, pair);
	if (!o || o == m || (tree_ready(fs, o->dir) < 0 &&
			     !o->dir->u.dir.nkids))
		return NULL;
	return o->walked && scene_has_nodes(&o->scene) ? o : NULL;
}

static const char *name_of(void *ctx, uint32_t index)
{
	return member_object_name(ctx, index);
}

static void frames_of(struct member *m, const uint8_t *data, size_t len,
		      struct scene_frames *f)
{
	*f = (struct scene_frames){ &m->scene, data, len, m->setup_object_of,
				    name_of, m, m->audio.present ?
				    "audio.wav" : NULL };
}

int member_cutscene_prepare(struct fs *fs, struct member *m,
			    const uint8_t *data, size_t len)
{
	const struct ccsf_scene *s = &m->scene;
	struct member *setup;
	if (member_is_setup(m->name) || s->frame_chunk_count <= 1 ||
	    !(setup = walked_setup(fs, m)))
		return 0;
	uint32_t *of = fs_alloc(fs, ((size_t)s->object_count + 1) * sizeof *of);
	if (!of)
		return -ENOMEM;
	char prefix[GZIP_NAME_MAX * 3 + 16];
	size_t n = (size_t)snprintf(prefix, sizeof prefix, "../%s/",
				    setup->name);
	for (uint32_t o = 0; o < s->object_count; o++)
		of[o] = o && m->defined_at[o] &&
			strncmp(m->defined_at[o], prefix, n) == 0 ?
			setup_index(setup, m->object_names[o]) : UINT32_MAX;
	m->setup = setup;
	m->setup_object_of = of;
	struct scene_frames f;
	frames_of(m, data, len, &f);
	struct strbuf sb = STRBUF_INIT;
	int rc = scene_frames_problems(&setup->scene, &f, &sb);
	if (rc == 0 && sb.len) {
		m->frames_problems = fs_strdup(fs, sb.data);
		rc = m->frames_problems ? 0 : -ENOMEM;
		log_error("%s: member %s: scene.glb: %.*s", m->ar->label,
			  m->name, (int)strcspn(sb.data, "\n"), sb.data);
	}
	sb_free(&sb);
	return rc;
}

/* scene.glb of a cutscene: made at its first stat, like every made file,
 * so that its size is exact before the first read. */
static int produce_cutscene_glb(struct fs *fs, struct node *n, uint8_t **data,
				size_t *len)
{
	struct member *m = n->u.made.ctx;
	struct cache_ref ref, sref;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0)
		return rc;
	if ((rc = member_bytes(fs, m->setup, &sref)) < 0) {
		cache_put(fs->cache, &ref);
		return rc;
	}
	char source[1024];
	snprintf(source, sizeof source, "%s/%s + %s", m->ar->tree_path,
		 m->setup->name, m->name);
	struct scene_env env = { m->setup, name_of, source };
	struct scene_frames f;
	frames_of(m, ref.data, ref.len, &f);
	rc = scene_glb_cutscene(&m->setup->scene, sref.data, sref.len, &env,
				&f, data, len);
	cache_put(fs->cache, &sref);
	cache_put(fs->cache, &ref);
	return rc;
}


/* ---- cutscenes: audio.wav and frames.txt ---- */

/* A 10-minute cutscene's audio is 110 MB: each read makes only its part,
 * from the member's bytes. */
static ssize_t read_audio(struct fs *fs, struct node *n, char *buf,
			  size_t size, uint64_t off)
{
	struct member *m = n->u.stream.ctx;
	struct cache_ref ref;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0)
		return rc;
	size_t got = cutscene_wav_read(&m->audio, ref.data, ref.len, off,
				       (uint8_t *)buf, size);
	cache_put(fs->cache, &ref);
	return (ssize_t)got;
}

static int frames_text(struct member *m, const uint8_t *data, size_t len,
		       uint32_t arg, struct strbuf *out)
{
	(void)arg;
	return cutscene_frames_text(&m->scene, data, len, name_of, m, out);
}

static int produce_frames_text(struct fs *fs, struct node *n, uint8_t **data,
			       size_t *len)
{
	return member_text(fs, n->u.made.ctx, 0, frames_text, data, len);
}

int member_add_cutscene_files(struct fs *fs, struct member *m,
			      struct dir_builder *b, const uint8_t *data,
			      size_t len)
{
	(void)fs;
	time_t t = m->e->header.mtime;
	int rc = cutscene_audio_layout(&m->scene, data, len, &m->audio);
	if (rc < 0)
		return rc;
	if (reason_given(&m->audio.problem))
		log_error("%s: member %s: audio: %s", m->ar->label, m->name,
			  m->audio.problem.text);
	if (m->audio.present)
		dir_add_stream(b, "audio.wav", t, cutscene_wav_size(&m->audio),
			       read_audio, m);
	/* Every file ends its frame section with a Top; only scenes with
	 * more than that have frames worth a file. */
	if (m->scene.frame_chunk_count > 1)
		dir_add_made(b, "frames.txt", t, produce_frames_text, m, 0);
	if (m->setup_object_of)
		dir_add_made(b, "scene.glb", t, produce_cutscene_glb, m, 0);
	return 0;
}

