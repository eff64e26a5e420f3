/* SPDX-License-Identifier: MIT */
/* test_pack_edits.c - edits as files of the overlay folder: a member's
 * .ccs by the tree's path, a disc file, a scene that does not walk or is
 * too large refused, and files that are no edit named. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "ccsf_build.h"
#include "pack/edits.h"

static char dir[] = "/tmp/ccsfs-test-edits.XXXXXX";
static uint8_t scene[4096];     /* the scene written as the edits */
static size_t scene_len;

static void put(const char *rel, const void *p, size_t n)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(dir));
	struct build b;
	build_start(&b, "xasc00", 0x100);
	ccsw_setup(b.w);
	ccsw_frame(b.w, 1);
	ccsw_end(b.w);
	build_finish(&b);
	assert_true(b.len <= sizeof scene);
	memcpy(scene, b.data, b.len);
	scene_len = b.len;
	put("DATA/DATA.BIN/xasc00/xasc00.ccs", b.data, b.len);
	put("DATA/DATA.BIN/xold92/xold92.ccs", b.data, b.len / 2);
	put("DATA/DATA.BIN/xasc00/.xasc00.ccs.swp", "x", 1);
	put("DATA/DATA.BIN/xasc00/TEX_a/texture.png", "png", 3);
	put("SYSTEM.CNF", "BOOT2 = cdrom0:\\SLUS_202.67;1\n", 30);
	put("xbig00/xbig00.ccs", b.data, b.len);
	build_free(&b);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd);
}

static void a_member_by_its_tree_path(void **state)
{
	(void)state;
	struct pack_edits *e;
	struct reason why = { "" };
	assert_int_equal(pack_edits_open(dir, &e, &why), 0);
	uint8_t *data;
	size_t len;
	time_t mtime;
	assert_int_equal(pack_edits_member(e, "DATA/DATA.BIN", "xasc00", 1 << 20,
					   &data, &len, &mtime, &why), 0);
	assert_int_equal(len, scene_len);
	assert_memory_equal(data, scene, len);
	assert_true(mtime > 0);
	free(data);
	assert_int_equal(pack_edits_member(e, "DATA/DATA.BIN", "xasc01", 1 << 20,
					   &data, &len, &mtime, &why), -ENOENT);
	/* The archive as the source: members at the top. */
	assert_int_equal(pack_edits_member(e, "", "xbig00", 1 << 20, &data,
					   &len, &mtime, &why), 0);
	free(data);
	assert_true(pack_edits_has_below(e, "DATA/DATA.BIN"));
	assert_false(pack_edits_has_below(e, "STREAM/STR1.BIN"));
	assert_false(pack_edits_has_below(e, "DATA/DATA"));
	pack_edits_free(e);
}

static void refusals_say_why(void **state)
{
	(void)state;
	struct pack_edits *e;
	struct reason why = { "" };
	assert_int_equal(pack_edits_open(dir, &e, &why), 0);
	uint8_t *data;
	size_t len;
	time_t mtime;
	assert_int_equal(pack_edits_member(e, "DATA/DATA.BIN", "xold92", 1 << 20,
					   &data, &len, &mtime, &why), -EINVAL);
	assert_non_null(strstr(why.text, "xold92/xold92.ccs: does not walk"));
	assert_int_equal(pack_edits_member(e, "DATA/DATA.BIN", "xasc00", 10,
					   &data, &len, &mtime, &why), -EINVAL);
	assert_non_null(strstr(why.text, "more than the 10"));
	pack_edits_free(e);
}

static void disc_files_and_what_is_no_edit(void **state)
{
	(void)state;
	struct pack_edits *e;
	struct reason why = { "" };
	assert_int_equal(pack_edits_open(dir, &e, &why), 0);
	const char *host;
	uint64_t size;
	time_t mtime;
	assert_int_equal(pack_edits_file(e, "SYSTEM.CNF", &host, &size, &mtime), 0);
	assert_int_equal(size, 30);
	assert_non_null(strstr(host, "/SYSTEM.CNF"));
	assert_int_equal(pack_edits_file(e, "SLUS_202.67", &host, &size, &mtime),
			 -ENOENT);
	uint8_t *data;
	size_t len;
	assert_int_equal(pack_edits_member(e, "DATA/DATA.BIN", "xasc00", 1 << 20,
					   &data, &len, &mtime, &why), 0);
	free(data);
	/* Not asked for: the swap file, the texture, two members. */
	size_t i = 0;
	const char *u;
	char seen[512] = "";
	while ((u = pack_edits_unused(e, &i))) {
		strcat(seen, u);
		strcat(seen, "|");
	}
	assert_string_equal(seen, "DATA/DATA.BIN/xasc00/.xasc00.ccs.swp|"
			    "DATA/DATA.BIN/xasc00/TEX_a/texture.png|"
			    "DATA/DATA.BIN/xold92/xold92.ccs|xbig00/xbig00.ccs|");
	pack_edits_free(e);
}

static void a_missing_folder_is_an_error(void **state)
{
	(void)state;
	struct pack_edits *e;
	struct reason why = { "" };
	assert_int_equal(pack_edits_open("/nonexistent/ccsfs-edits", &e, &why),
			 -ENOENT);
	assert_non_null(strstr(why.text, "/nonexistent/ccsfs-edits"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_member_by_its_tree_path),
		cmocka_unit_test(refusals_say_why),
		cmocka_unit_test(disc_files_and_what_is_no_edit),
		cmocka_unit_test(a_missing_folder_is_an_error),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
