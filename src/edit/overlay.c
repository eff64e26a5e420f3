/* SPDX-License-Identifier: MIT */
/* overlay.c - a mount's edits: taken as they are written, taken back as
 * they go, all taken again when the folder is opened. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "edit/overlay.h"
#include "util/log.h"
#include "util/reason.h"
#include "util/strbuf.h"
#include "util/vec.h"
#include "views/member.h"

/* The order a member's edits are taken in (overlay.h). */
enum rank { RANK_WHOLE, RANK_SLICE, RANK_PALETTE, RANK_TEXTURE, RANK_MIP,
	    RANK_DISC, RANK_NONE };

struct edit {
	char *path;
	bool applied;
	struct reason why;
	struct member *m;       /* the member it changes, or NULL */
	bool disc;
	uint64_t size;          /* the member's or disc file's new size */
	enum rank rank;
};

struct overlay {
	struct fs *fs;
	struct store *st;
	/* One edit is taken at a time: a member's bytes are made from the
	 * ones before. */
	pthread_mutex_t apply;
	/* The edits' records, under lock (overlay_edits reads them while
	 * an edit is taken). */
	pthread_mutex_t lock;
	struct edit *edits;
	size_t count, cap;
};

struct store *overlay_store(struct overlay *ov)
{
	return ov->st;
}

struct fs *overlay_fs(struct overlay *ov)
{
	return ov->fs;
}

/* Under ov->lock. */
static struct edit *find(struct overlay *ov, const char *path)
{
	for (size_t i = 0; i < ov->count; i++)
		if (strcmp(ov->edits[i].path, path) == 0)
			return &ov->edits[i];
	return NULL;
}

/* Within tree_enter: the node at path, populating the folders on the
 * way, or NULL. */
static struct node *resolve(struct fs *fs, const char *path)
{
	struct node *n = fs_root(fs);
	char name[1024];
	for (const char *p = path; n && *p;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		if (len >= sizeof name)
			return NULL;
		memcpy(name, p, len);
		name[len] = '\0';
		int err;
		n = tree_child(fs, n, name, &err);
		p += len + (slash ? 1 : 0);
	}
	return n;
}

static enum rank rank_of(struct node *file, struct member **m)
{
	switch (member_edit_of(file, m)) {
	case MEMBER_EDIT_SLICE:
		return tree_view_whole(file) ? RANK_WHOLE : RANK_SLICE;
	case MEMBER_EDIT_PALETTE:
		return RANK_PALETTE;
	case MEMBER_EDIT_TEXTURE:
		return RANK_TEXTURE;
	case MEMBER_EDIT_MIP:
		return RANK_MIP;
	default:
		break;
	}
	enum file_kind k = tree_file_kind(file);
	return k == FILE_HOST || k == FILE_BLOB ? RANK_DISC : RANK_NONE;
}

bool overlay_editable(struct overlay *ov, struct node *file)
{
	(void)ov;
	struct member *m;
	return tree_is_file(file) && rank_of(file, &m) != RANK_NONE;
}

/* What taking the edit found, kept in its record. */
struct outcome {
	bool applied;
	struct reason why;
	struct member *m;
	bool disc;
	uint64_t size;
	enum rank rank;
};

/* The new bytes of the member the file at path is in, from the edit in
 * the folder; or a disc file's edit, whose bytes stay there (it may be
 * an audio file of hundreds of megabytes). */
static int make(struct overlay *ov, const char *path, struct outcome *o,
		uint8_t **out, size_t *out_len)
{
	struct fs *fs = ov->fs;
	tree_enter(fs);
	struct node *n = resolve(fs, path);
	int rc = 0;
	o->rank = n && tree_is_file(n) ? rank_of(n, &o->m) : RANK_NONE;
	struct stat sb;
	uint8_t *in = NULL;
	size_t len = 0;
	if (!n || !tree_is_file(n)) {
		reason_set(&o->why, "no such file in the tree");
		rc = -EINVAL;
	} else if (o->rank == RANK_NONE) {
		reason_set(&o->why, "a file that no edit can change");
		rc = -EINVAL;
	} else if (o->rank == RANK_DISC) {
		rc = store_stat(ov->st, path, &sb);
		o->disc = true;
		o->size = rc == 0 ? (uint64_t)sb.st_size : 0;
	} else if ((rc = store_read(ov->st, path, &in, &len)) == 0) {
		rc = member_edit_make(fs, n, in, len, out, out_len, &o->why);
		free(in);
	}
	tree_leave(fs);
	if (rc < 0 && rc != -EINVAL && !reason_given(&o->why))
		reason_set(&o->why, "the folder's file cannot be read: %s",
			   strerror(-rc));
	return rc;
}

