/* SPDX-License-Identifier: MIT */
/* test_tree_ahead.c - folders populated ahead of a listing that goes
 * through costly siblings in order, forwards (find) or backwards (bash's
 * glob), and not ahead of one that goes through cheap ones; what a
 * listing sees of a folder does not depend on whether that happened; and
 * the files made ahead of a reader crossing members. */
#include "config.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "tree/tree.h"

#define KIDS 12

struct kid {
	atomic_bool populated;
	atomic_bool by_worker;
};

static struct kid costly[KIDS], cheap[KIDS];

static int populate_empty(struct fs *fs, struct node *dir)
{
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	return dir_publish(&b);
}

/* A kid has a folder of its own, as a member has its objects'. */
static int populate_kid(struct fs *fs, struct node *dir)
{
	struct kid *k = tree_dir_ctx(dir);
	atomic_store(&k->by_worker, readahead_on_worker());
	atomic_store(&k->populated, true);
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	dir_add_dir(&b, "sub", 0, populate_empty, NULL);
	return dir_publish(&b);
}

/* A folder of KIDS folders; costly: populating each costs, as a
 * member's does. */
static int populate_group(struct fs *fs, struct node *dir)
{
	struct kid *kids = tree_dir_ctx(dir);
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	for (int i = 0; i < KIDS; i++) {
		char name[16];
		snprintf(name, sizeof name, "k%02d", i);
		struct node *n = dir_add_dir(&b, name, 0, populate_kid,
					     &kids[i]);
		assert_non_null(n);
		dir_set_costly(n, kids == costly);
	}
	return dir_publish(&b);
}

/* More folders than a listing reaches ahead. */
#define WIDE (TREE_LIST_AHEAD + 40)

static int populate_wide(struct fs *fs, struct node *dir)
{
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	for (int i = 0; i < WIDE; i++) {
		char name[16];
		snprintf(name, sizeof name, "w%03d", i);
		assert_non_null(dir_add_dir(&b, name, 0, populate_empty,
					    NULL));
	}
	return dir_publish(&b);
}

/* A folder made with its parent, as a member's chunks/ is: two
 * subfolders. */
static int fill_made(struct fs *fs, struct node *dir)
{
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	dir_add_dir(&b, "a", 0, populate_empty, NULL);
	dir_add_dir(&b, "b", 0, populate_empty, NULL);
	return dir_publish(&b);
}

/* An archive of MEMBERS members of OBJECTS objects (after OTHERS
 * folders without one), each object with a made file f.png: made[] says
 * which were made. */
#define MEMBERS 5
#define OBJECTS 3

static atomic_bool made[MEMBERS * OBJECTS];

static int produce_marked(struct fs *fs, struct node *file, uint8_t **data,
			  size_t *len)
{
	(void)fs;
	atomic_store(&made[tree_made_arg(file)], true);
	*data = malloc(1);
	if (!*data)
		return -ENOMEM;
	**data = 'x';
	*len = 1;
	return 0;
}

static int populate_object(struct fs *fs, struct node *dir)
{
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	dir_add_made(&b, "f.png", 0, produce_marked, NULL,
		     (uint32_t)(uintptr_t)tree_dir_ctx(dir));
	return dir_publish(&b);
}

/* Folders without the file, sorting before the objects that have it,
 * as a member's other objects come before its TEX_ folders: more than
 * a few, so that a hint must look past them. */
#define OTHERS 20

static int populate_member(struct fs *fs, struct node *dir)
{
	uintptr_t m = (uintptr_t)tree_dir_ctx(dir);
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	for (unsigned i = 0; i < OTHERS; i++) {
		char name[16];
		snprintf(name, sizeof name, "a%02u", i);
		dir_add_dir(&b, name, 0, populate_empty, NULL);
	}
	for (uintptr_t o = 0; o < OBJECTS; o++) {
		char name[16];
		snprintf(name, sizeof name, "o%u", (unsigned)o);
		dir_add_dir(&b, name, 0, populate_object,
			    (void *)(m * OBJECTS + o));
	}
	return dir_publish(&b);
}

static int populate_archive(struct fs *fs, struct node *dir)
{
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	for (uintptr_t m = 0; m < MEMBERS; m++) {
		char name[16];
		snprintf(name, sizeof name, "m%u", (unsigned)m);
		dir_add_dir(&b, name, 0, populate_member, (void *)m);
	}
	return dir_publish(&b);
}

