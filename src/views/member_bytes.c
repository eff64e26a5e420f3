/* SPDX-License-Identifier: MIT */
/* member_bytes.c - a member's inflated bytes (or its edit's), read ahead
 * for a reader going through the archive, its byte views, and what the
 * files made of it read of it.  Below member.c, object.c and
 * cutscene_dir.c, which all read a member through it. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive.h"
#include "archive/gzip.h"
#include "ccsf/ccsf.h"
#include "util/bufpool.h"
#include "util/log.h"
#include "util/strbuf.h"
#include "views/member.h"
#include "views/member_internal.h"

/* ---- member bytes ---- */

struct fill_call {
	struct fs *fs;
	struct member *m;
};

void member_record_outcome(struct fs *fs, struct member *m, int rc,
			   const struct gzip_result *r)
{
	fs_lock(fs);
	bool first = !m->known;
	if (first) {
		m->known = true;
		m->inflate_rc = rc;
		m->gz = *r;
	}
	fs_unlock(fs);
	if (first && rc < 0)
		log_error("%s: member %s at byte %" PRIu64 ": %s", m->ar->label,
			  m->name, m->e->offset, r->error.text);
	if (first)
		archive_table_check_inflated(fs, m, rc, r);
}

static int member_fill(void *ctx, uint8_t **data, size_t *len)
{
	struct fill_call *c = ctx;
	struct member *m = c->m;
	if (m->edited) {
		/* An edit's bytes: copied, since the cache frees what it
		 * holds when it likes. */
		*data = bufpool_alloc(m->edited_len ? m->edited_len : 1);
		if (!*data)
			return -ENOMEM;
		memcpy(*data, m->edited, m->edited_len);
		*len = m->edited_len;
		return 0;
	}
	struct gzip_result r;
	int rc = gzip_inflate_member(&m->ar->blob, m->e->offset, m->e->extent,
				     fs_max_member(c->fs), data, len, &r);
	if (rc == -ENOMEM) {
		log_error("%s: member %s: out of memory inflating it",
			  m->ar->label, m->name);
		return rc;
	}
	member_record_outcome(c->fs, m, rc, &r);
	size_t walked = atomic_load(&m->walked_len);
	if (*len < walked)
		log_error("%s: member %s: %zu bytes inflated, %zu when first "
			  "read (the source changed?)%s%s", m->ar->label,
			  m->name, *len, walked, rc ? ": " : "", r.error.text);
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
	int rc = cache_get(fs_cache(fs), tree_key(m->dir), member_fill, &call,
			   ref);
	/* Inflated again after the source shrank (member_fill said so):
	 * what was made from the walk of more cannot be made from less. */
	if (rc == 0 && ref->len < atomic_load(&m->walked_len)) {
		cache_put(fs_cache(fs), ref);
		return -EIO;
	}
	return rc;
}

static void inflate_ahead(void *owner, void *arg)
{
	struct fs *fs = owner;
	struct cache_ref ref;
	if (cached_bytes(fs, arg, &ref) == 0)
		cache_put(fs_cache(fs), &ref);
}

/* How many members are inflated ahead of a reader in order: two, so that
 * both workers inflate while the reader takes what they made. */
#define INFLATE_AHEAD 2

/* The member after m for a reader going through the archive's order, or
 * the listing's. */
static struct member *member_after(struct member *m, bool in_order)
{
	struct archive_dir *ar = m->ar;
	if (!in_order)
		return m->next_listed;
	return (size_t)(m - ar->members) + 1 < ar->count ? m + 1 : NULL;
}

/* A reader that moved on to the member after one a reader read last, in
 * the archive's order or the listing's, is likely to want the ones after
 * that too: they are inflated on the workers while this one is read.
 * Each of the last few readers is followed on its own, so that two
 * readers of one archive each keep theirs. */
static void read_ahead_of(struct fs *fs, struct member *m)
{
	struct archive_dir *ar = m->ar;
	size_t i = (size_t)(m - ar->members);
	unsigned slot = READ_STREAMS;
	bool in_order = false;
	for (unsigned k = 0; k < READ_STREAMS; k++) {
		size_t last = atomic_load(&ar->last_read[k]);
		if (last == i)
			return;         /* the same member read on */
		if (last == SIZE_MAX || slot < READ_STREAMS)
			continue;
		if (last + 1 == i || ar->members[last].next_listed == m) {
			slot = k;
			in_order = last + 1 == i;
		}
	}
	if (slot == READ_STREAMS) {
		/* A new reader, or one that jumped: it takes the oldest slot. */
		slot = atomic_fetch_add(&ar->next_stream, 1) % READ_STREAMS;
		atomic_store(&ar->last_read[slot], i);
		return;
	}
	atomic_store(&ar->last_read[slot], i);
	struct member *next = m;
	for (unsigned k = 0; k < INFLATE_AHEAD; k++) {
		next = member_after(next, in_order);
		if (!next || !next->dir)
			break;
		if (!cache_holds(fs_cache(fs), tree_key(next->dir)))
			readahead_queue(fs_readahead(fs), inflate_ahead, next);
	}
}

int member_bytes(struct fs *fs, struct member *m, struct cache_ref *ref)
{
	if (!readahead_on_worker())
		read_ahead_of(fs, m);
	return cached_bytes(fs, m, ref);
}

int member_text(struct fs *fs, struct node *n, member_text_fn fn,
		uint8_t **data, size_t *len)
{
	struct member *m = tree_made_ctx(n);
	struct cache_ref ref;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0)
		return rc;
	struct strbuf sb;
	tree_made_text_init(n, data, &sb);
	rc = fn(m, ref.data, ref.len, tree_made_arg(n), &sb);
	cache_put(fs_cache(fs), &ref);
	if (rc < 0) {
		sb_free(&sb);
		return rc;
	}
	return sb_finish(&sb, data, len);
}

static bool member_intact(struct fs *fs, struct member *m)
{
	fs_lock(fs);
	bool ok = m->known && m->inflate_rc == 0;
	fs_unlock(fs);
	return ok;
}

static int view_bytes(struct fs *fs, struct node *view, struct cache_ref *ref)
{
	struct member *m = tree_view_source(view);
	int rc = member_bytes(fs, m, ref);
	if (rc < 0)
		return rc;
	/* member_bytes refuses bytes shorter than the walk, which laid out
	 * every view, so this holds; it guards tree_bytes' arithmetic. */
	bool fits = ref->len >= tree_view_offset(view) &&
		    ref->len - tree_view_offset(view) >= tree_size(view);
	if (!fits || (tree_view_whole(view) && !member_intact(fs, m))) {
		cache_put(fs_cache(fs), ref);
		return -EIO;
	}
	return 0;
}

static int view_open(struct fs *fs, struct node *view)
{
	struct member *m = tree_view_source(view);
	/* A view exists only once its member was inflated and walked, so
	 * the outcome is known. */
	return tree_view_whole(view) && !member_intact(fs, m) ? -EIO : 0;
}

const struct view_ops member_view_ops = { view_bytes, view_open };

/* ---- what the folders made of a member read of it ---- */

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

