/* SPDX-License-Identifier: MIT */
/* test_pack_table.c - DATA.BIN's index in a generated executable made to
 * follow a relayout: category offsets, record offsets, an edited
 * member's sizes; records that cannot follow; tables left alone.  And
 * an edited member compressed again: its header, and its bytes back. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "archive/fdtbl.h"
#include "archive/gzip.h"
#include "archive/strtbl.h"
#include "io/elf.h"
#include "elfw.h"
#include "pack/deflate.h"
#include "pack/table.h"
#include "util/bytes.h"

#define VADDR 0x00100000u
#define PTRS 0u
#define OFFS 80u
#define PC 240u
#define NPC (PC + 3 * FDTBL_RECORD)
#define EMPTY (NPC + 2 * FDTBL_RECORD)
#define SEG (EMPTY + FDTBL_RECORD)
#define S 2048u

static void record(uint8_t *r, const char *name, uint32_t off, uint32_t cs,
		   uint32_t us)
{
	memset(r, 0, FDTBL_RECORD);
	memcpy(r, name, strlen(name));
	wr_u32le(r + 32, off);
	wr_u32le(r + 36, cs);
	wr_u32le(r + 40, us);
}

/* pc at 0: XASC00 at 0, XASC01 at one sector; npc at two sectors:
 * NPC00 at 0.  The other categories' tables are empty, their offset 0. */
static uint8_t *build(bool stripped, uint32_t xasc01, size_t *len)
{
	uint8_t seg[SEG];
	memset(seg, 0, sizeof seg);
	for (unsigned c = 0; c < FDTBL_CATEGORIES; c++)
		wr_u32le(seg + PTRS + 4 * c, VADDR + EMPTY);
	wr_u32le(seg + PTRS, VADDR + PC);
	wr_u32le(seg + PTRS + 4, VADDR + NPC);
	wr_u32le(seg + OFFS + 8, 2 * S);
	record(seg + PC, "XASC00.CCS", 0, 1000, 5000);
	record(seg + PC + FDTBL_RECORD, "XASC01.CCS", xasc01, 2000, 9000);
	record(seg + NPC, "NPC00.CCS", 0, 300, 400);
	struct elfw_symbol syms[] = {
		{ "categoryFDTbl", VADDR + PTRS, 80, true },
		{ "cateCDOfsTbl", VADDR + OFFS, 160, true },
		{ "pcCCSTbl", VADDR + PC, 3 * FDTBL_RECORD, true },
		{ "npcCCSTbl", VADDR + NPC, 2 * FDTBL_RECORD, true },
	};
	uint8_t *f = elfw_build(seg, sizeof seg, VADDR, syms, 4, stripped, len);
	assert_non_null(f);
	return f;
}

/* The archive: three members of one sector each. */
static struct pack_member members[3];
static struct pack_plan plan;

static void lay_out(uint64_t csize0)
{
	memset(members, 0, sizeof members);
	for (int i = 0; i < 3; i++)
		members[i] = (struct pack_member){ .offset = i * S, .extent = S };
	members[0].edited = csize0 > 0;
	members[0].csize = csize0;
	members[0].usize = 7777;
	plan = (struct pack_plan){ members, 3, 3 * S, 0, 0, 0 };
	struct reason why = { "" };
	assert_int_equal(pack_plan_lay_out(&plan, &why), 0);
}

static void the_index_follows_a_grown_member(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, S, &len);
	lay_out(S + 1);         /* XASC00 takes two sectors */
	struct pack_layout l = { "data/data.bin", &plan };
	size_t records[PACK_TABLE_KINDS];
	struct reason why = { "" };
	assert_int_equal(pack_table_patch(f, len, &l, 1, records, &why), 0);
	assert_int_equal(records[0], 3);
	struct fdtbl t;
	assert_int_equal(fdtbl_read(f, len, &t, &why), 0);
	assert_int_equal(t.count, 3);
	assert_int_equal(t.base[0], 0);
	assert_int_equal(t.base[1], 3 * S);     /* npc moved on a sector */
	assert_int_equal(t.base[5], 0);
	assert_int_equal(t.entries[0].offset, 0);
	assert_int_equal(t.entries[0].csize, S + 1);
	assert_int_equal(t.entries[0].usize, 7777);
	assert_int_equal(t.entries[1].offset, 2 * S);
	assert_int_equal(t.entries[1].csize, 2000);     /* not edited */
	assert_int_equal(t.entries[1].usize, 9000);
	assert_int_equal(t.entries[2].offset, 3 * S);
	assert_int_equal(rd_u32le(f + t.entries[2].at + 32), 0); /* relative */
	fdtbl_free(&t);
	free(f);
}

