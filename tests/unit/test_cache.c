/* SPDX-License-Identifier: MIT */
/* test_cache.c - byte limit, LRU order, references, single flight. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "cache/cache.h"

struct filler {
	size_t size;
	int calls;
	int fail;
	unsigned delay_us;
	pthread_mutex_t lock;
};

static int fill(void *ctx, uint8_t **data, size_t *len)
{
	struct filler *f = ctx;
	pthread_mutex_lock(&f->lock);
	f->calls++;
	pthread_mutex_unlock(&f->lock);
	if (f->delay_us)
		usleep(f->delay_us);
	if (f->fail)
		return f->fail;
	*data = malloc(f->size);
	memset(*data, 0xab, f->size);
	*len = f->size;
	return 0;
}

#define FILLER(sz) { (sz), 0, 0, 0, PTHREAD_MUTEX_INITIALIZER }

/* Gets and puts keys from to to, in order: a pass over them. */
static void use(struct cache *c, uint64_t from, uint64_t to,
		struct filler *f)
{
	struct cache_ref r;
	for (uint64_t k = from; k <= to; k++) {
		cache_get(c, k, fill, f, &r);
		cache_put(c, &r);
	}
}

static void second_get_hits(void **state)
{
	(void)state;
	struct cache *c = cache_new(1000);
	struct filler f = FILLER(10);
	struct cache_ref r;
	assert_int_equal(cache_get(c, 7, fill, &f, &r), 0);
	assert_int_equal(r.len, 10);
	assert_int_equal(r.data[9], 0xab);
	cache_put(c, &r);
	assert_int_equal(cache_get(c, 7, fill, &f, &r), 0);
	cache_put(c, &r);
	assert_int_equal(f.calls, 1);
	struct cache_stats st;
	cache_stats(c, &st);
	assert_int_equal(st.hits, 1);
	assert_int_equal(st.misses, 1);
	assert_int_equal(st.bytes, 10);
	cache_free(c);
}

static void evicts_least_recently_used(void **state)
{
	(void)state;
	struct cache *c = cache_new(100);
	struct filler a = FILLER(40), b = FILLER(40), d = FILLER(40);
	struct cache_ref r;
	cache_get(c, 1, fill, &a, &r); cache_put(c, &r);
	cache_get(c, 2, fill, &b, &r); cache_put(c, &r);
	cache_get(c, 1, fill, &a, &r); cache_put(c, &r);       /* 1 is newer */
	cache_get(c, 3, fill, &d, &r); cache_put(c, &r);       /* evicts 2 */
	struct cache_stats st;
	cache_stats(c, &st);
	assert_int_equal(st.bytes, 80);
	assert_int_equal(st.evictions, 1);
	assert_true(cache_holds(c, 1));
	assert_false(cache_holds(c, 2));
	assert_true(cache_holds(c, 3));
	cache_get(c, 1, fill, &a, &r); cache_put(c, &r);
	assert_int_equal(a.calls, 1);
	cache_get(c, 2, fill, &b, &r); cache_put(c, &r);
	assert_int_equal(b.calls, 2);
	cache_free(c);
}

static void value_in_use_survives_eviction(void **state)
{
	(void)state;
	struct cache *c = cache_new(50);
	struct filler a = FILLER(40), b = FILLER(40);
	struct cache_ref ra, rb;
	assert_int_equal(cache_get(c, 1, fill, &a, &ra), 0);
	assert_int_equal(cache_get(c, 2, fill, &b, &rb), 0);  /* evicts 1 */
	/* Still readable: ASan would catch a freed buffer here. */
	assert_int_equal(ra.data[39], 0xab);
	cache_put(c, &ra);
	cache_put(c, &rb);
	struct cache_stats st;
	cache_stats(c, &st);
	assert_int_equal(st.bytes, 40);
	cache_free(c);
}

static void reserved_bytes_shrink_the_room(void **state)
{
	(void)state;
	struct cache *c = cache_new(100);
	struct filler a = FILLER(30), b = FILLER(30), d = FILLER(30);
	struct cache_ref r;
	cache_get(c, 1, fill, &a, &r); cache_put(c, &r);
	cache_get(c, 2, fill, &b, &r); cache_put(c, &r);
	cache_get(c, 3, fill, &d, &r); cache_put(c, &r);
	struct cache_stats st;
	cache_stats(c, &st);
	assert_int_equal(st.bytes, 90);
	cache_reserve(c, 40);                   /* 90 + 40 > 100: 1 goes */
	cache_stats(c, &st);
	assert_int_equal(st.reserved, 40);
	assert_int_equal(st.bytes, 60);
	assert_int_equal(st.evictions, 1);
	cache_get(c, 1, fill, &a, &r); cache_put(c, &r);       /* evicts 2 */
	assert_int_equal(a.calls, 2);
	cache_stats(c, &st);
	assert_int_equal(st.bytes, 60);
	cache_get(c, 3, fill, &d, &r); cache_put(c, &r);
	assert_int_equal(d.calls, 1);
	cache_get(c, 2, fill, &b, &r); cache_put(c, &r);
	assert_int_equal(b.calls, 2);
	cache_free(c);
}