/* Takes the edit at path, under ov->apply: 0 applied, -EINVAL refused
 * (o->why), another errno when it could not be read. */
static int apply(struct overlay *ov, const char *path, struct outcome *o)
{
	memset(o, 0, sizeof *o);
	o->rank = RANK_NONE;
	uint8_t *out = NULL;
	size_t out_len = 0;
	int rc = make(ov, path, o, &out, &out_len);
	if (rc == 0 && o->m) {
		rc = member_edit_set(ov->fs, o->m, out, out_len);
		if (rc == -EBUSY)
			reason_set(&o->why, "the member is in use; save again");
		if (rc < 0)
			rc = -EINVAL;
	} else {
		free(out);
	}
	if (rc < 0 && !reason_given(&o->why))
		reason_set(&o->why, "%s", strerror(-rc));
	o->applied = rc == 0;
	return rc;
}

/* Keeps what taking the edit at path found; logs a refusal once (taken:
 * not only found, as the folder is opened). */
static int record(struct overlay *ov, const char *path,
		  const struct outcome *o, bool taken)
{
	if (taken && !o->applied)
		log_error("overlay: %s: edit refused: %s", path, o->why.text);
	pthread_mutex_lock(&ov->lock);
	struct edit *e = find(ov, path);
	int rc = 0;
	if (!e) {
		char *p = strdup(path);
		if (!p || vec_reserve(ov->edits, &ov->cap, ov->count + 1, 16) < 0) {
			free(p);
			rc = -ENOMEM;
		} else {
			e = &ov->edits[ov->count++];
			memset(e, 0, sizeof *e);
			e->path = p;
		}
	}
	if (e) {
		e->applied = o->applied;
		e->why = o->why;
		e->m = o->m;
		e->disc = o->disc;
		e->size = o->size;
		e->rank = o->rank;
	}
	/* Its member's size is every one of its edits'.  Read here, where
	 * no other thread changes it (ov->apply). */
	size_t len = 0;
	if (o->m && member_edited(o->m, &len))
		for (size_t i = 0; i < ov->count; i++)
			if (ov->edits[i].m == o->m)
				ov->edits[i].size = len;
	pthread_mutex_unlock(&ov->lock);
	return rc;
}

