/* SPDX-License-Identifier: MIT */
/* iso_claim.c - which record a disc folder's extent is shown under. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"
#include "views/iso_claim.h"

struct claim {
	uint32_t lsn;
	uint32_t parent;
	char *name;
};

struct iso_claims {
	pthread_mutex_t lock;
	struct claim *v;        /* sorted by lsn */
	size_t n, cap;
};

struct iso_claims *iso_claims_new(void)
{
	struct iso_claims *c = calloc(1, sizeof *c);
	if (c && pthread_mutex_init(&c->lock, NULL) != 0) {
		free(c);
		return NULL;
	}
	return c;
}

void iso_claims_free(struct iso_claims *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* The first index whose lsn is not below lsn. */
static size_t lower_bound(const struct iso_claims *c, uint32_t lsn)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->v[mid].lsn < lsn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert(struct iso_claims *c, size_t at, uint32_t lsn,
		  uint32_t parent, const char *name)
{
	char *copy = strdup(name);
	if (!copy || vec_reserve(c->v, &c->cap, c->n + 1, 64) < 0) {
		free(copy);
		return -ENOMEM;
	}
	memmove(c->v + at + 1, c->v + at, (c->n - at) * sizeof *c->v);
	c->v[at] = (struct claim){ lsn, parent, copy };
	c->n++;
	return 1;
}

int iso_claim(struct iso_claims *c, uint32_t lsn, uint32_t parent,
	      const char *name, uint32_t *owner)
{
	pthread_mutex_lock(&c->lock);
	size_t at = lower_bound(c, lsn);
	int rc;
	if (at < c->n && c->v[at].lsn == lsn) {
		const struct claim *k = &c->v[at];
		rc = k->parent == parent && strcmp(k->name, name) == 0;
		*owner = k->parent;
	} else {
		rc = insert(c, at, lsn, parent, name);
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}
