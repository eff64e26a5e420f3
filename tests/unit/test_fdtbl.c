/* SPDX-License-Identifier: MIT */
/* test_fdtbl.c - the game's index read from a generated executable:
 * categories by symbol, offsets, names, and tables that lie. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "archive/fdtbl.h"
#include "elfw.h"
#include "util/bytes.h"

#define VADDR 0x00100000u
#define PTRS 0u
#define OFFS 80u
#define PC 240u
#define NPC (PC + 3 * FDTBL_RECORD)
#define EMPTY (NPC + 2 * FDTBL_RECORD)
#define SEG (EMPTY + FDTBL_RECORD)

static void record(uint8_t *r, const char *name, uint32_t off, uint32_t cs,
		   uint32_t us)
{
	memset(r, 0, FDTBL_RECORD);
	memcpy(r, name, strlen(name));
	wr_u32le(r + 32, off);
	wr_u32le(r + 36, cs);
	wr_u32le(r + 40, us);
}

/* pc: two records from 0x800, npc: one from 0x10000, the other 18
 * categories one empty table.  end_pc: whether pc's table has its
 * all-zero record. */
static uint8_t *build(bool stripped, bool end_pc, uint32_t pc_off2,
		      size_t *len)
{
	uint8_t seg[SEG];
	memset(seg, 0, sizeof seg);
	for (unsigned c = 0; c < FDTBL_CATEGORIES; c++)
		wr_u32le(seg + PTRS + 4 * c, VADDR + EMPTY);
	wr_u32le(seg + PTRS, VADDR + PC);
	wr_u32le(seg + PTRS + 4, VADDR + NPC);
	wr_u32le(seg + OFFS, 0x800);
	wr_u32le(seg + OFFS + 8, 0x10000);
	wr_u32le(seg + OFFS + 12, 1);           /* above 4 GiB: u64 */
	record(seg + PC, "XASC00.CCS", 0, 1000, 5000);
	record(seg + PC + FDTBL_RECORD, "XASC01.CCS", pc_off2, 2000, 9000);
	if (!end_pc)    /* records on sectors, up to the segment's end */
		for (size_t i = PC + 2 * FDTBL_RECORD; i < SEG; i += FDTBL_RECORD)
			record(seg + i, "JUNK.CCS", 0, 1, 1);
	record(seg + NPC, "NPC00.BIN", 0x1000, 3, 4);
	struct elfw_symbol syms[] = {
		{ "categoryFDTbl", VADDR + PTRS, 80, true },
		{ "cateCDOfsTbl", VADDR + OFFS, 160, true },
		{ "pcCCSTbl", VADDR + PC, 3 * FDTBL_RECORD, true },
		{ "npcCCSTbl", VADDR + NPC, 2 * FDTBL_RECORD, true },
		{ "directCCSTbl", VADDR + EMPTY, FDTBL_RECORD, true },
	};
	uint8_t *f = elfw_build(seg, sizeof seg, VADDR, syms, 5, stripped, len);
	assert_non_null(f);
	return f;
}

static void reads_every_category(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, true, 0x1800, &len);
	struct fdtbl t;
	struct reason why = { "" };
	assert_int_equal(fdtbl_read(f, len, &t, &why), 0);
	assert_int_equal(t.count, 3);
	assert_string_equal(t.category[0], "pc");
	assert_string_equal(t.category[1], "npc");
	assert_string_equal(t.category[19], "direct");
	assert_string_equal(t.entries[0].name, "XASC00.CCS");
	assert_int_equal(t.entries[0].offset, 0x800);
	assert_int_equal(t.entries[1].offset, 0x800 + 0x1800);
	assert_int_equal(t.entries[1].csize, 2000);
	assert_int_equal(t.entries[1].usize, 9000);
	assert_int_equal(t.entries[2].category, 1);
	assert_int_equal(t.entries[2].offset, 0x100010000ull + 0x1000);
	char name[64];
	fdtbl_gzip_name(&t.entries[0], name, sizeof name);
	assert_string_equal(name, "xasc00.cmp");
	fdtbl_gzip_name(&t.entries[2], name, sizeof name);
	assert_string_equal(name, "npc00.bin");
	fdtbl_free(&t);
	free(f);
}

static void stripped_has_no_table(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(true, true, 0x1800, &len);
	struct fdtbl t;
	struct reason why = { "" };
	assert_int_equal(fdtbl_read(f, len, &t, &why), -ENOENT);
	assert_int_equal(t.count, 0);
	assert_non_null(strstr(why.text, "stripped"));
	free(f);
}

static void table_without_end(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, false, 0x1800, &len);
	struct fdtbl t;
	struct reason why = { "" };
	assert_int_equal(fdtbl_read(f, len, &t, &why), -EINVAL);
	assert_non_null(strstr(why.text, "pc: its table has no end"));
	assert_null(t.entries);
	free(f);
}

static void record_off_its_sector(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, true, 0x1801, &len);
	struct fdtbl t;
	struct reason why = { "" };
	assert_int_equal(fdtbl_read(f, len, &t, &why), -EINVAL);
	assert_non_null(strstr(why.text, "not on a sector"));
	free(f);
}

/* Every cut of the executable is read or refused, never overread. */
static void every_cut(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, true, 0x1800, &len);
	for (size_t n = 0; n < len; n += 3) {
		uint8_t *cut = malloc(n ? n : 1);
		memcpy(cut, f, n);
		struct fdtbl t;
		struct reason why = { "" };
		if (fdtbl_read(cut, n, &t, &why) == 0)
			fdtbl_free(&t);
		free(cut);
	}
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_every_category),
		cmocka_unit_test(stripped_has_no_table),
		cmocka_unit_test(table_without_end),
		cmocka_unit_test(record_off_its_sector),
		cmocka_unit_test(every_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
