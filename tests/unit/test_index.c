/* SPDX-License-Identifier: MIT */
/* test_index.c - DATA.BIN's members from a table: listed from the records
 * alone, each checked at both ends of its member, gaps scanned, lost
 * records kept apart, and SYSTEM.CNF's BOOT2 line. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "archive/index.h"
#include "gzw.h"

#define N 4

static const char *const names[N] = { "xasc00.cmp", "pc000.cmp",
				      "npc000.cmp", "fld000.cmp" };

struct fixture {
	struct gzw *a;
	struct gzw_added at[N];
	size_t usize[N];
	struct blob b;
	struct fdtbl t;
};

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525 + 1013904223;
		p[i] = (uint8_t)(seed >> 24);
	}
}

/* Four members and a table with a record for each, in two categories
 * ("cmn" from 0, "pc" from the second member). */
static void make(struct fixture *f)
{
	memset(f, 0, sizeof *f);
	f->a = gzw_mem();
	struct gzw_opts o = { 6, 1000000000, GZW_GOOD };
	static uint8_t data[N][9000];
	for (int i = 0; i < N; i++) {
		f->usize[i] = 3000 + 2000 * (size_t)i;
		fill(data[i], f->usize[i], (uint32_t)i);
		assert_int_equal(gzw_add(f->a, names[i], data[i], f->usize[i],
					 &o, &f->at[i]), 0);
	}
	size_t n;
	const uint8_t *bytes = gzw_mem_data(f->a, &n);
	f->b = blob_from_bytes(bytes, n);
	f->t.entries = calloc(N, sizeof *f->t.entries);
	f->t.count = N;
	strcpy(f->t.category[0], "cmn");
	strcpy(f->t.category[1], "pc");
	const char *rec[N] = { "XASC00.CCS", "PC000.CCS", "NPC000.CCS",
			       "FLD000.CCS" };
	for (int i = 0; i < N; i++) {
		struct fdtbl_entry *e = &f->t.entries[i];
		strcpy(e->name, rec[i]);
		e->category = i ? 1 : 0;
		e->offset = f->at[i].offset;
		e->csize = (uint32_t)f->at[i].length;
		e->usize = (uint32_t)f->usize[i];
	}
}

static void unmake(struct fixture *f)
{
	fdtbl_free(&f->t);
	blob_close(&f->b);
	gzw_close(f->a);
}

static void build(struct fixture *f, struct archive_index *x, int want)
{
	struct reason why = { "" };
	assert_int_equal(archive_index_build(&f->b, &f->t, x, &why),
			 want);
}

static void good_table_is_the_scan(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	struct archive_index x;
	build(&f, &x, 0);
	struct archive_entry *scan;
	size_t n;
	assert_int_equal(archive_scan(&f.b, &scan, &n), 0);
	assert_int_equal(x.count, n);
	char st[INDEX_STATUS];
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(x.entries[i].offset, scan[i].offset);
		assert_int_equal(x.entries[i].extent, scan[i].extent);
		assert_string_equal(x.entries[i].header.name, scan[i].header.name);
		assert_int_equal(x.entries[i].record, (int32_t)i);
		archive_index_status(&f.t, &x.entries[i], st, sizeof st);
		assert_string_equal(st, "table ok");
	}
	assert_int_equal(x.nlost, 0);
	/* A window a member, not the archive. */
	assert_true(x.bytes_read < f.b.size);
	free(scan);
	archive_index_free(&x);
	unmake(&f);
}

static void disagreements_are_named(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	f.t.entries[1].usize += 1;
	f.t.entries[2].csize -= 3;
	strcpy(f.t.entries[3].name, "FLD001.CCS");
	struct archive_index x;
	build(&f, &x, 0);
	assert_int_equal(x.count, N);
	char st[INDEX_STATUS], want[INDEX_STATUS];
	archive_index_status(&f.t, &x.entries[1], st, sizeof st);
	snprintf(want, sizeof want, "usize %zu != %zu", f.usize[1] + 1,
		 f.usize[1]);
	assert_string_equal(st, want);
	archive_index_status(&f.t, &x.entries[2], st, sizeof st);
	assert_non_null(strstr(st, "csize"));
	archive_index_status(&f.t, &x.entries[3], st, sizeof st);
	assert_string_equal(st, "name fld001.cmp != fld000.cmp");
	/* Once inflated, a member that agreed stays agreed. */
	struct gzip_result g = { .compressed = f.at[0].length,
				 .isize = (uint32_t)f.usize[0] };
	assert_int_equal(archive_index_inflated(&f.t, &x.entries[0], &g, st,
						sizeof st), 0);
	g.compressed += 1;
	assert_int_equal(archive_index_inflated(&f.t, &x.entries[0], &g, st,
						sizeof st), 1);
	archive_index_free(&x);
	unmake(&f);
}

/* A record left out: its member is found by the gap scan.  Records past
 * the end, on another's offset or on no header are lost, not members. */
