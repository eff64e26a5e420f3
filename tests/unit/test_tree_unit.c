/* SPDX-License-Identifier: MIT */
/* test_tree_unit.c - units: a folder's contents in memory of their own,
 * charged to the cache's bound, let go when nothing holds them and made
 * again with the same inode numbers; made files' bytes found again in
 * the cache afterwards; a kept unit never let go; the thread that lets
 * units go past their budget. */
#include "config.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"
#include "cache/cache.h"
#include "tree/tree.h"

static unsigned populated, released, produced;

static int produce_text(struct fs *fs, struct node *n, uint8_t **data,
			size_t *len)
{
	(void)fs;
	(void)n;
	produced++;
	*data = (uint8_t *)strdup("made\n");
	*len = 5;
	return *data ? 0 : -ENOMEM;
}

/* FILES files, one folder "sub" with FILES more, and one made file. */
#define FILES 500

static int populate_unit(struct fs *fs, struct node *dir)
{
	populated++;
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	char name[32];
	for (int i = 0; i < FILES; i++) {
		snprintf(name, sizeof name, "file%04d", i);
		dir_add_link(&b, name, 0, "target");
	}
	dir_add_made(&b, "made.txt", 0, produce_text, NULL, 0);
	struct node *sub = dir_add_dir(&b, "sub", 0, NULL, NULL);
	struct dir_builder sb;
	dir_builder_init(&sb, fs, sub);
	for (int i = 0; i < FILES; i++) {
		snprintf(name, sizeof name, "deep%04d", i);
		dir_add_link(&sb, name, 0, "target");
	}
	/* What the view keeps for the folder lives as long as it. */
	assert_non_null(tree_strdup(fs, dir, "the view's own"));
	assert_int_equal(dir_publish(&sb), 0);
	return dir_publish(&b);
}

static void release_unit(struct fs *fs, struct node *dir)
{
	(void)fs;
	(void)dir;
	released++;
}

static int populate_root(struct fs *fs, struct node *root)
{
	struct dir_builder b;
	dir_builder_init(&b, fs, root);
	char name[32];
	intptr_t count = (intptr_t)tree_dir_ctx(root);
	for (intptr_t i = 0; i < count; i++) {
		snprintf(name, sizeof name, "unit%03d", (int)i);
		struct node *u = dir_add_dir(&b, name, 0, populate_unit, NULL);
		if (u)
			assert_int_equal(dir_make_unit(fs, u, release_unit,
						       i == count - 1 &&
						       count == 2), 0);
	}
	return dir_publish(&b);
}

static struct node *walk(struct fs *fs, struct node *dir, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", path);
	int err = 0;
	struct node *n = dir;
	for (char *p = strtok(buf, "/"); p && n; p = strtok(NULL, "/"))
		n = tree_child(fs, n, p, &err);
	return n;
}

static size_t reserved(struct fs *fs)
{
	struct cache_stats st;
	cache_stats(fs_cache(fs), &st);
	return st.reserved;
}

static struct fs *setup_fs(size_t cache, intptr_t units)
{
	populated = released = produced = 0;
	struct fs *fs = fs_new(cache);
	assert_non_null(fs);
	fs_set_root(fs, node_new_dir(fs, "", 0, populate_root, (void *)units));
	assert_non_null(fs_root(fs));
	return fs;
}

static void held_unit_stays_idle_one_goes(void **state)
{
	(void)state;
	struct fs *fs = setup_fs(64u << 20, 2);
	assert_non_null(walk(fs, fs_root(fs), "unit000"));
	size_t before = reserved(fs);
	struct node *deep = walk(fs, fs_root(fs), "unit000/sub/deep0007");
	assert_non_null(deep);
	assert_int_equal(populated, 1);
	assert_true(reserved(fs) > before + FILES * tree_node_bytes());
	uint64_t ino = tree_ino(deep);

	tree_hold(fs, deep, 2);
	tree_release_idle(fs);
	assert_int_equal(released, 0);          /* held */
	tree_drop(fs, deep, 1);
	tree_release_idle(fs);
	assert_int_equal(released, 0);          /* still held once */
	tree_drop(fs, deep, 1);
	tree_release_idle(fs);
	assert_int_equal(released, 1);
	assert_int_equal(reserved(fs), before);

	/* Made again on use, with the same inode number. */
	deep = walk(fs, fs_root(fs), "unit000/sub/deep0007");
	assert_non_null(deep);
	assert_int_equal(populated, 2);
	assert_int_equal(tree_ino(deep), ino);
	struct tree_unit_stats st;
	tree_unit_stats(fs, &st);
	assert_int_equal(st.released, 1);
	assert_int_equal(st.units, 1);
	fs_free(fs);
}

