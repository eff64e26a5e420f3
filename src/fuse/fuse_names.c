/* SPDX-License-Identifier: MIT */
/* fuse_names.c - an overlay mount's removals and renames. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "edit/overlay.h"
#include "edit/store.h"
#include "fuse/fuse_names.h"
#include "fuse/spare.h"
#include "tree/tree.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE 2
#endif

/* What a name in a folder is, seen from the overlay. */
enum name_is { NAME_NONE, NAME_TREE_FILE, NAME_TREE_OTHER, NAME_OWN };

/* Within tree_enter: what name in the folder ino is, and its path. */
static int name_at(struct fs *fs, fuse_ino_t ino, const char *name,
		   char *path, size_t size, enum name_is *is, bool *editable)
{
	struct node *dir = tree_node(fs, ino);
	if (!dir)
		return -ESTALE;
	if (!tree_is_dir(dir))
		return -ENOTDIR;
	int err;
	struct node *n = tree_child(fs, dir, name, &err);
	int rc = spare_path(dir, name, path, size);
	if (rc < 0)
		return rc;
	struct stat sb;
	*editable = n && tree_is_file(n) &&
		    overlay_editable(spare_overlay(), n);
	if (n)
		*is = tree_is_file(n) ? NAME_TREE_FILE : NAME_TREE_OTHER;
	else if (spare_reserved(dir, name))
		*is = NAME_TREE_OTHER;
	else if (store_stat(overlay_store(spare_overlay()), path, &sb) == 0)
		*is = NAME_OWN;
	else
		*is = NAME_NONE;
	return 0;
}

static void on_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fs *fs = fuse_req_userdata(req);
	struct overlay *ov = spare_overlay();
	char path[4096];
	enum name_is is;
	bool editable;
	tree_enter(fs);
	int rc = name_at(fs, parent, name, path, sizeof path, &is, &editable);
	tree_leave(fs);
	if (rc == 0 && is == NAME_TREE_FILE) {
		/* The file stays; its edit goes. */
		if (!overlay_has_edit(ov, path))
			rc = -EACCES;
		else
			rc = store_remove(overlay_store(ov), path);
		if (rc == 0 || rc == -ENOENT)
			rc = overlay_drop(ov, path);
	} else if (rc == 0) {
		rc = is == NAME_OWN ? store_remove(overlay_store(ov), path) :
		     is == NAME_NONE ? -ENOENT : -EACCES;
	}
	fuse_reply_err(req, -rc);
}

static void on_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname,
		      unsigned int flags)
{
	struct fs *fs = fuse_req_userdata(req);
	struct overlay *ov = spare_overlay();
	char from[4096], to[4096];
	enum name_is from_is, to_is;
	bool from_edit, to_edit;
	tree_enter(fs);
	int rc = name_at(fs, parent, name, from, sizeof from, &from_is,
			 &from_edit);
	if (rc == 0)
		rc = name_at(fs, newparent, newname, to, sizeof to, &to_is,
			     &to_edit);
	tree_leave(fs);
	if (rc == 0 && (flags & RENAME_EXCHANGE))
		rc = -EINVAL;
	/* The tree's own files and folders stay where they are. */
	else if (rc == 0 && from_is != NAME_OWN)
		rc = from_is == NAME_NONE ? -ENOENT : -EACCES;
	else if (rc == 0 && to_is != NAME_NONE && (flags & RENAME_NOREPLACE))
		rc = -EEXIST;
	else if (rc == 0 && (to_is == NAME_TREE_OTHER ||
			     (to_is == NAME_TREE_FILE && !to_edit)))
		rc = -EACCES;
	if (rc == 0)
		rc = store_rename(overlay_store(ov), from, to);
	/* Over a file of the tree: an edit of it, as a close would take. */
	if (rc == 0 && to_is == NAME_TREE_FILE)
		rc = overlay_take(ov, to);
	fuse_reply_err(req, -rc);
}

void fuse_names_ops(struct fuse_lowlevel_ops *ops)
{
	ops->unlink = on_unlink;
	ops->rename = on_rename;
}
