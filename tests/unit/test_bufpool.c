/* SPDX-License-Identifier: MIT */
/* test_bufpool.c - large buffers come back, small ones and a full pool
 * do not keep anything. */
#include "config.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"
#include "util/bufpool.h"

/* A buffer of size bytes, each set to byte, allocated and freed to the
 * pool (limit bytes): its address, which the pool now keeps. */
static char *freed_to_pool(size_t limit, size_t size, int byte)
{
	bufpool_set_limit(limit);
	char *p = bufpool_alloc(size);
	assert_non_null(p);
	memset(p, byte, size);
	bufpool_free(p);
	return p;
}

static void freed_buffer_is_handed_out_again(void **state)
{
	(void)state;
	char *p = freed_to_pool(4u << 20, 300000, 7);
	char *q = bufpool_alloc(250000);        /* fits, wastes < half */
	assert_ptr_equal(q, p);
	assert_true(malloc_usable_size(q) >= 250000);
	bufpool_free(q);
	bufpool_drain();

	/* 64 KiB or more of slack is given back: the cache counts only
	 * what was asked for. */
	p = bufpool_alloc(600000);
	bufpool_free(p);
	q = bufpool_alloc(450000);
	assert_non_null(q);
	assert_true(malloc_usable_size(q) >= 450000);
	assert_true(malloc_usable_size(q) < 600000);
	bufpool_free(q);
	bufpool_drain();
}

static void much_larger_buffer_is_not_wasted_on_a_small_one(void **state)
{
	(void)state;
	bufpool_set_limit(4u << 20);
	char *big = bufpool_alloc(600000);
	bufpool_free(big);
	char *small = bufpool_alloc(100000);    /* big would waste > half */
	assert_ptr_not_equal(small, big);
	/* big fits this one; under 64 KiB of slack it is not shrunk (a
	 * shrink may move it, as ASan's realloc does) */
	char *again = bufpool_alloc(550000);
	assert_ptr_equal(again, big);
	bufpool_free(small);
	bufpool_free(again);
	bufpool_drain();
}

static void limit_bounds_what_is_kept(void **state)
{
	(void)state;
	bufpool_set_limit(0);                   /* keeps nothing */
	char *p = bufpool_alloc(300000);
	bufpool_free(p);
	char *q = bufpool_alloc(300000);
	bufpool_free(q);
	bufpool_set_limit(1u << 20);            /* buffers up to 256 KiB */
	p = bufpool_alloc(300000);
	bufpool_free(p);                        /* too large to keep */
	char *r = bufpool_alloc(64u << 10);
	bufpool_free(r);
	char *s = bufpool_alloc(64u << 10);
	assert_ptr_equal(s, r);
	bufpool_free(s);
	bufpool_drain();
}

/* Many buffers just over the smallest kept size, freed after a large
 * one, do not push it out while the bytes allow it. */
static void many_small_buffers_leave_a_large_one(void **state)
{
	(void)state;
	char *big = freed_to_pool(16u << 20, 300000, 0x5a);
	enum { SMALL = 100 };
	char *small[SMALL];
	for (int i = 0; i < SMALL; i++) {
		small[i] = malloc(BUFPOOL_MIN);
		assert_non_null(small[i]);
	}
	for (int i = 0; i < SMALL; i++)
		bufpool_free(small[i]);
	/* The kept buffer itself, its bytes as they were: a new mapping,
	 * even at the same address, reads as zeros. */
	char *again = bufpool_alloc(300000);
	assert_ptr_equal(again, big);
	assert_int_equal(again[0], 0x5a);
	assert_int_equal(again[299999], 0x5a);
	bufpool_free(again);
	bufpool_drain();
}

static void small_buffers_are_plain_malloc(void **state)
{
	(void)state;
	bufpool_set_limit(4u << 20);
	char *p = bufpool_alloc(100);
	assert_non_null(p);
	bufpool_free(p);                        /* freed, not kept */
	bufpool_free(NULL);
	bufpool_drain();
}

/* Resident bytes of [p, p + len), by page. */
static size_t resident(const void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p & ~(page - 1);
	size_t n = ((uintptr_t)p + len - start + page - 1) / page;
	unsigned char *vec = malloc(n);
	assert_non_null(vec);
	assert_int_equal(mincore((void *)start, n * page, vec), 0);
	size_t in = 0;
	for (size_t i = 0; i < n; i++)
		in += vec[i] & 1;
	free(vec);
	return in * page;
}

/* Only what the caller says it will write is faulted in ahead: a broken
 * member's trailer may claim far more than inflates. */
static void filled_faults_in_only_what_is_said(void **state)
{
	(void)state;
	bufpool_drain();
	size_t size = 16u << 20, fill = 1u << 20;
	char *p = bufpool_alloc_filled(size, fill);
	assert_non_null(p);
	assert_true(resident(p, fill) >= fill);
	/* Transparent huge pages may bring in up to 2 MiB around it. */
	assert_true(resident(p, size) <= fill + (4u << 20));
	bufpool_free(p);
	bufpool_drain();

	p = bufpool_alloc_filled(size, SIZE_MAX);
	assert_non_null(p);
	assert_true(resident(p, size) >= size);
	bufpool_free(p);
	bufpool_drain();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(freed_buffer_is_handed_out_again),
		cmocka_unit_test(much_larger_buffer_is_not_wasted_on_a_small_one),
		cmocka_unit_test(limit_bounds_what_is_kept),
		cmocka_unit_test(many_small_buffers_leave_a_large_one),
		cmocka_unit_test(small_buffers_are_plain_malloc),
		cmocka_unit_test(filled_faults_in_only_what_is_said),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
