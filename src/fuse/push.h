/* SPDX-License-Identifier: MIT */
/* push.h - members the cache evicts before anyone read their .ccs, handed
 * to the kernel's page cache (fuse_lowlevel_notify_store) by a thread of
 * their own, so that a later read of the .ccs costs no inflation.
 * tree/handoff.c says which and why. */
#ifndef CCSFS_PUSH_H
#define CCSFS_PUSH_H

#include "fuse/fuse_ops.h"

struct fs;

/* Starts the thread once the session is mounted (and after any fork);
 * 0 or a negative errno (then nothing is handed over). */
int push_start(struct fuse_session *se, struct fs *fs);
/* Stops it when the session's loop has ended, before the unmount, and
 * drops what was still queued. */
void push_stop(void);

#endif
