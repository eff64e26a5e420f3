/* SPDX-License-Identifier: MIT */
/* member.c - archive directories, member directories, object directories
 * and the producers of their text files. */
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
#include "ccsf/ccsf.h"
#include "decode/chunk_text.h"
#include "archive/gzip.h"
#include "util/log.h"
#include "views/member.h"
#include "util/names.h"
#include "decode/cutscene.h"
#include "views/object.h"
#include "util/strbuf.h"

struct member {
	struct archive_dir *ar;
	const struct archive_entry *e;
	const char *name;               /* its directory's name */
	struct node *dir;               /* its inode keys its bytes */
	/* What inflation learnt; under fs->lock until `known`. */
	bool known;
	int inflate_rc;
	struct gzip_result gz;
	/* What the walk learnt; written once by the populating thread. */
	bool walked;
	int walk_rc;
	/* The bytes walked (0 before): inflating fewer again means the
	 * source shrank.  Atomic: the read-ahead worker inflates too. */
	_Atomic size_t walked_len;
	struct ccsf_scene scene;
	const char **object_names;      /* display name per object index */
	const char **defined_at;        /* '#' objects: the link's target */
	struct cutscene_audio audio;    /* where audio.wav's blocks are */
};

struct archive_dir {
	struct archive_dir *next;
	const char *label;              /* for messages: the source path */
	const char *tree_path;          /* where it is in the tree: DATA/DATA.BIN */
	const char *path;               /* NULL when blob was given */
	struct blob blob;
	bool own_fd;
	struct archive_entry *entries;
	size_t count;
	struct member *members;
	_Atomic size_t last_read;       /* the member a reader asked for last */
};

/* ---- member bytes ---- */

struct fill_call {
	struct fs *fs;
	struct member *m;
};

static void record_outcome(struct fs *fs, struct member *m, int rc,
			   const struct gzip_result *r)
{
	pthread_mutex_lock(&fs->lock);
	bool first = !m->known;
	if (first) {
		m->known = true;
		m->inflate_rc = rc;
		m->gz = *r;
	}
	pthread_mutex_unlock(&fs->lock);
	if (first && rc < 0)
		log_error("%s: member %s at byte %" PRIu64 ": %s", m->ar->label,
			  m->name, m->e->offset, r->error);
}

static int member_fill(void *ctx, uint8_t **data, size_t *len)
{
	struct fill_call *c = ctx;
	struct member *m = c->m;
	struct gzip_result r;
	int rc = gzip_inflate_member(&m->ar->blob, m->e->offset, m->e->extent,
				     c->fs->max_member, data, len, &r);
	if (rc == -ENOMEM) {
		log_error("%s: member %s: out of memory inflating it",
			  m->ar->label, m->name);
		return rc;
	}
	record_outcome(c->fs, m, rc, &r);
	size_t walked = atomic_load(&m->walked_len);
	if (*len < walked)
		log_error("%s: member %s: %zu bytes inflated, %zu when first "
			  "read (the source changed?)%s%s", m->ar->label,
			  m->name, *len, walked, rc ? ": " : "", r.error);
	if (rc == -EFBIG) {
		free(*data);
		*data = NULL;
		*len = 0;
	}
	/* A broken member keeps what inflated before the fault: its chunks
	 * are still worth reading. */
	return 0;
}

static int cached_bytes(struct fs *fs, struct member *m,
			struct cache_ref *ref)
{
	struct fill_call call = { fs, m };
	int rc = cache_get(fs->cache, m->dir->ino, member_fill, &call, ref);
	/* Inflated again after the source shrank (member_fill said so):
	 * what was made from the walk of more cannot be made from less. */
	if (rc == 0 && ref->len < atomic_load(&m->walked_len)) {
		cache_put(fs->cache, ref);
		return -EIO;
	}
	return rc;
}

static void inflate_ahead(void *owner, void *arg)
{
	struct fs *fs = owner;
	struct cache_ref ref;
	if (cached_bytes(fs, arg, &ref) == 0)
		cache_put(fs->cache, &ref);
}

/* A reader that moved on to the member after the one it read last is
 * likely to want the one after that too: it is inflated on the worker
 * while this one is read. */
