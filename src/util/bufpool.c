/* SPDX-License-Identifier: MIT */
/* bufpool.c - a small best-fit list of freed large buffers. */
#include "config.h"

#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/bufpool.h"

/* Enough that the byte limit binds before the count: with 64, a second
 * pass over every model.obj filled the slots with 64-100 KiB buffers
 * (63 kept, 5 MB of the 16 MB a 256 MiB cache allows), the larger ones
 * went first, and the daemon took 196,000-197,000 page faults in that
 * pass against 94,000-103,000 with 256 (15,000 in the first pass). */
#define SLOTS 256

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	void *p;
	size_t cap;
} kept[SLOTS];
static size_t kept_count, kept_bytes, limit;

void bufpool_set_limit(size_t bytes)
{
	pthread_mutex_lock(&lock);
	limit = bytes;
	pthread_mutex_unlock(&lock);
}

/* Takes the smallest kept buffer that holds size and wastes under half
 * of it; NULL when none does. */
static void *take(size_t size, size_t *cap)
{
	size_t best = SLOTS;
	for (size_t i = 0; i < kept_count; i++)
		if (kept[i].cap >= size && kept[i].cap - size <= size / 2 &&
		    (best == SLOTS || kept[i].cap < kept[best].cap))
			best = i;
	if (best == SLOTS)
		return NULL;
	void *p = kept[best].p;
	*cap = kept[best].cap;
	kept_bytes -= kept[best].cap;
	kept[best] = kept[--kept_count];
	return p;
}

void *bufpool_alloc(size_t size)
{
	if (size < BUFPOOL_MIN)
		return malloc(size);
	size_t cap = 0;
	pthread_mutex_lock(&lock);
	void *p = take(size, &cap);
	pthread_mutex_unlock(&lock);
	if (!p)
		return malloc(size);
	/* What is past size would go unaccounted in the cache: give back
	 * its pages (a mapping shrinks in place). */
	if (cap - size >= BUFPOOL_MIN) {
		void *q = realloc(p, size);
		if (q)
			p = q;
	}
	return p;
}

void *bufpool_alloc_filled(size_t size, size_t fill)
{
	void *p = bufpool_alloc(size);
	if (p && size >= BUFPOOL_MIN) {
		uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
		uintptr_t start = (uintptr_t)p & ~(page - 1);
		/* A kept buffer's pages are there already: the call only
		 * walks them. */
		(void)madvise((void *)start,
			      (uintptr_t)p + (fill < size ? fill : size) - start,
			      MADV_POPULATE_WRITE);
	}
	return p;
}

void bufpool_free(void *p)
{
	if (!p)
		return;
	size_t cap = malloc_usable_size(p);
	void *drop[SLOTS];
	size_t dropped = 0;
	pthread_mutex_lock(&lock);
	if (cap < BUFPOOL_MIN || cap > limit / 4) {
		pthread_mutex_unlock(&lock);
		free(p);
		return;
	}
	/* Full: kept buffers go, first slot first, to make room. */
	while (kept_count && (kept_count == SLOTS ||
			      kept_bytes + cap > limit)) {
		drop[dropped++] = kept[0].p;
		kept_bytes -= kept[0].cap;
		kept[0] = kept[--kept_count];
	}
	kept[kept_count].p = p;
	kept[kept_count].cap = cap;
	kept_count++;
	kept_bytes += cap;
	pthread_mutex_unlock(&lock);
	/* Unmapping flushes every core's TLB: not while others wait. */
	while (dropped)
		free(drop[--dropped]);
}

void bufpool_drain(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < kept_count; i++)
		free(kept[i].p);
	kept_count = 0;
	kept_bytes = 0;
	pthread_mutex_unlock(&lock);
}
