/* SPDX-License-Identifier: MIT */
/* fuse_write.h - the FUSE side of an overlay mount (-o overlay=DIR):
 * opens for writing, writes, the close that takes an edit, truncation,
 * files made, renamed and removed in the overlay's folder, and the
 * files that are the folder's own (an editor's backups, OVERLAY_LISTING).
 *
 * A file of the tree opened for writing is written to a staged file of
 * the folder (edit/store.h); its flush (close) puts it at its path and
 * takes the edit, failing with EINVAL when it is refused.  A file the
 * tree does not have lives in the folder and is named to the kernel by
 * a spare handle (tree_spare_handle): 0 is OVERLAY_LISTING, others an
 * index into the paths seen.
 */
#ifndef CCSFS_FUSE_WRITE_H
#define CCSFS_FUSE_WRITE_H

#include <stdbool.h>
#include <sys/stat.h>

#include "fuse/fuse_ops.h"

struct overlay;

/* Makes the mount read-write over ov; before the session serves. */
void fuse_write_set(struct overlay *ov);
/* Whether the mount has an overlay. */
bool fuse_write_on(void);

/* A tree node's attributes as an overlay mount shows them: 0644 for a
 * file an edit can change, the size of what is being written or of a
 * disc file's edit.  Within tree_enter. */
void fuse_write_attr(struct fs *fs, struct node *n, struct stat *st);

/* A name the tree does not have in dir: the folder's own file there, or
 * -ENOENT.  Within tree_enter. */
int fuse_write_lookup(struct fs *fs, struct node *dir, const char *name,
		      struct fuse_entry_param *e);
/* Attributes of a spare handle's file; -ESTALE when it is no more. */
int fuse_write_spare_attr(uint64_t ino, struct stat *st);
/* The folder's own names in dir that the tree does not have, sorted,
 * NULL-ended, malloc'ed (free with fuse_write_names_free); their
 * attributes through fuse_write_lookup.  Within tree_enter. */
char **fuse_write_names(struct fs *fs, struct node *dir, size_t *count);
void fuse_write_names_free(char **names, size_t count);

/* fi->fh of a file opened here (the glue's own handles are below it). */
bool fuse_write_owns(const struct fuse_file_info *fi);
/* OPEN when the mount has an overlay; false: not ours, the glue goes
 * on (a read-only open of a file of the tree as it is). */
bool fuse_write_open(fuse_req_t req, fuse_ino_t ino,
		     struct fuse_file_info *fi);
void fuse_write_read(fuse_req_t req, size_t size, off_t off,
		     struct fuse_file_info *fi);
void fuse_write_release(struct fuse_file_info *fi);

/* The operations only an overlay mount has. */
void fuse_write_ops(struct fuse_lowlevel_ops *ops);

#endif
