/* SPDX-License-Identifier: MIT */
/* unit.c - units: a member's folder and all below it, in memory of its
 * own, let go as one when the units pass their budget and nothing holds
 * them, and made again from the member's bytes when used again.
 *
 * A listing of the whole disc makes about 1.9 million nodes: kept for
 * good, they would take more than the cache_size bound allows, and the
 * cache would have no room left for a member's bytes.  The kernel holds
 * a node from the LOOKUP (or READDIRPLUS entry) that names it until its
 * FORGET, and sends nothing for a node it forgot; so a unit whose nodes
 * the kernel has all forgotten can go.  The kernel forgets on its own
 * only under memory pressure: past the budget, this thread asks it to
 * forget the oldest units' folders (tree_forget_fn, an invalidation of
 * the folder's entry), and frees them when their FORGETs came.
 *
 * Threads that look at nodes hold fs->use_lock for reading (tree_enter);
 * this thread frees only with it held for writing, which it only tries
 * for: it never waits on a reader, and no reader waits on it but for
 * the few microseconds a free takes. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tree/tree.h"
#include "tree/tree_internal.h"
#include "util/log.h"

struct unit {
	struct unit *next, *prev;
	struct node *root;
	struct arena *arenas;
	size_t arena_next;      /* the size of the next arena taken */
	size_t bytes;           /* arenas and charges, under r->lock */
	_Atomic int64_t holds;
	_Atomic int64_t used_ms;
	int64_t asked_ms;
};

struct reclaim {
	pthread_mutex_t lock;   /* the list and the counts */
	pthread_cond_t wake;
	struct unit *head;
	size_t units, bytes, budget;
	uint64_t released, asked;
	pthread_t thread;
	bool running, stopping;
	tree_forget_fn ask;
	void *ask_ctx;
};

/* The smallest unit arena: most members are small, and an arena each
 * of the tree's 64 KiB would take 64 MiB for a thousand of them. */
#define UNIT_ARENA_MIN 4096
/* The least budget: a few members' folders whatever the cache, so that
 * a small cache does not make the kernel forget each member it was
 * just handed (fuse/push.c). */
#define UNIT_BUDGET_MIN (4u << 20)
/* How long a unit asked to be forgotten is not asked again, and how
 * many are asked at a time. */
#define ASK_AGAIN_MS 1000
#define ASK_AT_ONCE 8
/* The newest units are not asked to be forgotten: a listing is in
 * them. */
#define KEEP_NEWEST 2

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

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

