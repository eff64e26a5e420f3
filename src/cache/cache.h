/* SPDX-License-Identifier: MIT */
/* cache.h - one byte-bounded cache for inflated members and produced
 * files, whose bound also covers the tree's own memory.
 *
 * Least recently used values go first, except that a value made again
 * after it was evicted, and then a made file, go before them (see
 * cache.c): a second pass over more than the cache holds still finds
 * what the first pass left.
 *
 * A value is made by its fill function at most once at a time per key
 * (single flight): a second reader of a member that is being inflated
 * waits for the first instead of inflating it again.  Values are handed
 * out by reference; an evicted value lives on until its last reference is
 * dropped, so memory is the byte limit plus what readers hold right now.
 */
#ifndef CCSFS_CACHE_H
#define CCSFS_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cache;
struct cache_value;

struct cache_ref {
	struct cache_value *v;
	const uint8_t *data;
	size_t len;
};

/* Makes the value for a key: *data is malloc'ed (NULL with len 0 is
 * allowed).  Returns 0 or a negative errno, which is passed to the caller
 * of cache_get and not remembered. */
typedef int (*cache_fill_fn)(void *ctx, uint8_t **data, size_t *len);

struct cache *cache_new(size_t limit);
void cache_free(struct cache *c);

int cache_get(struct cache *c, uint64_t key, cache_fill_fn fill, void *ctx,
	      struct cache_ref *ref);
/* As cache_get, for a value made from other cached values (a made file
 * from its member): evicted before them, unless it is used again. */
int cache_get_made(struct cache *c, uint64_t key, cache_fill_fn fill,
		   void *ctx, struct cache_ref *ref);
void cache_put(struct cache *c, struct cache_ref *ref);
/* True while the key's value is cached or being filled: work ahead of a
 * reader skips it, where a cache_get would only hit or wait. */
bool cache_holds(struct cache *c, uint64_t key);
/* Drops the value of key, or every made file's (cache_get_made), so that
 * the next get fills it again: what it was made from was edited.  A value
 * in use stays valid until its last put. */
void cache_forget(struct cache *c, uint64_t key);
void cache_forget_made(struct cache *c);

/* Calls fn, unlocked, for each value cache_get filled (not a made one)
 * as the cache evicts it, with a reference that fn must cache_put: the
 * bytes may still be worth keeping elsewhere (fuse/push.c hands a
 * member to the kernel's page cache).  They leave the cache's count at
 * once, so fn must not hold many. */
typedef void (*cache_evict_fn)(void *ctx, uint64_t key, struct cache_ref *ref);
void cache_on_evict(struct cache *c, cache_evict_fn fn, void *ctx);

/* Charges memory that is not the cache's (the tree's nodes and walks) to
 * its limit, until cache_unreserve gives it back: what the daemon holds
 * stays near one number, the cache_size option, however much of the
 * disc has been listed. */
void cache_reserve(struct cache *c, size_t bytes);
void cache_unreserve(struct cache *c, size_t bytes);
/* From now on each value counts its record and malloc's headers too,
 * not only its bytes: a walk's hundreds of thousands of small made
 * files would otherwise hold more than the bound.  Call before the
 * first value (the bytes cache_stats gives then include them). */
void cache_count_values(struct cache *c);

struct cache_stats {
	size_t bytes;           /* held by the cache (in use or not) */
	size_t reserved;        /* charged by cache_reserve */
	size_t limit;
	uint64_t hits, misses, evictions;
};
void cache_stats(struct cache *c, struct cache_stats *st);

#endif
