/* SPDX-License-Identifier: MIT */
/* tree.c - nodes, folders built and published, lazy population
 * and lookup. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tree/tree.h"
#include "tree/tree_internal.h"
#include "util/blocking.h"
#include "util/bufpool.h"
#include "util/lenmemo.h"
#include "util/log.h"
#include "util/strbuf.h"
#include "util/vec.h"


struct destroy_hook {
	struct destroy_hook *next;
	void (*fn)(void *ctx);
	void *ctx;
};

/* A worker's job looks at nodes like a request does. */
static void use_guard(void *owner, bool enter)
{
	if (enter)
		tree_enter(owner);
	else
		tree_leave(owner);
}

static int fs_init(struct fs *fs, size_t cache_size)
{
	memset(fs, 0, sizeof *fs);
	fs->cache = cache_new(cache_size);
	if (!fs->cache || reclaim_init(fs) < 0) {
		cache_free(fs->cache);
		return -ENOMEM;
	}
	/* The pool's buffers were the cache's values, and the texts'
	 * scratch holds what becomes them: both share its bound. */
	bufpool_set_limit(cache_size / 16);
	cache_count_values(fs->cache);
	/* And a thirty-second for what is being made: a scene.glb under
	 * construction holds several times its member's bytes, which the
	 * cache cannot count until it is done. */
	cache_reserve(fs->cache, cache_size / 16 + cache_size / 32 +
		      SB_SCRATCH_BYTES + LENMEMO_BYTES);
	fs->uid = getuid();
	fs->gid = getgid();
	pthread_mutex_init(&fs->lock, NULL);
	pthread_cond_init(&fs->populated, NULL);
	pthread_cond_init(&fs->measured, NULL);
	pthread_cond_init(&fs->handed_over, NULL);
	pthread_mutex_init(&fs->arena_lock, NULL);
	pthread_mutex_init(&fs->walk_lock, NULL);
	/* A writer waiting keeps new readers out (unit.c says why). */
	pthread_rwlockattr_t ra;
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setkind_np(&ra,
		PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&fs->use_lock, &ra);
	pthread_rwlockattr_destroy(&ra);
	readahead_init(&fs->readahead, fs);
	readahead_guard(&fs->readahead, use_guard);
	return 0;
}

static void free_dirs(struct node *n)
{
	if (n->type != NODE_DIR)
		return;
	for (uint32_t i = 0; i < n->u.dir.nkids; i++)
		free_dirs(n->u.dir.kids[i]);
	free(n->u.dir.kids);
}

static void fs_destroy(struct fs *fs)
{
	readahead_stop(&fs->readahead);         /* its jobs use the rest */
	reclaim_stop(fs);
	if (fs->root)
		free_dirs(fs->root);
	for (struct destroy_hook *h = fs->hooks; h; h = h->next)
		h->fn(h->ctx);
	fs->hooks = NULL;
	reclaim_free(fs);
	cache_free(fs->cache);
	bufpool_drain();
	sb_scratch_drain();
	lenmemo_drain();
	arena_free_all(fs->arenas);
	pthread_mutex_destroy(&fs->lock);
	pthread_rwlock_destroy(&fs->use_lock);
	pthread_cond_destroy(&fs->populated);
	pthread_cond_destroy(&fs->measured);
	pthread_cond_destroy(&fs->handed_over);
	pthread_mutex_destroy(&fs->arena_lock);
	pthread_mutex_destroy(&fs->walk_lock);
}

struct fs *fs_new(size_t cache_size)
{
	/* On the heap: the readahead workers keep its address. */
	struct fs *fs = malloc(sizeof *fs);
	if (fs && fs_init(fs, cache_size) < 0) {
		free(fs);
		fs = NULL;
	}
	return fs;
}

void fs_free(struct fs *fs)
{
	fs_destroy(fs);
	free(fs);
}

int fs_on_destroy(struct fs *fs, void (*fn)(void *ctx), void *ctx)
{
	struct destroy_hook *h = fs_alloc(fs, sizeof *h);
	if (!h)
		return -ENOMEM;
	h->fn = fn;
	h->ctx = ctx;
	pthread_mutex_lock(&fs->arena_lock);
	h->next = fs->hooks;
	fs->hooks = h;
	pthread_mutex_unlock(&fs->arena_lock);
	return 0;
}

/* A node in memory that lives as long as the folder it goes in: its
 * unit's, or the tree's (in NULL: the root; kept: a node that outlives
 * its unit, dir_add_view_kept). */