static void a_member_that_fits_changes_only_its_sizes(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, S, &len);
	uint8_t *before = malloc(len);
	memcpy(before, f, len);
	lay_out(100);
	struct pack_layout l = { "DATA/DATA.BIN", &plan };
	size_t records[PACK_TABLE_KINDS];
	struct reason why = { "" };
	assert_int_equal(pack_table_patch(f, len, &l, 1, records, &why), 0);
	struct fdtbl t;
	assert_int_equal(fdtbl_read(f, len, &t, &why), 0);
	size_t differ = 0;
	for (size_t i = 0; i < len; i++)
		differ += f[i] != before[i];
	/* csize 1000 -> 100 and usize 5000 -> 7777: four bytes at most. */
	assert_in_range(differ, 1, 4);
	assert_int_equal(t.entries[0].csize, 100);
	assert_int_equal(t.entries[1].offset, S);
	fdtbl_free(&t);
	free(before);
	free(f);
}

static void a_record_with_no_member_is_refused(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, 5 * S, &len);  /* past the archive */
	lay_out(S + 1);
	struct pack_layout l = { "DATA/DATA.BIN", &plan };
	size_t records[PACK_TABLE_KINDS];
	struct reason why = { "" };
	assert_int_equal(pack_table_patch(f, len, &l, 1, records, &why),
			 -EINVAL);
	assert_non_null(strstr(why.text, "XASC01.CCS"));
	assert_non_null(strstr(why.text, "names no member"));
	free(f);
}

static void other_archives_and_stripped_files_are_left_alone(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, S, &len);
	uint8_t *before = malloc(len);
	memcpy(before, f, len);
	lay_out(S + 1);
	struct pack_layout l = { "STREAM/STR1.BIN", &plan };
	size_t records[PACK_TABLE_KINDS];
	struct reason why = { "" };
	assert_int_equal(pack_table_patch(f, len, &l, 1, records, &why), 0);
	assert_int_equal(records[0], 0);
	assert_memory_equal(f, before, len);
	free(f);
	free(before);
	f = build(true, S, &len);
	before = malloc(len);
	memcpy(before, f, len);
	l.path = "DATA/DATA.BIN";
	assert_int_equal(pack_table_patch(f, len, &l, 1, records, &why), 0);
	assert_int_equal(records[0], 0);
	assert_memory_equal(f, before, len);
	free(f);
	free(before);
}

/* A stream table the reader cannot read whole cannot follow: refused. */
static void a_broken_stream_table_is_refused(void **state)
{
	(void)state;
	uint8_t seg[64] = { 0 };
	struct elfw_symbol with[] = { { "streamTbl", VADDR, 16, true } };
	struct elfw_symbol without[] = { { "other", VADDR, 16, true } };
	size_t len;
	lay_out(S + 1);
	struct pack_layout l = { "STREAM/STR1.BIN", &plan };
	size_t records[PACK_TABLE_KINDS];
	struct reason why = { "" };
	uint8_t *f = elfw_build(seg, sizeof seg, VADDR, with, 1, false, &len);
	assert_int_equal(pack_table_patch(f, len, &l, 1, records, &why),
			 -EINVAL);
	assert_non_null(strstr(why.text, "streamTbl"));
	assert_non_null(strstr(why.text, "STREAM/STR1.BIN"));
	free(f);
	f = elfw_build(seg, sizeof seg, VADDR, without, 1, false, &len);
	assert_int_equal(pack_table_patch(f, len, &l, 1, records, &why), 0);
	free(f);
}

/* streamTbl: stream 2 reads STR1.BIN from its second sector, its
 * setup file there, its scene file a sector on. */
#define STBL 0u
#define SLIST (4 * STRTBL_STREAMS)
#define SNAMES (SLIST + 4 * STRTBL_RECORD)
#define SSEG (SNAMES + 48)

static void srecord(uint8_t *seg, unsigned i, uint32_t name, int32_t ofs,
		    int32_t size, int16_t type, uint32_t gzip)
{
	uint8_t *r = seg + SLIST + i * STRTBL_RECORD;
	wr_u32le(r + STRTBL_NAME_AT, name ? VADDR + SNAMES + name : 0);
	wr_u32le(r + STRTBL_OFS_AT, (uint32_t)ofs);
	wr_u32le(r + STRTBL_SIZE_AT, (uint32_t)size);
	wr_u16le(r + STRTBL_TYPE_AT, (uint16_t)type);
	wr_u32le(r + STRTBL_GZIP_AT, gzip);
}

