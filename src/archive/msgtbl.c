/* SPDX-License-Identifier: MIT */
/* msgtbl.c - the game's message tables, read from its executable.
 *
 * A message array carries no count: it runs to the next array start of
 * any of the four tables (each group's, event's and stream's pointer,
 * and the tables themselves), less its trailing all-zero records.  So
 * every start is gathered first, sorted, and each array ends at the
 * first start past its own. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "archive/msgtbl.h"
#include "util/bytes.h"
#include "util/vec.h"

static const char *const symbols[MSGTBL_KINDS] = {
	"evMsgTbl", "evMsgTblp", "evStrMsgTbl", "evStrMsgTblp",
};

const char *msgtbl_symbol(enum msgtbl_kind k)
{
	return k < MSGTBL_KINDS ? symbols[k] : "";
}

static bool is_event(enum msgtbl_kind k)
{
	return k == MSGTBL_EVENTS || k == MSGTBL_EVENTS_PARODY;
}

/* One table's pointers: where, and how many. */
struct table {
	const uint8_t *ptrs;
	uint32_t addr, count;
};

/* Every array start, sorted, to end each array at the next. */
struct starts {
	uint32_t *at;
	size_t n, cap;
};

static int add_start(struct starts *s, uint32_t addr)
{
	if (!addr)
		return 0;
	if (vec_reserve(s->at, &s->cap, s->n + 1, 256) < 0)
		return -ENOMEM;
	s->at[s->n++] = addr;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The first start past addr, or UINT32_MAX. */
static uint32_t next_start(const struct starts *s, uint32_t addr)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->at[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n ? s->at[lo] : UINT32_MAX;
}

static int find_table(const struct elf_image *e, enum msgtbl_kind k,
		      struct table *t)
{
	uint32_t addr, size;
	memset(t, 0, sizeof *t);
	if (elf_symbol(e, symbols[k], &addr, &size) < 0)
		return -ENOENT;
	uint32_t count = is_event(k) ? MSGTBL_GROUPS
			 : size ? size / 4 : MSGTBL_STREAMS;
	if (count > MSGTBL_MAX_STREAMS)
		count = MSGTBL_MAX_STREAMS;
	t->ptrs = elf_at(e, addr, 4 * (size_t)count);
	if (!t->ptrs)
		return -EINVAL;
	t->addr = addr;
	t->count = count;
	return 0;
}

/* An event table's groups' bytes (NULL for a null group or one that lies
 * outside the file). */
static const uint8_t *group_at(const struct elf_image *e,
			       const struct table *t, uint32_t g)
{
	uint32_t addr = rd_u32le(t->ptrs + 4 * g);
	return addr ? elf_at(e, addr, 4 * MSGTBL_GROUP_EVENTS) : NULL;
}

static int gather(const struct elf_image *e, const struct table *tables,
		  struct starts *s)
{
	int rc = 0;
	for (int k = 0; k < MSGTBL_KINDS && rc == 0; k++) {
		const struct table *t = &tables[k];
		if (!t->ptrs)
			continue;
		rc = add_start(s, t->addr);
		for (uint32_t i = 0; i < t->count && rc == 0; i++) {
			rc = add_start(s, rd_u32le(t->ptrs + 4 * i));
			const uint8_t *grp = is_event(k) ? group_at(e, t, i) : NULL;
			for (uint32_t j = 0; grp && j < MSGTBL_GROUP_EVENTS &&
			     rc == 0; j++)
				rc = add_start(s, rd_u32le(grp + 4 * j));
		}
	}
	if (rc == 0 && s->n)
		qsort(s->at, s->n, sizeof *s->at, cmp_u32);
	return rc;
}

/* A NUL-ended string at addr: its length with the NUL, or 0. */
static size_t string_at(const struct elf_image *e, uint32_t addr,
			const uint8_t **p)
{
	size_t avail;
	*p = elf_span(e, addr, &avail);
	if (!*p)
		return 0;
	if (avail > MSGTBL_MAX_LINE)
		avail = MSGTBL_MAX_LINE;
	const uint8_t *nul = memchr(*p, 0, avail);
	return nul ? (size_t)(nul - *p) + 1 : 0;
}

/* The three lines at addr: their bytes with the NULs, or 0. */
static size_t text_at(const struct elf_image *e, uint32_t addr,
		      const uint8_t **p)
{
	size_t total = 0;
	for (int line = 0; line < MSGTBL_LINES; line++) {
		const uint8_t *q;
		if (addr > UINT32_MAX - total)
			return 0;
		size_t n = string_at(e, addr + (uint32_t)total, &q);
		if (!n)
			return 0;
		if (line == 0)
			*p = q;
		total += n;
	}
	return total;
}

static bool all_zero(const uint8_t *r)
{
	for (int i = 0; i < MSGTBL_RECORD; i++)
		if (r[i])
			return false;
	return true;
}

struct list_build {
	struct msgtbl_list *l;
	size_t cap;
};

static void bad(struct msgtbl_list *l, const char *what, uint32_t number,
		uint32_t index, const char *why)
{
	if (!l->bad++)
		reason_set(&l->why, "%s %u message %u: %s", what, number,
			   index, why);
}

/* One record: a message, or a reason it is left out. */
static int add_message(const struct elf_image *e, struct list_build *b,
		       const char *what, uint32_t number, uint32_t index,
		       uint32_t rec_addr, const uint8_t *r)
{
	struct msgtbl_msg m = { number, index, rd_u32le(r), NULL, NULL, 0,
				rec_addr };
	uint32_t name = rd_u32le(r + 4), text = rd_u32le(r + 8);
	if (all_zero(r))
		return 0;       /* a record with nothing to say */
	if (name && !string_at(e, name, &m.name)) {
		bad(b->l, what, number, index, "its speaker's name lies "
		    "outside the executable or has no end");
		return 0;
	}
	if (!text || !(m.text_len = text_at(e, text, &m.text))) {
		bad(b->l, what, number, index, text ? "its text lies outside "
		    "the executable or has no end" : "it has no text");
		return 0;
	}
	if (vec_reserve(b->l->msg, &b->cap, b->l->count + 1, 256) < 0)
		return -ENOMEM;
	b->l->msg[b->l->count++] = m;
	return 0;
}

/* One array: from addr to the next start, less trailing zero records. */
static int read_array(const struct elf_image *e, const struct starts *s,
		      struct list_build *b, const char *what,
		      uint32_t number, uint32_t addr)
{
	uint64_t end = next_start(s, addr);
	size_t avail;
	const uint8_t *p = elf_span(e, addr, &avail);
	if (!p) {
		bad(b->l, what, number, 0, "its messages lie outside the "
		    "executable");
		return 0;
	}
	uint64_t n = (end - addr) / MSGTBL_RECORD;
	if (n > avail / MSGTBL_RECORD)
		n = avail / MSGTBL_RECORD;
	if (n > MSGTBL_MAX_RECORDS)
		n = MSGTBL_MAX_RECORDS;
	while (n && all_zero(p + (n - 1) * MSGTBL_RECORD))
		n--;
	for (uint32_t i = 0; i < n; i++) {
		int rc = add_message(e, b, what, number, i,
				     addr + i * MSGTBL_RECORD,
				     p + (size_t)i * MSGTBL_RECORD);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int read_list(const struct elf_image *e, const struct starts *s,
		     enum msgtbl_kind k, const struct table *t,
		     struct msgtbl_list *l)
{
	struct list_build b = { l, 0 };
	const char *what = is_event(k) ? "event" : "stream";
	int rc = 0;
	l->present = true;
	for (uint32_t i = 0; i < t->count && rc == 0; i++) {
		if (!is_event(k)) {
			uint32_t addr = rd_u32le(t->ptrs + 4 * i);
			if (addr)
				rc = read_array(e, s, &b, what, i, addr);
			continue;
		}
		const uint8_t *grp = group_at(e, t, i);
		if (!grp && rd_u32le(t->ptrs + 4 * i))
			bad(l, "group", i, 0, "its events lie outside the "
			    "executable");
		for (uint32_t j = 0; grp && j < MSGTBL_GROUP_EVENTS &&
		     rc == 0; j++) {
			uint32_t addr = rd_u32le(grp + 4 * j);
			if (addr)
				rc = read_array(e, s, &b, what,
						i * MSGTBL_GROUP_EVENTS + j,
						addr);
		}
	}
	return rc;
}

int msgtbl_read(const struct elf_image *e, struct msgtbl *t,
		struct reason *why)
{
	memset(t, 0, sizeof *t);
	struct table tables[MSGTBL_KINDS];
	int found = 0;
	for (int k = 0; k < MSGTBL_KINDS; k++) {
		int rc = find_table(e, (enum msgtbl_kind)k, &tables[k]);
		if (rc == -EINVAL)
			reason_set(&t->list[k].why, "%s lies outside the "
				   "executable's loaded bytes", symbols[k]);
		found += rc == 0;
	}
	if (!found) {
		reason_set(why, "%s", "no evMsgTbl, evMsgTblp, evStrMsgTbl or "
			   "evStrMsgTblp symbol");
		return -ENOENT;
	}
	struct starts s = { NULL, 0, 0 };
	int rc = gather(e, tables, &s);
	for (int k = 0; k < MSGTBL_KINDS && rc == 0; k++)
		if (tables[k].ptrs)
			rc = read_list(e, &s, (enum msgtbl_kind)k, &tables[k],
				       &t->list[k]);
	free(s.at);
	if (rc < 0) {
		msgtbl_free(t);
		reason_set(why, "%s", "out of memory");
	}
	return rc;
}

void msgtbl_free(struct msgtbl *t)
{
	for (int k = 0; k < MSGTBL_KINDS; k++) {
		free(t->list[k].msg);
		t->list[k].msg = NULL;
		t->list[k].count = 0;
	}
}

void msgtbl_stream(const struct msgtbl_list *l, uint32_t s, size_t *first,
		   size_t *n)
{
	size_t lo = 0, hi = l->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->msg[mid].number < s)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < l->count && l->msg[end].number == s)
		end++;
	*first = lo;
	*n = end - lo;
}
