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

static const char *name_of(void *ctx, uint32_t index)
{
	return member_object_name(ctx, index);
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
	return 0;
}

