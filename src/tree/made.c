/* SPDX-License-Identifier: MIT */
/* made.c - a made file's bytes, made once by its producer into the cache,
 * and its size, measured without keeping the bytes where it can be.
 * Below files.c (stat, open, read) and ahead.c (the work ahead of them),
 * which both make files through it. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree/tree.h"
#include "tree/tree_internal.h"
#include "util/bufpool.h"
#include "util/log.h"
#include "util/strbuf.h"

struct made_call {
	struct fs *fs;
	struct node *n;
};

static int made_fill(void *ctx, uint8_t **data, size_t *len)
{
	struct made_call *call = ctx;
	struct node *n = call->n;
	tree_mark_used(n);
	uint64_t told = atomic_load(&n->size);
	int rc = n->u.made.produce(call->fs, n, data, len);
	if (rc == -EAGAIN && told == SIZE_UNKNOWN) {
		/* A text too long for the scratch, counted: made again
		 * into a buffer of that size (tree_made_text_init). */
		told = *len;
		atomic_store(&n->size, told);
		rc = n->u.made.produce(call->fs, n, data, len);
	}
	/* A size told before the bytes were made (measured, or computed at
	 * listing) must be theirs: the kernel cuts or pads reads to it, so
	 * a file that differs fails instead. */
	if (rc == 0 && told != SIZE_UNKNOWN && told != *len) {
		char path[1024];
		if (tree_node_path(n, path, sizeof path) < 0)
			snprintf(path, sizeof path, "%s", n->name);
		log_error("%s: made %zu bytes, but its size was given as %"
			  PRIu64, path, *len, told);
		bufpool_free(*data);
		*data = NULL;
		return -EIO;
	}
	return rc;
}

void tree_made_text_init(const struct node *n, uint8_t **data,
			 struct strbuf *sb)
{
	uint64_t size = atomic_load(&n->size);
	if (!data)
		sb_init_measure(sb);
	else if (size != SIZE_UNKNOWN)
		sb_init_exact(sb, size);
	else
		sb_init_restartable(sb);
}

int tree_made_bytes(struct fs *fs, struct node *n, struct cache_ref *ref)
{
	struct made_call call = { fs, n };
	int rc = cache_get_made(fs->cache, tree_made_key(n), made_fill, &call,
				ref);
	if (rc == 0)
		atomic_store(&n->size, ref->len);
	return rc;
}


bool tree_stat_measures(struct fs *fs, const struct node *n)
{
	return n->u.made.measures &&
	       atomic_load(&fs->stats_unopened) >= LISTING_STATS;
}

/* Counts a made file's bytes, once: a thread that finds another counting
 * waits for its count (the listing's own stat of a file a worker is
 * measuring ahead of it), and counts itself only if that one failed. */
static int measure_once(struct fs *fs, struct node *n)
{
	while (atomic_load(&n->size) == SIZE_UNKNOWN) {
		if (!atomic_exchange(&n->u.made.measuring, true)) {
			size_t len = 0;
			int rc = n->u.made.produce(fs, n, NULL, &len);
			if (rc == 0)
				atomic_store(&n->size, len);
			pthread_mutex_lock(&fs->lock);
			atomic_store(&n->u.made.measuring, false);
			pthread_cond_broadcast(&fs->measured);
			pthread_mutex_unlock(&fs->lock);
			return rc;
		}
		pthread_mutex_lock(&fs->lock);
		while (atomic_load(&n->u.made.measuring))
			pthread_cond_wait(&fs->measured, &fs->lock);
		pthread_mutex_unlock(&fs->lock);
	}
	return 0;
}

int tree_make_cached(struct fs *fs, struct node *n)
{
	struct cache_ref ref;
	int rc = tree_made_bytes(fs, n, &ref);
	if (rc == 0)
		cache_put(fs->cache, &ref);
	return rc;
}

int tree_made_size(struct fs *fs, struct node *n, bool measure)
{
	if (atomic_load(&n->size) != SIZE_UNKNOWN)
		return 0;
	return measure ? measure_once(fs, n) : tree_make_cached(fs, n);
}

