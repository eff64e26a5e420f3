/* SPDX-License-Identifier: MIT */
/* test_msgtbl.c - the message and stream tables read from generated
 * executables: where each record lies, a stripped one read through a
 * symbol list, and tables that lie. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "archive/msgtbl.h"
#include "archive/strtbl.h"
#include "elfw.h"
#include "gen_text.h"
#include "io/elf.h"
#include "io/symfile.h"
#include "util/bytes.h"

#define VADDR 0x00200000u
#define SEG_AT 0x100            /* elfw: the segment's file offset */

static const struct gen_stream_file files[2] = {
	{ "str0001e", 0x800, 1000, 5000, 0 },
	{ "str0001", 0x1000, 3000, 9000, -1 },
};
static const struct gen_stream streams[2] = {
	{ 2, "str0001", 0x800, files, 2 },
	{ 7, "str0001", 0, files, 2 },
};

static uint8_t *build(bool stripped, size_t *len, struct elfw_symbol *syms,
		      uint8_t **seg, size_t *seg_len)
{
	*seg = gen_text_block(VADDR, streams, 2, false, seg_len, syms);
	uint8_t *f = elfw_build(*seg, *seg_len, VADDR, syms, GEN_TEXT_SYMS,
				stripped, len);
	assert_non_null(f);
	return f;
}

static void test_stream_tables(void **state)
{
	(void)state;
	struct elfw_symbol syms[GEN_TEXT_SYMS];
	uint8_t *seg;
	size_t len, seg_len;
	uint8_t *f = build(false, &len, syms, &seg, &seg_len);
	struct elf_image e;
	struct reason why = { "" };
	assert_int_equal(elf_open(&e, f, len, &why), 0);
	struct strtbl t;
	assert_int_equal(strtbl_read(&e, &t, &why), 0);
	for (int v = 0; v < STRTBL_VOICES; v++) {
		const struct strtbl_voice_table *vt = &t.voice[v];
		assert_true(vt->present);
		assert_int_equal(vt->bad, 0);
		assert_int_equal(vt->nstreams, 2);
		assert_int_equal(vt->nfiles, 4);
		assert_int_equal(vt->streams[0].number, 2);
		assert_string_equal(vt->streams[0].header.name, "str0001");
		assert_int_equal(vt->streams[0].header.ofs, 0x800);
		assert_int_equal(vt->streams[0].header.type, 1);
		for (size_t i = 0; i < 4; i++) {
			const struct strtbl_file *sf = &vt->files[i];
			const struct gen_stream_file *g = &files[i % 2];
			assert_int_equal(sf->stream, i < 2 ? 2 : 7);
			assert_int_equal(sf->index, i % 2 + 1);
			assert_string_equal(sf->r.name, g->stem);
			assert_int_equal(sf->offset, g->offset);
			assert_int_equal(sf->archive, 1);
			assert_int_equal(sf->r.type, g->type);
			assert_int_equal(sf->r.size, (int32_t)g->csize);
			assert_int_equal(sf->r.gzip, g->usize);
			/* The fields lie where file_offset says. */
			const uint8_t *r = f + sf->r.file_offset;
			assert_int_equal(rd_u32le(r + STRTBL_OFS_AT),
					 (uint32_t)sf->r.ofs);
			assert_int_equal(rd_u32le(r + STRTBL_SIZE_AT), g->csize);
			assert_int_equal(rd_u32le(r + STRTBL_GZIP_AT), g->usize);
		}
	}
	enum strtbl_voice v;
	int16_t type;
	assert_int_equal(strtbl_archive("str1e.bin", &v, &type), 0);
	assert_int_equal(v, STRTBL_ENGLISH);
	assert_int_equal(type, 1);
	assert_int_equal(strtbl_archive("STR2.BIN", &v, &type), -ENOENT);
	strtbl_free(&t);
	free(f);
	free(seg);
}

