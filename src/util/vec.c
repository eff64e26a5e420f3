/* SPDX-License-Identifier: MIT */
/* vec.c - growth of the one growable array. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/vec.h"

#define HUGE_PAGE (2u << 20)

int vec_reserve_(void *array_ptr, size_t size, size_t *cap, size_t need,
		 size_t first)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : (first ? first : 1);
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (size && ncap > SIZE_MAX / size)
		return -ENOMEM;
	/* The pointer goes through memcpy: array_ptr is a T **, whatever
	 * T is. */
	void *old;
	memcpy(&old, array_ptr, sizeof old);
	void *p = realloc(old, ncap * size);
	if (!p)
		return -ENOMEM;
	memcpy(array_ptr, &p, sizeof p);
	*cap = ncap;
	return 0;
}

void *vec_zalloc(size_t n, size_t size)
{
	if (size && n > (SIZE_MAX - HUGE_PAGE) / size)
		return NULL;
	size_t bytes = n * size;
	if (bytes == 0)
		bytes = 1;
	void *p = NULL;
#ifdef MADV_HUGEPAGE
	if (bytes >= HUGE_PAGE / 2) {
		size_t whole = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
		if (posix_memalign(&p, HUGE_PAGE, whole) != 0)
			return NULL;
		/* A hint: without it the pages are the usual ones. */
		(void)madvise(p, whole, MADV_HUGEPAGE);
		memset(p, 0, bytes);
		return p;
	}
#endif
	return calloc(1, bytes);
}
