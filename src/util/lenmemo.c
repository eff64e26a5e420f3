/* SPDX-License-Identifier: MIT */
/* lenmemo.c - the shared slots of remembered lengths. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/lenmemo.h"

#define ENTRIES 65536u
_Static_assert(LENMEMO_SLOTS * ENTRIES == LENMEMO_BYTES,
	       "LENMEMO_BYTES counts every slot's entries");

static struct lenmemo slots[LENMEMO_SLOTS];
static atomic_uint_fast64_t clock_now;

static bool try_take(struct lenmemo *m)
{
	bool idle = false;
	return atomic_compare_exchange_strong(&m->busy, &idle, true);
}

/* The least recently used free slot, marked busy; NULL when none is
 * free.  Two threads can pick the same one; the loser tries the next
 * oldest. */
static struct lenmemo *take_oldest(void)
{
	bool tried[LENMEMO_SLOTS] = { false };
	for (unsigned round = 0; round < LENMEMO_SLOTS; round++) {
		struct lenmemo *best = NULL;
		unsigned at = 0;
		for (unsigned i = 0; i < LENMEMO_SLOTS; i++) {
			struct lenmemo *m = &slots[i];
			if (tried[i] || atomic_load(&m->busy))
				continue;
			if (!best || atomic_load(&m->last_used) <
				     atomic_load(&best->last_used)) {
				best = m;
				at = i;
			}
		}
		if (!best)
			return NULL;
		tried[at] = true;
		if (try_take(best))
			return best;
	}
	return NULL;
}

struct lenmemo *lenmemo_take(uint32_t key)
{
	uint64_t tag = LENMEMO_KEYED | key;
	struct lenmemo *m = NULL;
	for (unsigned i = 0; i < LENMEMO_SLOTS && !m; i++) {
		struct lenmemo *s = &slots[i];
		if (atomic_load(&s->tag) == tag && try_take(s))
			m = s;
	}
	/* Another thread may have rekeyed it between the two looks. */
	if (m && atomic_load(&m->tag) != tag) {
		lenmemo_give_back(m);
		m = NULL;
	}
	if (!m) {
		m = take_oldest();
		if (!m)
			return NULL;
		/* The slot is this thread's until given back: no lock. */
		if (!m->len)
			m->len = malloc(ENTRIES);
		if (!m->len) {
			lenmemo_give_back(m);
			return NULL;
		}
		memset(m->len, 0, ENTRIES);
		atomic_store(&m->tag, tag);
	}
	atomic_store(&m->last_used, atomic_fetch_add(&clock_now, 1) + 1);
	return m;
}

void lenmemo_give_back(struct lenmemo *m)
{
	if (m)
		atomic_store(&m->busy, false);
}

void lenmemo_drain(void)
{
	for (unsigned i = 0; i < LENMEMO_SLOTS; i++) {
		struct lenmemo *m = &slots[i];
		if (try_take(m)) {
			free(m->len);
			m->len = NULL;
			atomic_store(&m->tag, 0);
			lenmemo_give_back(m);
		}
	}
}
