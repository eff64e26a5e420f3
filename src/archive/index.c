/* SPDX-License-Identifier: MIT */
/* index.c - DATA.BIN's members from the game's index, each record
 * checked at its member's two ends. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/index.h"
#include "util/bytes.h"
#include "util/vec.h"

#define SECTOR ARCHIVE_SECTOR
/* A window: a member's last sector, the next one's first, and the rest
 * of its header. */
#define WINDOW (2 * SECTOR + 512)
#define HEADER (10 + GZIP_NAME_MAX + 1)

struct walk {
	const struct blob *b;
	const struct fdtbl *t;
	struct archive_index *x;
	size_t cap, lost_cap;
	uint8_t buf[WINDOW];
	uint64_t from;                  /* what buf holds */
	size_t have;
};

/* The bytes at off, up to n of them (fewer at the archive's end): from
 * the window when it holds them, else a new window from off that runs
 * on to upto (the next member's header) when that is near. */
static int span(struct walk *w, uint64_t off, size_t n, uint64_t upto,
		const uint8_t **p, size_t *got)
{
	if (!(off >= w->from && off + n <= w->from + w->have)) {
		size_t len = upto > off && upto - off < WINDOW
			     ? (size_t)(upto - off) : WINDOW;
		w->from = off;
		ssize_t r = blob_read(w->b, w->buf, len > n ? len : n, off);
		if (r < 0)
			return (int)r;
		w->have = (size_t)r;
		w->x->bytes_read += (uint64_t)r;
	}
	if (off >= w->from + w->have) {
		*got = 0;
	} else {
		*got = (size_t)(w->from + w->have - off);
		if (*got > n)
			*got = n;
	}
	*p = w->buf + (off - w->from);
	return 0;
}

static int push(struct walk *w, const struct archive_entry *e)
{
	if (vec_reserve(w->x->entries, &w->cap, w->x->count + 1, 256) < 0)
		return -ENOMEM;
	w->x->entries[w->x->count++] = *e;
	return 0;
}

static int lose(struct walk *w, size_t record, const char *why)
{
	struct archive_index *x = w->x;
	if (vec_reserve(x->lost, &w->lost_cap, x->nlost + 1, 16) < 0)
		return -ENOMEM;
	x->lost[x->nlost].record = record;
	x->lost[x->nlost++].why = why;
	return 0;
}

/* Where the record says its member ends: the trailer's ISIZE there, and
 * nothing but zeros up to the next sector or the next record. */
static int check_end(struct walk *w, struct archive_entry *e,
		     const struct fdtbl_entry *r, uint64_t next)
{
	uint64_t end = e->offset + r->csize;
	if (r->csize < e->header.length + 8 || end > next) {
		e->table |= INDEX_CSIZE;
		return 0;
	}
	uint64_t pad_end = (end / SECTOR + 1) * SECTOR;
	if (pad_end > next)
		pad_end = next;
	size_t n = (size_t)(pad_end - end) + 8, got;
	const uint8_t *p;
	int rc = span(w, end - 8, n, next + HEADER, &p, &got);
	if (rc == -EIO) {
		e->table |= INDEX_UNREAD;
		return 0;
	}
	if (rc < 0)
		return rc;
	if (got < 8) {
		e->table |= INDEX_CSIZE;
		return 0;
	}
	for (size_t i = 8; i < got; i++)
		if (p[i]) {
			e->table |= INDEX_CSIZE;
			return 0;
		}
	e->tail_isize = rd_u32le(p + 4);
	if (e->tail_isize != r->usize)
		e->table |= INDEX_USIZE;
	return 0;
}

/* One record: a member when its offset opens a header. */
static int land(struct walk *w, size_t ri, uint64_t next)
{
	const struct fdtbl_entry *r = &w->t->entries[ri];
	const uint8_t *p;
	size_t got;
	int rc = span(w, r->offset, HEADER, r->offset + HEADER, &p, &got);
	struct archive_entry e = { .offset = r->offset, .record = (int32_t)ri };
	if (rc == -EIO)
		return lose(w, ri, "cannot be read");
	if (rc < 0)
		return rc;
	if (gzip_parse_header(p, got, &e.header) < 0)
		return lose(w, ri, "opens no gzip member");
	char want[FDTBL_NAME + 8];
	fdtbl_gzip_name(r, want, sizeof want);
	if (strcmp(want, e.header.name) != 0)
		e.table |= INDEX_NAME;
	rc = check_end(w, &e, r, next);
	return rc < 0 ? rc : push(w, &e);
}

