/* SPDX-License-Identifier: MIT */
/* pack_overlay.h - ccsfs-pack's edits as a mount's overlay takes them:
 * the tree of SOURCE opened without FUSE, DIR opened as its overlay and
 * loaded (edit/overlay.h), every edit listed with its state.  A refused
 * edit refuses the pack; an edited member's bytes are its .ccs read
 * through the tree, which holds every edit of the member (a texture.png
 * written back into its chunk, a chunk's raw file, the .ccs itself). */
#ifndef CCSFS_PACK_OVERLAY_H
#define CCSFS_PACK_OVERLAY_H

#include <stddef.h>

#include "pack/edits.h"
#include "util/reason.h"

struct pack_overlay;

/* Opens SOURCE's tree and DIR as its overlay, and takes every edit.
 * NULL with why on failure. */
struct pack_overlay *pack_overlay_open(const char *source, const char *dir,
				       size_t cache_size, struct reason *why);
void pack_overlay_close(struct pack_overlay *po);

/* pack_options.edits_ready: the overlay's edited members given to e,
 * their bytes read through the tree; -EINVAL when an edit is refused
 * (each said on standard error, as %edits.txt says it). */
int pack_overlay_ready(struct pack_edits *e, void *ctx, struct reason *why);

#endif
