/* SPDX-License-Identifier: MIT */
/* cache.c - hash table + two recency lists under one mutex; fills run
 * unlocked.
 *
 * Plain LRU is the worst policy for the commonest whole-disc pattern: a
 * listing pass (find, ls -R) inflates every member, then a reading pass
 * (grep -r, find -exec cat) goes through them again in the same order.
 * With a cache smaller than the disc, each fill of the second pass evicts
 * exactly the member it will need next, and nothing ever hits.  So a key
 * that was evicted before and is filled again (a "ghost", remembered by
 * key only) goes on a second list, the rerun list, which is evicted
 * first: a loop over more than the cache holds keeps what stayed in from
 * the first pass and cycles its misses through the rerun list.  A rerun
 * value that is hit again later, after other members were filled (not
 * the files made from it), is in real use and joins the main list.
 *
 * Made files (a PNG, an OBJ, a scene.glb) go on a third list, evicted
 * after the rerun list and before the main one: each is made from a
 * member that many other files need, and a reader takes it once, so a
 * pass over every scene.glb would otherwise push out the members that
 * the listing left, and inflate every one of them again.  A made value
 * used again later joins the main list as a rerun value does. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "util/blocking.h"
#include "util/bufpool.h"

struct cache_value {
	uint64_t key;
	uint8_t *data;
	size_t len;
	unsigned refs;
	bool ready;             /* filled; false while a fill runs */
	bool cached;            /* still in the table (not evicted) */
	bool rerun;             /* on the rerun list */
	bool made;              /* on the made list */
	bool made_file;         /* filled by cache_get_made */
	bool uncounted;         /* evicted to on_evict: out of c->bytes */
	uint64_t fill_no;       /* c->fills when it was filled */
	struct cache_value *hnext;              /* hash chain */
	struct cache_value *evicted_next;       /* for on_evict */
	struct cache_value *lru_prev, *lru_next;/* its list, newest first */
};

struct value_list {
	struct cache_value *head, *tail;
	size_t count;
};

/* Keys evicted before: open addressing, 0 = empty (keys are inode
 * numbers, never 0), forgotten all at once when half full. */
#define GHOST_SLOTS (1u << 16)

/* What malloc keeps beside each allocation. */
#define MALLOC_HEADER 16

struct cache {
	pthread_mutex_t lock;
	pthread_cond_t filled;
	size_t limit, bytes;
	size_t reserved;        /* the tree's own memory, charged here */
	/* Counted for each value besides its bytes (cache_count_values):
	 * its record and two allocations' headers. */
	size_t value_cost;
	struct cache_value **table;
	size_t buckets;
	struct value_list main, rerun, made;
	struct cache_value *newest;     /* the last value filled */
	struct cache_value *dead;       /* released, to free when unlocked */
	struct cache_value *evicted;    /* for on_evict when unlocked */
	cache_evict_fn on_evict;
	void *evict_ctx;
	uint64_t fills;
	uint64_t *ghosts;
	size_t ghost_count;
	uint64_t hits, misses, evictions;
};

#define BUCKETS 4096
/* The rerun values that always stay: those being read and those being
 * read ahead, for two readers. */
#define RERUN_KEEP 4
/* Fills by others between two uses that make a rerun value one in use:
 * more than a reader and its readahead make while it reads one value. */
#define RERUN_REUSE_GAP 8
/* The made values that always stay: for two readers, the one being read
 * and the four made ahead of it (tree/ahead.c's MADE_AHEAD), and one more. */
#define MADE_KEEP 12

struct cache *cache_new(size_t limit)
{
	struct cache *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->table = calloc(BUCKETS, sizeof *c->table);
	c->ghosts = calloc(GHOST_SLOTS, sizeof *c->ghosts);
	if (!c->table || !c->ghosts) {
		free(c->table);
		free(c->ghosts);
		free(c);
		return NULL;
	}
	c->buckets = BUCKETS;
	c->limit = limit;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->filled, NULL);
	return c;
}

