/* SPDX-License-Identifier: MIT */
/* handoff.c - a member's bytes, as the cache evicts them, offered to the
 * kernel's page cache as its .ccs file's pages.
 *
 * A glob of every member's folder (cat DATA.BIN/x/x.ccs for x in *)
 * inflates every member to list it, then reads each .ccs: with a cache
 * smaller than the archive inflated, a third of the members are gone by
 * the time they are read, and are inflated again.  The kernel's page
 * cache has room the daemon's bound does not: what it is given there
 * costs one copy now, and a reader's open finds it, not a READ.  Only a
 * file no reader has opened is offered (one that was read is in the page
 * cache already, unless the kernel chose to drop it), and only from a
 * member whose folder was listed and nothing below it: a find, ls -R or
 * a pass over its made files uses the member for something else, and
 * would only pay the copy. */
#include "config.h"

#include "tree/tree.h"
#include "tree/tree_internal.h"
#include "util/blocking.h"

/* The whole view among a populated member folder's files. */
static struct node *whole_file(struct node *dir)
{
	if (dir->type != NODE_DIR ||
	    atomic_load_explicit(&dir->u.dir.state, memory_order_acquire) !=
	    DIR_READY)
		return NULL;
	for (uint32_t i = 0; i < dir->u.dir.nkids; i++) {
		struct node *n = dir->u.dir.kids[i];
		if (n->type == NODE_FILE && n->file_kind == FILE_VIEW &&
		    n->u.view.whole && n->u.view.offset == 0)
			return n;
	}
	return NULL;
}

/* Under fs->lock: no reader opened it, and it was not handed over yet. */
static bool offered(const struct node *file)
{
	return !file->u.view.opened && !file->u.view.handed;
}

static void evicted(void *ctx, uint64_t key, struct cache_ref *ref)
{
	struct fs *fs = ctx;
	/* What cache_get fills is keyed by its folder (a member's). */
	struct node *dir = (struct node *)(uintptr_t)key;
	struct node *file = whole_file(dir);
	bool offer = false;
	/* A listing that sizes files (ls -l) reads none of them: what it
	 * evicts would only cost the copy. */
	bool listing = atomic_load(&fs->stats_unopened) >= LISTING_STATS;
	if (file && !listing && !atomic_load(&dir->u.dir.used_below) &&
	    atomic_load(&file->size) == ref->len) {
		pthread_mutex_lock(&fs->lock);
		offer = offered(file);
		pthread_mutex_unlock(&fs->lock);
	}
	if (offer)
		fs->on_evicted(fs->evicted_ctx, file, ref);
	else
		cache_put(fs->cache, ref);
}

void tree_on_evicted(struct fs *fs, tree_evicted_fn fn, void *ctx)
{
	fs->on_evicted = fn;
	fs->evicted_ctx = ctx;
	cache_on_evict(fs->cache, fn ? evicted : NULL, fs);
}

bool tree_handoff_begin(struct fs *fs, struct node *file)
{
	pthread_mutex_lock(&fs->lock);
	bool go = offered(file);
	if (go)
		fs->handing = file;
	pthread_mutex_unlock(&fs->lock);
	return go;
}

void tree_handoff_end(struct fs *fs, struct node *file, bool kept)
{
	pthread_mutex_lock(&fs->lock);
	fs->handing = NULL;
	file->u.view.handed = kept;
	pthread_cond_broadcast(&fs->handed_over);
	pthread_mutex_unlock(&fs->lock);
}

/* A reader opens a view: a handoff of it in progress ends first, and no
 * other begins (tree_open). */
void tree_view_opened(struct fs *fs, struct node *file)
{
	pthread_mutex_lock(&fs->lock);
	file->u.view.opened = true;
	while (fs->handing == file) {
		blocking_begins();
		pthread_cond_wait(&fs->handed_over, &fs->lock);
	}
	pthread_mutex_unlock(&fs->lock);
}

void tree_mark_used(struct node *n)
{
	/* Whoever marked a folder went on to mark the ones above it. */
	for (struct node *p = n->parent; p; p = p->parent) {
		if (atomic_load_explicit(&p->u.dir.used_below,
					 memory_order_relaxed))
			break;
		atomic_store_explicit(&p->u.dir.used_below, true,
				      memory_order_relaxed);
	}
}
