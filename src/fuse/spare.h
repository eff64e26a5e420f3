/* SPDX-License-Identifier: MIT */
/* spare.h - what an overlay mount shows that the tree does not have: the
 * overlay's listing (OVERLAY_LISTING, at the root) and the files of the
 * overlay's folder at paths where the tree has nothing (an editor's
 * backup, a file about to be renamed over one of the tree's).  The
 * kernel names them by spare handles (tree_spare_handle): 0 the listing,
 * others an index into the paths seen, which stays for the mount.
 */
#ifndef CCSFS_SPARE_H
#define CCSFS_SPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "fuse/fuse_ops.h"

struct overlay;

/* The mount's overlay, set once before the session serves; NULL for a
 * read-only mount. */
void spare_set_overlay(struct overlay *ov);
struct overlay *spare_overlay(void);

#define SPARE_LISTING 0u

/* dir's path joined with name, in buf; -ENAMETOOLONG.  Within
 * tree_enter. */
int spare_path(struct node *dir, const char *name, char *buf, size_t size);
/* The id of the folder's file at path (added when new), or -ENOMEM. */
int64_t spare_id(const char *path);
/* The path of a spare id, copied to buf: false for none. */
bool spare_path_of(uint32_t id, char *buf, size_t size);
/* The attributes of the file a spare handle names, for uid and gid of
 * the mount's user; -ESTALE when it is gone. */
int spare_attr(uint32_t id, uid_t uid, gid_t gid, struct stat *st);
/* A name the tree does not have in dir: its entry when the folder has a
 * file there (or it is the listing), else -ENOENT.  Within tree_enter. */
int spare_lookup(struct fs *fs, struct node *dir, const char *name,
		 struct fuse_entry_param *e);
/* The folder's names in dir that the tree does not have, sorted, the
 * listing's first at the root; free with spare_names_free.  Within
 * tree_enter. */
char **spare_names(struct fs *fs, struct node *dir, size_t *count);
void spare_names_free(char **names, size_t count);
/* Whether a name may not be made at dir (the store's own, the
 * listing). */
bool spare_reserved(struct node *dir, const char *name);

#endif
