/* SPDX-License-Identifier: MIT */
/* test_iso.c - listing genisoimage's images: names, sizes, bytes, times;
 * Joliet and Rock Ridge tolerated; foreign, cut and damaged images never
 * crash. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "testutil.h"
#include "io/iso.h"
#include "util/bytes.h"
#include "views/iso_claim.h"

/* 2001-06-15 12:34:56 UTC: a time inside the games' own years. */
#define FILE_TIME ((time_t)992608496)

struct fixture {
	char dir[64];           /* the temp dir: tree/, images */
	char plain[128];        /* ISO 9660 only */
	char joliet[128];       /* with -J -R */
	uint8_t data[70000];    /* DATA/DATA.BIN: spans the image's middle */
	uint8_t str1[5000];
};

static void write_file(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, n), (ssize_t)n);
	close(fd);
	struct timeval tv[2] = { { FILE_TIME, 0 }, { FILE_TIME, 0 } };
	assert_int_equal(utimes(path, tv), 0);
}

static void make_tree(struct fixture *f)
{
	char p[256];
	for (size_t i = 0; i < sizeof f->data; i++)
		f->data[i] = (uint8_t)(i * 7 + i / 256);
	for (size_t i = 0; i < sizeof f->str1; i++)
		f->str1[i] = (uint8_t)(255 - i % 251);
	snprintf(p, sizeof p, "%s/tree", f->dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/tree/DATA", f->dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/tree/STREAM", f->dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/tree/SYSTEM.CNF", f->dir);
	write_file(p, "BOOT2 = cdrom0:\\SLUS_202.67;1\n", 30);
	snprintf(p, sizeof p, "%s/tree/NOEXT", f->dir);
	write_file(p, "no extension", 12);
	snprintf(p, sizeof p, "%s/tree/EMPTY.DAT", f->dir);
	write_file(p, "", 0);
	snprintf(p, sizeof p, "%s/tree/DATA/DATA.BIN", f->dir);
	write_file(p, f->data, sizeof f->data);
	snprintf(p, sizeof p, "%s/tree/STREAM/STR1.BIN", f->dir);
	write_file(p, f->str1, sizeof f->str1);
	/* The directories too, now that nothing more goes in them. */
	struct timeval tv[2] = { { FILE_TIME, 0 }, { FILE_TIME, 0 } };
	snprintf(p, sizeof p, "%s/tree/DATA", f->dir);
	assert_int_equal(utimes(p, tv), 0);
	snprintf(p, sizeof p, "%s/tree/STREAM", f->dir);
	assert_int_equal(utimes(p, tv), 0);
}

/* Recorded in a zone 9 hours east of GMT, so the time only comes out
 * right when the record's GMT offset is honoured. */
static int run_genisoimage(const struct fixture *f, const char *image,
			   const char *options)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "TZ=JST-9 genisoimage -quiet %s -o '%s' "
		 "-V TEST '%s/tree'", options, image, f->dir);
	return system(cmd);
}

static int setup(void **state)
{
	if (system("command -v genisoimage >/dev/null 2>&1") != 0)
		return 0;       /* each test skips */
	struct fixture *f = calloc(1, sizeof *f);
	strcpy(f->dir, "/tmp/test_iso.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	make_tree(f);
	snprintf(f->plain, sizeof f->plain, "%s/plain.iso", f->dir);
	snprintf(f->joliet, sizeof f->joliet, "%s/joliet.iso", f->dir);
	assert_int_equal(run_genisoimage(f, f->plain, "-iso-level 2"), 0);
	assert_int_equal(run_genisoimage(f, f->joliet, "-J -R"), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	if (f) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
		assert_int_equal(system(cmd), 0);
		free(f);
	}
	return 0;
}

static struct fixture *need_images(void **state)
{
	if (!*state)
		skip();
	return *state;
}

static const struct iso_entry *find(const struct iso_listing *l,
				    const char *name)
{
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->entries[i].name, name) == 0)
			return &l->entries[i];
	return NULL;
}