static void gaps_and_lost_records(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	f.t.entries[2].offset = f.t.entries[1].offset;          /* a repeat */
	struct fdtbl_entry extra[2] = { f.t.entries[0], f.t.entries[0] };
	extra[0].offset = f.b.size + 2048;                      /* past it */
	extra[1].offset = f.at[0].offset + 2048 * 100;          /* far off */
	f.t.entries = realloc(f.t.entries, (N + 2) * sizeof *f.t.entries);
	memcpy(f.t.entries + N, extra, sizeof extra);
	f.t.count = N + 2;
	struct archive_index x;
	build(&f, &x, 0);
	assert_int_equal(x.count, N);
	assert_int_equal(x.entries[2].record, -1);
	assert_int_equal(x.entries[2].table, INDEX_SCAN_ONLY);
	assert_string_equal(x.entries[2].header.name, "npc000.cmp");
	char st[INDEX_STATUS];
	archive_index_status(&f.t, &x.entries[2], st, sizeof st);
	assert_string_equal(st, "scan only");
	assert_true(x.nlost >= 2);
	archive_index_free(&x);
	unmake(&f);
}

/* The listing reads the first record's header and no member more, names
 * each member as its record does and leaves the checks undone; checking
 * each then gives what the build gives. */
static void listing_reads_no_member(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	strcpy(f.t.entries[3].name, "FLD001.CCS");
	f.t.entries[1].usize += 1;
	struct archive_index x, full;
	struct reason why = { "" };
	assert_int_equal(archive_index_list(&f.b, &f.t, &x, &why), 0);
	assert_int_equal(x.count, N);
	assert_true(x.bytes_read <= 10 + GZIP_NAME_MAX + 1);
	assert_string_equal(x.entries[3].header.name, "fld001.cmp");
	build(&f, &full, 0);
	struct index_window w = { .have = 0 };
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(x.entries[i].table, 0);
		assert_int_equal(x.entries[i].extent, full.entries[i].extent);
		archive_index_check(&f.b, &f.t, &x.entries[i], &w);
		assert_int_equal(x.entries[i].table, full.entries[i].table);
		assert_string_equal(x.entries[i].header.name,
				    full.entries[i].header.name);
	}
	assert_int_equal(x.entries[1].table, INDEX_USIZE);
	assert_int_equal(x.entries[3].table, INDEX_NAME);
	assert_string_equal(x.entries[3].header.name, "fld000.cmp");
	archive_index_free(&x);
	archive_index_free(&full);
	unmake(&f);
}

/* A record inside another member lists (the table alone cannot tell);
 * its check says it opens no gzip member. */
static void record_on_no_header(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	f.t.entries[2].offset += 2048;
	struct archive_index x;
	build(&f, &x, 0);
	size_t k = 0;
	while (k < x.count && x.entries[k].record != 2)
		k++;
	assert_true(k < x.count);
	assert_int_equal(x.entries[k].table, INDEX_NO_HEADER);
	char st[INDEX_STATUS], want[INDEX_STATUS];
	archive_index_status(&f.t, &x.entries[k], st, sizeof st);
	snprintf(want, sizeof want, "offset %llu opens no gzip member",
		 (unsigned long long)f.t.entries[2].offset);
	assert_string_equal(st, want);
	archive_index_free(&x);
	unmake(&f);
}

static void no_record_lands(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	for (int i = 0; i < N; i++)
		f.t.entries[i].offset += 2048 * 1000;
	struct archive_index x;
	build(&f, &x, -EINVAL);
	assert_null(x.entries);
	unmake(&f);
}

static void boot_path(void **state)
{
	(void)state;
	char p[64];
	const char a[] = "BOOT2 = cdrom0:\\SLUS_202.67;1\r\nVER = 1.00\r\n";
	assert_int_equal(fdtbl_boot_path(a, sizeof a - 1, p, sizeof p), 0);
	assert_string_equal(p, "SLUS_202.67");
	const char b[] = "VMODE = NTSC\n  boot2=cdrom0:\\BIN\\GAME.ELF;1";
	assert_int_equal(fdtbl_boot_path(b, sizeof b - 1, p, sizeof p), 0);
	assert_string_equal(p, "BIN\\GAME.ELF");
	const char c[] = "BOOT = cdrom0:\\X;1\n";
	assert_int_equal(fdtbl_boot_path(c, sizeof c - 1, p, sizeof p), -ENOENT);
	const char d[] = "BOOT2 = cdrom0:\\;1\n";
	assert_int_equal(fdtbl_boot_path(d, sizeof d - 1, p, sizeof p), -EINVAL);
	assert_int_equal(fdtbl_boot_path(a, sizeof a - 1, p, 5), -EINVAL);
	assert_int_equal(fdtbl_boot_path(a, 8, p, sizeof p), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_table_is_the_scan),
		cmocka_unit_test(disagreements_are_named),
		cmocka_unit_test(gaps_and_lost_records),
		cmocka_unit_test(listing_reads_no_member),
		cmocka_unit_test(record_on_no_header),
		cmocka_unit_test(no_record_lands),
		cmocka_unit_test(boot_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
