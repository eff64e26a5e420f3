/* SPDX-License-Identifier: MIT */
/* png_stored.h - an indexed PNG whose image data is stored, not
 * compressed.
 *
 * Its layout is fixed by its width, height, bit depth, palette and text,
 * so its size is known before a byte is made: a listing gives the exact
 * size of every texture.png without making one, and writing one is a
 * copy with CRC-32 and Adler-32, at memory speed.  libpng cannot say a
 * file's size before writing it, nor take image data it did not
 * compress, so this module lays out the chunks itself (PNG 1.2 and
 * RFC 1950/1951; doc/formats/texture.md, Stored PNGs).  The bytes are
 * those libpng writes around libdeflate's level 0: IHDR, PLTE, tRNS
 * unless every alpha is 255, tEXt or iTXt, one IDAT of stored deflate
 * blocks of at most 65,535 bytes, IEND.
 */
#ifndef CCSFS_PNG_STORED_H
#define CCSFS_PNG_STORED_H

#include <stddef.h>
#include <stdint.h>

#include "decode/texture/texture.h"

/* An image and what goes around it.  The caller has checked it: width
 * and height 1 to 1024, depth 4 or 8, 1 to 2^depth colours, every index
 * below colours, keys as png_stored_text_ok() wants them. */
struct png_indexed {
	uint32_t width, height;
	int bit_depth;
	const uint8_t (*rgba)[4];       /* colours entries */
	uint32_t colours;
	const struct png_text_entry *text;
	size_t text_count;
};

/* True when every key is 1-79 printable ASCII characters with no
 * leading, trailing or doubled space: the keys libpng writes unchanged. */
bool png_stored_text_ok(const struct png_text_entry *text, size_t n);

/* The file's size in bytes. */
size_t png_stored_size(const struct png_indexed *p);

/* Writes the file, exactly png_stored_size(p) bytes, at out; index holds
 * width * height indices, top row first. */
void png_stored_write(const struct png_indexed *p, const uint8_t *index,
		      uint8_t *out);

#endif
