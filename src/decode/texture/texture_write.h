/* SPDX-License-Identifier: MIT */
/* texture_write.h - a PNG back into a texture or CLUT chunk: what an edit
 * of texture.png, texture-mipN.png or palette.png writes
 * (doc/formats/texture.md, Back from PNG).
 *
 * A PNG from a user is untrusted: it is read by libpng with limits (at
 * most TEXTURE_PNG_MAX_SIDE pixels a side, chunks and text bounded), and
 * any fault is an error with a reason, never a crash.  The texture's
 * palette is never changed by a texture edit: where the PNG's own
 * palette is the texture's (colours as texture.png shows them), its
 * indices are taken as they are; otherwise each pixel becomes the
 * nearest colour the texture can reach (the first 16 at 4 bits).
 *
 * Stored rows are bottom first, at 4 bits the low nibble is the left
 * pixel, and the game's alpha runs 0 to 0x80: a PNG's 255 is 0x80.
 */
#ifndef CCSFS_TEXTURE_WRITE_H
#define CCSFS_TEXTURE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/texture/texture.h"
#include "util/reason.h"

/* The largest PNG read: a texture is at most 1024 a side, a palette's
 * swatch 128. */
#define TEXTURE_PNG_MAX_SIDE 1024

/* A PNG as read: RGBA8, top row first; for an indexed PNG also its
 * indices and its palette (PLTE with tRNS's alphas). */
struct png_in {
	uint32_t width, height;
	uint8_t *rgba;                  /* width * height * 4 */
	uint8_t *index;                 /* width * height, or NULL */
	uint32_t colours;               /* the PLTE's count (indexed) */
	uint8_t plte[256][4];
};

/* Reads png (len bytes).  -EINVAL with a reason for anything that is not
 * a whole, sound PNG within the limits; -ENOMEM. */
int texture_png_read(const uint8_t *png, size_t len, struct png_in *img,
		     struct reason *why);
void texture_png_in_free(struct png_in *img);

/* Level `level` of tex from img (its size must be the level's), written
 * into out: the texture chunk's bytes as tex was parsed from them at
 * parsed, copied to out.  remake_mips: level 0 makes every lower level
 * again from img, each a 2x2 average of the one above.  -EINVAL with a
 * reason when the size differs. */
int texture_write_png(const struct texture *tex, const uint8_t *parsed,
		      uint8_t *out, const struct palette *pal, unsigned level,
		      const struct png_in *img, bool remake_mips,
		      struct reason *why);

/* The palette swatch (texture_palette_png's grid, same size) back into
 * the CLUT chunk parsed at parsed, copied to out: each cell's top-left
 * pixel is its colour.  A colour the swatch shows as it was keeps its
 * stored bytes (alpha above 0x80 too). */
int texture_clut_write_png(const struct clut *clut, const uint8_t *parsed,
			   uint8_t *out, const struct png_in *img,
			   struct reason *why);

/* The index in pal (its first `reach` colours) nearest rgba. */
uint8_t texture_nearest(const struct palette *pal, uint32_t reach,
			const uint8_t rgba[4]);

#endif
