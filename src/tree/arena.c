/* SPDX-License-Identifier: MIT */
/* arena.c - the memory nodes and names come from: the tree's, freed at
 * unmount, and each unit's (unit.c), freed when the unit goes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tree/tree.h"
#include "tree/tree_internal.h"

/* Nodes and names are freed all at once, at unmount or when their unit
 * goes (unit.c), so they come from arenas: one allocation per arena
 * instead of two per node. */
struct arena {
	struct arena *next;
	size_t used, cap;
	_Alignas(16) unsigned char mem[];
};

void *arena_take(struct arena **list, size_t n, size_t chunk, size_t *taken)
{
	n = (n + 15) & ~(size_t)15;
	struct arena *a = *list;
	*taken = 0;
	if (!a || a->cap - a->used < n) {
		size_t cap = n > chunk ? n : chunk;
		a = malloc(sizeof *a + cap);
		if (!a)
			return NULL;
		a->cap = cap;
		a->used = 0;
		a->next = *list;
		*list = a;
		*taken = sizeof *a + cap;
	}
	void *p = a->mem + a->used;
	a->used += n;
	memset(p, 0, n);
	return p;
}

void arena_free_all(struct arena *list)
{
	for (struct arena *a = list, *next; a; a = next) {
		next = a->next;
		free(a);
	}
}

void *fs_alloc(struct fs *fs, size_t n)
{
	size_t taken;
	pthread_mutex_lock(&fs->arena_lock);
	void *p = arena_take(&fs->arenas, n, ARENA_SIZE, &taken);
	pthread_mutex_unlock(&fs->arena_lock);
	if (taken)
		cache_reserve(fs->cache, taken);
	return p;
}

char *fs_strdup(struct fs *fs, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = fs_alloc(fs, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