/* Frees values linked through hnext. */
static void free_chain(struct cache_value *v)
{
	while (v) {
		struct cache_value *next = v->hnext;
		bufpool_free(v->data);
		free(v);
		v = next;
	}
}

void cache_free(struct cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->buckets; i++)
		free_chain(c->table[i]);
	free_chain(c->dead);
	for (struct cache_value *v = c->evicted, *next; v; v = next) {
		next = v->evicted_next;
		v->hnext = NULL;
		free_chain(v);
	}
	free(c->table);
	free(c->ghosts);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->filled);
	free(c);
}

static size_t bucket_of(const struct cache *c, uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)(key % c->buckets);
}

static struct cache_value *table_find(struct cache *c, uint64_t key)
{
	for (struct cache_value *v = c->table[bucket_of(c, key)]; v; v = v->hnext)
		if (v->key == key)
			return v;
	return NULL;
}

static void table_remove(struct cache *c, struct cache_value *v)
{
	struct cache_value **pp = &c->table[bucket_of(c, v->key)];
	while (*pp && *pp != v)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = v->hnext;
	v->cached = false;
}

static size_t ghost_slot(uint64_t key)
{
	key ^= key >> 29;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 32;
	return (size_t)(key & (GHOST_SLOTS - 1));
}

static void ghost_add(struct cache *c, uint64_t key)
{
	if (c->ghost_count >= GHOST_SLOTS / 2) {
		memset(c->ghosts, 0, GHOST_SLOTS * sizeof *c->ghosts);
		c->ghost_count = 0;
	}
	size_t i = ghost_slot(key);
	while (c->ghosts[i] && c->ghosts[i] != key)
		i = (i + 1) & (GHOST_SLOTS - 1);
	if (!c->ghosts[i]) {
		c->ghosts[i] = key;
		c->ghost_count++;
	}
}

static bool ghost_seen(const struct cache *c, uint64_t key)
{
	for (size_t i = ghost_slot(key); c->ghosts[i];
	     i = (i + 1) & (GHOST_SLOTS - 1))
		if (c->ghosts[i] == key)
			return true;
	return false;
}

static struct value_list *list_of(struct cache *c, struct cache_value *v)
{
	return v->rerun ? &c->rerun : v->made ? &c->made : &c->main;
}

static void list_unlink(struct value_list *l, struct cache_value *v)
{
	if (v->lru_prev)
		v->lru_prev->lru_next = v->lru_next;
	else if (l->head == v)
		l->head = v->lru_next;
	if (v->lru_next)
		v->lru_next->lru_prev = v->lru_prev;
	else if (l->tail == v)
		l->tail = v->lru_prev;
	v->lru_prev = v->lru_next = NULL;
	l->count--;
}

static void list_push_front(struct value_list *l, struct cache_value *v)
{
	v->lru_prev = NULL;
	v->lru_next = l->head;
	if (l->head)
		l->head->lru_prev = v;
	l->head = v;
	if (!l->tail)
		l->tail = v;
	l->count++;
}

/* A value no longer held or cached is freed after the lock is dropped:
 * freeing a large buffer unmaps it, a TLB flush on every core, and every
 * read waits for this lock. */
static void value_release(struct cache *c, struct cache_value *v)
{
	if (!v->uncounted)
		c->bytes -= v->len + c->value_cost;
	v->hnext = c->dead;             /* out of the table: free to reuse */
	c->dead = v;
}

/* Unlocks the cache, then frees what was released meanwhile and hands
 * on what was evicted. */
static void unlock(struct cache *c)
{
	struct cache_value *dead = c->dead, *evicted = c->evicted;
	cache_evict_fn fn = c->on_evict;
	void *ctx = c->evict_ctx;
	c->dead = NULL;
	c->evicted = NULL;
	pthread_mutex_unlock(&c->lock);
	free_chain(dead);
	while (evicted) {
		struct cache_value *next = evicted->evicted_next;
		struct cache_ref ref = { evicted, evicted->data, evicted->len };
		fn(ctx, evicted->key, &ref);
		evicted = next;
	}
}

