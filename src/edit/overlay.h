/* SPDX-License-Identifier: MIT */
/* overlay.h - a mount's edits: every file in the overlay's folder that
 * is a file of the tree is an edit of it, taken when it is written
 * (overlay_take), taken back when it goes (overlay_drop), and all taken
 * again when the folder is opened with the tree (overlay_open).
 *
 * What an edit is, per file, is views/member.h's (member_edit_of): a
 * chunk's raw file, the trailer or the member's .ccs replaces those
 * bytes; texture.png, a mip level or palette.png writes the image back
 * into its chunk.  A passed-through disc file's edit is its whole new
 * content, read from the folder.  Any other file of the tree refuses
 * edits; a file of the folder that is not in the tree (an editor's
 * backup) is no edit, only shown.
 *
 * A member's edits are taken in this order, on the bytes the ones
 * before made: its .ccs, chunks' raw files and the trailer, palettes,
 * texture.png, mip levels; then by path.  An edit that cannot be taken
 * is refused: it stays in the folder, is listed with its reason, and
 * the member keeps the bytes it had.
 *
 * A program that reads the edited disc without FUSE (ccsfs-pack) opens
 * the tree, then the overlay (with OVERLAY_NO_LOCK beside a mount that
 * holds the lock), loads it, lists the edits with overlay_edits, and
 * reads each edited
 * member's inflated bytes as its <archive>/<member>/<member>.ccs in the
 * tree, and each edited disc file from overlay_disc_file's path.
 */
#ifndef CCSFS_OVERLAY_H
#define CCSFS_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "edit/store.h"
#include "tree/tree.h"

struct overlay;

/* The name of the listing at the root of an overlay mount. */
#define OVERLAY_LISTING "%edits.txt"

/* flags: do not take the folder's lock (a reader beside a mount). */
#define OVERLAY_NO_LOCK 1u

/* Opens the folder dir (made when missing) for fs, and takes its lock
 * (unless OVERLAY_NO_LOCK): err says what went wrong, for the user (the
 * lock held by another mount, a folder that cannot be made).  Nothing
 * is read yet.  0 or a negative errno. */
int overlay_open(struct fs *fs, const char *dir, unsigned flags,
		 struct overlay **out, char *err, size_t errlen);
/* Takes every edit in the folder, in order, over fs, whose root is set
 * (a daemon: after its fork, since it starts the tree's workers).
 * Outside tree_enter.  0, or a negative errno when the folder cannot be
 * read (logged); refused edits are listed, not errors. */
int overlay_load(struct overlay *ov);
void overlay_close(struct overlay *ov);
struct store *overlay_store(struct overlay *ov);
struct fs *overlay_fs(struct overlay *ov);

/* One edit, as overlay_edits gives it. */
struct overlay_edit {
	const char *path;       /* its path in the tree and the folder */
	bool applied;           /* else refused */
	const char *why;        /* why refused ("" when applied) */
	/* The archive's path in the tree and the member's name (its
	 * folder's) when the edit changes a member; both NULL for a disc
	 * file's edit or a path that names nothing in the tree now. */
	const char *archive;
	const char *member;
	bool disc_file;         /* a passed-through disc file's */
	/* The member's inflated size with its edits, or the disc file's
	 * new size; 0 when refused. */
	uint64_t size;
};
/* Calls fn for each edit, by path; fn's non-zero return stops it and is
 * returned.  Any thread, within tree_enter or not; fn must not call the
 * overlay. */
typedef int (*overlay_edit_fn)(void *ctx, const struct overlay_edit *e);
int overlay_edits(struct overlay *ov, overlay_edit_fn fn, void *ctx);
/* OVERLAY_LISTING's text: one line per edit, tab-separated: path,
 * "applied" or "refused: why", the member ("ARCHIVE/MEMBER") or "disc
 * file", the new inflated size (or "-").  malloc'ed. */
int overlay_edits_text(struct overlay *ov, uint8_t **text, size_t *len);

/* Within tree_enter: whether an edit can change file. */
bool overlay_editable(struct overlay *ov, struct node *file);
/* The edit at path (the file's path in the tree) was written to the
 * folder: take it.  0 when applied (or path is no file of the tree),
 * -EINVAL when refused (one log line; listed), another negative errno
 * when the folder could not be read.  Outside tree_enter. */
int overlay_take(struct overlay *ov, const char *path);
/* The file at path left the folder: its edit is taken back, and its
 * member made again from the others.  Outside tree_enter. */
int overlay_drop(struct overlay *ov, const char *path);
/* Whether path holds an edit, applied or not. */
bool overlay_has_edit(struct overlay *ov, const char *path);
/* A disc file's applied edit: true and its size, its bytes being the
 * folder's file at path. */
bool overlay_disc_file(struct overlay *ov, const char *path,
		       uint64_t *size);

#endif