static void read_ahead_of(struct fs *fs, struct member *m)
{
	struct archive_dir *ar = m->ar;
	size_t i = (size_t)(m - ar->members);
	size_t last = atomic_exchange(&ar->last_read, i);
	if (last != SIZE_MAX && last + 1 == i && i + 1 < ar->count &&
	    ar->members[i + 1].dir)
		readahead_queue(&fs->readahead, inflate_ahead, &ar->members[i + 1]);
}

int member_bytes(struct fs *fs, struct member *m, struct cache_ref *ref)
{
	if (!readahead_on_worker())
		read_ahead_of(fs, m);
	return cached_bytes(fs, m, ref);
}

int member_text(struct fs *fs, struct member *m, uint32_t arg,
		member_text_fn fn, uint8_t **data, size_t *len)
{
	struct cache_ref ref;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0)
		return rc;
	struct strbuf sb = STRBUF_INIT;
	rc = fn(m, ref.data, ref.len, arg, &sb);
	cache_put(fs->cache, &ref);
	if (rc < 0) {
		sb_free(&sb);
		return rc;
	}
	return sb_finish(&sb, data, len);
}

static bool member_intact(struct fs *fs, struct member *m)
{
	pthread_mutex_lock(&fs->lock);
	bool ok = m->known && m->inflate_rc == 0;
	pthread_mutex_unlock(&fs->lock);
	return ok;
}

static int view_bytes(struct fs *fs, struct node *view, struct cache_ref *ref)
{
	struct member *m = view->u.view.source;
	int rc = member_bytes(fs, m, ref);
	if (rc < 0)
		return rc;
	/* member_bytes refuses bytes shorter than the walk, which laid out
	 * every view, so this holds; it guards tree_bytes' arithmetic. */
	bool fits = ref->len >= view->u.view.offset &&
		    ref->len - view->u.view.offset >= atomic_load(&view->size);
	if (!fits || (view->u.view.whole && !member_intact(fs, m))) {
		cache_put(fs->cache, ref);
		return -EIO;
	}
	return 0;
}

static int view_open(struct fs *fs, struct node *view)
{
	struct member *m = view->u.view.source;
	/* A view exists only once its member was inflated and walked, so
	 * the outcome is known. */
	return view->u.view.whole && !member_intact(fs, m) ? -EIO : 0;
}

const struct view_ops member_view_ops = { view_bytes, view_open };

/* A setup file of a cutscene pair (strNNNNe), by its name. */
static bool is_setup_name(const char *name)
{
	size_t n = strlen(name);
	return n > 1 && name[n - 1] == 'e';
}

/* Objects a scene file marks as defined in a file loaded alongside. */
static bool marked_elsewhere(const struct ccsf_scene *s, uint32_t object)
{
	uint16_t f = s->objects[object].file;
	return f < s->file_count && s->files[f][0] == '#';
}

/* ---- text producers ---- */

static int produce_error_text(struct fs *fs, struct node *n, uint8_t **data,
			      size_t *len)
{
	struct member *m = n->u.made.ctx;
	struct strbuf sb = STRBUF_INIT;
	pthread_mutex_lock(&fs->lock);
	int irc = m->inflate_rc;
	struct gzip_result gz = m->gz;
	pthread_mutex_unlock(&fs->lock);
	if (irc < 0)
		sb_printf(&sb, "member: %s at byte %" PRIu64 " of %s\n"
			  "inflate: %s\n", m->name, m->e->offset,
			  m->ar->tree_path, gz.error);
	if (m->walked && m->walk_rc < 0)
		sb_printf(&sb, "walk: at byte %zu of the inflated file: %s\n",
			  m->scene.error_offset, m->scene.error);
	return sb_finish(&sb, data, len);
}

