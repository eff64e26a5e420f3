/* SPDX-License-Identifier: MIT */
/* member.c - a member's bytes, its folder (scene.txt, chunks/, objects)
 * and the producers of its text files. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/archive.h"
#include "archive/gzip.h"
#include "ccsf/ccsf.h"
#include "decode/cutscene/cutscene.h"
#include "decode/scene/scene_gltf.h"
#include "decode/text/chunk_text.h"
#include "util/bufpool.h"
#include "util/log.h"
#include "util/names.h"
#include "util/strbuf.h"
#include "views/cutscene_srt.h"
#include "views/member.h"
#include "views/member_internal.h"
#include "views/object.h"

/* ---- text producers ---- */

static int produce_error_text(struct fs *fs, struct node *n, uint8_t **data,
			      size_t *len)
{
	struct member *m = tree_made_ctx(n);
	struct strbuf sb = STRBUF_INIT;
	fs_lock(fs);
	int irc = m->inflate_rc;
	struct gzip_result gz = m->gz;
	fs_unlock(fs);
	if (irc < 0)
		sb_printf(&sb, "member: %s at byte %" PRIu64 " of %s\n"
			  "inflate: %s\n", m->name, m->e->offset,
			  m->ar->tree_path, gz.error.text);
	if (m->walked && m->walk_rc < 0)
		sb_printf(&sb, "walk: at byte %zu of the inflated file: %s\n",
			  m->scene.error_offset, m->scene.error.text);
	if (m->frames_problems)
		sb_puts(&sb, m->frames_problems);
	return sb_finish(&sb, data, len);
}

static void print_object_kinds(struct strbuf *sb, const struct ccsf_scene *s,
			       uint32_t object)
{
	const char *sep = "";
	for (uint32_t i = 0; object && i < s->chunk_count; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		if (c->object != object || c->in_frames)
			continue;
		sb_printf(sb, "%s%s", sep, ccsf_kind_name(c->kind));
		sep = ",";
	}
}

static int produce_scene_text(struct fs *fs, struct node *n, uint8_t **data,
			      size_t *len)
{
	(void)fs;
	struct member *m = tree_made_ctx(n);
	const struct ccsf_scene *s = &m->scene;
	struct strbuf sb = STRBUF_INIT;
	sb_puts(&sb, "name: ");
	name_put_raw(&sb, s->name, sizeof s->name);
	sb_printf(&sb, "\nversion: 0x%x\nframes: %" PRIu32 "\nsize: %zu\n"
		  "chunks: %" PRIu32 "\nframe_chunks: %" PRIu32 "\n",
		  s->version, s->frames, s->size, s->chunk_count,
		  s->frame_chunk_count);
	if (s->trailer_offset < s->size)
		sb_printf(&sb, "trailer: %zu bytes at %zu\n",
			  s->size - s->trailer_offset, s->trailer_offset);
	if (m->walk_rc < 0)
		sb_printf(&sb, "error: at byte %zu: %s\n", s->error_offset,
			  s->error.text);
	sb_printf(&sb, "files: %" PRIu32 "\n", s->file_count);
	for (uint32_t i = 0; i < s->file_count; i++) {
		sb_printf(&sb, "file %" PRIu32 ": ", i);
		name_put_raw(&sb, s->files[i], CCSF_NAME_LEN);
		sb_puts(&sb, "\n");
	}
	sb_printf(&sb, "objects: %" PRIu32 "\n", s->object_count);
	for (uint32_t i = 0; i < s->object_count; i++) {
		sb_printf(&sb, "object %" PRIu32 ": %s file %u kinds ", i,
			  m->object_names[i], s->objects[i].file);
		print_object_kinds(&sb, s, i);
		if (i && cutscene_dir_marked_elsewhere(s, i) && !cutscene_dir_is_setup(m->name))
			sb_printf(&sb, " defined %s", m->defined_at[i] ?
				  m->defined_at[i] : "unresolved");
		sb_puts(&sb, "\n");
	}
	return sb_finish(&sb, data, len);
}

static const char *scene_object_name_cb(void *ctx, uint32_t index)
{
	return member_object_name(ctx, index);
}

/* scene.glb: the whole scene, posed and animated, made when read. */
static int produce_scene_glb(struct fs *fs, struct node *n, uint8_t **data,
			     size_t *len)
{
	struct member *m = tree_made_ctx(n);
	struct cache_ref ref;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0)
		return rc;
	char source[1024];
	snprintf(source, sizeof source, "%s/%s", m->ar->tree_path, m->name);
	struct scene_env env = { m, scene_object_name_cb, source };
	rc = scene_glb(&m->scene, ref.data, ref.len, &env, data, len);
	cache_put(fs_cache(fs), &ref);
	return rc;
}

