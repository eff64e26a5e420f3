/* SPDX-License-Identifier: MIT */
/* vec.c - growth of the one growable array. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

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
