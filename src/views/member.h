/* SPDX-License-Identifier: MIT */
/* member.h - archive directories and the scene directories of their
 * members: doc/formats/tree.md's "An archive directory", "A member
 * directory" and "An object directory".
 *
 * An archive is scanned when its directory is first used (DATA.BIN is
 * listed from the game's index as the mount starts, archive_dir_warm,
 * but never scanned then); a member is
 * inflated (through the cache) and walked when its directory is first
 * used.  What inflation and the walk learn is kept with the member, so
 * the directory stays the same when its bytes are evicted and made again.
 */
#ifndef CCSFS_MEMBER_H
#define CCSFS_MEMBER_H

#include <stdbool.h>
#include <time.h>

#include "ccsf/ccsf.h"
#include "io/blob.h"
#include "tree/tree.h"
#include "util/strbuf.h"

struct member;
struct game_index;

/* Adds the directory of an archive that is the host file `path` (fd -1:
 * opened on first use) or a blob of an open image.  gi: the source's
 * executable, whose index gives DATA/DATA.BIN's members (or NULL). */
struct node *archive_dir_add(struct dir_builder *b, const char *name,
			     time_t mtime, const char *path,
			     const struct blob *blob, struct game_index *gi);

/* Whether a folder is an archive's. */
bool archive_dir_is(const struct node *dir);

/* Compares, for an archive folder whose members came from the game's
 * index, a full scan of the archive and what inflation learnt with the
 * table, and calls report once per disagreement (member: the member's
 * folder name, or NULL for the archive).  0 or a negative errno. */
typedef void (*table_report_fn)(void *ctx, const char *member,
				const char *msg);
int archive_dir_table_check(struct fs *fs, struct node *dir,
			    table_report_fn report, void *ctx);

/* Lists DATA/DATA.BIN from the game's index on a worker, once the mount
 * serves (after any fork), and checks its members there: a first listing right after the
 * mount finds them listed.  Nothing else is read ahead; without an index
 * that describes the archive, its scan waits for a reader. */
void archive_dir_warm(struct fs *fs);

/* The root of a mount whose source is a single archive. */
struct node *archive_dir_root(struct fs *fs, time_t mtime, const char *path);

/* Views of a member's inflated bytes (their source is the struct
 * member): -EIO for the whole member when it did not inflate cleanly. */
extern const struct view_ops member_view_ops;

/* A member's inflated bytes (possibly what inflated before a fault), by
 * reference, through the cache. */
int member_bytes(struct fs *fs, struct member *m, struct cache_ref *ref);

/* Text made from a member's bytes: the shape every text producer shares.
 * n is the made file (its ctx the member, its arg fn's); fn appends to
 * out and returns 0 or a negative errno.  With data NULL the text is only
 * measured (see dir_add_measured); a long one may give -EAGAIN, for
 * made_fill to run it again (tree_made_text_init). */
typedef int (*member_text_fn)(struct member *m, const uint8_t *data,
			      size_t len, uint32_t arg, struct strbuf *out);
int member_text(struct fs *fs, struct node *n, member_text_fn fn,
		uint8_t **data, size_t *len);

/* What the walk and naming learnt, for object folders and their
 * producers; valid once the member's folder is populated. */
const struct ccsf_scene *member_scene(const struct member *m);
const char *member_object_name(const struct member *m, uint32_t index);
const char *member_name(const struct member *m);
/* The archive's path in the tree ("DATA/DATA.BIN"). */
const char *member_archive(const struct member *m);
time_t member_mtime(const struct member *m);

/* ---- edits (member_edit.c) ----
 *
 * What an edit of a file in a member's folder is: a slice of the member
 * replaced (a chunk's raw file, the trailer, the member's .ccs), a
 * texture level or a palette written back from a PNG.  *m: the member. */
enum member_edit {
	MEMBER_EDIT_NONE,
	MEMBER_EDIT_SLICE,
	MEMBER_EDIT_TEXTURE,            /* texture.png: mip levels made again */
	MEMBER_EDIT_MIP,                /* texture-mipN.png */
	MEMBER_EDIT_PALETTE,
};
enum member_edit member_edit_of(const struct node *file, struct member **m);
/* The member's inflated bytes with file's edit `in` taken (malloc'ed in
 * *out): -EINVAL with a reason when it cannot be (another size, a bad
 * PNG, a chunk of another kind or object, a member that no longer
 * walks), -EACCES for a file no edit can change.  Within tree_enter,
 * file's folder populated from the member's bytes as they are now. */
int member_edit_make(struct fs *fs, const struct node *file,
		     const uint8_t *in, size_t len, uint8_t **out,
		     size_t *out_len, struct reason *why);
/* The member's bytes are bytes from now on (taken, malloc'ed), or the
 * disc's again (NULL): its folder is made again from them, and what was
 * made of the old ones is forgotten.  Outside tree_enter.  0, or -EBUSY
 * when a thread holds the member's folder (nothing changed). */
int member_edit_set(struct fs *fs, struct member *m, uint8_t *bytes,
		    size_t len);
/* Whether the member's bytes are an edit's, and their count. */
bool member_edited(const struct member *m, size_t *len);
/* The member's folder. */
struct node *member_dir(const struct member *m);

/* The name of the listing in an archive directory: '%' is escaped in
 * member names, so no member can take it. */
#define ARCHIVE_LISTING "%members.txt"

#endif