/* ---- the member directory ---- */

/* Names the member directory holds besides its objects. */
static bool reserved_name(const struct member *m, const char *name)
{
	static const char *fixed[] = { "scene.txt", "chunks", "error.txt",
				       "frames.txt", "audio.wav", "scene.glb" };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (strcmp(name, fixed[i]) == 0)
			return true;
	size_t n = strlen(m->name);
	return strncmp(name, m->name, n) == 0 && strcmp(name + n, ".ccs") == 0;
}

struct name_slot {
	const char *name;
	uint32_t index;
};

static int by_name_then_index(const void *a, const void *b)
{
	const struct name_slot *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

static const char *suffixed(struct fs *fs, struct member *m, const char *name,
			   uint32_t index)
{
	char buf[NAME_MAX_OUT(CCSF_OBJECT_NAME_LEN) + 32];
	snprintf(buf, sizeof buf, "%s~%" PRIu32, name, index);
	return tree_strdup(fs, m->dir, buf);
}

/* doc/formats/tree.md, Names: converted from Shift-JIS, an empty name is
 * #<index>, a name that repeats (or takes one of the member's own names)
 * gets ~<index>. */
static int name_objects(struct fs *fs, struct member *m)
{
	const struct ccsf_scene *s = &m->scene;
	uint32_t n = s->object_count;
	m->object_names = tree_alloc(fs, m->dir,
				     (n ? n : 1) * sizeof *m->object_names);
	struct name_slot *slots = malloc((n ? n : 1) * sizeof *slots);
	struct name_conv *nc = name_conv_open();
	int rc = m->object_names && slots && nc ? 0 : -ENOMEM;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		char buf[NAME_MAX_OUT(CCSF_OBJECT_NAME_LEN) + 16];
		if (!name_from_sjis(nc, s->objects[i].name,
				    CCSF_OBJECT_NAME_LEN, buf))
			snprintf(buf, sizeof buf, "#%" PRIu32, i);
		m->object_names[i] = reserved_name(m, buf) ?
				     suffixed(fs, m, buf, i) :
				     tree_strdup(fs, m->dir, buf);
		slots[i].name = m->object_names[i];
		slots[i].index = i;
		if (!m->object_names[i])
			rc = -ENOMEM;
	}
	if (rc == 0 && n) {
		qsort(slots, n, sizeof *slots, by_name_then_index);
		for (uint32_t i = 1; i < n; i++)
			if (strcmp(slots[i].name, slots[i - 1].name) == 0)
				m->object_names[slots[i].index] =
					suffixed(fs, m, slots[i].name,
						 slots[i].index);
	}
	name_conv_close(nc);
	free(slots);
	return rc;
}

static unsigned digits(uint32_t n)
{
	unsigned d = 1;
	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

static int populate_chunks(struct fs *fs, struct member *m, struct node *dir)
{
	const struct ccsf_scene *s = &m->scene;
	time_t t = m->e->header.mtime;
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	/* Wide enough that name order is file order. */
	int width = (int)(digits(s->chunk_count) > 5 ? digits(s->chunk_count) : 5);
	char name[NAME_MAX_OUT(CCSF_OBJECT_NAME_LEN) + 64];
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		int len = snprintf(name, sizeof name, "%0*" PRIu32 "-%s", width,
				   i, ccsf_kind_name(c->kind));
		if (c->object)
			snprintf(name + len, sizeof name - (size_t)len, "-%s",
				 m->object_names[c->object]);
		strcat(name, ".bin");
		dir_add_view(&b, name, t, &member_view_ops, m, c->offset, c->length, false);
	}
	if (s->trailer_offset < s->size) {
		snprintf(name, sizeof name, "%0*" PRIu32 "-trailer.bin", width,
			 s->chunk_count);
		dir_add_view(&b, name, t, &member_view_ops, m, s->trailer_offset,
			     s->size - s->trailer_offset, false);
	}
	return dir_publish(&b);
}