static int populate_root(struct fs *fs, struct node *dir)
{
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	dir_add_dir(&b, "arc", 0, populate_archive, NULL);
	struct node *made = dir_add_dir(&b, "made", 0, NULL, NULL);
	if (!made || fill_made(fs, made) < 0)
		return -ENOMEM;
	dir_add_dir(&b, "wide", 0, populate_wide, NULL);
	dir_add_dir(&b, "costly", 0, populate_group, costly);
	dir_add_dir(&b, "cheap", 0, populate_group, cheap);
	return dir_publish(&b);
}

static struct node *child(struct fs *fs, struct node *dir, const char *name)
{
	int err = 0;
	struct node *n = tree_child(fs, dir, name, &err);
	assert_non_null(n);
	return n;
}

/* Waits up to five seconds for the flag. */
static bool wait_flag(atomic_bool *flag)
{
	for (int t = 0; t < 5000 && !atomic_load(flag); t++)
		usleep(1000);
	return atomic_load(flag);
}

/* Waits up to five seconds for kid i to be populated. */
static bool wait_populated(struct kid *k)
{
	for (int t = 0; t < 5000 && !atomic_load(&k->populated); t++)
		usleep(1000);
	return atomic_load(&k->populated);
}

static void reset(struct kid *kids)
{
	for (int i = 0; i < KIDS; i++) {
		atomic_store(&kids[i].populated, false);
		atomic_store(&kids[i].by_worker, false);
	}
}

/* Each test's tree, fresh: the fixture cmocka runs around it. */
static struct fs *the_fs;

static int setup_fs(void **state)
{
	reset(costly);
	reset(cheap);
	the_fs = fs_new(1 << 20);
	if (!the_fs)
		return -1;
	fs_set_root(the_fs, node_new_dir(the_fs, "", 0, populate_root, NULL));
	if (!fs_root(the_fs) || tree_ready(the_fs, fs_root(the_fs)) < 0)
		return -1;
	*state = the_fs;
	return 0;
}

static int teardown_fs(void **state)
{
	fs_free(*state);
	return 0;
}

static void open_kid(struct fs *fs, struct node *group, int i)
{
	char name[16];
	snprintf(name, sizeof name, "k%02d", i);
	assert_int_equal(tree_dir_open(fs, child(fs, group, name)), 0);
}

/* Opens the group folder, then its kids a and b, as a listing would. */
static void open_two(struct fs *fs, const char *group, int a, int b)
{
	struct node *g = child(fs, fs_root(fs), group);
	assert_int_equal(tree_dir_open(fs, g), 0);
	open_kid(fs, g, a);
	open_kid(fs, g, b);
}

/* Kids lo to hi were populated, on a worker. */
static void assert_populated_ahead(struct kid *kids, int lo, int hi)
{
	for (int i = lo; i <= hi; i++) {
		assert_true(wait_populated(&kids[i]));
		assert_true(atomic_load(&kids[i].by_worker));
	}
}

/* After a while, none of kids lo to hi was populated. */
static void assert_left_alone(struct kid *kids, int lo, int hi)
{
	usleep(100000);
	for (int i = lo; i <= hi; i++)
		assert_false(atomic_load(&kids[i].populated));
}

static void forwards_populates_the_next_three(void **state)
{
	struct fs *fs = *state;
	open_two(fs, "costly", 2, 3);
	assert_populated_ahead(costly, 4, 6);
	assert_left_alone(costly, 7, KIDS - 1);
	assert_left_alone(costly, 0, 1);
}

static void backwards_populates_the_three_before(void **state)
{
	struct fs *fs = *state;
	open_two(fs, "costly", 10, 9);
	assert_populated_ahead(costly, 6, 8);
	assert_left_alone(costly, 0, 5);
	assert_left_alone(costly, 11, 11);
}

/* Opens costly/k00, then the folder up/name (a listing's step between),
 * then costly/k01. */
static void open_around(struct fs *fs, struct node *up, const char *name)
{
	struct node *g = child(fs, fs_root(fs), "costly");
	assert_int_equal(tree_dir_open(fs, g), 0);
	open_kid(fs, g, 0);
	assert_int_equal(tree_dir_open(fs, child(fs, up, name)), 0);
	open_kid(fs, g, 1);
}

/* find opens a member's own folders between two members: the listing
 * still goes forwards through the members. */
static void from_inside_an_earlier_sibling(void **state)
{
	struct fs *fs = *state;
	struct node *g = child(fs, fs_root(fs), "costly");
	assert_int_equal(tree_ready(fs, g), 0);
	open_around(fs, child(fs, g, "k00"), "sub");
	assert_populated_ahead(costly, 2, 4);
}

/* A folder opened elsewhere between two siblings says nothing of an
 * order. */
static void a_folder_elsewhere_breaks_the_order(void **state)
{
	struct fs *fs = *state;
	open_around(fs, fs_root(fs), "cheap");
	assert_left_alone(costly, 2, KIDS - 1);
}

