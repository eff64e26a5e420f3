/* SPDX-License-Identifier: MIT */
/* store.h - the overlay's folder on the host: every edit a plain file
 * at its path in the tree, replaced atomically.
 *
 * A file is written under .ccsfs/tmp/ first and renamed over its path
 * once fsync'ed, and the folder that holds it is fsync'ed after: a crash
 * leaves the old file or the new, whole.  .ccsfs/lock is held (flock)
 * by the one mount or program that writes the folder.  Paths are
 * relative to the folder, without a leading slash; .ccsfs at its top is
 * the store's own and no part of the tree.
 */
#ifndef CCSFS_STORE_H
#define CCSFS_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct store;

/* The store's own folder at the top of DIR. */
#define STORE_OWN ".ccsfs"

/* Opens DIR (made when missing); lock: take .ccsfs/lock, refused with a
 * message in err while another holds it.  0 or a negative errno. */
int store_open(const char *dir, bool lock, struct store **out, char *err,
	       size_t errlen);
void store_close(struct store *st);
const char *store_dir(const struct store *st);

/* A new file under .ccsfs/tmp/, open for reading and writing: its fd,
 * and its name in tmp (room for STORE_TMP_NAME). */
#define STORE_TMP_NAME 32
int store_stage(struct store *st, char tmp[STORE_TMP_NAME]);
/* The staged file (fd open on it) becomes path: fsync'ed, renamed over
 * it (the folders above made as needed), the folder fsync'ed. */
int store_commit(struct store *st, int fd, const char *tmp,
		 const char *path);
/* Drops a staged file that is not to be kept. */
void store_unstage(struct store *st, const char *tmp);

/* A file in the store: stat (-ENOENT when there is none or it is not a
 * regular file), open, remove, rename (the source fsync'ed first, the
 * target's folders made). */
int store_stat(struct store *st, const char *path, struct stat *sb);
int store_open_file(struct store *st, const char *path, int flags,
		    mode_t mode);
int store_remove(struct store *st, const char *path);
int store_rename(struct store *st, const char *from, const char *to);
/* The whole file, malloc'ed. */
int store_read(struct store *st, const char *path, uint8_t **data,
	       size_t *len);

/* Calls fn for every regular file below path ("" the top; .ccsfs left
 * out), in no set order.  The names of one folder (names NULL-ended,
 * malloc'ed with the array): store_names. */
typedef void (*store_file_fn)(void *ctx, const char *path);
int store_walk(struct store *st, const char *path, store_file_fn fn,
	       void *ctx);
int store_names(struct store *st, const char *path, char ***names,
		size_t *count);

#endif