static void assert_bytes(struct iso_image *img, const struct iso_entry *e,
			 const void *want, size_t n)
{
	assert_false(e->is_dir);
	assert_false(e->clipped);
	assert_int_equal(e->size, n);
	assert_int_equal(e->offset % ISO_SECTOR, 0);
	/* record_at leads to the record itself: its extent and size. */
	uint8_t rec[18];
	assert_int_equal(pread(iso_fd(img), rec, sizeof rec,
			       (off_t)e->record_at), (ssize_t)sizeof rec);
	assert_int_equal(rd_u32le(rec + 2), e->lsn);
	assert_int_equal(rd_u32le(rec + 10), e->recorded_size);
	struct blob b = iso_blob(img, e);
	uint8_t *got = malloc(n + 1);
	assert_int_equal(blob_read(&b, got, n + 1, 0), (ssize_t)n);
	assert_memory_equal(got, want, n);
	free(got);
}

/* Lists a subdirectory of the root by name. */
static void list_sub(struct iso_image *img, const struct iso_listing *root,
		     const char *name, struct iso_listing *out)
{
	const struct iso_entry *d = find(root, name);
	assert_non_null(d);
	assert_true(d->is_dir);
	assert_int_equal(iso_list(img, d, out), 0);
}

static void check_image(struct fixture *f, const char *path)
{
	char err[256] = "";
	struct iso_image *img = iso_open(path, err, sizeof err);
	assert_non_null(img);
	struct iso_listing root;
	assert_int_equal(iso_list(img, iso_root(img), &root), 0);
	assert_int_equal(root.count, 5);        /* no '.', no '..' */
	assert_int_equal(root.skipped, 0);
	assert_bytes(img, find(&root, "SYSTEM.CNF"),
		     "BOOT2 = cdrom0:\\SLUS_202.67;1\n", 30);
	assert_bytes(img, find(&root, "NOEXT"), "no extension", 12);
	assert_bytes(img, find(&root, "EMPTY.DAT"), "", 0);
	for (size_t i = 0; i < root.count; i++)
		assert_int_equal(root.entries[i].mtime, FILE_TIME);

	struct iso_listing data, stream;
	list_sub(img, &root, "DATA", &data);
	assert_int_equal(data.count, 1);
	assert_bytes(img, find(&data, "DATA.BIN"), f->data, sizeof f->data);
	list_sub(img, &root, "STREAM", &stream);
	assert_int_equal(stream.count, 1);
	assert_bytes(img, find(&stream, "STR1.BIN"), f->str1, sizeof f->str1);
	assert_int_equal(stream.entries[0].mtime, FILE_TIME);

	struct iso_listing none;
	assert_int_equal(iso_list(img, find(&root, "NOEXT"), &none), -ENOTDIR);
	iso_listing_free(&data);
	iso_listing_free(&stream);
	iso_listing_free(&root);
	iso_close(img);
}

static void lists_plain_iso9660(void **state)
{
	struct fixture *f = need_images(state);
	check_image(f, f->plain);
}

/* The primary tree reads the same with Joliet and Rock Ridge present. */
static void tolerates_joliet_and_rock_ridge(void **state)
{
	struct fixture *f = need_images(state);
	check_image(f, f->joliet);
}

static void probe_tells_images_by_content(void **state)
{
	struct fixture *f = need_images(state);
	uint8_t vd[ISO_PROBE_LEN];
	int fd = open(f->plain, O_RDONLY);
	assert_int_equal(pread(fd, vd, sizeof vd, ISO_PROBE_OFFSET),
			 (ssize_t)sizeof vd);
	close(fd);
	assert_true(iso_probe(vd, sizeof vd));
	assert_false(iso_probe(vd, 5));
	static const uint8_t gzip[ISO_PROBE_LEN] = { 0x1f, 0x8b, 0x08 };
	assert_false(iso_probe(gzip, sizeof gzip));
}

static void not_an_image_is_a_clear_error(void **state)
{
	struct fixture *f = need_images(state);
	char err[256] = "", path[128];
	snprintf(path, sizeof path, "%s/tree/DATA/DATA.BIN", f->dir);
	assert_null(iso_open(path, err, sizeof err));
	assert_non_null(strstr(err, "not an ISO 9660 image"));
	snprintf(path, sizeof path, "%s/tree/EMPTY.DAT", f->dir);
	assert_null(iso_open(path, err, sizeof err));
	assert_non_null(strstr(err, "not an ISO 9660 image"));
	snprintf(path, sizeof path, "%s/missing.iso", f->dir);
	assert_null(iso_open(path, err, sizeof err));
	assert_non_null(strstr(err, strerror(ENOENT)));
}