static int by_rank_then_path(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Takes again, in order (rank, then path), every edit of member m, or
 * every edit when m is NULL.  The paths are copied out first: taking an
 * edit records its outcome, which takes ov->lock. */
static void take_in_order(struct overlay *ov, const struct member *m)
{
	pthread_mutex_lock(&ov->lock);
	if (ov->count)
		qsort(ov->edits, ov->count, sizeof *ov->edits,
		      by_rank_then_path);
	size_t n = 0;
	char **paths = malloc((ov->count ? ov->count : 1) * sizeof *paths);
	for (size_t i = 0; paths && i < ov->count; i++)
		if (!m || ov->edits[i].m == m)
			paths[n++] = strdup(ov->edits[i].path);
	pthread_mutex_unlock(&ov->lock);
	for (size_t i = 0; paths && i < n; i++) {
		struct outcome o;
		if (paths[i]) {
			apply(ov, paths[i], &o);
			record(ov, paths[i], &o, true);
		}
		free(paths[i]);
	}
	free(paths);
}

/* The member's bytes again from the disc's and each of its edits, in
 * order; under ov->apply. */
static void redo_member(struct overlay *ov, struct member *m)
{
	if (member_edit_set(ov->fs, m, NULL, 0) < 0)
		log_error("overlay: member %s is in use: its edits stay as "
			  "they were", member_name(m));
	take_in_order(ov, m);
}

int overlay_take(struct overlay *ov, const char *path)
{
	pthread_mutex_lock(&ov->apply);
	struct outcome o;
	int rc = apply(ov, path, &o);
	if (o.rank != RANK_NONE || overlay_has_edit(ov, path))
		record(ov, path, &o, true);
	else
		rc = 0;         /* no file of the tree: an editor's own */
	pthread_mutex_unlock(&ov->apply);
	return rc < 0 ? -EINVAL : 0;
}

int overlay_drop(struct overlay *ov, const char *path)
{
	pthread_mutex_lock(&ov->apply);
	pthread_mutex_lock(&ov->lock);
	struct edit *e = find(ov, path);
	struct member *m = e ? e->m : NULL;
	if (e) {
		free(e->path);
		*e = ov->edits[--ov->count];
	}
	pthread_mutex_unlock(&ov->lock);
	if (m)
		redo_member(ov, m);
	pthread_mutex_unlock(&ov->apply);
	return 0;
}

bool overlay_has_edit(struct overlay *ov, const char *path)
{
	pthread_mutex_lock(&ov->lock);
	bool has = find(ov, path) != NULL;
	pthread_mutex_unlock(&ov->lock);
	return has;
}

bool overlay_disc_file(struct overlay *ov, const char *path,
		       uint64_t *size)
{
	pthread_mutex_lock(&ov->lock);
	struct edit *e = find(ov, path);
	bool disc = e && e->disc && e->applied;
	if (disc)
		*size = e->size;
	pthread_mutex_unlock(&ov->lock);
	return disc;
}

/* ---- opening: every edit in the folder taken ---- */

struct found {
	struct overlay *ov;
	int rc;
};

/* A file of the folder: an edit when the tree has a file there. */
static void found_file(void *ctx, const char *path)
{
	struct found *f = ctx;
	struct fs *fs = f->ov->fs;
	tree_enter(fs);
	struct node *n = resolve(fs, path);
	struct outcome o = { .rank = RANK_NONE };
	if (n && tree_is_file(n))
		o.rank = rank_of(n, &o.m);
	tree_leave(fs);
	if (n && tree_is_file(n) && record(f->ov, path, &o, false) < 0)
		f->rc = -ENOMEM;
}

/* Takes every edit found, in order. */
static void apply_all(struct overlay *ov)
{
	take_in_order(ov, NULL);
}

int overlay_open(struct fs *fs, const char *dir, unsigned flags,
		 struct overlay **out, char *err, size_t errlen)
{
	struct overlay *ov = calloc(1, sizeof *ov);
	if (!ov) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ov->fs = fs;
	pthread_mutex_init(&ov->apply, NULL);
	pthread_mutex_init(&ov->lock, NULL);
	int rc = store_open(dir, !(flags & OVERLAY_NO_LOCK), &ov->st, err,
			    errlen);
	if (rc < 0) {
		overlay_close(ov);
		return rc;
	}
	*out = ov;
	return 0;
}

int overlay_load(struct overlay *ov)
{
	struct found f = { ov, 0 };
	int rc = store_walk(ov->st, "", found_file, &f);
	if (rc == 0)
		rc = f.rc;
	if (rc < 0) {
		log_error("overlay %s: %s", store_dir(ov->st), strerror(-rc));
		return rc;
	}
	pthread_mutex_lock(&ov->apply);
	apply_all(ov);
	pthread_mutex_unlock(&ov->apply);
	return 0;
}

void overlay_close(struct overlay *ov)
{
	if (!ov)
		return;
	for (size_t i = 0; i < ov->count; i++)
		free(ov->edits[i].path);
	free(ov->edits);
	store_close(ov->st);
	pthread_mutex_destroy(&ov->apply);
	pthread_mutex_destroy(&ov->lock);
	free(ov);
}

/* ---- the listing ---- */

static int by_path(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	return strcmp(x->path, y->path);
}

int overlay_edits(struct overlay *ov, overlay_edit_fn fn, void *ctx)
{
	pthread_mutex_lock(&ov->lock);
	if (ov->count)
		qsort(ov->edits, ov->count, sizeof *ov->edits, by_path);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < ov->count; i++) {
		const struct edit *e = &ov->edits[i];
		struct overlay_edit oe = {
			e->path, e->applied, e->applied ? "" : e->why.text,
			e->m ? member_archive(e->m) : NULL,
			e->m ? member_name(e->m) : NULL, e->disc,
			e->applied ? e->size : 0,
		};
		rc = fn(ctx, &oe);
	}
	pthread_mutex_unlock(&ov->lock);
	return rc;
}

static int edit_line(void *ctx, const struct overlay_edit *e)
{
	struct strbuf *sb = ctx;
	sb_printf(sb, "%s\t%s%s%s\t", e->path, e->applied ? "applied" :
		  "refused", e->applied ? "" : ": ", e->why);
	if (e->member)
		sb_printf(sb, "%s/%s", e->archive, e->member);
	else
		sb_puts(sb, e->disc_file ? "disc file" : "-");
	if (e->applied)
		sb_printf(sb, "\t%" PRIu64 "\n", e->size);
	else
		sb_puts(sb, "\t-\n");
	return 0;
}

int overlay_edits_text(struct overlay *ov, uint8_t **text, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	overlay_edits(ov, edit_line, &sb);
	return sb_finish(&sb, text, len);
}
