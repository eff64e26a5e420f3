/* SPDX-License-Identifier: MIT */
/* msgtbl.h - the game's text as its executable carries it: the event
 * dialogue (evMsgTbl, Parody Mode's evMsgTblp) and the cutscene
 * subtitles (evStrMsgTbl, evStrMsgTblp).  doc/formats/text.md.
 *
 * Every table is found by symbol, every pointer mapped through the
 * loaded segments and checked: a pointer that leads outside the file, a
 * line with no NUL before the segment ends, an array that would not end
 * are each one message left out with a reason (msgtbl.bad), never a
 * read outside the executable.  The messages point into the
 * executable's bytes, which must outlive the table.
 */
#ifndef CCSFS_MSGTBL_H
#define CCSFS_MSGTBL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/elf.h"
#include "util/reason.h"

#define MSGTBL_GROUPS 10        /* evMsgTbl: a pointer per 50 events */
#define MSGTBL_GROUP_EVENTS 50
#define MSGTBL_RECORD 12        /* s32 mode, char *name, char *text */
#define MSGTBL_LINES 3          /* a text is three NUL-ended lines */
/* Streams in evStrMsgTbl when its symbol gives no size (streamTbl's). */
#define MSGTBL_STREAMS 134
/* Bounds on what a table may claim: past them it is not the game's. */
#define MSGTBL_MAX_STREAMS 1024
#define MSGTBL_MAX_RECORDS 4096 /* one array */
#define MSGTBL_MAX_LINE 4096    /* one line, its NUL included */

enum msgtbl_kind {
	MSGTBL_EVENTS,          /* evMsgTbl */
	MSGTBL_EVENTS_PARODY,   /* evMsgTblp */
	MSGTBL_SUBTITLES,       /* evStrMsgTbl */
	MSGTBL_SUBTITLES_PARODY,        /* evStrMsgTblp */
	MSGTBL_KINDS
};

struct msgtbl_msg {
	uint32_t number;        /* the event N or stream S */
	uint32_t index;         /* the message M of it */
	uint32_t mode;          /* an event's emode, a subtitle's flag */
	const uint8_t *name;    /* the speaker, NUL-ended; NULL for none */
	const uint8_t *text;    /* the three lines with their NULs */
	size_t text_len;        /* the NULs included */
	uint32_t record_addr;   /* where the record lies (virtual) */
};

struct msgtbl_list {
	bool present;           /* its symbol was found */
	struct msgtbl_msg *msg; /* by number, then index */
	size_t count;
	size_t bad;             /* messages left out */
	struct reason why;      /* the first of them */
};

struct msgtbl {
	struct msgtbl_list list[MSGTBL_KINDS];
};

/* The table symbols' names, by kind. */
const char *msgtbl_symbol(enum msgtbl_kind k);

/* Reads the four tables.  0 when at least one is found (a missing one
 * is not present); -ENOENT when none is (why says so); -ENOMEM. */
int msgtbl_read(const struct elf_image *e, struct msgtbl *t,
		struct reason *why);
void msgtbl_free(struct msgtbl *t);

/* A subtitle table's messages of stream s, [*first, *first + *n) of the
 * list, from a binary search. */
void msgtbl_stream(const struct msgtbl_list *l, uint32_t s, size_t *first,
		   size_t *n);

#endif
