/* SPDX-License-Identifier: MIT */
/* index.c - DATA.BIN's members from the game's index: listed from the
 * records, each checked later at its member's two ends. */
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
#define WINDOW INDEX_WINDOW
#define HEADER (10 + GZIP_NAME_MAX + 1)

/* The bytes at off, up to n of them (fewer at the archive's end): from
 * the window when it holds them, else a new window from off that runs
 * on to upto (the next member's header) when that is near. */
static int span(const struct blob *b, struct index_window *w, uint64_t off,
		size_t n, uint64_t upto, const uint8_t **p, size_t *got)
{
	if (!(w->have && off >= w->from && off + n <= w->from + w->have)) {
		size_t len = upto > off && upto - off < WINDOW
			     ? (size_t)(upto - off) : WINDOW;
		w->from = off;
		w->have = 0;
		ssize_t r = blob_read(b, w->buf, len > n ? len : n, off);
		if (r < 0)
			return (int)r;
		w->have = (size_t)r;
		w->bytes_read += (uint64_t)r;
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

/* Where the record says its member ends: the trailer's ISIZE there, and
 * nothing but zeros up to the next sector or the next member. */
static void check_end(const struct blob *b, struct index_window *w,
		      struct archive_entry *e, const struct fdtbl_entry *r)
{
	uint64_t next = e->offset + e->extent;
	uint64_t end = e->offset + r->csize;
	if (r->csize < e->header.length + 8 || end > next) {
		e->table |= INDEX_CSIZE;
		return;
	}
	uint64_t pad_end = (end / SECTOR + 1) * SECTOR;
	if (pad_end > next)
		pad_end = next;
	size_t n = (size_t)(pad_end - end) + 8, got;
	const uint8_t *p;
	if (span(b, w, end - 8, n, next + HEADER, &p, &got) < 0) {
		e->table |= INDEX_UNREAD;
		return;
	}
	if (got < 8) {
		e->table |= INDEX_CSIZE;
		return;
	}
	for (size_t i = 8; i < got; i++)
		if (p[i]) {
			e->table |= INDEX_CSIZE;
			return;
		}
	e->tail_isize = rd_u32le(p + 4);
	if (e->tail_isize != r->usize)
		e->table |= INDEX_USIZE;
}

int archive_index_check(const struct blob *b, const struct fdtbl *t,
			struct archive_entry *e, struct index_window *w)
{
	if (e->record < 0 || (size_t)e->record >= t->count)
		return 0;
	const struct fdtbl_entry *r = &t->entries[e->record];
	const uint8_t *p;
	size_t got;
	e->table &= INDEX_SCAN_ONLY;
	e->tail_isize = 0;
	if (span(b, w, e->offset, HEADER, e->offset + HEADER, &p, &got) < 0) {
		e->table |= INDEX_NO_READ;
		return 0;
	}
	struct gzip_header h;
	if (gzip_parse_header(p, got, &h) < 0) {
		e->table |= INDEX_NO_HEADER;
		return 0;
	}
	e->header = h;
	char want[FDTBL_NAME + 8];
	fdtbl_gzip_name(r, want, sizeof want);
	if (strcmp(want, e->header.name) != 0)
		e->table |= INDEX_NAME;
	check_end(b, w, e, r);
	return 0;
}

void archive_index_prefetch(const struct blob *b, const struct fdtbl *t,
			    const struct archive_entry *e, size_t n)
{
	uint64_t asked = 0;     /* the end of the span asked for last */
	for (size_t k = 0; k < n; k++) {
		if (e[k].record < 0)
			continue;
		const struct fdtbl_entry *r = &t->entries[e[k].record];
		if (!k || e[k].offset + HEADER > asked)
			blob_will_need(b, e[k].offset, HEADER);
		uint64_t next = e[k].offset + e[k].extent;
		uint64_t end = e[k].offset + r->csize;
		if (r->csize < 8 || end > next)
			continue;
		uint64_t len = next + HEADER - (end - 8);
		blob_will_need(b, end - 8, len < WINDOW ? len : WINDOW);
		asked = end - 8 + (len < WINDOW ? len : WINDOW);
	}
}

/* ---- the listing, from the records ---- */

struct walk {
	const struct blob *b;
	const struct fdtbl *t;
	struct archive_index *x;
	size_t cap, lost_cap;
};

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

/* Each record in the archive a member, named by the record; one past
 * its end or on another's offset is lost, which the table alone says. */
static int list_records(struct walk *w, const struct ord *ord)
{
	for (size_t k = 0; k < w->t->count; k++) {
		const struct fdtbl_entry *r = &w->t->entries[ord[k].record];
		int rc;
		if (r->offset >= w->b->size) {
			rc = lose(w, ord[k].record, "lies past the archive's end");
		} else if (k && ord[k - 1].offset == r->offset) {
			rc = lose(w, ord[k].record, "has another record's offset");
		} else {
			struct archive_entry e = { .offset = r->offset,
						   .record = (int32_t)ord[k].record };
			fdtbl_gzip_name(r, e.header.name, sizeof e.header.name);
			e.header.has_name = true;
			rc = push(w, &e);
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A table from another archive (another release's executable) lands on
 * nothing here; its first record, in the sector the probe read, tells. */
static int first_lands(struct walk *w, struct reason *why)
{
	if (w->x->count == 0) {
		reason_set(why, "none of its %zu records lies inside the "
			 "archive", w->t->count);
		return -EINVAL;
	}
	uint8_t buf[HEADER];
	const struct archive_entry *e = &w->x->entries[0];
	ssize_t got = blob_read(w->b, buf, sizeof buf, e->offset);
	if (got < 0)
		return (int)got;
	w->x->bytes_read += (uint64_t)got;
	struct gzip_header h;
	if (gzip_parse_header(buf, (size_t)got, &h) < 0) {
		reason_set(why, "its first record, %s at %" PRIu64 ", opens "
			 "no gzip member", w->t->entries[e->record].name,
			 e->offset);
		return -EINVAL;
	}
	return 0;
}

/* Where the bytes a record accounts for end, as it says (its csize,
 * padded), or its first sector when that runs into the next record. */
static uint64_t covered_end(const struct fdtbl *t, const struct archive_entry *e,
			    uint64_t next)
{
	uint64_t end = e->offset + t->entries[e->record].csize;
	if (end > next)
		return e->offset + SECTOR;
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

/* Scans every gap between the listed members (in archive order), then
 * puts all in archive order and gives each its extent. */
static int fill_gaps(struct walk *w)
{
	struct archive_index *x = w->x;
	size_t listed = x->count;
	uint64_t from = 0;
	int rc = 0;
	for (size_t i = 0; i < listed && rc == 0; i++) {
		uint64_t start = x->entries[i].offset;
		rc = scan_gap(w, from, start);
		uint64_t next = i + 1 < listed ? x->entries[i + 1].offset
					       : w->b->size;
		uint64_t end = covered_end(w->t, &x->entries[i], next);
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

int archive_index_list(const struct blob *b, const struct fdtbl *t,
		       struct archive_index *x, struct reason *why)
{
	memset(x, 0, sizeof *x);
	struct walk w = { .b = b, .t = t, .x = x };
	struct ord *ord = sorted(t);
	/* Room for every record at once: growing by doubling copied the
	 * entries (300 bytes each) over again into fresh pages. */
	if (!ord || vec_reserve(x->entries, &w.cap, t->count + 1, 256) < 0) {
		free(ord);
		return -ENOMEM;
	}
	int rc = list_records(&w, ord);
	free(ord);
	if (rc == 0)
		rc = first_lands(&w, why);
	if (rc == 0)
		rc = fill_gaps(&w);
	if (rc < 0)
		archive_index_free(x);
	return rc;
}

int archive_index_build(const struct blob *b, const struct fdtbl *t,
			struct archive_index *x, struct reason *why)
{
	int rc = archive_index_list(b, t, x, why);
	struct index_window *w = rc == 0 ? malloc(sizeof *w) : NULL;
	if (rc == 0 && !w) {
		archive_index_free(x);
		return -ENOMEM;
	}
	if (rc < 0)
		return rc;
	w->have = 0;
	w->bytes_read = 0;
	archive_index_prefetch(b, t, x->entries, x->count);
	for (size_t i = 0; i < x->count; i++)
		archive_index_check(b, t, &x->entries[i], w);
	x->bytes_read += w->bytes_read;
	free(w);
	return 0;
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
	if (e->table & INDEX_NO_HEADER)
		add(out, n, &at, "offset %" PRIu64 " opens no gzip member",
		    e->offset);
	if (e->table & INDEX_NO_READ)
		add(out, n, &at, "offset %" PRIu64 " cannot be read", e->offset);
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
