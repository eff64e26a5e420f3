/* SPDX-License-Identifier: MIT */
/* lenmemo.h - text lengths of a 16-bit value under a key, remembered.
 *
 * A listing measures every model.txt, and half of that went to finding
 * how long each position's "%.9g" text is.  A model's positions are its
 * s16 values times one scale, so under that scale there are at most
 * 65536 of them, and models of one scale share them (the bench disc's
 * use three scales; a new scale costs a cleared slot).  A slot holds
 * one key's lengths, a byte per value, learnt as they are asked for.
 * The slots are shared by every thread, as strbuf's scratch is: libfuse
 * hands requests to any of its workers, and two cores measure only a
 * few texts at a time.  A measure that finds every slot busy counts
 * without one.
 */
#ifndef CCSFS_LENMEMO_H
#define CCSFS_LENMEMO_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define LENMEMO_SLOTS 4
/* What the slots hold at most, charged to the cache by fs_new. */
#define LENMEMO_BYTES (LENMEMO_SLOTS * 65536u)

struct lenmemo {
	uint8_t *len;           /* 65536 entries, 0 = not known yet */
	/* LENMEMO_KEYED | key once len holds key's entries, else 0.  This
	 * and last_used are read by threads that look for a slot. */
	_Atomic uint64_t tag;
	_Atomic uint64_t last_used;
	atomic_bool busy;
};
#define LENMEMO_KEYED (1ull << 32)

/* A slot for key, marked busy: the one that held key last if it is
 * free, else the least recently used free one, cleared.  NULL when every
 * slot is busy or out of memory. */
struct lenmemo *lenmemo_take(uint32_t key);
/* Gives a taken slot back; m may be NULL. */
void lenmemo_give_back(struct lenmemo *m);
/* Frees the slots' entries (at unmount, for leak checkers). */
void lenmemo_drain(void);

/* The entry for v: 0 until set. */
static inline uint8_t lenmemo_get(const struct lenmemo *m, uint16_t v)
{
	return m->len[v];
}

static inline void lenmemo_set(struct lenmemo *m, uint16_t v, uint8_t x)
{
	m->len[v] = x;
}

#endif
