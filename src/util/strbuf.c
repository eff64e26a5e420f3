/* SPDX-License-Identifier: MIT */
/* strbuf.c - growable byte buffer. */
#include "config.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bufpool.h"
#include "util/numfmt.h"
#include "util/strbuf.h"

/* The scratch buffers: SCRATCH_SLOTS of them, each SCRATCH_MAX, charged
 * to the cache (SB_SCRATCH_BYTES) by fs_new.  They are shared by every
 * thread, not one a thread: libfuse hands requests to any of its (up to
 * ten) workers, and with one a thread for the first four only, a
 * listing's texts mostly landed on threads without one and doubled
 * through the pool.  Two cores make at most a few texts at a time; a
 * text that finds every slot busy, or grows past SCRATCH_MAX, moves to
 * pool buffers and doubles as before. */
#define SCRATCH_MAX (2u << 20)
#define SCRATCH_SLOTS 4
_Static_assert(SCRATCH_MAX * SCRATCH_SLOTS == SB_SCRATCH_BYTES,
	       "strbuf.h's SB_SCRATCH_BYTES counts every scratch buffer");

struct scratch {
	char *data;             /* made by the first taker, kept */
	atomic_bool busy;
};

static struct scratch scratch[SCRATCH_SLOTS];

/* A free slot with its buffer, marked busy; NULL when none is. */
static struct scratch *scratch_take(void)
{
	for (unsigned i = 0; i < SCRATCH_SLOTS; i++) {
		struct scratch *s = &scratch[i];
		bool idle = false;
		if (!atomic_compare_exchange_strong(&s->busy, &idle, true))
			continue;
		/* The slot is this thread's until given back: no lock. */
		if (!s->data)
			s->data = malloc(SCRATCH_MAX);
		if (s->data)
			return s;
		atomic_store(&s->busy, false);
		return NULL;
	}
	return NULL;
}

static void scratch_give_back(struct strbuf *sb)
{
	struct scratch *s = sb->scratch;
	sb->scratch = NULL;
	atomic_store(&s->busy, false);
}

void sb_scratch_drain(void)
{
	for (unsigned i = 0; i < SCRATCH_SLOTS; i++) {
		bool idle = false;
		if (atomic_compare_exchange_strong(&scratch[i].busy, &idle,
						   true)) {
			free(scratch[i].data);
			scratch[i].data = NULL;
			atomic_store(&scratch[i].busy, false);
		}
	}
}

/* Large buffers come from the scratch, else from the pool, whose pages
 * are mapped already; the copy costs less than faulting in fresh ones. */
static bool grow(struct strbuf *sb, size_t cap)
{
	char *old = sb->data;
	if (cap < BUFPOOL_MIN) {
		char *p = realloc(old, cap);
		if (!p)
			return false;
		sb->data = p;
		sb->cap = cap;
		return true;
	}
	if (!sb->scratch && cap <= SCRATCH_MAX) {
		struct scratch *s = scratch_take();
		if (s) {
			if (old)
				memcpy(s->data, old, sb->len + 1);
			bufpool_free(old);
			sb->data = s->data;
			sb->cap = SCRATCH_MAX;
			sb->scratch = s;
			return true;
		}
	}
	char *p = bufpool_alloc(cap);
	if (!p)
		return false;
	if (old)
		memcpy(p, old, sb->len);
	p[sb->len] = '\0';
	if (sb->scratch)
		scratch_give_back(sb);
	else
		bufpool_free(old);
	sb->data = p;
	sb->cap = cap;
	return true;
}

void sb_init_measure(struct strbuf *sb)
{
	*sb = (struct strbuf)STRBUF_INIT;
	sb->measure = true;
}

void sb_init_exact(struct strbuf *sb, size_t size)
{
	*sb = (struct strbuf)STRBUF_INIT;
	/* A short text goes through the scratch as any other. */
	if (size < BUFPOOL_MIN || size > SIZE_MAX / 2)
		return;
	/* Writers reserve the room of a longest line and commit less: the
	 * last lines' reserves reach past the text's end, and without room
	 * there the buffer would double, the whole text copied, at its
	 * very end.  Only the text's own pages are faulted in. */
	size_t cap = size + 1 + SB_LINE_ROOM;
	sb->data = bufpool_alloc_filled(cap, size + 1);
	if (!sb->data) {
		sb->failed = true;
		return;
	}
	sb->data[0] = '\0';
	sb->cap = cap;
	sb->exact = true;
}

