/* SPDX-License-Identifier: MIT */
/* fuse_names.h - an overlay mount's removals and renames: rm of an edited
 * file takes its edit back, a file of the overlay's folder renamed over
 * a file of the tree is an edit of it (how editors, cp and mv save), and
 * the folder's own files come and go as in any folder. */
#ifndef CCSFS_FUSE_NAMES_H
#define CCSFS_FUSE_NAMES_H

#include "fuse/fuse_ops.h"

/* Sets UNLINK and RENAME. */
void fuse_names_ops(struct fuse_lowlevel_ops *ops);

#endif