static void copy_cut(const char *from, const char *to, off_t keep)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, to);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(truncate(to, keep), 0);
}

/* Where DATA/DATA.BIN lies in the plain image. */
static uint64_t data_bin_offset(const struct fixture *f)
{
	char err[256];
	struct iso_image *img = iso_open(f->plain, err, sizeof err);
	assert_non_null(img);
	struct iso_listing root, data;
	assert_int_equal(iso_list(img, iso_root(img), &root), 0);
	list_sub(img, &root, "DATA", &data);
	uint64_t at = find(&data, "DATA.BIN")->offset;
	iso_listing_free(&data);
	iso_listing_free(&root);
	iso_close(img);
	return at;
}

/* An image cut in the middle of a file still lists; the file is clipped,
 * so its size says what reads give.  (genisoimage pads its images with
 * 150 sectors, so "half the image" would cut nothing but padding.) */
static void cut_image_clips_files(void **state)
{
	struct fixture *f = need_images(state);
	char cut[128], err[256] = "";
	snprintf(cut, sizeof cut, "%s/cut.iso", f->dir);
	uint64_t keep = data_bin_offset(f) + sizeof f->data / 2;
	copy_cut(f->plain, cut, (off_t)keep);
	struct iso_image *img = iso_open(cut, err, sizeof err);
	assert_non_null(img);
	assert_int_equal(iso_image_size(img), keep);
	struct iso_listing root, data;
	assert_int_equal(iso_list(img, iso_root(img), &root), 0);
	list_sub(img, &root, "DATA", &data);
	const struct iso_entry *e = find(&data, "DATA.BIN");
	assert_true(e->clipped);
	assert_int_equal(e->recorded_size, sizeof f->data);
	assert_int_equal(e->size, sizeof f->data / 2);
	struct blob b = iso_blob(img, e);
	uint8_t *buf = malloc(sizeof f->data);
	assert_int_equal(blob_read(&b, buf, sizeof f->data, 0),
			 (ssize_t)e->size);
	assert_memory_equal(buf, f->data, e->size);
	free(buf);
	iso_listing_free(&data);
	iso_listing_free(&root);
	iso_close(img);
}

/* Cut before the descriptors or before the root: refused, in words. */
static void cut_before_root_is_an_error(void **state)
{
	struct fixture *f = need_images(state);
	char cut[128], err[256];
	snprintf(cut, sizeof cut, "%s/short.iso", f->dir);
	static const off_t cuts[] = { 0, ISO_PROBE_OFFSET + 3,
				      17 * ISO_SECTOR, 18 * ISO_SECTOR };
	for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
		copy_cut(f->plain, cut, cuts[i]);
		err[0] = '\0';
		struct iso_image *img = iso_open(cut, err, sizeof err);
		if (img) {     /* then the root must at least fail cleanly */
			struct iso_listing l;
			int rc = iso_list(img, iso_root(img), &l);
			assert_true(rc == 0 || rc == -EIO);
			iso_listing_free(&l);
			iso_close(img);
		} else {
			assert_true(strlen(err) > 0);
		}
	}
}

/* Scribbling over the root directory's sector: whatever is listed lies
 * in the image and reads cleanly (ASan watches). */
