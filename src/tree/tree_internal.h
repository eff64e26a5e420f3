/* SPDX-License-Identifier: MIT */
/* tree_internal.h - what tree.c (nodes, folders) and files.c (attributes
 * and reads) share; only tree/ includes it. */
#ifndef CCSFS_TREE_INTERNAL_H
#define CCSFS_TREE_INTERNAL_H

#include <stddef.h>

#include "tree/tree.h"

enum { DIR_EMPTY, DIR_BUILDING, DIR_READY };

/* The child called name, by binary search; its position in *index when
 * index is not NULL. */
struct node *tree_kid_named(const struct node *dir, const char *name,
			    size_t *index);

#endif
