/* SPDX-License-Identifier: MIT */
/* bufpool.h - large buffers kept, pages and all, for the next one.
 *
 * main.c makes every buffer over 64 KiB a mapping of its own, so that
 * the memory of an evicted member goes back to the kernel and the daemon
 * stays near cache_size.  The price was paid on every new one: a page
 * fault and a cleared page per 4 KiB, and a TLB flush on both cores at
 * its unmap, a quarter of the daemon's time when it made every OBJ of the
 * disc.  Buffers freed here are kept (up to a limit) and handed out
 * again for the next member, file or scratch of about their size.
 */
#ifndef CCSFS_BUFPOOL_H
#define CCSFS_BUFPOOL_H

#include <stddef.h>

/* Buffers below this come from malloc and go back to free. */
#define BUFPOOL_MIN (64u << 10)

/* The most the pool keeps (0 at start: nothing is kept).  fs_new sets a
 * sixteenth of cache_size and charges it to the cache. */
void bufpool_set_limit(size_t bytes);
/* As malloc: size bytes, NULL when out of memory. */
void *bufpool_alloc(size_t size);
/* As bufpool_alloc, for a buffer the caller is about to write: the pages
 * of its first fill bytes are faulted in by one call.  A page fault
 * each costs an exception, which on a virtual machine costs more than
 * clearing the page: faults were a sixth of the daemon's time in a glob
 * of every member's .ccs.  fill is what the caller knows it will write,
 * not what it might: a broken member's trailer may claim a gigabyte. */
void *bufpool_alloc_filled(size_t size, size_t fill);
/* As free, for anything malloc or bufpool_alloc returned. */
void bufpool_free(void *p);
/* Frees what the pool keeps (at unmount, so that leak checkers see a
 * clean exit). */
void bufpool_drain(void);

#endif
