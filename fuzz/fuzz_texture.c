/* SPDX-License-Identifier: MIT */
/* fuzz_texture.c - the PNG producer: texture_parse + texture_clut_parse +
 * texture_decode + texture_png for every level, and texture_palette_png.
 *
 * Input: byte 0 picks the header version (0x90, 0x92, 0x96, 0x100),
 * bytes 1-2 (little-endian) are the texture chunk's length, then the
 * texture chunk, then the CLUT chunk (the rest).  Each chunk is copied to
 * a buffer of exactly its length.  When the CLUT does not parse, a grey
 * 256-colour palette stands in so the texture side still runs. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode/texture/texture.h"
#include "fuzz_common.h"

static const struct png_text_entry text[] = {
	{ "Title", "TEX_xasc00" },
	{ "Comment", "\xe6\x96\x87\xe5\xad\x97 non-ASCII: iTXt" },
};

static void check_why(const struct reason *why)
{
	if (!memchr(why->text, '\0', sizeof why->text))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	uint16_t version = FUZZ_VERSION(data[0]);
	size_t tlen = (size_t)(data[1] | data[2] << 8);
	size_t rest = size - 3;
	if (tlen > rest)
		tlen = rest;
	uint8_t *tchunk = fuzz_dup(data + 3, tlen);
	uint8_t *cchunk = fuzz_dup(data + 3 + tlen, rest - tlen);
	if (!tchunk || !cchunk)
		goto out;
	struct reason why = { "" };
	struct palette pal;
	struct clut clut;
	memset(&why, 0x55, sizeof why);
	if (texture_clut_parse(cchunk, rest - tlen, version, &clut, &why) == 0) {
		if (clut.length > rest - tlen)
			abort();
		texture_palette_from_clut(&clut, &pal);
		uint8_t *png = NULL;
		size_t png_len = 0;
		size_t want = 0;
		if (texture_palette_png(&pal, text, 2, &png, &png_len, &why) == 0 &&
		    (!png || png_len < 8 ||
		     texture_palette_png_size(&pal, text, 2, &want) != 0 ||
		     want != png_len))
			abort();
		free(png);
	} else {
		check_why(&why);
		memset(&pal, 0, sizeof pal);
		pal.count = CLUT_MAX_COLOURS;
		for (unsigned i = 0; i < CLUT_MAX_COLOURS; i++)
			memset(pal.rgba[i], (int)i, 3), pal.rgba[i][3] = 255;
	}
	struct texture tex;
	memset(&why, 0x55, sizeof why);
	if (texture_parse(tchunk, tlen, version, &tex, &why) != 0) {
		check_why(&why);
		goto out;
	}
	if (tex.length > tlen || tex.levels > TEXTURE_MAX_LEVELS)
		abort();
	for (unsigned n = 0; n <= tex.levels; n++) {   /* one past: -EINVAL */
		struct indexed_image img;
		memset(&why, 0x55, sizeof why);
		int rc = texture_decode(&tex, n, pal.count, &img, &why);
		if (rc == 0) {
			uint8_t *png = NULL;
			size_t png_len = 0;
			size_t want = 0;
			/* The size a listing gives is the size made. */
			if (texture_png(&img, tex.psm, &pal, text, 2, &png,
					&png_len, &why) == 0 &&
			    (!png || texture_png_size(img.width, img.height,
						      tex.psm, &pal, text, 2,
						      &want) != 0 ||
			     want != png_len))
				abort();
			free(png);
		} else {
			check_why(&why);
		}
		texture_image_free(&img);
	}
out:
	free(tchunk);
	free(cchunk);
	return 0;
}
