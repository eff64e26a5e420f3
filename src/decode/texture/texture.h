/* SPDX-License-Identifier: MIT */
/* texture.h - texture (0x0300) and CLUT (0x0400) chunks as PNG images.
 *
 * Layouts and conversion rules are doc/formats/texture.md's (Texture
 * chunk, CLUT chunk, Orientation, Conversion to PNG): stored rows are
 * bottom first, at 4 bits the low nibble is the left pixel, palette
 * colours are R, G, B, A in file order and a PNG's alpha is
 * min(255, 2 * A) because the GS's opaque is 0x80.
 *
 * The steps are separate so the caller can check a chunk when it lists the
 * tree and convert only when the PNG is read:
 *
 *	texture_parse() + texture_clut_parse()     fields, pointers into the chunks
 *	texture_palette_from_clut()                RGBA8 colours
 *	texture_decode()                   one level, indices, top row first
 *	texture_png() / texture_palette_png()      indexed PNG bytes (malloc'ed)
 *
 * Every function that can fail returns 0 or a negative errno and, on
 * failure, writes a human reason (see util/reason.h)
 * to `why` when it is not NULL.  Nothing here logs.  Errors: -EIO for a
 * chunk that breaks its format (or a libpng failure), -EINVAL for a
 * caller's argument that makes no sense, -ENOMEM.
 */
#ifndef CCSFS_TEXTURE_H
#define CCSFS_TEXTURE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "util/reason.h"


#define TEXTURE_PSMT8 0x13      /* 8-bit indices */
#define TEXTURE_PSMT4 0x14      /* 4-bit indices, low nibble left */
#define TEXTURE_MAX_LOG2 10     /* tw, th: at most 1024 x 1024 */
#define TEXTURE_MAX_LEVELS 4    /* ccTexChunkDesc.pos[4]: mipmap <= 3 */
#define CLUT_MAX_COLOURS 256

struct texture_level {
	uint16_t buf_x, buf_y;          /* VRAM placement, as stored */
	uint32_t width, height;         /* (1 << tw) >> n, at least 1 */
	const uint8_t *pixels;          /* into the chunk, bottom row first */
	size_t bytes;                   /* 4 * the level's count */
};

struct texture {
	uint32_t object;                /* the TEX_ entry */
	uint32_t clut;                  /* the CLT_ entry */
	uint32_t blt_group;             /* 0 before version 0x92 */
	uint8_t flag, psm, mipmap, aref, tw, th;
	unsigned levels;                /* mipmap + 1 */
	struct texture_level level[TEXTURE_MAX_LEVELS];
	size_t length;                  /* bytes the chunk used, header in */
};

struct clut {
	uint32_t object;                /* the CLT_ entry */
	uint32_t blt_group;             /* 0 before version 0x92 */
	uint8_t flag, cpsm, unknown2, unknown3;
	uint16_t buf_x, buf_y;
	uint32_t count;                 /* even, 2..256 (16 or 256 on disc) */
	const uint8_t *colours;         /* into the chunk: count x R, G, B, A */
	size_t length;                  /* bytes the chunk used, header in */
};

/* Colours ready for a PNG: alpha already min(255, 2 * A). */
struct palette {
	uint32_t count;
	uint8_t rgba[CLUT_MAX_COLOURS][4];
};

/* One level as one palette index a byte, top row first. */
struct indexed_image {
	uint32_t width, height;
	uint8_t *index;                 /* width * height, malloc'ed */
};

/* A PNG text chunk: tEXt when the text is printable ASCII, else iTXt
 * (UTF-8), since object names come from Shift-JIS.  key: 1-79 bytes of
 * printable ASCII (-EINVAL otherwise); a key libpng still refuses, such as
 * one of spaces only, fails with -EIO and libpng's reason. */
struct png_text_entry {
	const char *key;
	const char *text;
};

/* p points at the chunk's 8-byte header; len is the bytes available from
 * there (its real length, or more); version is the file's header version.
 * Rejects versions below 0x90 (no size fields), psm other than 0x13/0x14,
 * tw or th above 10, mipmap above 3, and a level whose count runs past len
 * or holds fewer bytes than its pixels need. */