static void kept_unit_is_never_let_go(void **state)
{
	(void)state;
	struct fs *fs = setup_fs(64u << 20, 2);
	assert_non_null(walk(fs, fs_root(fs), "unit001/file0001"));   /* kept */
	tree_release_idle(fs);
	assert_int_equal(released, 0);
	assert_int_equal(populated, 1);
	fs_free(fs);
}

static void made_bytes_outlive_their_unit(void **state)
{
	(void)state;
	struct fs *fs = setup_fs(64u << 20, 1);
	struct node *made = walk(fs, fs_root(fs), "unit000/made.txt");
	assert_non_null(made);
	struct cache_ref ref;
	assert_int_equal(tree_made_bytes(fs, made, &ref), 0);
	assert_memory_equal(ref.data, "made\n", 5);
	cache_put(fs_cache(fs), &ref);
	assert_int_equal(produced, 1);
	tree_release_idle(fs);
	assert_int_equal(released, 1);
	made = walk(fs, fs_root(fs), "unit000/made.txt");
	assert_int_equal(tree_made_bytes(fs, made, &ref), 0);
	assert_memory_equal(ref.data, "made\n", 5);
	cache_put(fs_cache(fs), &ref);
	assert_int_equal(produced, 1);          /* found, not made again */
	fs_free(fs);
}

static void inode_numbers_follow_paths(void **state)
{
	(void)state;
	struct fs *a = setup_fs(64u << 20, 3);
	struct node *x = walk(a, fs_root(a), "unit002/sub/deep0001");
	struct node *y = walk(a, fs_root(a), "unit001/sub/deep0001");
	struct node *z = walk(a, fs_root(a), "unit002/sub/deep0002");
	assert_int_equal(tree_ino(fs_root(a)), 1);
	assert_true(tree_ino(x) != tree_ino(y));
	assert_true(tree_ino(x) != tree_ino(z));
	assert_true(tree_ino(x) > 1);
	uint64_t ix = tree_ino(x);
	fs_free(a);
	/* Another tree, made in another order: the same numbers. */
	struct fs *b = setup_fs(64u << 20, 3);
	assert_non_null(walk(b, fs_root(b), "unit000/sub/deep0001"));
	assert_int_equal(tree_ino(walk(b, fs_root(b), "unit002/sub/deep0001")),
			 ix);
	fs_free(b);
}

/* Twelve units of about 100 KiB past a 4 MiB budget (a 1 MiB cache's):
 * the thread lets the oldest go, down to three quarters of it. */
static void thread_keeps_units_within_budget(void **state)
{
	(void)state;
	struct fs *fs = setup_fs(1u << 20, 60);
	assert_int_equal(tree_reclaim_start(fs), 0);
	char path[64];
	for (int i = 0; i < 60; i++) {
		tree_enter(fs);
		snprintf(path, sizeof path, "unit%03d/sub/deep0001", i);
		assert_non_null(walk(fs, fs_root(fs), path));
		tree_leave(fs);
	}
	struct tree_unit_stats st;
	for (int tries = 0; tries < 200; tries++) {
		tree_unit_stats(fs, &st);
		if (st.bytes <= st.budget)
			break;
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	assert_int_equal(st.budget, 4u << 20);
	assert_true(st.bytes <= st.budget);
	assert_true(st.released > 0);
	assert_int_equal(released, st.released);
	assert_int_equal(st.units + st.released, 60);
	/* The newest is still there: no populate to find it. */
	unsigned before = populated;
	tree_enter(fs);
	assert_non_null(walk(fs, fs_root(fs), "unit059/sub/deep0002"));
	tree_leave(fs);
	assert_int_equal(populated, before);
	fs_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(held_unit_stays_idle_one_goes),
		cmocka_unit_test(kept_unit_is_never_let_go),
		cmocka_unit_test(made_bytes_outlive_their_unit),
		cmocka_unit_test(inode_numbers_follow_paths),
		cmocka_unit_test(thread_keeps_units_within_budget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
