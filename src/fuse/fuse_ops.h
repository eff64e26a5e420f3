/* SPDX-License-Identifier: MIT */
/* fuse_ops.h - the FUSE callbacks (libfuse's low-level API): inode numbers
 * to nodes, nodes to bytes.  The glue knows no format; everything it
 * serves comes through tree.h.
 *
 * Why the low-level API: a node is its own FUSE inode, so no path is
 * built and resolved per request, and the kernel may keep directory
 * listings (cache_readdir), which libfuse's path API ignores.  The
 * kernel names a node by its tree handle, good for the whole mount
 * even after its unit was let go (tree.h, units), so FORGET has nothing
 * to do.
 */
#ifndef CCSFS_FUSE_OPS_H
#define CCSFS_FUSE_OPS_H

/* 3.12: the thread loop takes a configuration object; the 3.1 wrapper
 * around it leaks the one it makes. */
#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

struct fs;
struct node;

extern const struct fuse_lowlevel_ops ccsfs_ops;

/* The kernel's name for a node is its tree handle; the root is 1.  What
 * stat says is the node's inode number (tree_ino). */
fuse_ino_t fuse_ops_ino(struct node *n);

/* How long the kernel may trust what it was told: the source never
 * changes under a mount. */
#define CCSFS_TIMEOUT 86400.0

#endif