int texture_parse(const uint8_t *p, size_t len, uint16_t version,
		  struct texture *tex, struct reason *why);

/* Same conventions.  Rejects versions below 0x90 (no count), a count that
 * is 0, odd, above 256 or runs past len. */
int texture_clut_parse(const uint8_t *p, size_t len, uint16_t version,
	       struct clut *clut, struct reason *why);

/* The CLUT's colours in file order, alpha doubled and clamped to 255. */
void texture_palette_from_clut(const struct clut *clut, struct palette *pal);

/* Level `level` of a parsed texture as indices, top row first.  An index
 * >= palette_count is an error naming the pixel.  img->index is malloc'ed;
 * texture_image_free() releases it (also after a failure). */
int texture_decode(const struct texture *tex, unsigned level,
		   uint32_t palette_count, struct indexed_image *img,
		   struct reason *why);
void texture_image_free(struct indexed_image *img);

/* What texture_decode() would say of a level, without decoding it: the
 * check a listing makes. */
int texture_check(const struct texture *tex, unsigned level,
		  uint32_t palette_count, struct reason *why);

/* PNG image data is compressed with libdeflate when configure found it,
 * else by libpng with zlib.  Tests switch libdeflate off to check the
 * zlib path on every image; a no-op without libdeflate. */
void texture_use_libdeflate(bool on);

/* An indexed PNG of img: bit depth 8 for psm 0x13, 4 for 0x14 (whose PLTE
 * then holds the palette's first 16 colours: a 4-bit texture can only
 * reach those), PLTE from pal, tRNS unless every alpha is 255, then the
 * text entries.  Every index must be < the PLTE's size.  The image data
 * is stored (zlib level 0), so the size follows from the image's shape
 * (texture_png_size).  *png is malloc'ed; the caller frees it. */
int texture_png(const struct indexed_image *img, uint8_t psm,
		const struct palette *pal, const struct png_text_entry *text,
		size_t text_count, uint8_t **png, size_t *png_len, struct reason *why);

/* The same at zlib level `level`: 0 stores the rows, at memory speed,
 * and refuses keys that libpng would change (a leading, trailing or
 * doubled space); 1-9 compress them through libpng (-o png_level). */
int texture_png_level(const struct indexed_image *img, uint8_t psm,
		      const struct palette *pal,
		      const struct png_text_entry *text, size_t text_count,
		      int level, uint8_t **png, size_t *png_len, struct reason *why);

/* The exact size of texture_png's file for an image of this shape, this
 * palette and text, known without making it; -EINVAL when texture_png
 * would refuse them (the pixels are not looked at). */
int texture_png_size(uint32_t width, uint32_t height, uint8_t psm,
		     const struct palette *pal,
		     const struct png_text_entry *text, size_t text_count,
		     size_t *size);

/* texture_png's file without text, written at out, which has room for
 * exactly size bytes: texture_png_size's (-EINVAL otherwise).  For a
 * writer that holds the room already (scene.glb's buffer).  With out
 * NULL, only whether it can be written (every index in the palette):
 * what a measure needs, without the checksums. */
int texture_png_into(const struct indexed_image *img, uint8_t psm,
		     const struct palette *pal, uint8_t *out, size_t size,
		     struct reason *why);

#define PALETTE_SWATCH 8        /* pixels a side of one colour's square */

/* The palette as a grid of PALETTE_SWATCH-pixel squares, colour i at
 * column i % cols, row i / cols, cols 4 for up to 16 colours (32 x 32
 * pixels for 16) and 16 above (128 x 128 for 256).  An indexed PNG (bit
 * depth 4 up to 16 colours, else 8) with tRNS; cells past the last colour
 * are fully transparent black. */
int texture_palette_png(const struct palette *pal, const struct png_text_entry *text,
		size_t text_count, uint8_t **png, size_t *png_len, struct reason *why);
int texture_palette_png_level(const struct palette *pal,
		      const struct png_text_entry *text, size_t text_count,
		      int level, uint8_t **png, size_t *png_len, struct reason *why);
/* The exact size of texture_palette_png's file, as texture_png_size. */
int texture_palette_png_size(const struct palette *pal,
		     const struct png_text_entry *text, size_t text_count,
		     size_t *size);

#endif
