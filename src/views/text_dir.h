/* SPDX-License-Identifier: MIT */
/* text_dir.h - %text/ at the root: the game's text as gettext templates
 * (doc/formats/tree.md, The game's text). */
#ifndef CCSFS_TEXT_DIR_H
#define CCSFS_TEXT_DIR_H

#include <time.h>

#include "tree/tree.h"
#include "views/gameindex.h"

/* Adds %text/ when the executable carries a message table; else nothing
 * (game_index_text logs why, once). */
void text_dir_add(struct dir_builder *b, struct game_index *gi, time_t mtime);

#endif
