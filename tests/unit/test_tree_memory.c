/* SPDX-License-Identifier: MIT */
/* test_tree_memory.c - what the daemon holds outside the cache's entries
 * is charged to its bound (cache_size) from the start: the buffer pool,
 * the texts' scratch buffers, the remembered lengths and the tree's own
 * records; and a made text
 * longer than the scratch is held once, at its counted size. */
#include "config.h"

#include <stdatomic.h>

#include "testutil.h"
#include "cache/cache.h"
#include "tree/tree.h"
#include "util/lenmemo.h"
#include "util/strbuf.h"

static size_t reserved(struct fs *fs)
{
	struct cache_stats st;
	cache_stats(fs_cache(fs), &st);
	return st.reserved;
}

static void pool_scratch_and_memo_are_charged_at_start(void **state)
{
	(void)state;
	struct fs *fs = fs_new(64u << 20);
	assert_non_null(fs);
	/* A sixteenth for the pool, a thirty-second for what is being
	 * made, every scratch buffer and every table of remembered
	 * lengths. */
	assert_int_equal(reserved(fs), (4u << 20) + (2u << 20) +
			 SB_SCRATCH_BYTES + LENMEMO_BYTES);
	fs_free(fs);
}

static void tree_records_are_charged_as_they_grow(void **state)
{
	(void)state;
	struct fs *fs = fs_new(64u << 20);
	assert_non_null(fs);
	size_t before = reserved(fs);
	assert_non_null(fs_alloc(fs, 100));
	size_t one = reserved(fs) - before;
	assert_true(one >= 64u << 10);          /* a whole arena at once */
	assert_non_null(fs_alloc(fs, 100));
	assert_int_equal(reserved(fs) - before, one);  /* the same arena */
	fs_free(fs);
}

/* A made file whose text is longer than the scratch buffers. */
#define LONG_LINES 300000
static unsigned produced;

static int produce_long(struct fs *fs, struct node *n, uint8_t **data,
			size_t *len)
{
	(void)fs;
	produced++;
	struct strbuf sb;
	tree_made_text_init(n, data, &sb);
	for (unsigned i = 0; i < LONG_LINES; i++) {
		sb_puts(&sb, "line ");
		sb_put_u64(&sb, i);
		sb_puts(&sb, "\n");
	}
	return sb_finish(&sb, data, len);
}

static int populate_one(struct fs *fs, struct node *dir)
{
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	assert_non_null(dir_add_measured(&b, "long.txt", 0, produce_long,
					 NULL, 0));
	return dir_publish(&b);
}

/* Its first make counts it and makes it again at that size; the bytes
 * are the text, and the size is known from then on. */
static void long_text_is_made_at_its_counted_size(void **state)
{
	(void)state;
	struct fs *fs = fs_new(64u << 20);
	assert_non_null(fs);
	fs_set_root(fs, node_new_dir(fs, "", 0, populate_one, NULL));
	assert_non_null(fs_root(fs));
	assert_int_equal(tree_ready(fs, fs_root(fs)), 0);
	int err = 0;
	struct node *n = tree_child(fs, fs_root(fs), "long.txt", &err);
	assert_non_null(n);
	produced = 0;
	struct cache_ref ref;
	assert_int_equal(tree_made_bytes(fs, n, &ref), 0);
	assert_int_equal(produced, 2);
	assert_true(ref.len > (2u << 20));
	assert_int_equal(tree_size(n), ref.len);
	assert_memory_equal(ref.data, "line 0\nline 1\n", 14);
	assert_memory_equal(ref.data + ref.len - 12, "line 299999\n", 12);
	cache_put(fs_cache(fs), &ref);
	assert_int_equal(tree_made_bytes(fs, n, &ref), 0);     /* cached */
	assert_int_equal(produced, 2);
	cache_put(fs_cache(fs), &ref);
	fs_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pool_scratch_and_memo_are_charged_at_start),
		cmocka_unit_test(tree_records_are_charged_as_they_grow),
		cmocka_unit_test(long_text_is_made_at_its_counted_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
