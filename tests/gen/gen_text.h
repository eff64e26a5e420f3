/* SPDX-License-Identifier: MIT */
/* gen_text.h - the game's text tables and stream tables for the
 * generated executable (doc/formats/text.md, doc/formats/archive.md), and
 * the messages they hold, which the tests compare the mounted
 * templates with. */
#ifndef CCSGEN_GEN_TEXT_H
#define CCSGEN_GEN_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "elfw.h"

/* One message as the executable holds it: text is the three lines with
 * their NULs (text_len bytes); name NULL for none. */
struct gen_msg {
	uint32_t number, index, mode;
	const char *name;
	const char *text;
	size_t text_len;
};

struct gen_msg_table {
	const char *symbol;     /* evMsgTbl, evMsgTblp, ... */
	const struct gen_msg *msg;
	size_t count;
};

#define GEN_TEXT_TABLES 4
extern const struct gen_msg_table gen_text_tables[GEN_TEXT_TABLES];

/* A stream list's files: a member of STR1.BIN where the archive has it. */
struct gen_stream_file {
	const char *stem;       /* str0001e */
	uint64_t offset;        /* in the archive */
	uint32_t csize, usize;
	int16_t type;           /* 0 setup, 1 followed, -1 last */
};

/* Streams the tables list: number, then its files. */
struct gen_stream {
	uint32_t number;
	const char *name;       /* the header record's */
	uint64_t header_ofs;    /* bytes into the archive */
	const struct gen_stream_file *files;
	size_t nfiles;
};

#define GEN_TEXT_SYMS 6         /* four message tables, streamTbl(E) */
#define GEN_STREAMS 134

/* The tables laid out for vaddr: strings, message arrays (each with
 * trailing zero records), event groups, the four tables, then the
 * stream lists and streamTbl, streamTblE (the same lists: the sample has
 * one voice archive).  syms gets GEN_TEXT_SYMS symbols.  Returns a
 * malloc'ed block of *len bytes, a multiple of 4.  short_lines: stream 2's
 * last subtitle line left out (its notes then open a line the table
 * lacks). */
uint8_t *gen_text_block(uint32_t vaddr, const struct gen_stream *streams,
			size_t nstreams, bool short_lines, size_t *len,
			struct elfw_symbol *syms);

/* The F_Note of a cutscene's frame (frame % 10 == 8): subtitle lines
 * opened (0x8001, param the line) and closed (0x8011), then BGM notes
 * (event 4): the event and param of frame's note. */
void gen_text_note(uint32_t frame, uint32_t *event, uint32_t *param);

/* The messages as JSON, for the tests in other languages: per table
 * symbol a list of {number, index, mode, name, text}, name and text the
 * bytes in hex (name null for none; text with its three NULs). */
void gen_text_json(FILE *f);

#endif
