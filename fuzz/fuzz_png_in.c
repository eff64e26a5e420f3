/* SPDX-License-Identifier: MIT */
/* fuzz_png_in.c - a user's PNG back into a texture: texture_png_read,
 * then texture_write_png into a texture of the PNG's own size (and one
 * of another size, refused) and texture_clut_write_png into a palette.
 *
 * Input: byte 0 picks the texture: bit 0 PSMT4 (else PSMT8), bit 1 mip
 * levels made again from level 0, bit 2 a 16-colour palette (else 256);
 * the rest is the PNG.  The texture's levels and the CLUT's colours lie
 * in buffers of exactly their size, so ASan sees any write past them. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode/texture/texture_write.h"
#include "fuzz_common.h"

/* A texture of w x h with up to three mip levels, its pixels in one
 * exact buffer. */
static uint8_t *make_texture(struct texture *tex, uint8_t psm, uint32_t w,
			     uint32_t h, size_t *bytes)
{
	memset(tex, 0, sizeof *tex);
	tex->psm = psm;
	size_t total = 0, at[TEXTURE_MAX_LEVELS];
	for (unsigned l = 0; l < TEXTURE_MAX_LEVELS; l++) {
		uint32_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
		tex->level[l].width = lw;
		tex->level[l].height = lh;
		size_t n = (size_t)lw * lh;
		tex->level[l].bytes = 4 * n;
		at[l] = total;
		total += psm == TEXTURE_PSMT4 ? (n + 1) / 2 : n;
		tex->levels = l + 1;
		if (lw == 1 && lh == 1)
			break;
	}
	uint8_t *px = calloc(total ? total : 1, 1);
	*bytes = total;
	for (unsigned l = 0; px && l < tex->levels; l++)
		tex->level[l].pixels = px + at[l];
	return px;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t sel = data[0];
	struct png_in img;
	struct reason why;
	memset(&why, 0x55, sizeof why);
	if (texture_png_read(data + 1, size - 1, &img, &why) < 0) {
		if (!memchr(why.text, '\0', sizeof why.text) || img.rgba)
			abort();
		return 0;
	}
	if (img.width == 0 || img.height == 0 ||
	    img.width > TEXTURE_PNG_MAX_SIDE || img.height > TEXTURE_PNG_MAX_SIDE)
		abort();
	struct palette pal = { sel & 4 ? 16 : 256, { { 0 } } };
	for (uint32_t i = 0; i < pal.count; i++)
		for (int k = 0; k < 4; k++)
			pal.rgba[i][k] = (uint8_t)(i * (k + 3));
	uint8_t psm = sel & 1 ? TEXTURE_PSMT4 : TEXTURE_PSMT8;
	struct texture tex;
	size_t bytes = 0;
	uint8_t *px = make_texture(&tex, psm, img.width, img.height, &bytes);
	/* out stands for the chunk's copy: the same size, the same offsets. */
	uint8_t *out = px ? fuzz_dup(px, bytes) : NULL;
	if (out) {
		texture_write_png(&tex, px, out, &pal, 0, &img, sel & 2, &why);
		texture_write_png(&tex, px, out, &pal, tex.levels - 1, &img,
				  false, &why);
	}
	free(out);
	free(px);
	struct clut clut = { .count = pal.count };
	uint8_t *colours = calloc(pal.count, 4);
	uint8_t *copy = calloc(pal.count, 4);
	if (colours && copy) {
		clut.colours = colours;
		texture_clut_write_png(&clut, colours, copy, &img, &why);
	}
	free(colours);
	free(copy);
	texture_png_in_free(&img);
	return 0;
}