void sb_init_restartable(struct strbuf *sb)
{
	*sb = (struct strbuf)STRBUF_INIT;
	sb->restartable = true;
}

/* Lets the buffer go, scratch or not; the strbuf is empty. */
static void release(struct strbuf *sb)
{
	if (sb->scratch)
		scratch_give_back(sb);
	else
		bufpool_free(sb->data);
	sb->data = NULL;
	sb->len = sb->cap = 0;
}

/* A restartable text about to outgrow the scratch: what it holds is let
 * go, counted, and from here on it only counts. */
static void start_counting(struct strbuf *sb)
{
	sb->dropped = sb->len;
	release(sb);
	sb->measure = true;
	sb->counted = true;
}

/* Makes room for n more bytes by letting go of what is there; false when
 * n is more than the room (the buffer then grows as when making). */
static bool measure_room(struct strbuf *sb, size_t n)
{
	if (n >= SB_LINE_ROOM)
		return false;
	if (sb->cap < SB_LINE_ROOM) {
		char *p = realloc(sb->data, SB_LINE_ROOM);
		if (!p)
			return false;
		sb->data = p;
		sb->cap = SB_LINE_ROOM;
	}
	sb->dropped += sb->len;
	sb->len = 0;
	return true;
}

char *sb_reserve_grow(struct strbuf *sb, size_t n)
{
	if (sb->failed)
		return NULL;
	if (sb->restartable && !sb->counted && n < SIZE_MAX / 2 - sb->len &&
	    sb->len + n + 1 > SCRATCH_MAX)
		start_counting(sb);
	if (sb->measure && !sb->scratch && sb->cap <= SB_LINE_ROOM &&
	    measure_room(sb, n))
		return sb->data;
	if (n > SIZE_MAX / 2 - sb->len) {
		sb->failed = true;
		return NULL;
	}
	if (sb->len + n + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 256;
		/* Doubling for appends; a reserve past twice the room is
		 * taken as asked (a scene's buffer of 8 MiB would be given
		 * 16 otherwise). */
		if (cap * 2 < sb->len + n + 1)
			cap = sb->len + n + 1;
		while (cap < sb->len + n + 1)
			cap *= 2;
		if (!grow(sb, cap)) {
			sb->failed = true;
			return NULL;
		}
	}
	return sb->data + sb->len;
}

void sb_put_u64(struct strbuf *sb, uint64_t v)
{
	char *o = sb_reserve(sb, 20);
	if (o)
		sb->len = (size_t)(numfmt_uint(o, v) - sb->data);
}

void sb_put_i64(struct strbuf *sb, int64_t v)
{
	char *o = sb_reserve(sb, 21);
	if (o)
		sb->len = (size_t)(numfmt_int(o, v) - sb->data);
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	char small[256];
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n < 0) {
		sb->failed = true;
	} else if ((size_t)n < sizeof small) {
		sb_append(sb, small, (size_t)n);
	} else {
		char *dst = sb_reserve(sb, (size_t)n);
		if (dst) {
			vsnprintf(dst, (size_t)n + 1, fmt, ap2);
			sb->len += (size_t)n;
		}
	}
	va_end(ap2);
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

int sb_finish(struct strbuf *sb, uint8_t **data, size_t *len)
{
	if (sb->failed) {
		sb_free(sb);
		return -ENOMEM;
	}
	if (sb->measure) {
		bool counted = sb->counted;
		*len = sb->dropped + sb->len;
		if (data)
			*data = NULL;
		sb_free(sb);
		return counted ? -EAGAIN : 0;
	}
	char *out = sb->data;
	if (sb->scratch) {
		out = bufpool_alloc_filled(sb->len, sb->len);
		if (!out) {
			sb_free(sb);
			return -ENOMEM;
		}
		memcpy(out, sb->data, sb->len);
		scratch_give_back(sb);
	} else if (sb->len) {
		/* The cache counts len bytes: give back the doubling's
		 * slack so that what it counts is what is held. */
		char *shrunk = realloc(sb->data, sb->len);
		if (shrunk)
			out = shrunk;
	}
	*data = (uint8_t *)out;
	*len = sb->len;
	sb->data = NULL;
	sb->len = sb->cap = 0;
	return 0;
}

void sb_free(struct strbuf *sb)
{
	release(sb);
	sb->failed = false;
	sb->dropped = 0;
	if (sb->counted)        /* restartable again, as it began */
		sb->measure = sb->counted = false;
}
