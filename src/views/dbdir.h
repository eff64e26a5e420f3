/* SPDX-License-Identifier: MIT */
/* dbdir.h - a model database (DBnnMOD.BIN, doc/formats/dbmod.md) as a
 * folder: models.txt and one folder per model id (doc/formats/tree.md,
 * A model database). */
#ifndef CCSFS_DBDIR_H
#define CCSFS_DBDIR_H

#include <stdbool.h>
#include <time.h>

#include "io/blob.h"
#include "tree/tree.h"

/* True when a file's first bytes are a model database's. */
bool dbdir_probe(const uint8_t *p, size_t len);

/* Adds the folder of a database that is the host file `path` (blob NULL)
 * or lies in an open image (blob). */
struct node *dbdir_add(struct dir_builder *b, const char *name, time_t mtime,
		       const char *path, const struct blob *blob);

/* The root of a mount whose source is a database. */
struct node *dbdir_root(struct fs *fs, time_t mtime, const char *path);

#endif
