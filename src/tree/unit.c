/* SPDX-License-Identifier: MIT */
/* unit.c - units: a member's folder and all below it, in memory of its
 * own, let go as one when the units pass their budget and nothing holds
 * them, and made again from the member's bytes when used again.
 *
 * A listing of the whole disc makes about 1.9 million nodes: kept for
 * good, they would take more than the cache_size bound allows, and the
 * cache would have no room left for a member's bytes.  The kernel keeps
 * what it was told (entries, attributes, listings) in its own memory
 * and names a node by the handle it was given (tree_handle): a unit's
 * node by its unit's number and its own number there, in the order the
 * populate made it.  The same bytes populate the same nodes in the same
 * order, so a unit let go is made again when the kernel names one of its
 * nodes, and a second listing is answered from the kernel's caches.
 *
 * Threads that look at nodes hold fs->use_lock for reading (tree_enter);
 * this thread frees only with it held for writing.  It waits for that at
 * most EXCLUSIVE_WAIT_MS, and only when some unit can go: new readers
 * wait meanwhile, so that the readers in the tree (a populate takes a
 * tenth of a second) leave it; a nested tree_enter, which would wait for
 * the writer that waits for it, is held up that long at worst. */
#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tree/tree.h"
#include "tree/tree_internal.h"
#include "util/blocking.h"
#include "util/log.h"
#include "util/vec.h"

struct unit {
	struct unit *next, *prev;
	struct node *root;
	struct arena *arenas;
	size_t bytes;           /* arenas and charges, under r->lock */
	struct node **nodes;    /* by their number less one */
	uint32_t count;
	size_t cap;
	_Atomic int64_t holds;
	_Atomic uint64_t used;  /* the reclaim clock when last used */
};

struct reclaim {
	pthread_mutex_t lock;   /* the list, the roots and the counts */
	pthread_cond_t wake;
	struct unit *head;
	size_t units, bytes, budget;
	uint64_t made, released;
	_Atomic uint64_t clock; /* counts uses: the oldest go first */
	struct node **roots;    /* every unit's folder, by unit_id less one */
	uint32_t nroots;
	size_t caproots;
	pthread_t thread;
	bool running, stopping;
};

/* A unit's arenas: 64 KiB and up, which malloc maps on their own and
 * unmaps when the unit goes; smaller ones, from its heap, left holes
 * there that a listing of the real disc's shape grew by tens of MiB. */
#define UNIT_ARENA (64 * 1024)
/* The least budget: a few members' folders whatever the cache, so that
 * a small cache does not make the kernel forget each member it was
 * just handed (fuse/push.c). */
#define UNIT_BUDGET_MIN (4u << 20)
/* How soon a round past the budget is tried again, and how often the
 * heaps are trimmed otherwise. */
#define RETRY_MS 50
#define TRIM_EVERY_MS 1000
/* The newest units are never let go, held or not: a reader or a
 * listing is in them, and would only make them again. */
#define KEEP_NEWEST 2

int reclaim_init(struct fs *fs)
{
	struct reclaim *r = calloc(1, sizeof *r);
	if (!r)
		return -ENOMEM;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->wake, NULL);
	fs->reclaim = r;
	return 0;
}

/* The unit that holds n's memory: n's own when n is a unit's folder and
 * self is true, else the nearest one above it. */
static struct unit *unit_of(const struct node *n, bool self)
{
	for (const struct node *p = self ? n : n->parent; p; p = p->parent)
		if (p->type == NODE_DIR && p->u.dir.release)
			return p->u.dir.unit;
	return NULL;
}

int dir_make_unit(struct fs *fs, struct node *dir, release_fn release,
		  bool keep)
{
	struct reclaim *r = fs->reclaim;
	pthread_mutex_lock(&r->lock);
	int rc = r->nroots < (1u << HANDLE_UNIT_BITS) - 1 &&
		 vec_reserve(r->roots, &r->caproots, r->nroots + 1, 64) == 0
		 ? 0 : -ENOMEM;
	if (rc == 0) {
		r->roots[r->nroots++] = dir;
		dir->u.dir.unit_id = r->nroots;
		dir->u.dir.release = release;
		dir->u.dir.keep = keep;
	}
	pthread_mutex_unlock(&r->lock);
	return rc;
}