struct ord {
	uint64_t offset;
	size_t record;
};

static int by_offset(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->record < y->record ? -1 : x->record > y->record;
}

/* The records in archive order. */
static struct ord *sorted(const struct fdtbl *t)
{
	struct ord *ord = malloc((t->count ? t->count : 1) * sizeof *ord);
	if (!ord)
		return NULL;
	for (size_t i = 0; i < t->count; i++)
		ord[i] = (struct ord){ t->entries[i].offset, i };
	qsort(ord, t->count, sizeof *ord, by_offset);
	return ord;
}

/* Every span land_all will read, asked for at once: a thousand reads
 * one after another wait for the disk a thousand times (63 ms against
 * 10 ms for the full-size DATA.BIN, cold, when a read went past what
 * had been asked for).  A header the span before it reaches is not
 * asked for again. */
static void prefetch(const struct walk *w, const struct ord *ord)
{
	const struct fdtbl *t = w->t;
	uint64_t asked = 0;     /* the end of the span asked for last */
	for (size_t k = 0; k < t->count; k++) {
		const struct fdtbl_entry *r = &t->entries[ord[k].record];
		if (!k || r->offset + HEADER > asked)
			blob_will_need(w->b, r->offset, HEADER);
		uint64_t next = k + 1 < t->count ? ord[k + 1].offset : w->b->size;
		uint64_t end = r->offset + r->csize;
		if (r->csize < 8 || next + HEADER <= end - 8)
			continue;
		uint64_t n = next + HEADER - (end - 8);
		blob_will_need(w->b, end - 8, n < WINDOW ? n : WINDOW);
		asked = end - 8 + (n < WINDOW ? n : WINDOW);
	}
}

