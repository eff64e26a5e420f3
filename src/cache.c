/* cache.c - hash table + LRU list under one mutex; fills run unlocked. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "cache.h"

struct cache_value {
	uint64_t key;
	uint8_t *data;
	size_t len;
	unsigned refs;
	bool ready;             /* filled; false while a fill runs */
	bool cached;            /* still in the table (not evicted) */
	struct cache_value *hnext;              /* hash chain */
	struct cache_value *lru_prev, *lru_next;/* ready values, newest first */
};

struct cache {
	pthread_mutex_t lock;
	pthread_cond_t filled;
	size_t limit, bytes;
	size_t reserved;        /* the tree's own memory, charged here */
	struct cache_value **table;
	size_t buckets;
	struct cache_value *lru_head, *lru_tail;
	uint64_t hits, misses, evictions;
};

#define BUCKETS 4096

struct cache *cache_new(size_t limit)
{
	struct cache *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->table = calloc(BUCKETS, sizeof *c->table);
	if (!c->table) {
		free(c);
		return NULL;
	}
	c->buckets = BUCKETS;
	c->limit = limit;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->filled, NULL);
	return c;
}

void cache_free(struct cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->buckets; i++) {
		struct cache_value *v = c->table[i];
		while (v) {
			struct cache_value *next = v->hnext;
			free(v->data);
			free(v);
			v = next;
		}
	}
	free(c->table);
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

static void lru_unlink(struct cache *c, struct cache_value *v)
{
	if (v->lru_prev)
		v->lru_prev->lru_next = v->lru_next;
	else if (c->lru_head == v)
		c->lru_head = v->lru_next;
	if (v->lru_next)
		v->lru_next->lru_prev = v->lru_prev;
	else if (c->lru_tail == v)
		c->lru_tail = v->lru_prev;
	v->lru_prev = v->lru_next = NULL;
}

static void lru_push_front(struct cache *c, struct cache_value *v)
{
	v->lru_prev = NULL;
	v->lru_next = c->lru_head;
	if (c->lru_head)
		c->lru_head->lru_prev = v;
	c->lru_head = v;
	if (!c->lru_tail)
		c->lru_tail = v;
}

static void value_release(struct cache *c, struct cache_value *v)
{
	c->bytes -= v->len;
	free(v->data);
	free(v);
}

/* Drops least recently used values until the cache fits its limit.
 * A value in use leaves the table now and is freed by its last put.  The
 * newest value always stays, even when it alone is over the limit: a
 * member larger than the cache would otherwise be inflated again for
 * every read. */
static void evict(struct cache *c)
{
	struct cache_value *v = c->lru_tail;
	while (c->bytes + c->reserved > c->limit && v && v != c->lru_head) {
		struct cache_value *prev = v->lru_prev;
		lru_unlink(c, v);
		table_remove(c, v);
		c->evictions++;
		if (!v->refs)
			value_release(c, v);
		v = prev;
	}
}

static int fill_value(struct cache *c, struct cache_value *v,
		      cache_fill_fn fill, void *ctx)
{
	uint8_t *data = NULL;
	size_t len = 0;
	pthread_mutex_unlock(&c->lock);
	int rc = fill(ctx, &data, &len);
	pthread_mutex_lock(&c->lock);
	if (rc < 0) {
		free(data);
		table_remove(c, v);
		free(v);
	} else {
		v->data = data;
		v->len = len;
		v->ready = true;
		c->bytes += len;
		lru_push_front(c, v);
		evict(c);
	}
	pthread_cond_broadcast(&c->filled);
	return rc;
}

int cache_get(struct cache *c, uint64_t key, cache_fill_fn fill, void *ctx,
	      struct cache_ref *ref)
{
	int rc = 0;
	pthread_mutex_lock(&c->lock);
	struct cache_value *v;
	/* Wait out a fill in progress; if it failed, try ourselves. */
	while ((v = table_find(c, key)) && !v->ready)
		pthread_cond_wait(&c->filled, &c->lock);
	if (v) {
		c->hits++;
		lru_unlink(c, v);
		lru_push_front(c, v);
		v->refs++;
	} else {
		c->misses++;
		v = calloc(1, sizeof *v);
		if (!v) {
			pthread_mutex_unlock(&c->lock);
			return -ENOMEM;
		}
		v->key = key;
		v->refs = 1;
		v->cached = true;
		size_t b = bucket_of(c, key);
		v->hnext = c->table[b];
		c->table[b] = v;
		rc = fill_value(c, v, fill, ctx);
	}
	if (rc == 0) {
		ref->v = v;
		ref->data = v->data;
		ref->len = v->len;
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}

void cache_put(struct cache *c, struct cache_ref *ref)
{
	struct cache_value *v = ref->v;
	if (!v)
		return;
	pthread_mutex_lock(&c->lock);
	if (--v->refs == 0 && !v->cached)
		value_release(c, v);
	pthread_mutex_unlock(&c->lock);
	ref->v = NULL;
	ref->data = NULL;
	ref->len = 0;
}

void cache_reserve(struct cache *c, size_t bytes)
{
	pthread_mutex_lock(&c->lock);
	c->reserved += bytes;
	evict(c);
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
