/* SPDX-License-Identifier: MIT */
/* object.h - one object's folder (doc/formats/tree.md, "An object
 * directory"): each chunk the object owns raw and decoded, and what is
 * made of them, such as texture.png and palette.png.
 */
#ifndef CCSFS_OBJECT_H
#define CCSFS_OBJECT_H

#include <stddef.h>
#include <stdint.h>

#include "tree/tree.h"
#include "views/member.h"

struct object_build {
	struct member *m;
	uint32_t object;
	const uint32_t *chunks;         /* indices into the scene, file order */
	uint32_t count;
	const uint8_t *data;            /* the member's bytes, while listing */
	size_t len;
	const char *defined;            /* where a '#' object is defined */
};

/* Fills the object's folder.  What cannot be made (a texture whose sizes
 * lie, a missing palette) is still listed, fails with EIO when opened,
 * and error.txt in the folder says why. */
int object_populate(struct fs *fs, struct node *dir,
		    const struct object_build *ob);

/* Whether a file is an object's texture.png (or a mip level's) or its
 * palette.png, and then its chunk in the member's scene and its level:
 * what an edit of it writes back (views/member_edit.c). */
enum object_png { OBJECT_PNG_NONE, OBJECT_PNG_TEXTURE, OBJECT_PNG_PALETTE };
enum object_png object_png_of(const struct node *file, uint32_t *chunk,
			      unsigned *level);

#endif