static struct node *node_alloc(struct fs *fs, struct node *in,
			       const char *name, uint8_t type, time_t mtime,
			       bool kept)
{
	bool unit = in && !kept;
	struct node *n = unit ? tree_alloc(fs, in, sizeof *n)
			      : fs_alloc(fs, sizeof *n);
	if (!n)
		return NULL;
	n->name = unit ? tree_strdup(fs, in, name) : fs_strdup(fs, name);
	if (!n->name)
		return NULL;
	atomic_init(&n->ino, in ? 0 : 1);
	n->type = type;
	if (unit)
		unit_add_node(fs, in, n);
	n->mtime = mtime;
	atomic_init(&n->size, 0);
	return n;
}

static struct node *node_new(struct fs *fs, struct node *in, const char *name,
			     uint8_t type, time_t mtime)
{
	return node_alloc(fs, in, name, type, mtime, false);
}

static struct node *dir_new(struct fs *fs, struct node *in, const char *name,
			    time_t mtime, populate_fn populate, void *ctx)
{
	struct node *n = node_new(fs, in, name, NODE_DIR, mtime);
	if (!n)
		return NULL;
	n->u.dir.populate = populate;
	n->u.dir.ctx = ctx;
	atomic_init(&n->u.dir.state, populate ? DIR_EMPTY : DIR_READY);
	atomic_init(&n->u.dir.listed_ahead, false);
	return n;
}

struct node *node_new_dir(struct fs *fs, const char *name, time_t mtime,
			  populate_fn populate, void *ctx)
{
	return dir_new(fs, NULL, name, mtime, populate, ctx);
}

void dir_builder_init(struct dir_builder *b, struct fs *fs, struct node *dir)
{
	memset(b, 0, sizeof *b);
	b->fs = fs;
	b->dir = dir;
}

static struct node *dir_add(struct dir_builder *b, struct node *n)
{
	if (!n) {
		b->failed = true;
		return NULL;
	}
	if (vec_reserve(b->kids, &b->cap, b->n + 1, 16) < 0) {
		b->failed = true;
		return NULL;
	}
	n->parent = b->dir;
	b->kids[b->n++] = n;
	return n;
}

struct node *dir_add_dir(struct dir_builder *b, const char *name,
			 time_t mtime, populate_fn populate, void *ctx)
{
	return dir_add(b, dir_new(b->fs, b->dir, name, mtime, populate, ctx));
}

static struct node *file_new(struct dir_builder *b, const char *name,
			     time_t mtime, uint8_t kind, uint64_t size)
{
	struct node *n = node_new(b->fs, b->dir, name, NODE_FILE, mtime);
	if (n) {
		n->file_kind = kind;
		atomic_store(&n->size, size);
	}
	return n;
}

struct node *dir_add_host_file(struct dir_builder *b, const char *name,
			       time_t mtime, const char *path, uint64_t size)
{
	struct node *n = file_new(b, name, mtime, FILE_HOST, size);
	if (n && !(n->u.host.path = tree_strdup(b->fs, b->dir, path)))
		n = NULL;
	return dir_add(b, n);
}

struct node *dir_add_blob_file(struct dir_builder *b, const char *name,
			       time_t mtime, const struct blob *blob)
{
	struct node *n = file_new(b, name, mtime, FILE_BLOB, blob->size);
	if (n)
		n->u.blob = *blob;
	return dir_add(b, n);
}

struct node *dir_add_view(struct dir_builder *b, const char *name,
			  time_t mtime, const struct view_ops *ops,
			  void *source, uint64_t offset, uint64_t size,
			  bool whole)
{
	struct node *n = file_new(b, name, mtime, FILE_VIEW, size);
	if (n) {
		n->u.view.ops = ops;
		n->u.view.source = source;
		n->u.view.offset = offset;
		n->u.view.whole = whole;
	}
	return dir_add(b, n);
}

struct node *dir_add_view_kept(struct dir_builder *b, struct node **kept,
			       const char *name, time_t mtime,
			       const struct view_ops *ops, void *source,
			       uint64_t size)
{
	if (*kept)
		return dir_add(b, *kept);
	struct node *n = node_alloc(b->fs, b->dir, name, NODE_FILE, mtime,
				    true);
	if (n) {
		n->file_kind = FILE_VIEW;
		atomic_store(&n->size, size);
		n->u.view.ops = ops;
		n->u.view.source = source;
		n->u.view.whole = true;
		*kept = n;
	}
	return dir_add(b, n);
}

