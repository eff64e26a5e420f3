/* SPDX-License-Identifier: MIT */
/* test_overlay.c - an overlay's edits as a program without FUSE sees them
 * (ccsfs-pack): the sample disc opened as the tree, a folder of edits
 * opened beside it and loaded; overlay_edits lists each with its state,
 * archive and member, and the member's .ccs read through the tree is its
 * edited bytes.  Also the folder's lock and its atomic replace.  The
 * sample disc is tests/gen/ccsgen's (CCSGEN), run from the build tree. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "edit/overlay.h"
#include "edit/store.h"
#include "testutil.h"
#include "tree/tree.h"
#include "views/source.h"

static char top[64];

/* The whole file at path in the tree, malloc'ed. */
static uint8_t *tree_file(struct fs *fs, const char *path, size_t *len)
{
	tree_enter(fs);
	struct node *n = fs_root(fs);
	char buf[512];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *save, *p = strtok_r(buf, "/", &save); n && p;
	     p = strtok_r(NULL, "/", &save)) {
		int err;
		n = tree_child(fs, n, p, &err);
	}
	assert_non_null(n);
	int host_fd;
	assert_int_equal(tree_open(fs, n, &host_fd), 0);
	struct cache_ref ref;
	const uint8_t *p;
	size_t got;
	assert_int_equal(tree_bytes(fs, n, 0, SIZE_MAX, &ref, &p, &got), 0);
	uint8_t *copy = malloc(got ? got : 1);
	assert_non_null(copy);
	memcpy(copy, p, got);
	cache_put(fs_cache(fs), &ref);
	tree_leave(fs);
	*len = got;
	return copy;
}

