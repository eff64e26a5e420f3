/* SPDX-License-Identifier: MIT */
/* cutscene_dir.c - what a member folder of a cutscene pair adds: links to
 * the objects its setup file defines, audio.wav and frames.txt. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/cutscene/cutscene.h"
#include "decode/scene/scene_gltf.h"
#include "util/log.h"
#include "util/names.h"
#include "views/member_internal.h"

/* A setup file of a cutscene pair (strNNNNe), by its name. */
bool cutscene_dir_is_setup(const char *name)
{
	size_t n = strlen(name);
	return n > 1 && name[n - 1] == 'e';
}

/* Objects a scene file marks as defined in a file loaded alongside. */
bool cutscene_dir_marked_elsewhere(const struct ccsf_scene *s, uint32_t object)
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

/* Whether setup member o has a folder for the object. */
static bool setup_defines(struct fs *fs, struct member *self,
			  struct member *o, const char *object)
{
	if (!o || o == self || !cutscene_dir_is_setup(o->name))
		return false;
	int err = 0;
	struct node *n = tree_child(fs, o->dir, object, &err);
	return n && tree_is_dir(n);
}

#define SETUPS (1 + sizeof common_setups / sizeof common_setups[0])

/* Finds where each '#' object is defined: "../<setup>/<object>".  The
 * setup members are looked up once, not once an object: a member of
 * 20,000 objects in an archive of a thousand would compare names for
 * seconds. */
int cutscene_dir_resolve(struct fs *fs, struct member *m)
{
	const struct ccsf_scene *s = &m->scene;
	m->defined_at = tree_alloc(fs, m->dir, (s->object_count ?
						s->object_count : 1) *
				   sizeof *m->defined_at);
	if (!m->defined_at)
		return -ENOMEM;
	if (cutscene_dir_is_setup(m->name))
		return 0;
	char pair[GZIP_NAME_MAX * 3 + 8];
	snprintf(pair, sizeof pair, "%se", m->name);
	struct member *setups[SETUPS] = { NULL };
	bool looked = false;
	for (uint32_t o = 1; o < s->object_count; o++) {
		if (!cutscene_dir_marked_elsewhere(s, o))
			continue;
		if (!looked) {
			setups[0] = member_named(m->ar, pair);
			for (size_t i = 1; i < SETUPS; i++)
				setups[i] = member_named(m->ar,
							 common_setups[i - 1]);
			looked = true;
		}
		size_t i = 0;
		while (i < SETUPS && !setup_defines(fs, m, setups[i],
						    m->object_names[o]))
			i++;
		if (i == SETUPS)
			continue;
		char target[GZIP_NAME_MAX * 3 + NAME_MAX_OUT(CCSF_OBJECT_NAME_LEN) + 64];
		snprintf(target, sizeof target, "../%s/%s", setups[i]->name,
			 m->object_names[o]);
		m->defined_at[o] = tree_strdup(fs, m->dir, target);
		if (!m->defined_at[o])
			return -ENOMEM;
	}
	return 0;
}


/* ---- a cutscene's scene.glb: the setup files moved by the frames ---- */

/* A setup member's objects by name, sorted once for all the '#'
 * objects of a scene file that point into it. */
struct by_name {
	const struct member *setup;
	uint32_t *order;        /* object indexes, by name; NULL until used */
};

static int object_name_cmp(const void *a, const void *b, void *setup)
{
	const struct member *m = setup;
	return strcmp(m->object_names[*(const uint32_t *)a],
		      m->object_names[*(const uint32_t *)b]);
}

/* Object `name`'s index in the setup member, or UINT32_MAX. */
static uint32_t setup_index(struct by_name *bn, const char *name)
{
	const struct member *setup = bn->setup;
	uint32_t n = setup->scene.object_count;
	if (n < 2)
		return UINT32_MAX;
	if (!bn->order) {
		bn->order = malloc((size_t)(n - 1) * sizeof *bn->order);
		if (!bn->order)
			return UINT32_MAX;
		for (uint32_t j = 1; j < n; j++)
			bn->order[j - 1] = j;
		qsort_r(bn->order, n - 1, sizeof *bn->order, object_name_cmp,
			(void *)setup);
	}
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, setup->object_names[bn->order[mid]]);
		if (c == 0) {
			/* The first of equal names, as a scan would find. */
			while (mid > 0 && strcmp(name, setup->object_names[
					bn->order[mid - 1]]) == 0)
				mid--;
			return bn->order[mid];
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return UINT32_MAX;
}

/* Setup member o, walked, when it has nodes to move. */
static struct member *walked_with_nodes(struct fs *fs, struct member *m,
					struct member *o)
{
	if (!o || o == m || !cutscene_dir_is_setup(o->name) ||
	    tree_kids_ready(fs, o->dir) < 0)
		return NULL;
	return o->walked && scene_has_nodes(&o->scene) ? o : NULL;
}

/* The setup member a link "../<member>/<object>" points into; *last is
 * the one found before, tried first (the links point into a few). */
static struct member *member_of_link(struct member *m, const char *link,
				     struct member **last)
{
	char name[GZIP_NAME_MAX * 3 + 8];
	if (strncmp(link, "../", 3) != 0)
		return NULL;
	size_t n = strcspn(link + 3, "/");
	if (n >= sizeof name)
		return NULL;
	memcpy(name, link + 3, n);
	name[n] = 0;
	if (!*last || strcmp((*last)->name, name) != 0)
		*last = member_named(m->ar, name);
	return *last;
}

/* The source index of setup member o in m's scene.glb, added when there
 * is room; SCENE_NOWHERE when o has no nodes. */
