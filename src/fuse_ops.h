/* fuse_ops.h - the FUSE callbacks: paths to nodes, nodes to bytes.  The
 * glue knows no format; everything it serves comes through tree.h. */
#ifndef CCSFS_FUSE_OPS_H
#define CCSFS_FUSE_OPS_H

#define FUSE_USE_VERSION 31
#include <fuse.h>

extern const struct fuse_operations ccsfs_ops;

/* How long the kernel may trust what it was told: the source never
 * changes under a mount. */
#define CCSFS_TIMEOUT 86400.0

#endif
