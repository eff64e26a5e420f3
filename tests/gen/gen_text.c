/* SPDX-License-Identifier: MIT */
/* gen_text.c - the game's message tables and stream tables, as the
 * generated executable carries them.
 *
 * The messages try what a reader of the game's text must get right:
 * speakers and none, every window mode, every escape, Shift-JIS kana and
 * kanji (two with 0x5c as the trail byte), bytes that are no Shift-JIS,
 * control bytes, quotes and backslashes, empty lines and an empty
 * message, an all-zero record between two messages, null groups and
 * events, and Japanese for the Parody Mode tables.  The arrays lie back
 * to back, each followed by one or two all-zero records, so a reader
 * must end each at the next array's start and drop the zero records. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_text.h"

#define M(n, i, mode, name, text) { n, i, mode, name, text, sizeof text }

/* Shift-JIS, each pair its own literal so no hex escape runs on. */
#define KITE "\x83\x4a" "\x83\x43" "\x83\x67"                   /* カイト */
#define SOFT "\x83\x5c" "\x83\x74" "\x83\x67" "\x95\x5c" "\x8e\xa6" /* ソフト表示 */
#define ROSE "\x83\x75" "\x83\x89" "\x83\x62" "\x83\x4e" "\x83\x8d" \
	     "\x81\x5b" "\x83\x59"                              /* ブラックローズ */
#define AIUEO "\x81\x75" "\x82\xa0" "\x82\xa2" "\x82\xa4" "\x82\xa6" \
	      "\x82\xa8" "\x81\x76"                             /* 「あいうえお」 */
#define KITEDAYO KITE "\x82\xbe" "\x82\xe6" "\x81\x49"          /* カイトだよ！ */
#define ORCA "\x83\x49" "\x83\x8b" "\x83\x4a"                   /* オルカ */
#define EPITAPH "\x89\xa9" "\x8d\xa8" "\x82\xcc" "\x94\xe8" "\x95\xb6" /* 黄昏の碑文 */
#define HEAR "\x82\xcb" "\x82\xa6" "\x81\x41" "\x95\xb7" "\x82\xb1" \
	     "\x82\xa6" "\x82\xe9" "\x81\x48"                   /* ねえ、聞こえる？ */
#define BAKA "\x82\xce" "\x82\xa9" "\x82\xe0" "\x81\x5b" "\x82\xf1" /* ばかもーん */
#define ABILITY "\x94\x5c" "\x97\xcd"                           /* 能力 */

static const struct gen_msg events[] = {
	M(1, 0, 0x0, "Orca", "Welcome to The World.\0"
	  "It's \"safe\" here, I promise.\0Follow me, #0!"),
	M(1, 1, 0x1, NULL, "#RRed#W, #GGreen#W, #BBlue#W, #YYellow#W.\0"
	  "Signs: %0%1%2%3%4 %5%6%7%8%9 and %9%A\0"
	  "100%% sure, %# and C:\\DATA\\ too"),
	M(1, 2, 0x2, "#0", "Tab\there, CR\rthere.\0\0"),
	M(1, 3, 0x3, "#1", "Will you come?\0Yes\0No"),
	M(1, 4, 0x101, KITE, SOFT "\0" ABILITY " " AIUEO "\0#0 " KITE),
	M(2, 0, 0x100, "Mistral", "First of two, a zero record between.\0\0"),
	/* 2, 1: an all-zero record, left out */
	M(2, 2, 0x0, NULL, "Second of two.\0\0"),
	M(3, 0, 0x2, "Bad\x80" "byte", "A byte \x80 alone, \xff and \xa0.\0"
	  "Half-width \xb1\xb2\xb3, a lead \x82 before a space.\0"
	  "Control \x01 and \x7f, lead at the end \x82"),
	M(3, 1, 0x0, NULL, "\0\0"),
	M(50, 0, 0x1, "Sanjuro", "Side event, group 1.\0\0"),
	M(50, 1, 0x2, "Sanjuro", "#0's line at the end.\0Second.\0Third."),
	M(401, 0, 0x0, "Black Rose", "Mail from " ROSE ".\0\0"),
};

static const struct gen_msg events_parody[] = {
	M(1, 0, 0x0, ORCA, KITEDAYO "\0" AIUEO "\0"),
	M(1, 1, 0x103, NULL, BAKA "\0#0" HEAR "\0%9%A"),
	M(50, 0, 0x1, ROSE, EPITAPH "\0\0"),
};

static const struct gen_msg subtitles[] = {
	M(2, 0, 0x0, "Orca", "The twilight falls on The World.\0"
	  "Do not be afraid.\0"),
	M(2, 1, 0x800, NULL, "#0, do you hear me?\0\0"),
	M(2, 2, 0x0, "Aura", "\"Help me,\" she said.\0\\ and / both\0End."),
	M(7, 0, 0x0, "Other", "Another stream's line for the same file.\0\0"),
};

