/* SPDX-License-Identifier: MIT */
/* blocking.h - a thread about to wait, or to work long, says so.
 *
 * The FUSE loop (fuse/loop.c) keeps one thread reading requests and has
 * it serve each one itself, so that a listing's requests, one after
 * another, go through one warm thread.  When a request must wait (a
 * member inflated, a file made or measured, a folder filled, or another
 * thread doing one of these), the loop first hands the reading to
 * another thread, so that other readers are not held up behind it.  The
 * layers that know when they wait are below the loop and cannot call
 * it: they call blocking_begins(), which calls the hook the loop set.
 */
#ifndef CCSFS_BLOCKING_H
#define CCSFS_BLOCKING_H

/* The hook, set once before serving; NULL unsets it. */
void blocking_set_hook(void (*hook)(void));

/* Called before a wait or long work; cheap, and nothing on a thread the
 * hook does not know (the readahead workers, the tests). */
void blocking_begins(void);

#endif