static void put_file(const char *path, const void *p, size_t n)
{
	char dir[512];
	snprintf(dir, sizeof dir, "%s", path);
	for (char *s = strchr(dir + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(dir, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

struct seen {
	int count;
	struct overlay_edit e[4];
	char path[4][256];
};

static int collect(void *ctx, const struct overlay_edit *e)
{
	struct seen *s = ctx;
	assert_true(s->count < 4);
	s->e[s->count] = *e;
	snprintf(s->path[s->count], sizeof s->path[0], "%s", e->path);
	s->count++;
	return 0;
}

#define MAT "DATA/DATA.BIN/chr000/MAT_chr000/material.bin"
#define CCS "DATA/DATA.BIN/chr000/chr000.ccs"

static void test_edits_without_fuse(void **state)
{
	(void)state;
	char disc[128], dir[128], path[512], err[512];
	snprintf(disc, sizeof disc, "%s/disc", top);
	snprintf(dir, sizeof dir, "%s/mod", top);
	/* The generator's sample disc, as a folder. */
	const char *gen = getenv("CCSGEN") ? getenv("CCSGEN") : "tests/gen/ccsgen";
	char cmd[512];
	snprintf(cmd, sizeof cmd, "'%s' sample '%s' >/dev/null", gen, disc);
	if (system(cmd) != 0)
		skip();
	struct fs *fs = fs_new(64 << 20);
	assert_non_null(fs);
	fs_set_max_member(fs, 1u << 30);
	assert_int_equal(source_open(fs, disc, err, sizeof err), 0);
	size_t ccs_len, mat_len;
	uint8_t *ccs = tree_file(fs, CCS, &ccs_len);
	uint8_t *mat = tree_file(fs, MAT, &mat_len);
	/* The edits a mount would have left: a chunk, a refused PNG, a
	 * disc file, an editor's backup. */
	mat[16] ^= 0x40;
	snprintf(path, sizeof path, "%s/" MAT, dir);
	put_file(path, mat, mat_len);
	snprintf(path, sizeof path,
		 "%s/DATA/DATA.BIN/chr000/TEX_chr000/texture.png", dir);
	put_file(path, "not a PNG", 9);
	snprintf(path, sizeof path, "%s/SYSTEM.CNF", dir);
	put_file(path, "BOOT2 = x\n", 10);
	snprintf(path, sizeof path, "%s/SYSTEM.CNF~", dir);
	put_file(path, "old\n", 4);

	struct overlay *ov;
	assert_int_equal(overlay_open(fs, dir, 0, &ov, err, sizeof err), 0);
	/* The lock: a second opener is refused, saying why; one without
	 * the lock goes in beside it. */
	struct overlay *second;
	assert_int_equal(overlay_open(fs, dir, 0, &second, err, sizeof err),
			 -EBUSY);
	assert_non_null(strstr(err, "is the overlay of another mount"));
	assert_int_equal(overlay_load(ov), 0);

	struct seen s = { 0 };
	assert_int_equal(overlay_edits(ov, collect, &s), 0);
	assert_int_equal(s.count, 3);
	/* By path: the chunk, the texture, the disc file. */
	assert_string_equal(s.path[0], MAT);
	assert_true(s.e[0].applied);
	assert_string_equal(s.e[0].archive, "DATA/DATA.BIN");
	assert_string_equal(s.e[0].member, "chr000");
	assert_false(s.e[0].disc_file);
	assert_int_equal(s.e[0].size, ccs_len);
	assert_false(s.e[1].applied);
	assert_non_null(strstr(s.e[1].why, "PNG"));
	assert_string_equal(s.e[1].member, "chr000");
	assert_string_equal(s.path[2], "SYSTEM.CNF");
	assert_true(s.e[2].applied);
	assert_true(s.e[2].disc_file);
	assert_null(s.e[2].member);
	assert_int_equal(s.e[2].size, 10);
	uint64_t size;
	assert_true(overlay_disc_file(ov, "SYSTEM.CNF", &size));

	/* The member's .ccs through the tree: its edited bytes. */
	size_t edited_len;
	uint8_t *edited = tree_file(fs, CCS, &edited_len);
	assert_int_equal(edited_len, ccs_len);
	assert_memory_not_equal(edited, ccs, ccs_len);
	assert_non_null(memmem(edited, edited_len, mat, mat_len));

	/* The listing's text. */
	uint8_t *text;
	size_t text_len;
	assert_int_equal(overlay_edits_text(ov, &text, &text_len), 0);
	const char *line1 = MAT "\tapplied\tDATA/DATA.BIN/chr000\t";
	const char *line3 = "SYSTEM.CNF\tapplied\tdisc file\t10\n";
	assert_non_null(memmem(text, text_len, line1, strlen(line1)));
	assert_non_null(memmem(text, text_len, line3, strlen(line3)));
	free(text);

	/* Dropped: the member is the disc's again. */
	snprintf(path, sizeof path, "%s/" MAT, dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(overlay_drop(ov, MAT), 0);
	free(edited);
	edited = tree_file(fs, CCS, &edited_len);
	assert_memory_equal(edited, ccs, ccs_len);

	overlay_close(ov);
	/* Unlocked at close. */
	assert_int_equal(overlay_open(fs, dir, 0, &second, err, sizeof err), 0);
	overlay_close(second);
	free(edited);
	free(ccs);
	free(mat);
	fs_free(fs);
}

/* A staged file becomes its path whole, the folders above it made; a
 * staged file never committed is cleared by the next locked opener. */
static void test_store_atomic(void **state)
{
	(void)state;
	char dir[128], err[256], tmp[STORE_TMP_NAME];
	snprintf(dir, sizeof dir, "%s/store", top);
	struct store *st;
	assert_int_equal(store_open(dir, true, &st, err, sizeof err), 0);
	int fd = store_stage(st, tmp);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "whole", 5), 5);
	assert_int_equal(store_commit(st, fd, tmp, "a/b/c.bin"), 0);
	close(fd);
	uint8_t *data;
	size_t len;
	assert_int_equal(store_read(st, "a/b/c.bin", &data, &len), 0);
	assert_int_equal(len, 5);
	assert_memory_equal(data, "whole", 5);
	free(data);
	fd = store_stage(st, tmp);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "part", 4), 4);
	close(fd);
	store_close(st);
	assert_int_equal(store_open(dir, true, &st, err, sizeof err), 0);
	char staged[256];
	snprintf(staged, sizeof staged, "%s/.ccsfs/tmp/%s", dir, tmp);
	assert_int_equal(access(staged, F_OK), -1);
	assert_int_equal(store_read(st, "a/b/c.bin", &data, &len), 0);
	assert_memory_equal(data, "whole", 5);
	free(data);
	store_close(st);
}

int main(void)
{
	snprintf(top, sizeof top, "/tmp/ccsfs-overlay-XXXXXX");
	if (!mkdtemp(top))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edits_without_fuse),
		cmocka_unit_test(test_store_atomic),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	return rc;
}