static const struct gen_msg subtitles_parody[] = {
	M(2, 0, 0x0, ORCA, EPITAPH "\0" HEAR "\0"),
	M(2, 1, 0x800, NULL, BAKA "\0\0"),
};

#define N(a) (sizeof a / sizeof a[0])
const struct gen_msg_table gen_text_tables[GEN_TEXT_TABLES] = {
	{ "evMsgTbl", events, N(events) },
	{ "evMsgTblp", events_parody, N(events_parody) },
	{ "evStrMsgTbl", subtitles, N(subtitles) },
	{ "evStrMsgTblp", subtitles_parody, N(subtitles_parody) },
};

#define STR_TABLE 136           /* evStrMsgTbl's pointers, as the game's */
#define RECORD 12
#define STREAM_RECORD 20

struct block {
	uint8_t *p;
	size_t len, cap;
	uint32_t vaddr;
};

static uint32_t put(struct block *b, const void *bytes, size_t n)
{
	size_t need = (b->len + n + 3) & ~(size_t)3;
	if (need > b->cap) {
		b->cap = need * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	uint32_t at = b->vaddr + (uint32_t)b->len;
	memcpy(b->p + b->len, bytes, n);
	memset(b->p + b->len + n, 0, need - b->len - n);
	b->len = need;
	return at;
}

static void w32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t put_u32(struct block *b, uint32_t v)
{
	uint8_t q[4];
	w32(q, v);
	return put(b, q, 4);
}

/* Where each message's strings and each number's array lie. */
struct placed {
	uint32_t name[GEN_TEXT_TABLES][64], text[GEN_TEXT_TABLES][64];
	uint32_t array[GEN_TEXT_TABLES][512];   /* by number */
};

static void put_strings(struct block *b, struct placed *pl)
{
	for (int t = 0; t < GEN_TEXT_TABLES; t++) {
		const struct gen_msg_table *tb = &gen_text_tables[t];
		for (size_t i = 0; i < tb->count; i++) {
			const struct gen_msg *m = &tb->msg[i];
			pl->name[t][i] = m->name ? put(b, m->name,
						       strlen(m->name) + 1) : 0;
			pl->text[t][i] = put(b, m->text, m->text_len);
		}
	}
}

/* One table's arrays back to back: a number's records (a gap in the
 * indices an all-zero record), then one all-zero record, two after an
 * odd number. */
static void put_arrays(struct block *b, int t, struct placed *pl,
		       bool short_lines)
{
	const struct gen_msg_table *tb = &gen_text_tables[t];
	const uint8_t zero[RECORD] = { 0 };
	for (size_t i = 0; i < tb->count;) {
		uint32_t num = tb->msg[i].number, next = 0;
		pl->array[t][num] = b->vaddr + (uint32_t)b->len;
		for (; i < tb->count && tb->msg[i].number == num; i++) {
			const struct gen_msg *m = &tb->msg[i];
			if (short_lines && t == 2 && num == 2 && m->index == 2)
				continue;
			for (; next < m->index; next++)
				put(b, zero, RECORD);
			uint8_t r[RECORD];
			w32(r, m->mode);
			w32(r + 4, pl->name[t][i]);
			w32(r + 8, pl->text[t][i]);
			put(b, r, RECORD);
			next = m->index + 1;
		}
		put(b, zero, RECORD);
		if (num % 2)
			put(b, zero, RECORD);
	}
}

/* An event table: its groups (null where no event has messages), then
 * the ten pointers; returns the table's address. */
static uint32_t put_event_table(struct block *b, int t, const struct placed *pl)
{
	uint32_t group[10] = { 0 };
	for (uint32_t g = 0; g < 10; g++) {
		bool any = false;
		for (uint32_t e = 0; e < 50; e++)
			any |= pl->array[t][50 * g + e] != 0;
		if (!any)
			continue;
		group[g] = b->vaddr + (uint32_t)b->len;
		for (uint32_t e = 0; e < 50; e++)
			put_u32(b, pl->array[t][50 * g + e]);
	}
	uint32_t at = b->vaddr + (uint32_t)b->len;
	for (uint32_t g = 0; g < 10; g++)
		put_u32(b, group[g]);
	return at;
}

static uint32_t put_subtitle_table(struct block *b, int t,
				   const struct placed *pl)
{
	uint32_t at = b->vaddr + (uint32_t)b->len;
	for (uint32_t s = 0; s < STR_TABLE; s++)
		put_u32(b, pl->array[t][s]);
	return at;
}

static void stream_record(struct block *b, uint32_t name, int32_t ofs,
			  int32_t size, int16_t type, int16_t flag,
			  uint32_t gzip)
{
	uint8_t r[STREAM_RECORD];
	w32(r, name);
	w32(r + 4, (uint32_t)ofs);
	w32(r + 8, (uint32_t)size);
	r[12] = (uint8_t)type;
	r[13] = (uint8_t)((uint16_t)type >> 8);
	r[14] = (uint8_t)flag;
	r[15] = (uint8_t)((uint16_t)flag >> 8);
	w32(r + 16, gzip);
	put(b, r, STREAM_RECORD);
}

/* Each stream's list (a header, its files, a record with no name), then
 * streamTbl; streamTblE the same pointers (the English voices' archive
 * is not on the sample). */
static uint32_t put_stream_table(struct block *b,
				 const struct gen_stream *streams, size_t n)
{
	uint32_t list[GEN_STREAMS] = { 0 };
	for (size_t i = 0; i < n; i++) {
		const struct gen_stream *s = &streams[i];
		uint32_t names[16];
		uint32_t hname = put(b, s->name, strlen(s->name) + 1);
		for (size_t f = 0; f < s->nfiles && f < 16; f++)
			names[f] = put(b, s->files[f].stem,
				       strlen(s->files[f].stem) + 1);
		list[s->number] = b->vaddr + (uint32_t)b->len;
		stream_record(b, hname, (int32_t)s->header_ofs, 0, 1, 0, 0);
		for (size_t f = 0; f < s->nfiles && f < 16; f++) {
			const struct gen_stream_file *g = &s->files[f];
			stream_record(b, names[f],
				      (int32_t)(g->offset - s->header_ofs),
				      (int32_t)g->csize, g->type, 0, g->usize);
		}
		stream_record(b, 0, 0, 0, 0, 0, 0);
	}
	uint32_t at = b->vaddr + (uint32_t)b->len;
	for (uint32_t i = 0; i < GEN_STREAMS; i++)
		put_u32(b, list[i]);
	return at;
}

uint8_t *gen_text_block(uint32_t vaddr, const struct gen_stream *streams,
			size_t nstreams, bool short_lines, size_t *len,
			struct elfw_symbol *syms)
{
	struct block b = { NULL, 0, 0, vaddr };
	struct placed *pl = calloc(1, sizeof *pl);
	if (!pl)
		abort();
	put_strings(&b, pl);
	for (int t = 0; t < GEN_TEXT_TABLES; t++)
		put_arrays(&b, t, pl, short_lines);
	for (int t = 0; t < GEN_TEXT_TABLES; t++) {
		uint32_t at = t < 2 ? put_event_table(&b, t, pl)
				    : put_subtitle_table(&b, t, pl);
		syms[t] = (struct elfw_symbol){ gen_text_tables[t].symbol, at,
			t < 2 ? 40 : 4 * STR_TABLE, true };
	}
	uint32_t st = put_stream_table(&b, streams, nstreams);
	syms[4] = (struct elfw_symbol){ "streamTbl", st, 4 * GEN_STREAMS, true };
	uint32_t ste = b.vaddr + (uint32_t)b.len;
	uint8_t copy[4 * GEN_STREAMS];
	memcpy(copy, b.p + (st - vaddr), sizeof copy);
	put(&b, copy, sizeof copy);
	syms[5] = (struct elfw_symbol){ "streamTblE", ste, 4 * GEN_STREAMS,
					true };
	free(pl);
	*len = b.len;
	return b.p;
}

void gen_text_note(uint32_t frame, uint32_t *event, uint32_t *param)
{
	/* frames 8, 18, 28, ...: open 0, close, open 1, open 2 over it,
	 * close, open 0 again (shown to the section's end in a scene of 60
	 * frames), then BGM notes. */
	static const uint32_t ev[6] = { 0x8001, 0x8011, 0x8001, 0x8001,
					0x8011, 0x8001 };
	static const uint32_t pa[6] = { 0, 0, 1, 2, 0, 0 };
	uint32_t k = frame / 10;
	*event = k < 6 ? ev[k] : 4;
	*param = k < 6 ? pa[k] : frame;
}

static void json_hex(FILE *f, const char *key, const char *p, size_t n)
{
	fprintf(f, "\"%s\": ", key);
	if (!p) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", (unsigned char)p[i]);
	fputc('"', f);
}

void gen_text_json(FILE *f)
{
	fputs("{", f);
	for (int t = 0; t < GEN_TEXT_TABLES; t++) {
		const struct gen_msg_table *tb = &gen_text_tables[t];
		fprintf(f, "%s\n \"%s\": [", t ? "," : "", tb->symbol);
		for (size_t i = 0; i < tb->count; i++) {
			const struct gen_msg *m = &tb->msg[i];
			fprintf(f, "%s\n  {\"number\": %u, \"index\": %u, "
				"\"mode\": %u, ", i ? "," : "", m->number,
				m->index, m->mode);
			json_hex(f, "name", m->name,
				 m->name ? strlen(m->name) : 0);
			fputs(", ", f);
			json_hex(f, "text", m->text, m->text_len);
			fputs("}", f);
		}
		fputs("]", f);
	}
	fputs("\n}\n", f);
}