/* A listing pass then a reading pass over twice what the cache holds:
 * LRU would hit nothing in the second pass; the rerun list keeps what the
 * first pass left, less the few rerun values that always stay. */
static void second_pass_over_more_than_fits_hits(void **state)
{
	(void)state;
	struct cache *c = cache_new(100);
	struct filler f = FILLER(10);
	struct cache_ref r;
	for (uint64_t k = 1; k <= 20; k++) {
		assert_int_equal(cache_get(c, k, fill, &f, &r), 0);
		cache_put(c, &r);
	}
	struct cache_stats before, after;
	cache_stats(c, &before);
	assert_int_equal(before.misses, 20);
	for (uint64_t k = 1; k <= 20; k++) {
		assert_int_equal(cache_get(c, k, fill, &f, &r), 0);
		assert_int_equal(r.data[9], 0xab);
		cache_put(c, &r);
	}
	cache_stats(c, &after);
	/* 1-10 miss; 4 of them stay, pushing out 11-14; 15-20 hit. */
	assert_int_equal(after.hits - before.hits, 6);
	assert_true(after.bytes <= 100);
	cache_free(c);
}

/* A rerun value used again after other fills is in use: it is kept like
 * any recently used value. */
static void rerun_value_used_again_joins_main(void **state)
{
	(void)state;
	struct cache *c = cache_new(100);
	struct filler f = FILLER(10);
	use(c, 1, 20, &f);                      /* 1-10 become ghosts */
	use(c, 1, 1, &f);                       /* a rerun value */
	use(c, 21, 29, &f);                     /* 9 other fills */
	int calls = f.calls;
	use(c, 1, 1, &f);                       /* hit: joins main */
	assert_int_equal(f.calls, calls);
	use(c, 2, 7, &f);                       /* reruns: evicted first */
	calls = f.calls;
	use(c, 1, 1, &f);                       /* still there */
	assert_int_equal(f.calls, calls);
	cache_free(c);
}

/* A rerun member read for the files made from it (each object's PNG)
 * is not "used again later": those fills do not age it, so it stays on
 * the rerun list and goes before the members the listing left. */
static void made_fills_do_not_age_a_rerun_member(void **state)
{
	(void)state;
	struct cache *c = cache_new(100);
	struct filler member = FILLER(10), made = FILLER(0);
	struct cache_ref r;
	use(c, 1, 20, &member);                 /* 1-10 become ghosts */
	use(c, 1, 1, &member);                  /* a rerun value */
	for (uint64_t k = 101; k <= 109; k++) { /* its files, made */
		cache_get_made(c, k, fill, &made, &r);
		cache_put(c, &r);
		use(c, 1, 1, &member);
	}
	use(c, 2, 7, &member);                  /* more reruns */
	int calls = member.calls;
	use(c, 15, 15, &member);                /* the listing's: kept */
	assert_int_equal(member.calls, calls);
	use(c, 1, 1, &member);                  /* went with the reruns */
	assert_int_equal(member.calls, calls + 1);
	cache_free(c);
}

/* Made files go before the members they are made from: a pass that makes
 * one file of each of 20 members, in a cache that holds ten members,
 * keeps the members and the newest made files, not the oldest members. */
static void made_values_go_before_members(void **state)
{
	(void)state;
	struct cache *c = cache_new(100 + 12 * 5);
	struct filler member = FILLER(10), made = FILLER(5);
	struct cache_ref r;
	for (uint64_t k = 1; k <= 10; k++) {
		cache_get(c, k, fill, &member, &r);
		cache_put(c, &r);
	}
	for (uint64_t k = 101; k <= 120; k++) {
		assert_int_equal(cache_get_made(c, k, fill, &made, &r), 0);
		cache_put(c, &r);
	}
	for (uint64_t k = 1; k <= 10; k++) {    /* all ten still there */
		cache_get(c, k, fill, &member, &r);
		cache_put(c, &r);
	}
	assert_int_equal(member.calls, 10);
	int calls = made.calls;
	for (uint64_t k = 109; k <= 120; k++) { /* the newest 12 stay */
		cache_get_made(c, k, fill, &made, &r);
		cache_put(c, &r);
	}
	assert_int_equal(made.calls, calls);
	cache_get_made(c, 101, fill, &made, &r);        /* the oldest went */
	cache_put(c, &r);
	assert_int_equal(made.calls, calls + 1);
	cache_free(c);
}

struct handed {
	uint64_t keys[16];
	struct cache_ref refs[16];
	size_t count;
};

/* Keeps what it is handed, as fuse/push.c does while it stores. */
static void hand_on(void *ctx, uint64_t key, struct cache_ref *ref)
{
	struct handed *h = ctx;
	assert_true(h->count < 16);
	assert_int_equal(ref->len, 20);
	assert_int_equal(ref->data[19], 0xab);
	h->keys[h->count] = key;
	h->refs[h->count++] = *ref;
}

