/* SPDX-License-Identifier: MIT */
/* gameindex.h - the source's executable: the file SYSTEM.CNF's BOOT2
 * line names, read once, on first use, and kept for its tables: DATA.BIN's
 * index (archive/fdtbl.h), the stream tables (archive/strtbl.h) and the
 * message tables (archive/msgtbl.h), each read on first use.  An
 * executable without symbols is read with a symbol list given
 * (-o symbols=FILE).  doc/formats/tree.md, The game's index. */
#ifndef CCSFS_GAMEINDEX_H
#define CCSFS_GAMEINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "archive/fdtbl.h"
#include "archive/msgtbl.h"
#include "archive/strtbl.h"
#include "io/symfile.h"
#include "tree/tree.h"
#include "util/reason.h"

/* Reads the file at a path from the source's root, its folders
 * separated by backslashes and matched without regard to case, into a
 * malloc'ed buffer of at most max bytes.  0, -ENOENT, -EFBIG or another
 * negative errno. */
typedef int (*game_read_fn)(void *ctx, const char *path, size_t max,
			    uint8_t **data, size_t *len);


struct game_index;

/* syms: the executable's symbols when it has none (NULL: none given);
 * they outlive the index. */
struct game_index *game_index_new(struct fs *fs, game_read_fn read,
				  void *ctx, const struct symfile *syms);

/* The tables, or NULL; why names the executable read, or says why
 * there are no tables. */
const struct fdtbl *game_index_table(struct game_index *gi, struct reason *why);

/* The message tables, or NULL (why says why; the first time, it is
 * logged); *exe the executable's path. */
const struct msgtbl *game_index_text(struct game_index *gi, const char **exe,
				     struct reason *why);

/* The stream tables, or NULL (why says why). */
const struct strtbl *game_index_streams(struct game_index *gi,
					struct reason *why);

/* The archive that the index describes: DATA/DATA.BIN from the root. */
int game_index_archive(const char *tree_path);

#endif