static void the_stream_tables_follow_a_grown_member(void **state)
{
	(void)state;
	uint8_t seg[SSEG];
	memset(seg, 0, sizeof seg);
	wr_u32le(seg + STBL + 4 * 2, VADDR + SLIST);
	memcpy(seg + SNAMES + 1, "str0002\0str0002e.tmp\0str0002.tmp", 33);
	srecord(seg, 0, 1, S, 0, 1, 0);                 /* the header */
	srecord(seg, 1, 9, 0, 1000, 0, 5000);
	srecord(seg, 2, 22, S, 300, 0, 900);
	struct elfw_symbol syms[] = { { "streamTbl", VADDR + STBL,
					4 * STRTBL_STREAMS, true } };
	size_t len;
	uint8_t *f = elfw_build(seg, sizeof seg, VADDR, syms, 1, false, &len);
	assert_non_null(f);
	lay_out(0);
	members[1] = (struct pack_member){ .offset = S, .extent = S,
					   .edited = true, .csize = S + 1,
					   .usize = 4242 };
	struct reason why = { "" };
	assert_int_equal(pack_plan_lay_out(&plan, &why), 0);
	struct pack_layout l = { "STREAM/STR1.BIN", &plan };
	size_t records[PACK_TABLE_KINDS];
	assert_int_equal(pack_table_patch(f, len, &l, 1, records, &why), 0);
	assert_int_equal(records[1], 3);
	struct elf_image e;
	struct strtbl t;
	assert_int_equal(elf_open(&e, f, len, &why), 0);
	assert_int_equal(strtbl_read(&e, &t, &why), 0);
	const struct strtbl_voice_table *v = &t.voice[STRTBL_JAPANESE];
	assert_int_equal(v->nfiles, 2);
	assert_int_equal(v->files[0].offset, S);        /* in place */
	assert_int_equal(v->files[0].r.size, S + 1);
	assert_int_equal(v->files[0].r.gzip, 4242);
	assert_int_equal(v->files[1].offset, 3 * S);    /* moved on */
	assert_int_equal(v->files[1].r.size, 300);
	assert_int_equal(v->files[1].r.gzip, 900);
	uint64_t second = v->files[1].r.file_offset;
	strtbl_free(&t);
	/* A record that names no member: refused, naming it. */
	wr_u32le(f + second + STRTBL_OFS_AT, 5 * S);
	assert_int_equal(pack_table_patch(f, len, &l, 1, records, &why),
			 -EINVAL);
	assert_non_null(strstr(why.text, "str0002.tmp"));
	free(f);
}

static void a_member_compressed_again_inflates_back(void **state)
{
	(void)state;
	uint8_t data[20000];
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 7 / 300);
	uint8_t *gz;
	size_t gz_len;
	assert_int_equal(pack_deflate_member(data, sizeof data, "xasc00.cmp",
					     1000000000u, &gz, &gz_len), 0);
	struct gzip_header h;
	assert_int_equal(gzip_parse_header(gz, gz_len, &h), 0);
	assert_int_equal(h.flags, 0x08);
	assert_string_equal(h.name, "xasc00.cmp");
	assert_int_equal(h.mtime, 1000000000u);
	struct blob b = blob_from_bytes(gz, gz_len);
	uint8_t *out;
	size_t out_len;
	struct gzip_result r;
	assert_int_equal(gzip_inflate_member(&b, 0, gz_len, 1 << 20, &out,
					     &out_len, &r), 0);
	assert_int_equal(out_len, sizeof data);
	assert_memory_equal(out, data, sizeof data);
	assert_int_equal(r.compressed, gz_len);
	assert_int_equal(r.isize, sizeof data);
	free(out);
	blob_close(&b);
	free(gz);
	assert_int_equal(pack_deflate_member(data, 10, "bad\nname", 0, &gz,
					     &gz_len), -EINVAL);
	assert_int_equal(pack_deflate_member(data, 10, "", 0, &gz, &gz_len),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_index_follows_a_grown_member),
		cmocka_unit_test(a_member_that_fits_changes_only_its_sizes),
		cmocka_unit_test(a_record_with_no_member_is_refused),
		cmocka_unit_test(other_archives_and_stripped_files_are_left_alone),
		cmocka_unit_test(a_broken_stream_table_is_refused),
		cmocka_unit_test(the_stream_tables_follow_a_grown_member),
		cmocka_unit_test(a_member_compressed_again_inflates_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