static void damaged_directory_never_crashes(void **state)
{
	struct fixture *f = need_images(state);
	char bad[128], err[256];
	snprintf(bad, sizeof bad, "%s/bad.iso", f->dir);
	struct stat st;
	assert_int_equal(stat(f->plain, &st), 0);
	struct iso_image *good = iso_open(f->plain, err, sizeof err);
	assert_non_null(good);
	uint64_t root_at = iso_root(good)->offset;
	iso_close(good);
	srand(5);
	for (int round = 0; round < 200; round++) {
		copy_cut(f->plain, bad, st.st_size);
		int fd = open(bad, O_WRONLY);
		for (int k = 0; k < 1 + round % 8; k++) {
			uint8_t v = (uint8_t)rand();
			off_t at = (off_t)root_at + rand() % 256;
			assert_int_equal(pwrite(fd, &v, 1, at), 1);
		}
		close(fd);
		struct iso_image *img = iso_open(bad, err, sizeof err);
		assert_non_null(img);
		struct iso_listing l;
		if (iso_list(img, iso_root(img), &l) == 0) {
			uint8_t buf[4096];
			for (size_t i = 0; i < l.count; i++) {
				const struct iso_entry *e = &l.entries[i];
				assert_true(e->size <= iso_image_size(img));
				assert_true(e->size == 0 || e->offset + e->size
					    <= iso_image_size(img));
				assert_true(strlen(e->name) > 0);
				assert_null(strchr(e->name, '/'));
				struct blob b = iso_blob(img, e);
				assert_true(blob_read(&b, buf, sizeof buf, 0) >= 0);
				struct iso_listing sub;
				if (iso_list(img, e, &sub) == 0)
					iso_listing_free(&sub);
			}
			iso_listing_free(&l);
		}
		iso_close(img);
	}
}

struct lister {
	struct iso_image *img;
	const struct iso_entry *dir;
	int failures;
};

static void *list_many(void *arg)
{
	struct lister *x = arg;
	for (int i = 0; i < 200; i++) {
		struct iso_listing l;
		if (iso_list(x->img, x->dir, &l) != 0 || l.count != 1)
			x->failures++;
		iso_listing_free(&l);
	}
	return NULL;
}

static void concurrent_listings(void **state)
{
	struct fixture *f = need_images(state);
	char err[256];
	struct iso_image *img = iso_open(f->plain, err, sizeof err);
	assert_non_null(img);
	struct iso_listing root;
	assert_int_equal(iso_list(img, iso_root(img), &root), 0);
	struct lister x[4];
	pthread_t t[4];
	for (int i = 0; i < 4; i++) {
		x[i] = (struct lister){ img, find(&root, i % 2 ? "DATA" :
						  "STREAM"), 0 };
		pthread_create(&t[i], NULL, list_many, &x[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(x[i].failures, 0);
	}
	iso_listing_free(&root);
	iso_close(img);
}

/* A folder's extent is shown under the first record that names it; that
 * record may name it again (a folder listed a second time), no other
 * may, even in the same folder. */
static void folder_extent_is_claimed_once(void **state)
{
	(void)state;
	struct iso_claims *c = iso_claims_new();
	assert_non_null(c);
	uint32_t owner = 0;
	assert_int_equal(iso_claim(c, 20, UINT32_MAX, "", &owner), 1);
	for (uint32_t lsn = 40; lsn > 21; lsn -= 3)
		assert_int_equal(iso_claim(c, lsn, 20, "D", &owner), 1);
	assert_int_equal(iso_claim(c, 30, 20, "A", &owner), 1);
	assert_int_equal(iso_claim(c, 30, 20, "A", &owner), 1);
	assert_int_equal(iso_claim(c, 30, 20, "B", &owner), 0);
	assert_int_equal(owner, 20);
	assert_int_equal(iso_claim(c, 30, 31, "A", &owner), 0);
	/* The root's extent, named from below, points back up. */
	assert_int_equal(iso_claim(c, 20, 30, "UP", &owner), 0);
	assert_int_equal(owner, UINT32_MAX);
	assert_int_equal(iso_claim(c, 37, 20, "D", &owner), 1);
	assert_int_equal(iso_claim(c, 37, 20, "E", &owner), 0);
	iso_claims_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lists_plain_iso9660),
		cmocka_unit_test(tolerates_joliet_and_rock_ridge),
		cmocka_unit_test(probe_tells_images_by_content),
		cmocka_unit_test(not_an_image_is_a_clear_error),
		cmocka_unit_test(cut_image_clips_files),
		cmocka_unit_test(cut_before_root_is_an_error),
		cmocka_unit_test(damaged_directory_never_crashes),
		cmocka_unit_test(concurrent_listings),
		cmocka_unit_test(folder_extent_is_claimed_once),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
