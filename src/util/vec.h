/* SPDX-License-Identifier: MIT */
/* vec.h - the one growable array: room for `need` elements of *v.
 *
 * Counts come from files, so growth is checked for overflow and a
 * failure leaves the array as it was:
 *
 *     if (vec_reserve(list->items, &cap, list->n + 1, 16) < 0)
 *             return -ENOMEM;
 *     list->items[list->n++] = item;
 */
#ifndef CCSFS_VEC_H
#define CCSFS_VEC_H

#include <stddef.h>

/* Grows the array that *array_ptr points at (elements of `size` bytes,
 * *cap of them) to at least `need`, doubling from `first`.  0, or
 * -ENOMEM with the array untouched. */
int vec_reserve_(void *array_ptr, size_t size, size_t *cap, size_t need,
		 size_t first);

/* v: an lvalue of pointer type (T *); its element size is taken from it. */
#define vec_reserve(v, cap, need, first) \
	vec_reserve_(&(v), sizeof *(v), (cap), (need), (first))

#endif