static void print_raw_path(struct strbuf *sb, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n && p[i]; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '%')
			sb_append(sb, &p[i], 1);
		else
			sb_printf(sb, "%%%02X", p[i]);
	}
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
	struct member *m = n->u.made.ctx;
	const struct ccsf_scene *s = &m->scene;
	struct strbuf sb = STRBUF_INIT;
	sb_puts(&sb, "name: ");
	print_raw_path(&sb, s->name, sizeof s->name);
	sb_printf(&sb, "\nversion: 0x%x\nframes: %" PRIu32 "\nsize: %zu\n"
		  "chunks: %" PRIu32 "\nframe_chunks: %" PRIu32 "\n",
		  s->version, s->frames, s->size, s->chunk_count,
		  s->frame_chunk_count);
	if (s->trailer_offset < s->size)
		sb_printf(&sb, "trailer: %zu bytes at %zu\n",
			  s->size - s->trailer_offset, s->trailer_offset);
	if (m->walk_rc < 0)
		sb_printf(&sb, "error: at byte %zu: %s\n", s->error_offset,
			  s->error);
	sb_printf(&sb, "files: %" PRIu32 "\n", s->file_count);
	for (uint32_t i = 0; i < s->file_count; i++) {
		sb_printf(&sb, "file %" PRIu32 ": ", i);
		print_raw_path(&sb, s->files[i], CCSF_NAME_LEN);
		sb_puts(&sb, "\n");
	}
	sb_printf(&sb, "objects: %" PRIu32 "\n", s->object_count);
	for (uint32_t i = 0; i < s->object_count; i++) {
		sb_printf(&sb, "object %" PRIu32 ": %s file %u kinds ", i,
			  m->object_names[i], s->objects[i].file);
		print_object_kinds(&sb, s, i);
		if (i && marked_elsewhere(s, i) && !is_setup_name(m->name))
			sb_printf(&sb, " defined %s", m->defined_at[i] ?
				  m->defined_at[i] : "unresolved");
		sb_puts(&sb, "\n");
	}
	return sb_finish(&sb, data, len);
}

/* ---- the member directory ---- */