static int land_all(struct walk *w, const struct ord *ord)
{
	size_t count = w->t->count;
	size_t j = 0;           /* the first record past this one's offset */
	for (size_t k = 0; k < count; k++) {
		uint64_t off = ord[k].offset;
		while (j < count && ord[j].offset <= off)
			j++;
		uint64_t next = j < count ? ord[j].offset : w->b->size;
		int rc;
		if (off >= w->b->size)
			rc = lose(w, ord[k].record, "lies past the archive's end");
		else if (k && ord[k - 1].offset == off)
			rc = lose(w, ord[k].record, "has another record's offset");
		else
			rc = land(w, ord[k].record, next);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Where the bytes a landed member accounts for end: its padding's end
 * when its csize held, else its first sector (the rest is scanned). */
static uint64_t covered_end(const struct fdtbl *t, const struct archive_entry *e)
{
	if (e->table & (INDEX_CSIZE | INDEX_UNREAD))
		return e->offset + SECTOR;
	uint64_t end = e->offset + t->entries[e->record].csize;
	return (end / SECTOR + 1) * SECTOR;
}

/* The members a scan finds in [from, to), which no record accounts for. */
static int scan_gap(struct walk *w, uint64_t from, uint64_t to)
{
	if (to <= from)
		return 0;
	struct blob sub = { w->b->fd, w->b->base + from, to - from };
	struct archive_entry *found;
	size_t n;
	int rc = archive_scan(&sub, &found, &n);
	if (rc < 0)
		return rc;
	w->x->bytes_read += to - from;
	for (size_t i = 0; i < n && rc == 0; i++) {
		found[i].offset += from;
		found[i].table = INDEX_SCAN_ONLY;
		rc = push(w, &found[i]);
	}
	free(found);
	return rc;
}

static int by_entry(const void *a, const void *b)
{
	uint64_t x = ((const struct archive_entry *)a)->offset;
	uint64_t y = ((const struct archive_entry *)b)->offset;
	return x < y ? -1 : x > y;
}

/* Scans every gap between the landed members, then puts all in archive
 * order and gives each its extent. */
static int fill_gaps(struct walk *w)
{
	struct archive_index *x = w->x;
	size_t landed = x->count;
	uint64_t from = 0;
	int rc = 0;
	for (size_t i = 0; i < landed && rc == 0; i++) {
		uint64_t start = x->entries[i].offset;
		rc = scan_gap(w, from, start);
		uint64_t end = covered_end(w->t, &x->entries[i]);
		if (end > from)
			from = end;
	}
	if (rc == 0)
		rc = scan_gap(w, from, w->b->size);
	if (rc < 0)
		return rc;
	qsort(x->entries, x->count, sizeof *x->entries, by_entry);
	for (size_t i = 0; i < x->count; i++) {
		uint64_t end = i + 1 < x->count ? x->entries[i + 1].offset
						: w->b->size;
		x->entries[i].extent = end - x->entries[i].offset;
	}
	return 0;
}

int archive_index_build(const struct blob *b, const struct fdtbl *t,
			struct archive_index *x, struct reason *why)
{
	memset(x, 0, sizeof *x);
	struct walk *w = calloc(1, sizeof *w);
	struct ord *ord = w ? sorted(t) : NULL;
	if (!ord) {
		free(w);
		return -ENOMEM;
	}
	w->b = b;
	w->t = t;
	w->x = x;
	w->have = 0;
	prefetch(w, ord);
	int rc = land_all(w, ord);
	if (rc == 0 && x->count == 0) {
		reason_set(why, "none of its %zu records lands on a "
			 "member of the archive", t->count);
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = fill_gaps(w);
	free(ord);
	free(w);
	if (rc < 0)
		archive_index_free(x);
	return rc;
}

void archive_index_free(struct archive_index *x)
{
	free(x->entries);
	free(x->lost);
	memset(x, 0, sizeof *x);
}

/* ---- what the table says ---- */

/* Appends to out[0..n) at *at, never past it. */
static void add(char *out, size_t n, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add(char *out, size_t n, size_t *at, const char *fmt, ...)
{
	if (*at >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(out + *at, n - *at, fmt, ap);
	va_end(ap);
	*at = w < 0 ? n : *at + (size_t)w;
}

void archive_index_status(const struct fdtbl *t, const struct archive_entry *e,
			  char *out, size_t n)
{
	if (e->record < 0) {
		snprintf(out, n, "%s", e->table & INDEX_SCAN_ONLY ?
			 "scan only" : "-");
		return;
	}
	const struct fdtbl_entry *r = &t->entries[e->record];
	if (!e->table) {
		snprintf(out, n, "table ok");
		return;
	}
	out[0] = 0;
	char want[FDTBL_NAME + 8];
	fdtbl_gzip_name(r, want, sizeof want);
	size_t at = 0;
	if (e->table & INDEX_NAME)
		add(out, n, &at, "name %s != %s", want, e->header.name);
	if (e->table & INDEX_CSIZE)
		add(out, n, &at, "%scsize %" PRIu32 " != the member's end",
		    at ? ", " : "", r->csize);
	if (e->table & INDEX_USIZE)
		add(out, n, &at, "%susize %" PRIu32 " != %" PRIu32,
		    at ? ", " : "", r->usize, e->tail_isize);
	if (e->table & INDEX_UNREAD)
		add(out, n, &at, "%scsize %" PRIu32 ": its end cannot be read",
		    at ? ", " : "", r->csize);
}

int archive_index_inflated(const struct fdtbl *t, const struct archive_entry *e,
			   const struct gzip_result *g, char *out, size_t n)
{
	if (e->record < 0)
		return 0;
	const struct fdtbl_entry *r = &t->entries[e->record];
	if (g->compressed != r->csize &&
	    !(e->table & (INDEX_CSIZE | INDEX_UNREAD))) {
		snprintf(out, n, "csize %" PRIu32 " != %" PRIu64, r->csize,
			 g->compressed);
		return 1;
	}
	if (g->isize != r->usize && !(e->table & INDEX_USIZE)) {
		snprintf(out, n, "usize %" PRIu32 " != %" PRIu32, r->usize,
			 g->isize);
		return 1;
	}
	return 0;
}
