/* SPDX-License-Identifier: MIT */
/* spin.c - polling for work for a bounded while (spin.h). */
#include "config.h"

#include <sched.h>

#include "util/spin.h"

long spin_ns_since(const struct timespec *from)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - from->tv_sec) * 1000000000L
	       + (now.tv_nsec - from->tv_nsec);
}

bool spin_until(bool (*ready)(void *arg), void *arg, long window_ns)
{
	if (window_ns <= 0)
		return false;
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		if (ready(arg))
			return true;
		if (spin_ns_since(&start) >= window_ns)
			return false;
		sched_yield();
	}
}
