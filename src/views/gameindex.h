/* SPDX-License-Identifier: MIT */
/* gameindex.h - DATA.BIN's index from the source's executable: the file
 * SYSTEM.CNF's BOOT2 line names, read once, on first use, and its tables
 * checked (archive/fdtbl.h).  doc/formats/tree.md, The game's index. */
#ifndef CCSFS_GAMEINDEX_H
#define CCSFS_GAMEINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "archive/fdtbl.h"
#include "tree/tree.h"
#include "util/reason.h"

/* Reads the file at a path from the source's root, its folders
 * separated by backslashes and matched without regard to case, into a
 * malloc'ed buffer of at most max bytes.  0, -ENOENT, -EFBIG or another
 * negative errno. */
typedef int (*game_read_fn)(void *ctx, const char *path, size_t max,
			    uint8_t **data, size_t *len);


struct game_index;

struct game_index *game_index_new(struct fs *fs, game_read_fn read,
				  void *ctx);

/* The tables, or NULL; why names the executable read, or says why
 * there are no tables. */
const struct fdtbl *game_index_table(struct game_index *gi, struct reason *why);

/* The archive that the index describes: DATA/DATA.BIN from the root. */
int game_index_archive(const char *tree_path);

#endif
