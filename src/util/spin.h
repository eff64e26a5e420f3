/* SPDX-License-Identifier: MIT */
/* spin.h - waiting for work by polling for a short while, not asleep.
 *
 * A thread that sleeps until the next request or job must be woken by
 * another CPU, and an idle CPU may have halted: on a virtual machine
 * without halt polling, waking it cost more than the work it was woken
 * for (doc/performance.md, Wake-ups and polling).  Where the next piece
 * of work is likely to come within microseconds, the thread polls for
 * it first.
 */
#ifndef CCSFS_SPIN_H
#define CCSFS_SPIN_H

#include <stdbool.h>
#include <time.h>

/* Calls ready(arg) until it returns true or window_ns nanoseconds have
 * passed, yielding the CPU between calls so that whatever else wants it
 * runs first.  True when ready said so; false at once for a window of
 * 0 or less. */
bool spin_until(bool (*ready)(void *arg), void *arg, long window_ns);

/* Nanoseconds on CLOCK_MONOTONIC since from, which clock_gettime set
 * on that clock. */
long spin_ns_since(const struct timespec *from);

#endif