static void evicted_values_are_handed_on(void **state)
{
	(void)state;
	struct cache *c = cache_new(100);
	struct handed h = { .count = 0 };
	cache_on_evict(c, hand_on, &h);
	struct filler member = FILLER(20), made = FILLER(100);
	use(c, 1, 10, &member);
	assert_int_equal(h.count, 5);                   /* 1..5, in order */
	for (size_t i = 0; i < h.count; i++)
		assert_int_equal(h.keys[i], i + 1);
	/* What the hook holds is out of the count: the five that fit
	 * all stay while it holds the five it was given. */
	struct cache_stats st;
	cache_stats(c, &st);
	assert_int_equal(st.bytes, 100);
	use(c, 6, 10, &member);
	assert_int_equal(member.calls, 10);
	for (size_t i = 0; i < h.count; i++)
		cache_put(c, &h.refs[i]);
	cache_stats(c, &st);
	assert_int_equal(st.bytes, 100);
	/* Made values are not handed on. */
	struct cache_ref r;
	for (uint64_t k = 101; k <= 103; k++) {
		cache_get_made(c, k, fill, &made, &r);
		cache_put(c, &r);
	}
	assert_int_equal(h.count, 5 + 5);       /* the members, not 101, 102 */
	for (size_t i = 5; i < h.count; i++) {
		assert_true(h.keys[i] >= 6 && h.keys[i] <= 10);
		cache_put(c, &h.refs[i]);
	}
	cache_free(c);
}

static void newest_stays_even_over_limit(void **state)
{
	(void)state;
	struct cache *c = cache_new(10);
	struct filler big = FILLER(100);
	struct cache_ref r;
	cache_get(c, 1, fill, &big, &r); cache_put(c, &r);
	cache_get(c, 1, fill, &big, &r); cache_put(c, &r);
	assert_int_equal(big.calls, 1);
	cache_free(c);
}

static void failure_is_not_cached(void **state)
{
	(void)state;
	struct cache *c = cache_new(100);
	struct filler f = FILLER(10);
	f.fail = -EIO;
	struct cache_ref r;
	assert_int_equal(cache_get(c, 1, fill, &f, &r), -EIO);
	assert_false(cache_holds(c, 1));
	assert_int_equal(cache_get(c, 1, fill, &f, &r), -EIO);
	assert_int_equal(f.calls, 2);
	f.fail = 0;
	assert_int_equal(cache_get(c, 1, fill, &f, &r), 0);
	cache_put(c, &r);
	cache_free(c);
}

/* Work ahead skips a value being filled: it would only wait for it. */
struct watcher {
	struct cache *c;
	bool held;
};

static int fill_watching(void *ctx, uint8_t **data, size_t *len)
{
	struct watcher *w = ctx;
	w->held = cache_holds(w->c, 7);
	*data = malloc(1);
	*len = 1;
	return 0;
}

static void held_while_filling(void **state)
{
	(void)state;
	struct cache *c = cache_new(100);
	struct watcher w = { c, false };
	struct cache_ref r;
	assert_false(cache_holds(c, 7));
	assert_int_equal(cache_get(c, 7, fill_watching, &w, &r), 0);
	assert_true(w.held);
	cache_put(c, &r);
	assert_true(cache_holds(c, 7));
	cache_free(c);
}

struct racer {
	struct cache *c;
	struct filler *f;
	int rc;
};

static void *race(void *arg)
{
	struct racer *x = arg;
	struct cache_ref r;
	x->rc = cache_get(x->c, 42, fill, x->f, &r);
	if (x->rc == 0)
		cache_put(x->c, &r);
	return NULL;
}

static void concurrent_readers_fill_once(void **state)
{
	(void)state;
	struct cache *c = cache_new(1 << 20);
	struct filler f = FILLER(1000);
	f.delay_us = 50000;
	pthread_t t[8];
	struct racer x[8];
	for (int i = 0; i < 8; i++) {
		x[i] = (struct racer){ c, &f, -1 };
		pthread_create(&t[i], NULL, race, &x[i]);
	}
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(x[i].rc, 0);
	}
	assert_int_equal(f.calls, 1);
	cache_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(second_get_hits),
		cmocka_unit_test(evicts_least_recently_used),
		cmocka_unit_test(value_in_use_survives_eviction),
		cmocka_unit_test(reserved_bytes_shrink_the_room),
		cmocka_unit_test(second_pass_over_more_than_fits_hits),
		cmocka_unit_test(rerun_value_used_again_joins_main),
		cmocka_unit_test(made_values_go_before_members),
		cmocka_unit_test(made_fills_do_not_age_a_rerun_member),
		cmocka_unit_test(newest_stays_even_over_limit),
		cmocka_unit_test(evicted_values_are_handed_on),
		cmocka_unit_test(failure_is_not_cached),
		cmocka_unit_test(concurrent_readers_fill_once),
		cmocka_unit_test(held_while_filling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
