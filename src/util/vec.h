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

/* A zeroed array of n elements of `size` bytes (freed with free), or
 * NULL.  One of a megabyte or more (a thousand members' records) lies on
 * transparent huge pages where the kernel allows it: writing one field
 * of each element touches every page, and in a virtual machine each of
 * the 4 KiB pages' faults cost more than the listing that needed them
 * (a first ls of DATA.BIN: 21 ms of CPU against 13 ms). */
void *vec_zalloc(size_t n, size_t size);

#endif