static void cheap_folders_are_not_populated_ahead(void **state)
{
	struct fs *fs = *state;
	open_two(fs, "cheap", 0, 1);
	assert_left_alone(cheap, 2, KIDS - 1);
}

static void noreadahead_populates_nothing_ahead(void **state)
{
	struct fs *fs = *state;
	readahead_disable(fs_readahead(fs));
	open_two(fs, "costly", 0, 1);
	assert_left_alone(costly, 2, KIDS - 1);
}

/* The wide folder's kids, every one ready, as a listing finds them. */
static void wide_kids(struct fs *fs, struct node *w[WIDE])
{
	struct node *g = child(fs, fs_root(fs), "wide");
	assert_int_equal(tree_ready(fs, g), 0);
	for (int i = 0; i < WIDE; i++) {
		char name[16];
		snprintf(name, sizeof name, "w%03d", i);
		w[i] = child(fs, g, name);
		assert_int_equal(tree_ready(fs, w[i]), 0);
	}
}

/* Opens w[i] as a listing that found it listed ahead, and waits for the
 * workers to list w[until]. */
static void open_listed(struct fs *fs, struct node *w[WIDE], int i,
			int until)
{
	dir_set_listed_ahead(w[i]);
	assert_int_equal(tree_dir_open(fs, w[i]), 0);
	for (int t = 0; t < 5000 &&
	     !tree_listed_ahead(w[until]); t++)
		usleep(1000);
	usleep(100000);
}

/* Which of w[1..] are listed: those in [lo, hi] and [lo2, hi2], and the
 * ones opened (given in opened, -1 ended). */
static void assert_listed(struct node *w[WIDE], int lo, int hi, int lo2,
			  int hi2, const int *opened)
{
	for (int i = 1; i < WIDE; i++) {
		bool want = (i >= lo && i <= hi) || (i >= lo2 && i <= hi2);
		for (const int *o = opened; *o >= 0; o++)
			want = want || i == *o;
		if (tree_listed_ahead(w[i]) != want)
			fail_msg("w%03d: listed %d, want %d", i,
				 (int)tree_listed_ahead(w[i]),
				 (int)want);
	}
}

/* The farthest of the first reach: TREE_LIST_AHEAD folders on from w000,
 * READAHEAD_SLOTS of them. */
#define LAST TREE_LIST_AHEAD
#define FIRST (LAST - READAHEAD_SLOTS + 1)

/* A listing that goes on (w000 was listed ahead) has the workers list
 * the farthest folders within reach that are not listed yet, and leaves
 * the near ones to itself: w145 to w160, not w001 to w144. */
static void start_wide(struct fs *fs, struct node *w[WIDE])
{
	wide_kids(fs, w);
	open_listed(fs, w, 0, LAST);
	assert_listed(w, FIRST, LAST, 0, -1, (const int[]){ -1 });
}

static void listing_ahead_takes_the_farthest(void **state)
{
	struct node *w[WIDE];
	start_wide(*state, w);
}

/* Folder after folder, the reach moves on one folder (w161) and the
 * farthest not listed yet are taken again, now behind what the workers
 * listed (w130 to w144); a listing elsewhere (w005) reaches from there:
 * w162 to w165, and back past what is listed, w118 to w129. */
static void listing_ahead_moves_with_the_listing(void **state)
{
	struct fs *fs = *state;
	struct node *w[WIDE];
	start_wide(fs, w);
	open_listed(fs, w, 1, LAST + 1);
	assert_listed(w, FIRST - READAHEAD_SLOTS + 1, FIRST - 1, FIRST,
		      LAST + 1, (const int[]){ 1, -1 });
	open_listed(fs, w, 5, LAST + 5);
	assert_listed(w, FIRST - 2 * READAHEAD_SLOTS + 5, LAST + 5, 0, -1,
		      (const int[]){ 1, 5, -1 });
}

