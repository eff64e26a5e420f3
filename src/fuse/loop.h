/* SPDX-License-Identifier: MIT */
/* loop.h - the session's requests served by a few threads, one of them
 * reading at a time, and the one that read a request serving it.
 *
 * libfuse's own multithreaded loop has every idle thread wait in read(2)
 * of /dev/fuse, and the kernel wakes the one that has waited longest:
 * a listing's requests, one after another, each woke another thread.  On
 * a fresh ls -lR, where the readahead workers keep both cores busy
 * measuring, that took a third longer than one thread did
 * (doc/performance.md, Listings).  Here the thread that served a request
 * reads the next one itself, and another thread takes over the reading
 * only when a request has to wait (util/blocking.h), so that a second
 * reader is not held up behind it.
 */
#ifndef CCSFS_LOOP_H
#define CCSFS_LOOP_H

#include "fuse/fuse_ops.h"

/* Serves se until it is unmounted or told to exit (a signal that
 * fuse_set_signal_handlers set up), with at most max_threads threads.
 * While requests come less than poll_us microseconds apart, the reading
 * thread polls for the next one for up to that long instead of sleeping
 * (0: it always sleeps).  A sleeping thread must be woken by the
 * requester's CPU, and a requester waits for its answer asleep: each
 * request of a listing then paid two wake-ups of an idle CPU, which on a
 * virtual machine that halts idle CPUs (no halt polling) cost more than
 * the request itself (doc/performance.md, Wake-ups and polling).
 * 0, or a negative errno when reading the device failed. */
int loop_serve(struct fuse_session *se, unsigned max_threads,
	       unsigned poll_us);

#endif