struct node *dir_add_made(struct dir_builder *b, const char *name,
			  time_t mtime, produce_fn produce, void *ctx,
			  uint32_t arg)
{
	struct node *n = file_new(b, name, mtime, FILE_MADE, SIZE_UNKNOWN);
	if (n) {
		n->u.made.produce = produce;
		n->u.made.ctx = ctx;
		n->u.made.arg = arg;
		atomic_init(&n->u.made.measuring, false);
		n->u.made.measures = false;
	}
	return dir_add(b, n);
}

struct node *dir_add_measured(struct dir_builder *b, const char *name,
			      time_t mtime, produce_fn produce, void *ctx,
			      uint32_t arg)
{
	struct node *n = dir_add_made(b, name, mtime, produce, ctx, arg);
	if (n)
		n->u.made.measures = true;
	return n;
}

struct node *dir_add_stream(struct dir_builder *b, const char *name,
			    time_t mtime, uint64_t size, stream_fn read,
			    void *ctx)
{
	struct node *n = file_new(b, name, mtime, FILE_STREAM, size);
	if (n) {
		n->u.stream.read = read;
		n->u.stream.ctx = ctx;
	}
	return dir_add(b, n);
}

struct node *dir_add_link(struct dir_builder *b, const char *name,
			  time_t mtime, const char *target)
{
	struct node *n = node_new(b->fs, b->dir, name, NODE_LINK, mtime);
	if (n && !(n->u.link.target = tree_strdup(b->fs, b->dir, target)))
		n = NULL;
	if (n)
		atomic_store(&n->size, strlen(target));
	return dir_add(b, n);
}

bool dir_has(const struct dir_builder *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->kids[i]->name, name) == 0)
			return true;
	return false;
}

static int by_name(const void *a, const void *b)
{
	const struct node *x = *(struct node *const *)a;
	const struct node *y = *(struct node *const *)b;
	return strcmp(x->name, y->name);
}

/* The builders name things uniquely; this is the backstop that keeps a
 * lookup from ever having two answers (a suffixed name that happens to
 * equal another). */
static bool rename_repeats(struct dir_builder *b)
{
	bool renamed = false;
	for (size_t i = 1; i < b->n; i++) {
		if (strcmp(b->kids[i]->name, b->kids[i - 1]->name) != 0)
			continue;
		char buf[1100];
		snprintf(buf, sizeof buf, "%s~i%zu", b->kids[i]->name, i);
		/* In the node's own memory: a kept node outlives the
		 * unit. */
		const char *name = b->kids[i]->local ?
				   tree_strdup(b->fs, b->dir, buf) :
				   fs_strdup(b->fs, buf);
		if (name)
			b->kids[i]->name = name;
		renamed = true;
	}
	return renamed;
}

int dir_publish(struct dir_builder *b)
{
	struct node *d = b->dir;
	if (b->failed) {
		free(b->kids);
		b->kids = NULL;
		b->n = 0;
		return -ENOMEM;
	}
	/* An empty folder has no array at all: qsort may not see NULL. */
	if (b->n > 1) {
		qsort(b->kids, b->n, sizeof *b->kids, by_name);
		if (rename_repeats(b))
			qsort(b->kids, b->n, sizeof *b->kids, by_name);
	}
	tree_charge(b->fs, d, b->cap * sizeof *b->kids);
	d->u.dir.kids = b->kids;
	d->u.dir.nkids = (uint32_t)b->n;
	for (size_t i = 0; i < b->n; i++) {
		d->u.dir.nsubdirs += b->kids[i]->type == NODE_DIR;
		b->kids[i]->place = (uint32_t)i;
	}
	b->kids = NULL;
	return 0;
}

int tree_ready(struct fs *fs, struct node *dir)
{
	if (atomic_load_explicit(&dir->u.dir.state, memory_order_acquire) ==
	    DIR_READY)
		return dir->u.dir.error;
	blocking_begins();
	pthread_mutex_lock(&fs->lock);
	while (atomic_load(&dir->u.dir.state) == DIR_BUILDING)
		pthread_cond_wait(&fs->populated, &fs->lock);
	if (atomic_load(&dir->u.dir.state) == DIR_EMPTY) {
		atomic_store(&dir->u.dir.state, DIR_BUILDING);
		pthread_mutex_unlock(&fs->lock);
		unit_begin(fs, dir);
		/* Long work (a scan, an inflate) runs unlocked: other
		 * directories stay usable meanwhile. */
		int rc = dir->u.dir.populate(fs, dir);
		pthread_mutex_lock(&fs->lock);
		if (rc == -EAGAIN) {
			/* Declined on a worker: the next use populates. */
			atomic_store(&dir->u.dir.state, DIR_EMPTY);
			pthread_cond_broadcast(&fs->populated);
			pthread_mutex_unlock(&fs->lock);
			return rc;
		}
		dir->u.dir.error = rc < 0 ? rc : 0;
		atomic_store_explicit(&dir->u.dir.state, DIR_READY,
				      memory_order_release);
		pthread_cond_broadcast(&fs->populated);
	}
	pthread_mutex_unlock(&fs->lock);
	return dir->u.dir.error;
}