static bool over_limit(const struct cache *c)
{
	return c->bytes + c->reserved > c->limit;
}

static void drop(struct cache *c, struct value_list *l, struct cache_value *v)
{
	list_unlink(l, v);
	table_remove(c, v);
	ghost_add(c, v->key);
	c->evictions++;
	if (c->on_evict && !v->made_file && v->len) {
		/* Out of the count now, or evict() would go on dropping
		 * while on_evict holds it. */
		c->bytes -= v->len + c->value_cost;
		v->uncounted = true;
		v->refs++;
		v->evicted_next = c->evicted;
		c->evicted = v;
	} else if (!v->refs) {
		value_release(c, v);
	}
}

/* Drops values from l's oldest end while the cache is over its limit and
 * l holds more than keep. */
static void drop_oldest(struct cache *c, struct value_list *l, size_t keep)
{
	struct cache_value *v = l->tail;
	while (over_limit(c) && v && l->count > keep) {
		struct cache_value *prev = v->lru_prev;
		if (v != c->newest)
			drop(c, l, v);
		v = prev;
	}
}

/* Drops values until the cache fits its limit: rerun values first, oldest
 * first, all but the newest few; then made values, as many; then the
 * least recently used.  A value in
 * use leaves the table now and is freed by its last put.  The newest
 * value always stays, even when it alone is over the limit: a member
 * larger than the cache would otherwise be inflated again for every
 * read. */
static void evict(struct cache *c)
{
	drop_oldest(c, &c->rerun, RERUN_KEEP);
	drop_oldest(c, &c->made, MADE_KEEP);
	drop_oldest(c, &c->main, 0);
	drop_oldest(c, &c->rerun, 0);
	drop_oldest(c, &c->made, 0);
}

static int fill_value(struct cache *c, struct cache_value *v,
		      cache_fill_fn fill, void *ctx, bool made)
{
	uint8_t *data = NULL;
	size_t len = 0;
	pthread_mutex_unlock(&c->lock);
	int rc = fill(ctx, &data, &len);
	pthread_mutex_lock(&c->lock);
	if (rc < 0) {
		bufpool_free(data);
		table_remove(c, v);
		free(v);
	} else {
		v->data = data;
		v->len = len;
		v->ready = true;
		/* Only members count: the files made from a member while
		 * it is read (each object's PNG, and those made ahead of the
		 * reader) would age it past RERUN_REUSE_GAP, and its next
		 * hit would send it to the main list, where it pushes out
		 * what the listing left. */
		if (!made)
			c->fills++;
		v->fill_no = c->fills;
		v->rerun = ghost_seen(c, v->key);
		v->made = made && !v->rerun;
		v->made_file = made;
		c->bytes += len + c->value_cost;
		c->newest = v;
		list_push_front(list_of(c, v), v);
		evict(c);
	}
	pthread_cond_broadcast(&c->filled);
	return rc;
}

static int get(struct cache *c, uint64_t key, cache_fill_fn fill, void *ctx,
	       struct cache_ref *ref, bool made)
{
	int rc = 0;
	pthread_mutex_lock(&c->lock);
	struct cache_value *v;
	/* Wait out a fill in progress; if it failed, try ourselves. */
	while ((v = table_find(c, key)) && !v->ready) {
		blocking_begins();
		pthread_cond_wait(&c->filled, &c->lock);
	}
	if (v) {
		c->hits++;
		list_unlink(list_of(c, v), v);
		if ((v->rerun || v->made) &&
		    c->fills - v->fill_no > RERUN_REUSE_GAP)
			v->rerun = v->made = false;
		list_push_front(list_of(c, v), v);
		v->refs++;
	} else {
		c->misses++;
		v = calloc(1, sizeof *v);
		if (!v) {
			unlock(c);
			return -ENOMEM;
		}
		v->key = key;
		v->refs = 1;
		v->cached = true;
		size_t b = bucket_of(c, key);
		v->hnext = c->table[b];
		c->table[b] = v;
		blocking_begins();      /* an inflate, or a file made */
		rc = fill_value(c, v, fill, ctx, made);
	}
	if (rc == 0) {
		ref->v = v;
		ref->data = v->data;
		ref->len = v->len;
	}
	unlock(c);
	return rc;
}