/* Under r->lock: the bytes are the units', and past the budget the
 * thread is woken. */
static void charge_locked(struct fs *fs, struct unit *u, size_t bytes)
{
	struct reclaim *r = fs->reclaim;
	u->bytes += bytes;
	r->bytes += bytes;
	if (r->running && r->bytes > r->budget)
		pthread_cond_signal(&r->wake);
}

/* Under r->lock: u's use is the newest. */
static void touch(struct reclaim *r, struct unit *u)
{
	atomic_store_explicit(&u->used, atomic_fetch_add_explicit(
		&r->clock, 1, memory_order_relaxed) + 1, memory_order_relaxed);
}

void unit_add_node(struct fs *fs, struct node *in, struct node *n)
{
	struct unit *u = unit_of(in, true);
	if (!u)
		return;
	struct reclaim *r = fs->reclaim;
	size_t grown = 0;
	pthread_mutex_lock(&r->lock);
	size_t cap = u->cap;
	/* A node left with no number is named to the kernel by its
	 * address, as a node outside units is, and its unit is then
	 * never let go (see idle). */
	if (u->count < (1u << HANDLE_LOCAL_BITS) - 1 &&
	    vec_reserve(u->nodes, &u->cap, (size_t)u->count + 1, 64) == 0) {
		u->nodes[u->count++] = n;
		n->local = u->count;
		grown = (u->cap - cap) * sizeof *u->nodes;
		charge_locked(fs, u, grown);
	} else {
		u->root->u.dir.keep = true;
	}
	pthread_mutex_unlock(&r->lock);
	if (grown)
		cache_reserve(fs->cache, grown);
}

void *tree_alloc(struct fs *fs, struct node *dir, size_t n)
{
	struct unit *u = unit_of(dir, true);
	if (!u)
		return fs_alloc(fs, n);
	struct reclaim *r = fs->reclaim;
	size_t taken = 0;
	pthread_mutex_lock(&r->lock);
	void *p = arena_take(&u->arenas, n, UNIT_ARENA, &taken);
	if (taken)
		charge_locked(fs, u, taken);
	pthread_mutex_unlock(&r->lock);
	if (taken)
		cache_reserve(fs->cache, taken);
	return p;
}