int tree_kids_ready(struct fs *fs, struct node *dir)
{
	int rc = tree_ready(fs, dir);
	return rc == -EAGAIN || (rc < 0 && !dir->u.dir.nkids) ? rc : 0;
}

/* The child called name, by binary search; its position in *index when
 * index is not NULL. */
struct node *tree_kid_named(const struct node *dir, const char *name,
			    size_t *index)
{
	size_t lo = 0, hi = dir->u.dir.nkids;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, dir->u.dir.kids[mid]->name);
		if (c == 0) {
			if (index)
				*index = mid;
			return dir->u.dir.kids[mid];
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

bool tree_kid_place(const struct node *dir, const struct node *n,
		    size_t *index)
{
	if (n->parent != dir || n->place >= dir->u.dir.nkids ||
	    dir->u.dir.kids[n->place] != n)
		return false;
	*index = n->place;
	return true;
}

/* FNV-1a over the parent's number and the name: the same path gives the
 * same number on every mount, and 1.9 million paths collide with odds
 * near one in ten million. */
uint64_t tree_ino(struct node *n)
{
	uint64_t ino = atomic_load_explicit(&n->ino, memory_order_relaxed);
	if (ino)
		return ino;
	uint64_t h = 0xcbf29ce484222325ull, up = n->parent ? tree_ino(n->parent) : 0;
	for (int i = 0; i < 8; i++)
		h = (h ^ ((up >> (8 * i)) & 0xff)) * 0x100000001b3ull;
	for (const unsigned char *p = (const unsigned char *)n->name; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	/* 0 means not made yet, 1 is the root's. */
	ino = h > 1 ? h : h + 2;
	atomic_store_explicit(&n->ino, ino, memory_order_relaxed);
	return ino;
}

struct node *tree_child(struct fs *fs, struct node *dir, const char *name,
			int *err)
{
	if (dir->type != NODE_DIR) {
		*err = -ENOTDIR;
		return NULL;
	}
	int rc = tree_kids_ready(fs, dir);
	if (rc < 0) {
		*err = rc;
		return NULL;
	}
	struct node *n = tree_kid_named(dir, name, NULL);
	if (!n)
		*err = -ENOENT;
	return n;
}

uint64_t tree_handle(struct node *n)
{
	if (!n->parent)
		return 1;
	if (!n->local)
		return (uint64_t)(uintptr_t)n;
	const struct node *root = n->parent;
	while (!root->u.dir.release)
		root = root->parent;
	return UINT64_C(1) << 63 |
	       (uint64_t)root->u.dir.unit_id <<
	       (HANDLE_LOCAL_BITS + HANDLE_CHECK_BITS) |
	       (uint64_t)n->local << HANDLE_CHECK_BITS |
	       (tree_ino(n) & ((1u << HANDLE_CHECK_BITS) - 1));
}

struct node *tree_node(struct fs *fs, uint64_t handle)
{
	if (handle == 1)
		return fs->root;
	if (!(handle >> 63))
		return (struct node *)(uintptr_t)handle;
	uint32_t id = (uint32_t)(handle >> (HANDLE_LOCAL_BITS +
					    HANDLE_CHECK_BITS)) &
		      ((1u << HANDLE_UNIT_BITS) - 1);
	uint32_t local = (uint32_t)(handle >> HANDLE_CHECK_BITS) &
			 ((1u << HANDLE_LOCAL_BITS) - 1);
	struct node *root = unit_root(fs, id);
	if (!root)
		return NULL;
	/* Made again if it was let go: the same nodes, in the same order. */
	tree_ready(fs, root);
	struct node *n = unit_node(fs, root, local);
	if (n && (tree_ino(n) & ((1u << HANDLE_CHECK_BITS) - 1)) !=
	    (handle & ((1u << HANDLE_CHECK_BITS) - 1))) {
		log_error("%s: made again with other contents: a node the "
			  "kernel knows is gone", root->name);
		return NULL;
	}
	return n;
}