/* Groups the setup chunks by owning object, in file order. */
static int add_objects(struct fs *fs, struct member *m, struct dir_builder *b,
		       const uint8_t *data, size_t len)
{
	const struct ccsf_scene *s = &m->scene;
	uint32_t n = s->object_count;
	uint32_t *start = calloc((size_t)n + 1, sizeof *start);
	uint32_t *order = malloc(((size_t)s->chunk_count + 1) * sizeof *order);
	if (!start || !order) {
		free(start);
		free(order);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < s->chunk_count; i++)
		if (s->chunks[i].object && !s->chunks[i].in_frames)
			start[s->chunks[i].object + 1]++;
	for (uint32_t o = 0; o < n; o++)
		start[o + 1] += start[o];
	uint32_t *fill = calloc((size_t)n + 1, sizeof *fill);
	int rc = fill ? 0 : -ENOMEM;
	for (uint32_t i = 0; rc == 0 && i < s->chunk_count; i++) {
		uint32_t o = s->chunks[i].object;
		if (o && !s->chunks[i].in_frames)
			order[start[o] + fill[o]++] = i;
	}
	for (uint32_t o = 1; rc == 0 && o < n; o++) {
		uint32_t count = start[o + 1] - start[o];
		if (!count) {
			/* Owns nothing here: a link to where it is defined. */
			if (m->defined_at[o])
				dir_add_link(b, m->object_names[o],
					     m->e->header.mtime, m->defined_at[o]);
			continue;
		}
		struct node *d = dir_add_dir(b, m->object_names[o],
					     m->e->header.mtime, NULL, NULL);
		struct object_build ob = { m, o, order + start[o], count,
					   data, len, m->defined_at[o] };
		rc = d ? object_populate(fs, d, &ob) : -ENOMEM;
	}
	free(fill);
	free(start);
	free(order);
	return rc;
}


int member_populate(struct fs *fs, struct node *dir)
{
	struct member *m = tree_dir_ctx(dir);
	archive_table_check_member(fs, m);    /* its files take its header's mtime */
	time_t t = m->e->header.mtime;
	struct cache_ref ref;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0)
		return rc;
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	size_t whole = ref.len;
	if (ref.len) {
		m->walk_rc = ccsf_walk(ref.data, ref.len, &m->scene);
		m->walked = true;
		tree_charge(fs, dir, ccsf_scene_bytes(&m->scene));
		atomic_store(&m->walked_len, ref.len);
		if (m->walk_rc == -ENOMEM)
			rc = -ENOMEM;
		else if (m->walk_rc < 0)
			log_error("%s: member %s: %s (byte %zu)", m->ar->label,
				  m->name, m->scene.error.text, m->scene.error_offset);
	}
	if (rc == 0 && m->walked)
		rc = name_objects(fs, m);
	if (rc == 0 && m->walked)
		rc = cutscene_dir_resolve(fs, m);
	if (rc == 0 && m->walked)
		rc = cutscene_dir_prepare(fs, m, ref.data, ref.len);
	if (rc == 0 && m->walked)
		rc = cutscene_srt_prepare(fs, m, ref.data, ref.len);
	char name[GZIP_NAME_MAX * 3 + 8];
	snprintf(name, sizeof name, "%s.ccs", m->name);
	fs_lock(fs);
	bool failed = m->inflate_rc < 0;
	fs_unlock(fs);
	if (rc == 0 && whole)
		dir_add_view_kept(&b, &m->whole, name, t, &member_view_ops,
				  m, whole);
	if (rc == 0 && (failed || (m->walked && m->walk_rc < 0) ||
			m->frames_problems))
		dir_add_made(&b, "error.txt", t, produce_error_text, m, 0);
	if (rc == 0 && m->walked) {
		dir_add_made(&b, "scene.txt", t, produce_scene_text, m, 0);
		if (scene_has_nodes(&m->scene) && !m->def_of)
			dir_add_measured(&b, "scene.glb", t, produce_scene_glb,
					 m, 0);
		struct node *chunks = dir_add_dir(&b, "chunks", t, NULL, NULL);
		rc = chunks ? populate_chunks(fs, m, chunks) : -ENOMEM;
		/* Objects are checked against the bytes as they are listed,
		 * so that a texture that cannot be made says why at once. */
		if (rc == 0)
			rc = add_objects(fs, m, &b, ref.data, ref.len);
		if (rc == 0)
			rc = cutscene_dir_add_files(fs, m, &b, ref.data, ref.len);
		if (rc == 0)
			cutscene_srt_add(m, &b);
	}
	cache_put(fs_cache(fs), &ref);
	int prc = dir_publish(&b);
	return rc < 0 ? rc : prc;
}

/* The tree let the member's folder go: what its populate learnt goes
 * too, and the next use walks the bytes again.  What inflating found
 * stays (it is the same every time). */
void member_release(struct fs *fs, struct node *dir)
{
	(void)fs;
	struct member *m = tree_dir_ctx(dir);
	ccsf_scene_free(&m->scene);
	memset(&m->scene, 0, sizeof m->scene);
	cutscene_audio_free(&m->audio);
	memset(&m->audio, 0, sizeof m->audio);
	m->walked = false;
	m->walk_rc = 0;
	m->object_names = NULL;
	m->defined_at = NULL;
	memset(m->sources, 0, sizeof m->sources);
	m->source_count = 0;
	m->def_of = NULL;
	m->frames_problems = NULL;
	m->subtitles = NULL;
}