void dir_make_unit(struct node *dir, release_fn release, bool keep)
{
	dir->u.dir.release = release;
	dir->u.dir.keep = keep;
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

void *tree_alloc(struct fs *fs, struct node *dir, size_t n)
{
	struct unit *u = unit_of(dir, true);
	if (!u)
		return fs_alloc(fs, n);
	struct reclaim *r = fs->reclaim;
	size_t taken = 0;
	pthread_mutex_lock(&r->lock);
	void *p = arena_take(&u->arenas, n, u->arena_next, &taken);
	if (taken) {
		charge_locked(fs, u, taken);
		if (u->arena_next < ARENA_SIZE)
			u->arena_next *= 2;
	}
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
	u->arena_next = UNIT_ARENA_MIN;
	atomic_init(&u->holds, 0);
	atomic_init(&u->used_ms, now_ms());
	struct reclaim *r = fs->reclaim;
	pthread_mutex_lock(&r->lock);
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
	(void)fs;
	struct unit *u = unit_of(n, false);
	if (u) {
		atomic_fetch_add(&u->holds, (int64_t)count);
		atomic_store_explicit(&u->used_ms, now_ms(),
				      memory_order_relaxed);
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

void unit_touch(struct node *n)
{
	struct unit *u = unit_of(n, false);
	if (u)
		atomic_store_explicit(&u->used_ms, now_ms(),
				      memory_order_relaxed);
}

void tree_enter(struct fs *fs)
{
	pthread_rwlock_rdlock(&fs->use_lock);
}

void tree_leave(struct fs *fs)
{
	pthread_rwlock_unlock(&fs->use_lock);
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
	atomic_store(&dir->u.dir.used_below, false);
	atomic_store(&dir->u.dir.state, DIR_EMPTY);
	arena_free_all(u->arenas);
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

static bool idle(struct unit *u)
{
	return !u->root->u.dir.keep && atomic_load(&u->holds) == 0 &&
	       atomic_load(&u->root->u.dir.state) == DIR_READY;
}

/* Under both locks: frees the oldest idle units until the units take
 * at most target bytes; how many it freed. */
static unsigned free_idle(struct fs *fs, size_t target)
{
	struct reclaim *r = fs->reclaim;
	unsigned freed = 0;
	while (r->bytes > target) {
		struct unit *oldest = NULL;
		for (struct unit *u = r->head; u; u = u->next)
			if (idle(u) && (!oldest ||
					atomic_load(&u->used_ms) <
					atomic_load(&oldest->used_ms)))
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

/* Takes fs->use_lock for writing if no one holds it within about 10 ms;
 * false when readers kept it (the next round tries again). */
static bool try_exclusive(struct fs *fs)
{
	for (int i = 0; i < 50; i++) {
		if (pthread_rwlock_trywrlock(&fs->use_lock) == 0)
			return true;
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
	}
	return false;
}

/* Under r->lock: the oldest units the kernel still holds, not asked
 * lately and not among the newest, marked asked; how many in roots. */
static unsigned pick_asked(struct reclaim *r, struct node **roots)
{
	int64_t now = now_ms();
	unsigned n = 0;
	for (unsigned k = 0; k < ASK_AT_ONCE; k++) {
		struct unit *oldest = NULL;
		unsigned newer = 0;
		for (struct unit *u = r->head; u; u = u->next) {
			if (u->root->u.dir.keep || u->asked_ms > now - ASK_AGAIN_MS ||
			    atomic_load(&u->root->u.dir.state) != DIR_READY)
				continue;
			if (!oldest || atomic_load(&u->used_ms) <
				       atomic_load(&oldest->used_ms))
				oldest = u;
		}
		if (!oldest)
			break;
		for (struct unit *u = r->head; u; u = u->next)
			newer += atomic_load(&u->used_ms) >
				 atomic_load(&oldest->used_ms);
		if (newer < KEEP_NEWEST)
			break;
		oldest->asked_ms = now;
		roots[n++] = oldest->root;
	}
	r->asked += n;
	return n;
}

/* One round past the budget: frees what is idle down to three quarters
 * of it, then asks the kernel to forget the oldest of the rest. */
static void reclaim_round(struct fs *fs)
{
	struct reclaim *r = fs->reclaim;
	size_t target = r->budget / 4 * 3;
	pthread_mutex_unlock(&r->lock);
	bool exclusive = try_exclusive(fs);
	pthread_mutex_lock(&r->lock);
	if (exclusive) {
		free_idle(fs, target);
		pthread_rwlock_unlock(&fs->use_lock);
	}
	if (r->bytes <= target || !r->ask)
		return;
	struct node *roots[ASK_AT_ONCE];
	unsigned n = pick_asked(r, roots);
	pthread_mutex_unlock(&r->lock);
	/* Unlocked: the kernel waits for lookups in the folder's parent,
	 * which other threads answer. */
	for (unsigned i = 0; i < n; i++)
		r->ask(r->ask_ctx, roots[i]);
	pthread_mutex_lock(&r->lock);
}

static void *reclaim_main(void *arg)
{
	struct fs *fs = arg;
	struct reclaim *r = fs->reclaim;
	pthread_mutex_lock(&r->lock);
	while (!r->stopping) {
		if (r->bytes <= r->budget) {
			pthread_cond_wait(&r->wake, &r->lock);
			continue;
		}
		reclaim_round(fs);
		/* Still past it: FORGETs are on their way, or readers held
		 * the lock; look again soon. */
		struct timespec t;
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 50 * 1000000L;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		if (!r->stopping && r->bytes > r->budget)
			pthread_cond_timedwait(&r->wake, &r->lock, &t);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

int tree_reclaim_start(struct fs *fs, tree_forget_fn ask, void *ctx)
{
	struct reclaim *r = fs->reclaim;
	struct cache_stats cs;
	cache_stats(fs->cache, &cs);
	pthread_mutex_lock(&r->lock);
	r->budget = cs.limit / 4 > UNIT_BUDGET_MIN ? cs.limit / 4
						  : UNIT_BUDGET_MIN;
	r->ask = ask;
	r->ask_ctx = ctx;
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
	free_idle(fs, 0);
	pthread_mutex_unlock(&r->lock);
	pthread_rwlock_unlock(&fs->use_lock);
}

void tree_unit_stats(struct fs *fs, struct tree_unit_stats *st)
{
	struct reclaim *r = fs->reclaim;
	pthread_mutex_lock(&r->lock);
	*st = (struct tree_unit_stats){ r->units, r->bytes, r->budget,
					r->released, r->asked };
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
		free(u);
	}
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->wake);
	free(r);
	fs->reclaim = NULL;
}
