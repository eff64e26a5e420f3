/* SPDX-License-Identifier: MIT */
/* image.h - an ISO 9660 image written again with some of its files
 * changed (doc/formats/pack.md, The image).
 *
 * Every file that did not grow past its last sector keeps its sectors
 * and is written over its old bytes; a file that grew goes after the
 * image's last sector, its directory record's extent and size (both
 * byte orders) rewritten, and the volume descriptors' volume space
 * size made to cover it.  Everything else is the source's bytes, copied
 * as they are.
 */
#ifndef CCSFS_PACK_IMAGE_H
#define CCSFS_PACK_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "pack/copy.h"
#include "pack/source.h"
#include "util/reason.h"

/* A file whose bytes change: its new size, and how they are written at
 * an offset of the output. */
struct pack_image_change {
	const struct pack_file *f;
	uint64_t new_size;
	int (*write)(void *ctx, int out, uint64_t at, struct pack_progress *pg);
	void *ctx;
	uint64_t out_offset;    /* set by pack_image_place */
	bool moved;
};

/* Places each change: in its old sectors or after the image's end.
 * Sets *size to the output's size.  -EINVAL with why when a moved
 * file has an extended attribute record or passes 4 GiB. */
int pack_image_place(const struct pack_source *s,
		     struct pack_image_change *c, size_t n, uint64_t *size,
		     struct reason *why);

/* Writes the image to out: the source copied around the changes, the
 * changes, their records and the volume size.  0 or a negative errno
 * with why. */
int pack_image_write(const struct pack_source *s,
		     const struct pack_image_change *c, size_t n,
		     uint64_t size, int out, struct pack_progress *pg,
		     struct reason *why);

#endif
