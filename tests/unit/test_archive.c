/* SPDX-License-Identifier: MIT */
/* test_archive.c - finding members on sector boundaries. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "archive/archive.h"
#include "gzw.h"

static void fill_noise(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525 + 1013904223;
		p[i] = (uint8_t)(seed >> 24);
	}
}

static void finds_members_and_extents(void **state)
{
	(void)state;
	struct gzw *a = gzw_mem();
	struct gzw_opts o = { 6, 1000000000, GZW_GOOD };
	static uint8_t data[3][20000];
	struct gzw_added added[3];
	const char *names[3] = { "xasc00.cmp", "str0001e.tmp", "z.cmp" };
	for (int i = 0; i < 3; i++) {
		fill_noise(data[i], sizeof data[i], (uint32_t)i);
		assert_int_equal(gzw_add(a, names[i], data[i], sizeof data[i],
					 &o, &added[i]), 0);
	}
	size_t n;
	const uint8_t *bytes = gzw_mem_data(a, &n);
	struct blob b = blob_from_bytes(bytes, n);
	struct archive_entry *e;
	size_t count;
	assert_int_equal(archive_scan(&b, &e, &count), 0);
	assert_int_equal(count, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(e[i].offset, added[i].offset);
		assert_int_equal(e[i].extent, added[i].padded);
		assert_string_equal(e[i].header.name, names[i]);
		assert_int_equal(e[i].header.mtime, 1000000000);
	}
	assert_true(archive_probe(bytes, 2048));
	free(e);
	blob_close(&b);
	gzw_close(a);
}

/* The bytes 1f 8b 08 inside deflate data are no member: not on a
 * boundary, or on one without the previous member's zero padding. */
static void ignores_lookalikes(void **state)
{
	(void)state;
	size_t n = 6 * ARCHIVE_SECTOR;
	uint8_t *buf = calloc(1, n);
	fill_noise(buf, 2 * ARCHIVE_SECTOR, 1);
	const uint8_t hdr[] = { 0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3, 'f', 0 };
	/* At a boundary, but after a non-zero byte. */
	buf[ARCHIVE_SECTOR - 1] = 0x77;
	memcpy(buf + ARCHIVE_SECTOR, hdr, sizeof hdr);
	/* Not at a boundary. */
	memcpy(buf + 2 * ARCHIVE_SECTOR + 100, hdr, sizeof hdr);
	/* A real one: on a boundary, after zeros. */
	memcpy(buf + 4 * ARCHIVE_SECTOR, hdr, sizeof hdr);
	struct blob b = blob_from_bytes(buf, n);
	struct archive_entry *e;
	size_t count;
	assert_int_equal(archive_scan(&b, &e, &count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(e[0].offset, 4 * ARCHIVE_SECTOR);
	assert_int_equal(e[0].extent, 2 * ARCHIVE_SECTOR);
	free(e);
	blob_close(&b);
	free(buf);
}

/* Members past the scan's read window, and a header that straddles it. */
static void finds_members_across_reads(void **state)
{
	(void)state;
	size_t n = (9u << 20) + 3 * ARCHIVE_SECTOR;
	uint8_t *buf = calloc(1, n);
	const uint8_t hdr[] = { 0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3, 'a', 'b', 0 };
	size_t at[] = { 0, 4u << 20, (8u << 20) + ARCHIVE_SECTOR };
	for (int i = 0; i < 3; i++)
		memcpy(buf + at[i], hdr, sizeof hdr);
	struct blob b = blob_from_bytes(buf, n);
	struct archive_entry *e;
	size_t count;
	assert_int_equal(archive_scan(&b, &e, &count), 0);
	assert_int_equal(count, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(e[i].offset, at[i]);
	assert_int_equal(e[2].extent, n - at[2]);
	free(e);
	blob_close(&b);
	free(buf);
}

/* Scanned in two halves, the archive gives the same members: one at the
 * last boundary before the middle, one at it, a lookalike after a
 * non-zero byte at the next boundary past it, and the last. */
static void halves_find_what_one_pass_finds(void **state)
{
	(void)state;
	size_t n = (1u << 20) + 5 * ARCHIVE_SECTOR;
	size_t mid = n / 2 / (128u << 10) * (128u << 10);
	uint8_t *buf = calloc(1, n);
	const uint8_t hdr[] = { 0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3, 'a', 'b', 0 };
	size_t at[] = { 0, mid - ARCHIVE_SECTOR, mid, mid + 2 * ARCHIVE_SECTOR,
			n - ARCHIVE_SECTOR };
	for (int i = 0; i < 5; i++)
		memcpy(buf + at[i], hdr, sizeof hdr);
	buf[at[3] - 1] = 0x77;          /* no padding before it: not one */
	struct blob b = blob_from_bytes(buf, n);
	struct archive_entry *one, *two;
	size_t n1, n2;
	assert_int_equal(archive_scan_parts(&b, 1, &one, &n1), 0);
	assert_int_equal(archive_scan_parts(&b, 2, &two, &n2), 0);
	assert_int_equal(n1, 4);
	assert_int_equal(n2, 4);
	size_t want[] = { at[0], at[1], at[2], at[4] };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(one[i].offset, want[i]);
		assert_int_equal(two[i].offset, want[i]);
		assert_int_equal(one[i].extent, two[i].extent);
	}
	assert_int_equal(two[2].extent, at[4] - at[2]);
	free(one);
	free(two);
	blob_close(&b);
	free(buf);
}

static void empty_and_foreign_files(void **state)
{
	(void)state;
	struct blob b = blob_from_bytes("", 0);
	struct archive_entry *e;
	size_t count;
	assert_int_equal(archive_scan(&b, &e, &count), 0);
	assert_int_equal(count, 0);
	free(e);
	blob_close(&b);
	const char text[] = "BOOT2 = cdrom0:\\SLUS_202.67;1\n";
	assert_false(archive_probe((const uint8_t *)text, sizeof text));
	const uint8_t gz_comment[] = { 0x1f, 0x8b, 8, 0x10, 0, 0, 0, 0, 0, 3 };
	assert_false(archive_probe(gz_comment, sizeof gz_comment));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_members_and_extents),
		cmocka_unit_test(ignores_lookalikes),
		cmocka_unit_test(finds_members_across_reads),
		cmocka_unit_test(halves_find_what_one_pass_finds),
		cmocka_unit_test(empty_and_foreign_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