static nlink_t links_of(struct fs *fs, struct node *n)
{
	struct stat st;
	assert_int_equal(tree_stat(fs, n, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	return st.st_nlink;
}

/* A folder made on demand says 1 before and after it is made, so that
 * ls -l prints the same whether a worker listed it ahead or not; one
 * made with its parent counts its subfolders. */
static void link_counts_do_not_depend_on_population(void **state)
{
	struct fs *fs = *state;
	struct node *g = child(fs, fs_root(fs), "costly");
	assert_int_equal(tree_ready(fs, g), 0);
	struct node *k = child(fs, g, "k00");
	assert_int_equal(links_of(fs, k), 1);
	assert_int_equal(tree_ready(fs, k), 0);
	assert_int_equal(tree_subdir_count(k), 1);
	assert_int_equal(links_of(fs, k), 1);
	assert_int_equal(links_of(fs, g), 1);
	assert_int_equal(links_of(fs, child(fs, fs_root(fs), "made")), 4);
}

/* The listed archive (every folder ready, as after a find) and its file
 * mM/oO/f.png. */
static struct node *made_file(struct fs *fs, unsigned m, unsigned o)
{
	struct node *arc = child(fs, fs_root(fs), "arc");
	assert_int_equal(tree_ready(fs, arc), 0);
	for (unsigned i = 0; i < MEMBERS; i++) {
		char name[16];
		snprintf(name, sizeof name, "m%u", i);
		struct node *mem = child(fs, arc, name);
		assert_int_equal(tree_ready(fs, mem), 0);
		for (unsigned j = 0; j < OBJECTS; j++) {
			snprintf(name, sizeof name, "o%u", j);
			assert_int_equal(tree_ready(fs, child(fs, mem, name)), 0);
		}
	}
	char name[16];
	snprintf(name, sizeof name, "m%u", m);
	struct node *mem = child(fs, arc, name);
	snprintf(name, sizeof name, "o%u", o);
	return child(fs, child(fs, mem, name), "f.png");
}

/* A reader of one name in object after object, at the end of a member:
 * the next member's files are made ahead, and the first of the member
 * after it, so that its member is ready before the reader crosses;
 * nothing further. */
static void made_ahead_reaches_two_members_on(void **state)
{
	struct fs *fs = *state;
	for (int i = 0; i < MEMBERS * OBJECTS; i++)
		atomic_store(&made[i], false);
	struct node *a = made_file(fs, 0, 1), *b = made_file(fs, 0, 2);
	tree_made_opened(fs, a);
	tree_made_opened(fs, b);
	for (int i = 1 * OBJECTS; i <= 2 * OBJECTS; i++)
		assert_true(wait_flag(&made[i]));
	usleep(50000);
	assert_false(atomic_load(&made[2 * OBJECTS + 1]));
	assert_false(atomic_load(&made[3 * OBJECTS]));
	assert_false(atomic_load(&made[0]));
}

/* A value as large as the whole cache: filling it pushes out the rest. */
static int fill_whole_cache(void *ctx, uint8_t **data, size_t *len)
{
	(void)ctx;
	*len = 1 << 20;
	*data = calloc(1, *len);
	return *data ? 0 : -ENOMEM;
}

/* Whether the cache still holds any f.png past member 0 (a worker may
 * hold the last it made for a moment after marking it made). */
static bool later_files_held(struct fs *fs)
{
	for (unsigned m = 1; m < MEMBERS; m++)
		for (unsigned o = 0; o < OBJECTS; o++)
			if (cache_holds(fs_cache(fs),
					tree_made_key(made_file(fs, m, o))))
				return true;
	return false;
}

/* A second pass of the same reader, once the cache has let the files
 * go, has them made ahead again. */
static void made_ahead_again_once_let_go(void **state)
{
	struct fs *fs = *state;
	struct node *a = made_file(fs, 0, 1), *b = made_file(fs, 0, 2);
	uint64_t key = UINT64_MAX;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < MEMBERS * OBJECTS; i++)
			atomic_store(&made[i], false);
		tree_made_opened(fs, a);
		tree_made_opened(fs, b);
		for (int i = 1 * OBJECTS; i <= 2 * OBJECTS; i++)
			assert_true(wait_flag(&made[i]));
		for (int t = 0; t < 5000 && later_files_held(fs); t++) {
			struct cache_ref ref;
			assert_int_equal(cache_get(fs_cache(fs), key--,
						   fill_whole_cache, NULL,
						   &ref), 0);
			cache_put(fs_cache(fs), &ref);
			usleep(1000);
		}
		assert_false(later_files_held(fs));
	}
}

#define TREE_TEST(f) cmocka_unit_test_setup_teardown(f, setup_fs, teardown_fs)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TREE_TEST(forwards_populates_the_next_three),
		TREE_TEST(backwards_populates_the_three_before),
		TREE_TEST(from_inside_an_earlier_sibling),
		TREE_TEST(a_folder_elsewhere_breaks_the_order),
		TREE_TEST(cheap_folders_are_not_populated_ahead),
		TREE_TEST(noreadahead_populates_nothing_ahead),
		TREE_TEST(listing_ahead_takes_the_farthest),
		TREE_TEST(listing_ahead_moves_with_the_listing),
		TREE_TEST(link_counts_do_not_depend_on_population),
		TREE_TEST(made_ahead_reaches_two_members_on),
		TREE_TEST(made_ahead_again_once_let_go),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