static uint32_t source_of(struct fs *fs, struct member *m, struct member *o)
{
	for (uint32_t k = 0; k < m->source_count; k++)
		if (m->sources[k] == o)
			return k;
	if (m->source_count == CUTSCENE_SOURCES_MAX ||
	    !walked_with_nodes(fs, m, o))
		return SCENE_NOWHERE;
	m->sources[m->source_count] = o;
	return m->source_count++;
}

static const char *name_of(void *ctx, uint32_t index)
{
	return member_object_name(ctx, index);
}

static void frames_of(struct member *m, const uint8_t *data, size_t len,
		      struct scene_frames *f)
{
	*f = (struct scene_frames){ &m->scene, data, len, m->def_of, name_of,
				    m, m->audio.present ? "audio.wav" : NULL };
}

/* Each '#' object's source and index there: where its link points (the
 * pair's setup file, else a common one), as the tree shows it. */
static int find_definitions(struct fs *fs, struct member *m)
{
	const struct ccsf_scene *s = &m->scene;
	struct scene_def *def = tree_alloc(fs, m->dir,
					   ((size_t)s->object_count + 1) *
					   sizeof *def);
	if (!def)
		return -ENOMEM;
	struct by_name bn[CUTSCENE_SOURCES_MAX] = { { NULL, NULL } };
	struct member *last = NULL;
	for (uint32_t o = 0; o < s->object_count; o++) {
		def[o] = (struct scene_def){ SCENE_NOWHERE, 0 };
		struct member *at = o && m->defined_at[o]
				    ? member_of_link(m, m->defined_at[o], &last)
				    : NULL;
		uint32_t k = at ? source_of(fs, m, at) : SCENE_NOWHERE;
		if (k != SCENE_NOWHERE)
			bn[k].setup = at;
		uint32_t j = k != SCENE_NOWHERE
			     ? setup_index(&bn[k], m->object_names[o])
			     : UINT32_MAX;
		if (j != UINT32_MAX)
			def[o] = (struct scene_def){ k, j };
	}
	for (uint32_t k = 0; k < CUTSCENE_SOURCES_MAX; k++)
		free(bn[k].order);
	m->def_of = def;
	return 0;
}

int cutscene_dir_prepare(struct fs *fs, struct member *m,
			    const uint8_t *data, size_t len)
{
	char pair[GZIP_NAME_MAX * 3 + 8];
	snprintf(pair, sizeof pair, "%se", m->name);
	struct member *setup;
	if (cutscene_dir_is_setup(m->name) || m->scene.frame_chunk_count <= 1 ||
	    !(setup = walked_with_nodes(fs, m, member_named(m->ar, pair))))
		return 0;
	m->sources[0] = setup;
	m->source_count = 1;
	int rc = find_definitions(fs, m);
	if (rc < 0)
		return rc;
	struct scene_frames f;
	frames_of(m, data, len, &f);
	struct strbuf sb = STRBUF_INIT;
	rc = scene_frames_problems(&setup->scene, &f, &sb);
	if (rc == 0 && sb.len) {
		m->frames_problems = tree_strdup(fs, m->dir, sb.data);
		rc = m->frames_problems ? 0 : -ENOMEM;
		log_error("%s: member %s: scene.glb: %.*s", m->ar->label,
			  m->name, (int)strcspn(sb.data, "\n"), sb.data);
	}
	sb_free(&sb);
	return rc;
}

/* scene.glb of a cutscene: sized at its first stat, like every made file,
 * so that its size is exact before the first read.  Each source's bytes
 * are held in the cache while it is made. */
static int produce_cutscene_glb(struct fs *fs, struct node *n, uint8_t **data,
				size_t *len)
{
	struct member *m = tree_made_ctx(n);
	struct cache_ref ref, sref[CUTSCENE_SOURCES_MAX];
	struct scene_source src[CUTSCENE_SOURCES_MAX];
	struct strbuf label = STRBUF_INIT;
	uint32_t held = 0;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0)
		return rc;
	sb_printf(&label, "%s/", m->ar->tree_path);
	for (; held < m->source_count; held++) {
		struct member *o = m->sources[held];
		if ((rc = member_bytes(fs, o, &sref[held])) < 0)
			break;
		src[held] = (struct scene_source){ &o->scene, sref[held].data,
						   sref[held].len, o, name_of };
		sb_printf(&label, "%s + ", o->name);
	}
	sb_puts(&label, m->name);
	if (rc == 0 && label.failed)
		rc = -ENOMEM;
	if (rc == 0) {
		struct scene_frames f;
		frames_of(m, ref.data, ref.len, &f);
		rc = scene_glb_cutscene(src, held, label.data, &f, data, len);
	}
	while (held > 0)
		cache_put(fs_cache(fs), &sref[--held]);
	cache_put(fs_cache(fs), &ref);
	sb_free(&label);
	return rc;
}


/* ---- cutscenes: audio.wav and frames.txt ---- */

/* A 10-minute cutscene's audio is 110 MB: each read makes only its part,
 * from the member's bytes. */
static ssize_t read_audio(struct fs *fs, struct node *n, char *buf,
			  size_t size, uint64_t off)
{
	struct member *m = tree_stream_ctx(n);
	struct cache_ref ref;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0)
		return rc;
	size_t got = cutscene_wav_read(&m->audio, ref.data, ref.len, off,
				       (uint8_t *)buf, size);
	cache_put(fs_cache(fs), &ref);
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
	return member_text(fs, n, frames_text, data, len);
}

int cutscene_dir_add_files(struct fs *fs, struct member *m,
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
		dir_add_measured(b, "frames.txt", t, produce_frames_text, m, 0);
	if (m->def_of)
		dir_add_measured(b, "scene.glb", t, produce_cutscene_glb, m,
				 0);
	return 0;
}