int cache_get(struct cache *c, uint64_t key, cache_fill_fn fill, void *ctx,
	      struct cache_ref *ref)
{
	return get(c, key, fill, ctx, ref, false);
}

int cache_get_made(struct cache *c, uint64_t key, cache_fill_fn fill,
		   void *ctx, struct cache_ref *ref)
{
	return get(c, key, fill, ctx, ref, true);
}

void cache_put(struct cache *c, struct cache_ref *ref)
{
	struct cache_value *v = ref->v;
	if (!v)
		return;
	pthread_mutex_lock(&c->lock);
	if (--v->refs == 0 && !v->cached)
		value_release(c, v);
	unlock(c);
	ref->v = NULL;
	ref->data = NULL;
	ref->len = 0;
}

/* Under c->lock: v leaves the table and its list; its last put frees
 * it.  No ghost is kept: its key is to be filled again as new. */
static void forget(struct cache *c, struct cache_value *v)
{
	list_unlink(list_of(c, v), v);
	table_remove(c, v);
	if (c->newest == v)
		c->newest = NULL;
	if (!v->refs)
		value_release(c, v);
}

void cache_forget(struct cache *c, uint64_t key)
{
	pthread_mutex_lock(&c->lock);
	struct cache_value *v = table_find(c, key);
	if (v && v->ready)
		forget(c, v);
	unlock(c);
}

void cache_forget_made(struct cache *c)
{
	pthread_mutex_lock(&c->lock);
	for (size_t b = 0; b < c->buckets; b++)
		for (struct cache_value *v = c->table[b], *next; v; v = next) {
			next = v->hnext;
			if (v->ready && v->made_file)
				forget(c, v);
		}
	unlock(c);
}

bool cache_holds(struct cache *c, uint64_t key)
{
	pthread_mutex_lock(&c->lock);
	bool held = table_find(c, key) != NULL;
	pthread_mutex_unlock(&c->lock);
	return held;
}

void cache_on_evict(struct cache *c, cache_evict_fn fn, void *ctx)
{
	pthread_mutex_lock(&c->lock);
	c->on_evict = fn;
	c->evict_ctx = ctx;
	pthread_mutex_unlock(&c->lock);
}

void cache_reserve(struct cache *c, size_t bytes)
{
	pthread_mutex_lock(&c->lock);
	c->reserved += bytes;
	evict(c);
	unlock(c);
}

void cache_count_values(struct cache *c)
{
	pthread_mutex_lock(&c->lock);
	if (!c->bytes)
		c->value_cost = sizeof(struct cache_value) + 2 * MALLOC_HEADER;
	pthread_mutex_unlock(&c->lock);
}

void cache_unreserve(struct cache *c, size_t bytes)
{
	pthread_mutex_lock(&c->lock);
	c->reserved -= bytes < c->reserved ? bytes : c->reserved;
	pthread_mutex_unlock(&c->lock);
}

void cache_stats(struct cache *c, struct cache_stats *st)
{
	pthread_mutex_lock(&c->lock);
	st->bytes = c->bytes;
	st->reserved = c->reserved;
	st->limit = c->limit;
	st->hits = c->hits;
	st->misses = c->misses;
	st->evictions = c->evictions;
	pthread_mutex_unlock(&c->lock);
}