/* Stripped, the tables are found only through a list. */
static void test_stripped_with_symbols(void **state)
{
	(void)state;
	struct elfw_symbol syms[GEN_TEXT_SYMS];
	uint8_t *seg;
	size_t len, seg_len;
	uint8_t *f = build(true, &len, syms, &seg, &seg_len);
	struct elf_image e;
	struct reason why = { "" };
	assert_int_equal(elf_open(&e, f, len, &why), -ENOENT);
	struct msgtbl t;
	assert_int_equal(msgtbl_read(&e, &t, &why), -ENOENT);
	char list[2048] = "# nm -S and plain nm lines, and noise\n\n";
	for (int i = 0; i < GEN_TEXT_SYMS; i++) {
		size_t n = strlen(list);
		if (i % 2)
			snprintf(list + n, sizeof list - n, "%08x D %s\n",
				 syms[i].value, syms[i].name);
		else
			snprintf(list + n, sizeof list - n, "%08x %08x d %s\n",
				 syms[i].value, syms[i].size, syms[i].name);
	}
	strcat(list, "not a symbol line at all\nzz T bad\n");
	struct symfile *sf;
	assert_int_equal(symfile_parse(list, strlen(list), &sf, &why), 0);
	assert_int_equal(symfile_count(sf), GEN_TEXT_SYMS);
	assert_int_equal(symfile_skipped(sf), 2);
	elf_use_symbols(&e, sf);
	assert_int_equal(msgtbl_read(&e, &t, &why), 0);
	for (int k = 0; k < MSGTBL_KINDS; k++)
		assert_int_equal(t.list[k].count, gen_text_tables[k].count);
	msgtbl_free(&t);
	struct strtbl st;
	assert_int_equal(strtbl_read(&e, &st, &why), 0);
	assert_int_equal(st.voice[0].nfiles, 4);
	strtbl_free(&st);
	symfile_free(sf);
	assert_int_equal(symfile_parse("junk\n", 5, &sf, &why), -EINVAL);
	free(f);
	free(seg);
}

/* Patches the u32 at virtual address addr of the segment. */
static void poke(uint8_t *f, uint32_t addr, uint32_t v)
{
	wr_u32le(f + SEG_AT + (addr - VADDR), v);
}

static uint32_t peek(const uint8_t *f, uint32_t addr)
{
	return rd_u32le(f + SEG_AT + (addr - VADDR));
}

/* A text pointer past the file, a name with no end, a group outside
 * it: each one message or group left out with a reason, the rest read,
 * each array to the next start that is left. */
static void test_lies(void **state)
{
	(void)state;
	struct elfw_symbol syms[GEN_TEXT_SYMS];
	uint8_t *seg;
	size_t len, seg_len;
	uint8_t *f = build(false, &len, syms, &seg, &seg_len);
	uint32_t events = syms[0].value;
	uint32_t group0 = peek(f, events);
	uint32_t event1 = peek(f, group0 + 4);
	/* Message 0's text far away; message 1's name at the segment's
	 * last byte, which is no NUL. */
	poke(f, event1 + 8, 0x7fff0000u);
	f[SEG_AT + seg_len - 1] = 'x';
	poke(f, event1 + 12 + 4, VADDR + (uint32_t)seg_len - 1);
	/* Group 8 outside the file. */
	poke(f, events + 4 * 8, 0x7ff00000u);
	struct elf_image e;
	struct reason why = { "" };
	assert_int_equal(elf_open(&e, f, len, &why), 0);
	struct msgtbl t;
	assert_int_equal(msgtbl_read(&e, &t, &why), 0);
	const struct msgtbl_list *l = &t.list[MSGTBL_EVENTS];
	assert_int_equal(l->bad, 3);
	assert_non_null(strstr(l->why.text, "event 1 message 0"));
	/* Event 401's array is no start now: event 50's runs on into it,
	 * past its zero record, as the game's would. */
	assert_int_equal(l->count, gen_text_tables[0].count - 2);
	assert_int_equal(l->msg[l->count - 1].number, 50);
	assert_int_equal(l->msg[l->count - 1].index, 3);
	msgtbl_free(&t);
	free(f);
	free(seg);
}

/* Every array start moved past the segment: arrays run to its end and
 * no further; a table symbol past the file is no table. */
static void test_runs_off(void **state)
{
	(void)state;
	struct elfw_symbol syms[GEN_TEXT_SYMS];
	uint8_t *seg;
	size_t len, seg_len;
	uint8_t *f = build(false, &len, syms, &seg, &seg_len);
	uint32_t sub = syms[2].value;
	/* Stream 5's lines start 8 bytes before the segment's end. */
	poke(f, sub + 4 * 5, VADDR + (uint32_t)seg_len - 8);
	struct elf_image e;
	struct reason why = { "" };
	assert_int_equal(elf_open(&e, f, len, &why), 0);
	struct msgtbl t;
	assert_int_equal(msgtbl_read(&e, &t, &why), 0);
	size_t first, n;
	msgtbl_stream(&t.list[MSGTBL_SUBTITLES], 5, &first, &n);
	assert_int_equal(n, 0);
	msgtbl_stream(&t.list[MSGTBL_SUBTITLES], 2, &first, &n);
	assert_int_equal(n, 3);
	msgtbl_free(&t);
	free(f);
	free(seg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_tables),
		cmocka_unit_test(test_stripped_with_symbols),
		cmocka_unit_test(test_lies),
		cmocka_unit_test(test_runs_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