char *tree_strdup(struct fs *fs, struct node *dir, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = tree_alloc(fs, dir, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

void tree_charge(struct fs *fs, struct node *dir, size_t bytes)
{
	struct unit *u = unit_of(dir, true);
	if (u) {
		pthread_mutex_lock(&fs->reclaim->lock);
		charge_locked(fs, u, bytes);
		pthread_mutex_unlock(&fs->reclaim->lock);
	}
	cache_reserve(fs->cache, bytes);
}

/* tree_ready, as it starts populating a unit's folder. */
void unit_begin(struct fs *fs, struct node *dir)
{
	if (!dir->u.dir.release || dir->u.dir.unit)
		return;
	struct unit *u = calloc(1, sizeof *u);
	if (!u)
		return;         /* then its nodes stay for good */
	u->root = dir;
	atomic_init(&u->holds, 0);
	struct reclaim *r = fs->reclaim;
	pthread_mutex_lock(&r->lock);
	touch(r, u);
	r->made++;
	u->next = r->head;
	if (r->head)
		r->head->prev = u;
	r->head = u;
	r->units++;
	pthread_mutex_unlock(&r->lock);
	dir->u.dir.unit = u;
}

void tree_hold(struct fs *fs, struct node *n, uint64_t count)
{
	struct unit *u = unit_of(n, false);
	if (u) {
		atomic_fetch_add(&u->holds, (int64_t)count);
		touch(fs->reclaim, u);
	}
}

void tree_drop(struct fs *fs, struct node *n, uint64_t count)
{
	struct unit *u = unit_of(n, false);
	if (!u || atomic_fetch_sub(&u->holds, (int64_t)count) !=
	    (int64_t)count)
		return;
	struct reclaim *r = fs->reclaim;
	pthread_mutex_lock(&r->lock);
	if (r->running && r->bytes > r->budget)
		pthread_cond_signal(&r->wake);
	pthread_mutex_unlock(&r->lock);
}

void unit_touch(struct fs *fs, struct node *n)
{
	struct unit *u = unit_of(n, false);
	if (u)
		touch(fs->reclaim, u);
}

void tree_enter(struct fs *fs)
{
	pthread_rwlock_rdlock(&fs->use_lock);
}

void tree_leave(struct fs *fs)
{
	pthread_rwlock_unlock(&fs->use_lock);
}

struct node *unit_root(struct fs *fs, uint32_t id)
{
	struct reclaim *r = fs->reclaim;
	pthread_mutex_lock(&r->lock);
	struct node *root = id && id <= r->nroots ? r->roots[id - 1] : NULL;
	pthread_mutex_unlock(&r->lock);
	return root;
}

struct node *unit_node(struct fs *fs, struct node *root, uint32_t local)
{
	struct reclaim *r = fs->reclaim;
	pthread_mutex_lock(&r->lock);
	struct unit *u = root->u.dir.unit;
	struct node *n = u && local && local <= u->count ? u->nodes[local - 1]
						       : NULL;
	if (n)
		touch(r, u);
	pthread_mutex_unlock(&r->lock);
	return n;
}

static void free_kids(struct node *dir)
{
	for (uint32_t i = 0; i < dir->u.dir.nkids; i++) {
		struct node *k = dir->u.dir.kids[i];
		if (k->type == NODE_DIR)
			free_kids(k);
	}
	free(dir->u.dir.kids);
	dir->u.dir.kids = NULL;
	dir->u.dir.nkids = 0;
}

/* Hints that may point into a unit let go: they are only hints. */
static void forget_hints(struct fs *fs)
{
	atomic_store(&fs->last_made, NULL);
	atomic_store(&fs->last_stat, NULL);
	atomic_store(&fs->last_opened, NULL);
	pthread_mutex_lock(&fs->walk_lock);
	fs->walk_from = NULL;
	fs->walk_steps = 0;
	pthread_mutex_unlock(&fs->walk_lock);
	readahead_flush(&fs->readahead);
}

/* Under fs->use_lock for writing and r->lock: no one looks at it. */
static void unit_free(struct fs *fs, struct unit *u)
{
	struct reclaim *r = fs->reclaim;
	struct node *dir = u->root;
	free_kids(dir);
	dir->u.dir.release(fs, dir);
	dir->u.dir.nsubdirs = 0;
	dir->u.dir.error = 0;
	dir->u.dir.unit = NULL;
	atomic_store(&dir->u.dir.listed_ahead, false);
	/* used_below stays: the member was used below its folder, and its
	 * bytes are not to be handed to the page cache (handoff.c) when the
	 * folder is made again; a read of its .ccs after the source changed
	 * must reach the daemon. */
	atomic_store(&dir->u.dir.state, DIR_EMPTY);
	arena_free_all(u->arenas);
	free(u->nodes);
	if (u->prev)
		u->prev->next = u->next;
	else
		r->head = u->next;
	if (u->next)
		u->next->prev = u->prev;
	r->units--;
	r->bytes -= u->bytes;
	r->released++;
	cache_unreserve(fs->cache, u->bytes);
	free(u);
}

/* Under r->lock: the use before which a unit is not among the newest
 * `newest` (0: every unit may go). */
static uint64_t newest_since(struct reclaim *r, unsigned newest)
{
	uint64_t top[KEEP_NEWEST + 1] = { 0 };
	if (!newest)
		return UINT64_MAX;
	for (struct unit *u = r->head; u; u = u->next) {
		uint64_t t = atomic_load(&u->used);
		for (unsigned i = 0; i < newest; i++)
			if (t > top[i]) {
				memmove(top + i + 1, top + i,
					(newest - 1 - i) * sizeof *top);
				top[i] = t;
				break;
			}
	}
	return top[newest - 1] ? top[newest - 1] : UINT64_MAX;
}

static bool idle(struct unit *u, uint64_t newest)
{
	return !u->root->u.dir.keep && atomic_load(&u->holds) == 0 &&
	       atomic_load(&u->used) < newest &&
	       atomic_load(&u->root->u.dir.state) == DIR_READY;
}

/* Under both locks: frees the oldest idle units, sparing the `newest`
 * most recently used, until the units take at most target bytes; how
 * many it freed. */
static unsigned free_idle(struct fs *fs, size_t target, unsigned newest)
{
	struct reclaim *r = fs->reclaim;
	unsigned freed = 0;
	uint64_t since = newest_since(r, newest);
	while (r->bytes > target) {
		struct unit *oldest = NULL;
		for (struct unit *u = r->head; u; u = u->next)
			if (idle(u, since) && (!oldest ||
					       atomic_load(&u->used) <
					       atomic_load(&oldest->used)))
				oldest = u;
		if (!oldest)
			break;
		unit_free(fs, oldest);
		freed++;
	}
	if (freed)
		forget_hints(fs);
	return freed;
}

/* How long the thread waits for the readers in the tree to leave it.
 * The lock prefers a waiting writer, so no reader comes in meanwhile:
 * past this, the readers go on and the next round tries again (a reader
 * that entered twice is then only held up this long). */
#define EXCLUSIVE_WAIT_MS 200

/* Takes fs->use_lock for writing once the readers in the tree now have
 * left it; false when they took longer. */
static bool take_exclusive(struct fs *fs)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += EXCLUSIVE_WAIT_MS * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return pthread_rwlock_clockwrlock(&fs->use_lock, CLOCK_MONOTONIC,
					  &t) == 0;
}

/* Under r->lock: whether any unit could go now. */
static bool any_idle(struct reclaim *r)
{
	uint64_t since = newest_since(r, KEEP_NEWEST);
	for (struct unit *u = r->head; u; u = u->next)
		if (idle(u, since))
			return true;
	return false;
}

/* One round past the budget: frees what is idle down to three quarters
 * of it.  A busy tree (two workers and two readers populating members)
 * is seldom empty of readers: waiting for it is what bounds memory. */
static void reclaim_round(struct fs *fs)
{
	struct reclaim *r = fs->reclaim;
	if (!any_idle(r))
		return;
	pthread_mutex_unlock(&r->lock);
	bool exclusive = take_exclusive(fs);
	pthread_mutex_lock(&r->lock);
	if (exclusive) {
		free_idle(fs, r->budget / 4 * 3, KEEP_NEWEST);
		pthread_rwlock_unlock(&fs->use_lock);
	}
}

/* Under r->lock: releases the free pages in malloc's heaps when values
 * or units were freed since the last time.  The cache's small values
 * (made texts) come and go in the heap, and what they leave is resident
 * until trimmed: 17-27 MiB of a 64M mount's walk of the real disc. */
static void trim_freed(struct fs *fs, uint64_t *seen)
{
	struct reclaim *r = fs->reclaim;
	struct cache_stats cs;
	cache_stats(fs->cache, &cs);
	uint64_t freed = cs.evictions + r->released;
	if (freed == *seen)
		return;
	*seen = freed;
	pthread_mutex_unlock(&r->lock);
	malloc_trim(0);
	pthread_mutex_lock(&r->lock);
}

/* An absolute time ms from now, for pthread_cond_timedwait. */
static struct timespec after_ms(long ms)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

static void *reclaim_main(void *arg)
{
	struct fs *fs = arg;
	struct reclaim *r = fs->reclaim;
	uint64_t seen = 0;
	pthread_mutex_lock(&r->lock);
	while (!r->stopping) {
		if (r->bytes > r->budget)
			reclaim_round(fs);
		trim_freed(fs, &seen);
		/* Still past it: readers held the lock, or what is left is
		 * held or newest; look again soon.  Else wait for a charge,
		 * trimming now and then. */
		struct timespec t = after_ms(r->bytes > r->budget ?
					     RETRY_MS : TRIM_EVERY_MS);
		if (!r->stopping)
			pthread_cond_timedwait(&r->wake, &r->lock, &t);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

int tree_reclaim_start(struct fs *fs)
{
	struct reclaim *r = fs->reclaim;
	struct cache_stats cs;
	cache_stats(fs->cache, &cs);
	pthread_mutex_lock(&r->lock);
	r->budget = cs.limit / 4 > UNIT_BUDGET_MIN ? cs.limit / 4
						  : UNIT_BUDGET_MIN;
	int rc = r->running ? 0 : pthread_create(&r->thread, NULL,
						 reclaim_main, fs);
	if (rc == 0)
		r->running = true;
	pthread_mutex_unlock(&r->lock);
	if (rc != 0)
		log_error("no thread to let the tree's folders go: %s",
			  strerror(rc));
	return -rc;
}

void tree_release_idle(struct fs *fs)
{
	struct reclaim *r = fs->reclaim;
	pthread_rwlock_wrlock(&fs->use_lock);
	pthread_mutex_lock(&r->lock);
	free_idle(fs, 0, 0);
	pthread_mutex_unlock(&r->lock);
	pthread_rwlock_unlock(&fs->use_lock);
}

int tree_unit_redo(struct fs *fs, struct node *dir, void (*under)(void *),
		   void *ctx)
{
	struct reclaim *r = fs->reclaim;
	blocking_begins();      /* the readers in the tree leave it first */
	pthread_rwlock_wrlock(&fs->use_lock);
	pthread_mutex_lock(&r->lock);
	struct unit *u = dir->u.dir.release ? dir->u.dir.unit : NULL;
	int rc = 0;
	if (atomic_load(&dir->u.dir.state) == DIR_EMPTY) {
		rc = 0;         /* made from the bytes as they are next use */
	} else if (!u || atomic_load(&u->holds) ||
		   atomic_load(&dir->u.dir.state) != DIR_READY) {
		rc = -EBUSY;
	}
	if (rc == 0)
		under(ctx);
	if (rc || atomic_load(&dir->u.dir.state) == DIR_EMPTY) {
		/* nothing to let go */
	} else if (dir->u.dir.keep) {
		/* Others point into it: they go first, then it. */
		for (struct unit *v = r->head, *next; v; v = next) {
			next = v->next;
			if (v != u && !atomic_load(&v->holds) &&
			    atomic_load(&v->root->u.dir.state) == DIR_READY)
				unit_free(fs, v);
		}
		unit_free(fs, u);
		forget_hints(fs);
	} else {
		unit_free(fs, u);
		forget_hints(fs);
	}
	pthread_mutex_unlock(&r->lock);
	pthread_rwlock_unlock(&fs->use_lock);
	return rc;
}

void tree_unit_stats(struct fs *fs, struct tree_unit_stats *st)
{
	struct reclaim *r = fs->reclaim;
	pthread_mutex_lock(&r->lock);
	*st = (struct tree_unit_stats){ r->units, r->bytes, r->budget,
					r->made, r->released };
	pthread_mutex_unlock(&r->lock);
}

void reclaim_stop(struct fs *fs)
{
	struct reclaim *r = fs->reclaim;
	pthread_mutex_lock(&r->lock);
	r->stopping = true;
	pthread_cond_signal(&r->wake);
	bool running = r->running;
	r->running = false;
	pthread_mutex_unlock(&r->lock);
	if (running)
		pthread_join(r->thread, NULL);
}

void reclaim_free(struct fs *fs)
{
	struct reclaim *r = fs->reclaim;
	for (struct unit *u = r->head, *next; u; u = next) {
		next = u->next;
		arena_free_all(u->arenas);
		free(u->nodes);
		free(u);
	}
	free(r->roots);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->wake);
	free(r);
	fs->reclaim = NULL;
}
