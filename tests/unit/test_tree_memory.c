/* SPDX-License-Identifier: MIT */
/* test_tree_memory.c - what the daemon holds outside the cache's entries
 * is charged to its bound (cache_size) from the start: the buffer pool,
 * the texts' scratch buffers and the tree's own records. */
#include "config.h"

#include "testutil.h"
#include "cache/cache.h"
#include "tree/tree.h"
#include "util/strbuf.h"

static size_t reserved(struct fs *fs)
{
	struct cache_stats st;
	cache_stats(fs->cache, &st);
	return st.reserved;
}

static void pool_and_scratch_are_charged_at_start(void **state)
{
	(void)state;
	struct fs fs;
	assert_int_equal(fs_init(&fs, 64u << 20), 0);
	/* A sixteenth for the pool, and every scratch buffer. */
	assert_int_equal(reserved(&fs), (4u << 20) + SB_SCRATCH_BYTES);
	fs_destroy(&fs);
}

static void tree_records_are_charged_as_they_grow(void **state)
{
	(void)state;
	struct fs fs;
	assert_int_equal(fs_init(&fs, 64u << 20), 0);
	size_t before = reserved(&fs);
	assert_non_null(fs_alloc(&fs, 100));
	size_t one = reserved(&fs) - before;
	assert_true(one >= 64u << 10);          /* a whole arena at once */
	assert_non_null(fs_alloc(&fs, 100));
	assert_int_equal(reserved(&fs) - before, one);  /* the same arena */
	fs_destroy(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pool_and_scratch_are_charged_at_start),
		cmocka_unit_test(tree_records_are_charged_as_they_grow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
