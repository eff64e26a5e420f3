/* SPDX-License-Identifier: MIT */
/* source.h - what a mount reads: a directory holding a disc's files, or
 * a single archive.  Archives are told by their content (a first sector
 * that opens a gzip member), never by their name.
 */
#ifndef CCSFS_SOURCE_H
#define CCSFS_SOURCE_H

#include <stddef.h>

#include "tree/tree.h"

/* Checks SOURCE and makes the tree's root.  Nothing is scanned yet: that
 * waits for first use.  On failure returns a negative errno and writes a
 * one-line reason to err. */
int source_open(struct fs *fs, const char *path, char *err, size_t errlen);

/* The same, with the symbols of an executable that has none: the
 * nm-style list in the file at symbols (NULL: none), read now. */
int source_open_symbols(struct fs *fs, const char *path, const char *symbols,
			char *err, size_t errlen);

#endif