/* Names the member directory holds besides its objects. */
static bool reserved_name(const struct member *m, const char *name)
{
	static const char *fixed[] = { "scene.txt", "chunks", "error.txt",
				       "frames.txt", "audio.wav" };
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

static const char *suffixed(struct fs *fs, const char *name, uint32_t index)
{
	char buf[NAME_MAX_OUT(CCSF_OBJECT_NAME_LEN) + 32];
	snprintf(buf, sizeof buf, "%s~%" PRIu32, name, index);
	return fs_strdup(fs, buf);
}

/* doc/formats/tree.md, Names: converted from Shift-JIS, an empty name is
 * #<index>, a name that repeats (or takes one of the member's own names)
 * gets ~<index>. */
static int name_objects(struct fs *fs, struct member *m)
{
	const struct ccsf_scene *s = &m->scene;
	uint32_t n = s->object_count;
	m->object_names = fs_alloc(fs, (n ? n : 1) * sizeof *m->object_names);
	struct name_slot *slots = malloc((n ? n : 1) * sizeof *slots);
	struct name_conv *nc = name_conv_open();
	int rc = m->object_names && slots && nc ? 0 : -ENOMEM;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		char buf[NAME_MAX_OUT(CCSF_OBJECT_NAME_LEN) + 16];
		if (!name_from_sjis(nc, s->objects[i].name,
				    CCSF_OBJECT_NAME_LEN, buf))
			snprintf(buf, sizeof buf, "#%" PRIu32, i);
		m->object_names[i] = reserved_name(m, buf) ?
				     suffixed(fs, buf, i) : fs_strdup(fs, buf);
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
					suffixed(fs, slots[i].name, slots[i].index);
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
	if (!o || o == self || !is_setup_name(o->name))
		return false;
	int err = 0;
	if (tree_ready(fs, o->dir) < 0 && !o->dir->u.dir.nkids)
		return false;
	struct node *n = tree_child(fs, o->dir, object, &err);
	return n && n->type == NODE_DIR;
}

/* Finds where each '#' object is defined: "../<setup>/<object>". */
static int resolve_elsewhere(struct fs *fs, struct member *m)
{
	const struct ccsf_scene *s = &m->scene;
	m->defined_at = fs_alloc(fs, (s->object_count ? s->object_count : 1) *
				     sizeof *m->defined_at);
	if (!m->defined_at)
		return -ENOMEM;
	if (is_setup_name(m->name))
		return 0;
	char pair[GZIP_NAME_MAX * 3 + 8];
	snprintf(pair, sizeof pair, "%se", m->name);
	for (uint32_t o = 1; o < s->object_count; o++) {
		if (!marked_elsewhere(s, o))
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

static int add_cutscene_files(struct fs *fs, struct member *m,
			      struct dir_builder *b, const uint8_t *data,
			      size_t len)
{
	(void)fs;
	time_t t = m->e->header.mtime;
	int rc = cutscene_audio_layout(&m->scene, data, len, &m->audio);
	if (rc < 0)
		return rc;
	if (m->audio.problem[0])
		log_error("%s: member %s: audio: %s", m->ar->label, m->name,
			  m->audio.problem);
	if (m->audio.present)
		dir_add_stream(b, "audio.wav", t, cutscene_wav_size(&m->audio),
			       read_audio, m);
	/* Every file ends its frame section with a Top; only scenes with
	 * more than that have frames worth a file. */
	if (m->scene.frame_chunk_count > 1)
		dir_add_made(b, "frames.txt", t, produce_frames_text, m, 0);
	return 0;
}

static int populate_member(struct fs *fs, struct node *dir)
{
	struct member *m = dir->u.dir.ctx;
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
		cache_reserve(fs->cache, ccsf_scene_bytes(&m->scene));
		atomic_store(&m->walked_len, ref.len);
		if (m->walk_rc == -ENOMEM)
			rc = -ENOMEM;
		else if (m->walk_rc < 0)
			log_error("%s: member %s: %s (byte %zu)", m->ar->label,
				  m->name, m->scene.error, m->scene.error_offset);
	}
	if (rc == 0 && m->walked)
		rc = name_objects(fs, m);
	if (rc == 0 && m->walked)
		rc = resolve_elsewhere(fs, m);
	char name[GZIP_NAME_MAX * 3 + 8];
	snprintf(name, sizeof name, "%s.ccs", m->name);
	pthread_mutex_lock(&fs->lock);
	bool failed = m->inflate_rc < 0;
	pthread_mutex_unlock(&fs->lock);
	if (rc == 0 && whole)
		dir_add_view(&b, name, t, &member_view_ops, m, 0, whole, true);
	if (rc == 0 && (failed || (m->walked && m->walk_rc < 0)))
		dir_add_made(&b, "error.txt", t, produce_error_text, m, 0);
	if (rc == 0 && m->walked) {
		dir_add_made(&b, "scene.txt", t, produce_scene_text, m, 0);
		struct node *chunks = dir_add_dir(&b, "chunks", t, NULL, NULL);
		rc = chunks ? populate_chunks(fs, m, chunks) : -ENOMEM;
		/* Objects are checked against the bytes as they are listed,
		 * so that a texture that cannot be made says why at once. */
		if (rc == 0)
			rc = add_objects(fs, m, &b, ref.data, ref.len);
		if (rc == 0)
			rc = add_cutscene_files(fs, m, &b, ref.data, ref.len);
	}
	cache_put(fs->cache, &ref);
	int prc = dir_publish(&b);
	return rc < 0 ? rc : prc;
}

/* ---- what object.c needs of a member ---- */

const struct ccsf_scene *member_scene(const struct member *m)
{
	return &m->scene;
}

const char *member_object_name(const struct member *m, uint32_t index)
{
	return index < m->scene.object_count ? m->object_names[index] : NULL;
}

const char *member_name(const struct member *m)
{
	return m->name;
}

const char *member_archive(const struct member *m)
{
	return m->ar->tree_path;
}

time_t member_mtime(const struct member *m)
{
	return (time_t)m->e->header.mtime;
}

/* ---- the archive directory ---- */

static int verify_member(struct fs *fs, struct member *m)
{
	pthread_mutex_lock(&fs->lock);
	bool known = m->known;
	pthread_mutex_unlock(&fs->lock);
	if (known)
		return 0;
	struct gzip_result r;
	int rc = gzip_inflate_member(&m->ar->blob, m->e->offset, m->e->extent,
				     fs->max_member, NULL, NULL, &r);
	if (rc == -ENOMEM)
		return rc;
	/* Checking inflates into a scratch window: a length over the cap
	 * shows up here as ISIZE, not as an allocation. */
	if (rc == 0 && r.isize > fs->max_member) {
		rc = -EFBIG;
		snprintf(r.error, sizeof r.error, "inflates to more than %zu "
			 "bytes", fs->max_member);
	}
	record_outcome(fs, m, rc, &r);
	return 0;
}

/* Every field of the listing but the name has a fixed width, so its size
 * is known from the scan alone: a stat (ls -l, a file manager) must not
 * inflate the whole archive.  Reading it does, once, since only inflation
 * tells where a member's deflate data ends, and its CRC. */
#define LISTING_HEAD \
	"# member status offset stored compressed inflated crc32 mtime\n"
#define LISTING_FIXED (1 + 6 + 1 + 12 + 1 + 12 + 1 + 12 + 1 + 10 + 1 + 10 + \
		       1 + 20 + 1)

static uint64_t listing_size(const struct archive_dir *ar)
{
	uint64_t n = strlen(LISTING_HEAD);
	for (size_t i = 0; i < ar->count; i++)
		n += strlen(ar->members[i].name) + LISTING_FIXED;
	return n;
}

static const char *member_status(int rc, const struct gzip_result *gz)
{
	if (rc == -EFBIG)
		return "toobig";
	if (rc < 0)
		return "broken";
	return gz->padding_clean ? "ok" : "junk";
}

static void print_listing_line(struct strbuf *sb, const struct member *m,
			       int rc, const struct gzip_result *gz)
{
	char compressed[24] = "-", inflated[16] = "-", crc[16] = "-";
	char mtime[32];
	if (rc == 0) {
		snprintf(compressed, sizeof compressed, "%" PRIu64, gz->compressed);
		snprintf(inflated, sizeof inflated, "%" PRIu32, gz->isize);
		snprintf(crc, sizeof crc, "0x%08" PRIx32, gz->crc);
	}
	struct tm tm;
	time_t t = (time_t)m->e->header.mtime;
	gmtime_r(&t, &tm);
	strftime(mtime, sizeof mtime, "%Y-%m-%dT%H:%M:%SZ", &tm);
	sb_printf(sb, "%s %-6s %12" PRIu64 " %12" PRIu64 " %12s %10s %10s %s\n",
		  m->name, member_status(rc, gz), m->e->offset, m->e->extent,
		  compressed, inflated, crc, mtime);
}

static int produce_listing(struct fs *fs, struct node *n, uint8_t **data,
			   size_t *len)
{
	struct archive_dir *ar = n->u.made.ctx;
	struct strbuf sb = STRBUF_INIT;
	sb_puts(&sb, LISTING_HEAD);
	for (size_t i = 0; i < ar->count; i++) {
		struct member *m = &ar->members[i];
		int rc = verify_member(fs, m);
		if (rc < 0) {
			sb_free(&sb);
			return rc;
		}
		pthread_mutex_lock(&fs->lock);
		struct gzip_result gz = m->gz;
		int irc = m->inflate_rc;
		pthread_mutex_unlock(&fs->lock);
		print_listing_line(&sb, m, irc, &gz);
	}
	return sb_finish(&sb, data, len);
}

/* The member's gzip name without its extension, escaped; member-<sector>
 * when it has none. */
static void member_base_name(const struct archive_entry *e, char *out,
			     size_t outsz)
{
	char raw[GZIP_NAME_MAX + 1];
	snprintf(raw, sizeof raw, "%s", e->header.name);
	char *dot = strrchr(raw, '.');
	if (dot && dot != raw)
		*dot = '\0';
	if (!name_escape_ascii((const uint8_t *)raw, strlen(raw), out))
		snprintf(out, outsz, "member-%" PRIu64,
			 e->offset / ARCHIVE_SECTOR);
}

/* A name seen before gets ~2, ~3 in archive order. */
static int name_members(struct fs *fs, struct archive_dir *ar)
{
	enum { BASE_MAX = GZIP_NAME_MAX * 3 + 32 };
	char (*base)[BASE_MAX] = malloc((ar->count ? ar->count : 1) * BASE_MAX);
	if (!base)
		return -ENOMEM;
	int rc = 0;
	for (size_t i = 0; i < ar->count && rc == 0; i++) {
		member_base_name(&ar->entries[i], base[i], BASE_MAX);
		unsigned seen = 1;
		for (size_t j = 0; j < i; j++)
			seen += strcmp(base[j], base[i]) == 0;
		char name[BASE_MAX + 16];
		if (seen > 1)
			snprintf(name, sizeof name, "%s~%u", base[i], seen);
		else
			snprintf(name, sizeof name, "%s", base[i]);
		ar->members[i].name = fs_strdup(fs, name);
		if (!ar->members[i].name)
			rc = -ENOMEM;
	}
	free(base);
	return rc;
}

static int open_archive(struct archive_dir *ar)
{
	if (ar->blob.fd >= 0)
		return 0;
	int fd = open(ar->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int rc = -errno;
		log_error("%s: %s", ar->path, strerror(errno));
		return rc;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int rc = -errno;
		close(fd);
		return rc;
	}
	ar->blob.fd = fd;
	ar->blob.base = 0;
	ar->blob.size = (uint64_t)st.st_size;
	ar->own_fd = true;
	return 0;
}

/* The archive's path in the tree, the same whichever way the disc is
 * given (image, folder): what made files name as their source. */
static const char *tree_path(struct fs *fs, const struct archive_dir *ar,
			     const struct node *dir)
{
	if (!dir->parent) {
		const char *slash = strrchr(ar->label, '/');
		return fs_strdup(fs, slash ? slash + 1 : ar->label);
	}
	const struct node *chain[64];
	size_t depth = 0;
	for (const struct node *n = dir; n->parent && depth < 64; n = n->parent)
		chain[depth++] = n;
	struct strbuf sb = STRBUF_INIT;
	while (depth--)
		sb_printf(&sb, "%s%s", chain[depth]->name, depth ? "/" : "");
	const char *path = sb.failed ? NULL : fs_strdup(fs, sb.data ? sb.data : "");
	sb_free(&sb);
	return path;
}

static int populate_archive(struct fs *fs, struct node *dir)
{
	struct archive_dir *ar = dir->u.dir.ctx;
	ar->tree_path = tree_path(fs, ar, dir);
	if (!ar->tree_path)
		return -ENOMEM;
	int rc = open_archive(ar);
	if (rc == 0)
		rc = archive_scan(&ar->blob, &ar->entries, &ar->count);
	if (rc < 0) {
		log_error("%s: cannot scan the archive: %s", ar->label,
			  strerror(-rc));
		return rc;
	}
	ar->members = calloc(ar->count ? ar->count : 1, sizeof *ar->members);
	if (!ar->members)
		return -ENOMEM;
	rc = name_members(fs, ar);
	if (rc < 0)
		return rc;
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	for (size_t i = 0; i < ar->count; i++) {
		struct member *m = &ar->members[i];
		m->ar = ar;
		m->e = &ar->entries[i];
		m->dir = dir_add_dir(&b, m->name, m->e->header.mtime,
				     populate_member, m);
	}
	struct node *listing = dir_add_made(&b, ARCHIVE_LISTING, dir->mtime,
					    produce_listing, ar, 0);
	if (listing)
		atomic_store(&listing->size, listing_size(ar));
	return dir_publish(&b);
}

/* At unmount: what the archive's members learnt, and its descriptor. */
static void archive_free(void *ctx)
{
	struct archive_dir *ar = ctx;
	for (size_t i = 0; ar->members && i < ar->count; i++) {
		ccsf_scene_free(&ar->members[i].scene);
		cutscene_audio_free(&ar->members[i].audio);
	}
	free(ar->members);
	free(ar->entries);
	if (ar->own_fd)
		close(ar->blob.fd);
}

static struct archive_dir *archive_new(struct fs *fs, const char *path,
				       const struct blob *blob)
{
	struct archive_dir *ar = fs_alloc(fs, sizeof *ar);
	if (!ar)
		return NULL;
	ar->label = fs_strdup(fs, path);
	ar->path = ar->label;
	ar->blob.fd = -1;
	atomic_init(&ar->last_read, SIZE_MAX);
	if (blob)
		ar->blob = *blob;
	if (!ar->label || fs_on_destroy(fs, archive_free, ar) < 0)
		return NULL;
	return ar;
}

struct node *archive_dir_add(struct dir_builder *b, const char *name,
			     time_t mtime, const char *path,
			     const struct blob *blob)
{
	struct archive_dir *ar = archive_new(b->fs, path, blob);
	if (!ar) {
		b->failed = true;
		return NULL;
	}
	return dir_add_dir(b, name, mtime, populate_archive, ar);
}

struct node *archive_dir_root(struct fs *fs, time_t mtime, const char *path)
{
	struct archive_dir *ar = archive_new(fs, path, NULL);
	return ar ? node_new_dir(fs, "", mtime, populate_archive, ar) : NULL;
}

