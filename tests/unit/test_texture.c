/* SPDX-License-Identifier: MIT */
/* test_texture.c - texture and CLUT chunks to PNG and back.
 *
 * Textures come from the generator (ccsw); every PNG is decoded again with
 * libpng's simplified API and each pixel compared with what the generator
 * says it put there (ccsw_pattern_index, ccsw_clut_colour), so the row
 * order, the nibble order and the alpha rule are checked independently of
 * the code under test.  Bad input is in test_texture_bad.c. */
#include "config.h"

#include <errno.h>
#include <png.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ccsw.h"
#include "decode/texture/texture.h"
#include "testutil.h"
#include "texture_build.h"

/* ---- reading PNGs back ------------------------------------------------- */

/* What the pixel of palette index i must look like, worked out from the
 * generator's colour, not from texture_palette_from_clut(). */
static void expected_rgba(const struct ccsw_clut *c, uint32_t i,
			  uint8_t out[4])
{
	uint32_t v = ccsw_clut_colour(c, i);
	uint32_t a = 2 * (v >> 24);
	out[0] = (uint8_t)v;
	out[1] = (uint8_t)(v >> 8);
	out[2] = (uint8_t)(v >> 16);
	out[3] = (uint8_t)(a > 255 ? 255 : a);
}

static uint8_t *png_to_rgba(const uint8_t *png, size_t len, uint32_t *w,
			    uint32_t *h)
{
	png_image im;
	memset(&im, 0, sizeof im);
	im.version = PNG_IMAGE_VERSION;
	assert_true(png_image_begin_read_from_memory(&im, png, len));
	im.format = PNG_FORMAT_RGBA;
	uint8_t *rgba = malloc(PNG_IMAGE_SIZE(im));
	assert_non_null(rgba);
	assert_true(png_image_finish_read(&im, NULL, rgba, 0, NULL));
	*w = im.width;
	*h = im.height;
	return rgba;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Checks the signature and that IHDR (always first) says indexed colour at
 * this bit depth and size. */
static void assert_indexed_ihdr(const uint8_t *png, size_t len,
				uint32_t width, uint32_t height, int depth)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', 13, 10, 26, 10 };
	assert_true(len > 33);
	assert_memory_equal(png, sig, 8);
	assert_int_equal(be32(png + 8), 13);
	assert_memory_equal(png + 12, "IHDR", 4);
	assert_int_equal(be32(png + 16), width);
	assert_int_equal(be32(png + 20), height);
	assert_int_equal(png[24], depth);
	assert_int_equal(png[25], 3);           /* PNG_COLOR_TYPE_PALETTE */
}

/* The first chunk of this type, or NULL. */
static const uint8_t *find_png_chunk(const uint8_t *png, size_t len,
				     const char *type, size_t *data_len)
{
	size_t pos = 8;
	while (pos + 12 <= len) {
		size_t n = be32(png + pos);
		if (n > len - pos - 12)
			break;
		if (memcmp(png + pos + 4, type, 4) == 0) {
			*data_len = n;
			return png + pos + 8;
		}
		pos += 12 + n;
	}
	return NULL;
}

/* ---- round trips ------------------------------------------------------- */

struct trip {
	uint16_t version;
	uint8_t psm, tw, th, mipmap;
	enum ccsw_pattern pattern;
	uint32_t clut_count;
	bool alpha_ramp;
};

static void check_level(const struct trip *k, const struct ccsw_texture *td,
			const struct ccsw_clut *cd, const struct texture *tex,
			const struct palette *pal, unsigned level)
{
	struct reason why = { "" };
	struct indexed_image img;
	assert_int_equal(texture_decode(tex, level, pal->count, &img, &why), 0);
	uint32_t w = (1u << k->tw) >> level, h = (1u << k->th) >> level;
	w = w ? w : 1;
	h = h ? h : 1;
	assert_int_equal(img.width, w);
	assert_int_equal(img.height, h);

	static const struct png_text_entry text[] = {
		{ "Source", "DATA/DATA.BIN xasc00 TEX_xasc00" },
	};
	uint8_t *png;
	size_t png_len;
	assert_int_equal(texture_png_level(&img, k->psm, pal, text, 1,
					   test_level, &png, &png_len, &why), 0);
	texture_image_free(&img);
	assert_indexed_ihdr(png, png_len, w, h, k->psm == 0x14 ? 4 : 8);

	size_t n = 0;
	const uint8_t *t = find_png_chunk(png, png_len, "tEXt", &n);
	assert_non_null(t);
	assert_int_equal(n, sizeof "Source" + strlen(text[0].text));
	assert_memory_equal(t, "Source\0DATA/DATA.BIN xasc00 TEX_xasc00", n);

	uint32_t rw, rh;
	uint8_t *rgba = png_to_rgba(png, png_len, &rw, &rh);
	assert_int_equal(rw, w);
	assert_int_equal(rh, h);
	uint8_t max = k->psm == 0x14 ? 15 : 255;
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			uint8_t i = ccsw_pattern_index(td->pattern,
						       td->seed + level, x, y,
						       w, h, max);
			uint8_t want[4];
			expected_rgba(cd, i, want);
			const uint8_t *got = rgba + 4 * ((size_t)y * w + x);
			if (memcmp(got, want, 4) != 0)
				fail_msg("v0x%x psm 0x%x level %u (%u, %u): "
					 "index %u want %u,%u,%u,%u got "
					 "%u,%u,%u,%u", k->version, k->psm,
					 level, x, y, i, want[0], want[1],
					 want[2], want[3], got[0], got[1],
					 got[2], got[3]);
		}
	}
	free(rgba);
	free(png);
}

static void round_trip(const struct trip *k)
{
	struct ccsw_texture td = texture_desc(k->psm, k->tw, k->th, k->mipmap,
					      k->pattern);
	struct ccsw_clut cd = clut_desc(k->clut_count, k->alpha_ramp,
					k->tw + k->version);
	struct scene s;
	build(k->version, &td, &cd, &s);

	struct reason why = { "" };
	struct texture tex;
	int rc = texture_parse(s.tex, s.tex_len, s.version, &tex, &why);
	if (rc)
		fail_msg("texture_parse: %s", &why);
	assert_int_equal(tex.length, s.tex_len);
	assert_int_equal(tex.object, 2);
	assert_int_equal(tex.clut, 1);
	assert_int_equal(tex.psm, k->psm);
	assert_int_equal(tex.levels, k->mipmap + 1u);
	assert_int_equal(tex.level[0].buf_x, 768);

	struct clut clut;
	assert_int_equal(texture_clut_parse(s.clut, s.clut_len, s.version, &clut,
				    &why), 0);
	assert_int_equal(clut.length, s.clut_len);
	assert_int_equal(clut.count, k->clut_count);
	struct palette pal;
	texture_palette_from_clut(&clut, &pal);

	for (unsigned level = 0; level < tex.levels; level++)
		check_level(k, &td, &cd, &tex, &pal, level);
	scene_free(&s);
}

static void round_trips_every_pixel(void **state)
{
	(void)state;
	static const struct trip trips[] = {
		{ 0x90, 0x13, 5, 4, 3, CCSW_PAT_NOISY, 256, true },
		{ 0x90, 0x14, 4, 4, 0, CCSW_PAT_CHECKER, 16, false },
		{ 0x92, 0x14, 4, 5, 3, CCSW_PAT_CHECKER, 16, true },
		{ 0x92, 0x13, 6, 6, 2, CCSW_PAT_GRADIENT, 256, false },
		{ 0x100, 0x13, 8, 8, 2, CCSW_PAT_NOISY, 256, true },
		{ 0x100, 0x14, 8, 7, 3, CCSW_PAT_NOISY, 16, true },
		/* 8x2 down to 1x1: odd pixel counts at 4 bits */
		{ 0x100, 0x14, 3, 1, 3, CCSW_PAT_GRADIENT, 16, true },
		/* one pixel wide: 4-bit pairs straddle rows */
		{ 0x100, 0x14, 0, 3, 3, CCSW_PAT_NOISY, 16, false },
		/* a 4-bit texture can only reach 16 of 256 colours */
		{ 0x100, 0x14, 5, 5, 1, CCSW_PAT_CHECKER, 256, true },
	};
	for (size_t i = 0; i < sizeof trips / sizeof trips[0]; i++)
		round_trip(&trips[i]);
}

/* tRNS carries alpha up to the last colour that is not opaque, and is left
 * out when every colour is. */
static void trns_trims_opaque_tail(void **state)
{
	(void)state;
	uint32_t colours[16];
	for (uint32_t i = 0; i < 16; i++)
		colours[i] = 0x80u << 24 | i * 0x10101;
	colours[3] = 0x40u << 24;               /* alpha 0x80 after doubling */
	colours[9] = 0x7fu << 24;               /* 0xfe */
	struct ccsw_clut cd = clut_desc(16, false, 0);
	cd.colours = colours;
	struct ccsw_texture td = texture_desc(0x14, 2, 2, 0, CCSW_PAT_NOISY);
	struct scene s;
	build(0x100, &td, &cd, &s);
	struct texture tex;
	struct clut clut;
	struct palette pal;
	struct indexed_image img;
	struct reason why = { "" };
	assert_int_equal(texture_parse(s.tex, s.tex_len, 0x100, &tex, &why), 0);
	assert_int_equal(texture_clut_parse(s.clut, s.clut_len, 0x100, &clut, &why), 0);
	texture_palette_from_clut(&clut, &pal);
	assert_int_equal(pal.rgba[3][3], 0x80);
	assert_int_equal(pal.rgba[9][3], 0xfe);
	assert_int_equal(pal.rgba[0][3], 0xff);
	assert_int_equal(texture_decode(&tex, 0, pal.count, &img, &why), 0);

	uint8_t *png;
	size_t len, n = 0;
	assert_int_equal(texture_png_level(&img, 0x14, &pal, NULL, 0,
					   test_level, &png, &len, &why), 0);
	const uint8_t *trns = find_png_chunk(png, len, "tRNS", &n);
	assert_non_null(trns);
	assert_int_equal(n, 10);
	assert_int_equal(trns[3], 0x80);
	assert_int_equal(trns[9], 0xfe);
	const uint8_t *plte = find_png_chunk(png, len, "PLTE", &n);
	assert_non_null(plte);
	assert_int_equal(n, 16 * 3);
	assert_int_equal(plte[3 * 5 + 1], 5);
	free(png);

	for (uint32_t i = 0; i < 16; i++)
		pal.rgba[i][3] = 255;
	assert_int_equal(texture_png_level(&img, 0x14, &pal, NULL, 0,
					   test_level, &png, &len, &why), 0);
	assert_null(find_png_chunk(png, len, "tRNS", &n));
	free(png);
	texture_image_free(&img);
	scene_free(&s);
}

/* Text that is not ASCII (an object name from Shift-JIS) goes to iTXt. */
static void utf8_text_goes_to_itxt(void **state)
{
	(void)state;
	struct palette pal = { .count = 2 };
	memset(pal.rgba, 0xff, sizeof pal.rgba);
	uint8_t index[4] = { 0, 1, 1, 0 };
	struct indexed_image img = { 2, 2, index };
	static const struct png_text_entry text[] = {
		{ "Source", "DATA/DATA.BIN town TEX_\xe7\x94\xba" },
	};
	uint8_t *png;
	size_t len, n = 0;
	struct reason why = { "" };
	assert_int_equal(texture_png_level(&img, 0x13, &pal, text, 1,
					   test_level, &png, &len, &why), 0);
	assert_null(find_png_chunk(png, len, "tEXt", &n));
	const uint8_t *itxt = find_png_chunk(png, len, "iTXt", &n);
	assert_non_null(itxt);
	assert_memory_equal(itxt, "Source\0", 7);
	assert_non_null(memmem(itxt, n, "TEX_\xe7\x94\xba", 7));
	free(png);
}

/* ---- palette swatches -------------------------------------------------- */

static void check_swatches(uint32_t count, uint32_t cols, int depth)
{
	struct ccsw_clut cd = clut_desc(count, true, 5);
	struct scene s;
	build(0x100, NULL, &cd, &s);
	struct clut clut;
	struct palette pal;
	struct reason why = { "" };
	assert_int_equal(texture_clut_parse(s.clut, s.clut_len, 0x100, &clut, &why), 0);
	texture_palette_from_clut(&clut, &pal);

	static const struct png_text_entry text[] = {
		{ "Source", "DATA/DATA.BIN xasc00 CLT_xasc00" },
	};
	uint8_t *png;
	size_t len;
	assert_int_equal(texture_palette_png_level(&pal, text, 1, test_level, &png,
					   &len, &why), 0);
	uint32_t rows = (count + cols - 1) / cols;
	assert_indexed_ihdr(png, len, cols * 8, rows * 8, depth);
	uint32_t w, h;
	uint8_t *rgba = png_to_rgba(png, len, &w, &h);
	assert_int_equal(w, cols * 8);
	assert_int_equal(h, rows * 8);
	/* Corners and middle of some swatches, and every swatch's centre. */
	for (uint32_t i = 0; i < count; i++) {
		uint8_t want[4];
		expected_rgba(&cd, i, want);
		uint32_t x0 = i % cols * 8, y0 = i / cols * 8;
		static const uint32_t spots[][2] = {
			{ 4, 4 }, { 0, 0 }, { 7, 7 }, { 0, 7 }, { 7, 0 },
		};
		size_t nspots = i % 17 == 0 || i == count - 1 ? 5 : 1;
		for (size_t k = 0; k < nspots; k++) {
			uint32_t x = x0 + spots[k][0], y = y0 + spots[k][1];
			assert_memory_equal(rgba + 4 * ((size_t)y * w + x),
					    want, 4);
		}
	}
	/* Cells after the last colour are transparent. */
	if (count < cols * rows) {
		uint32_t x = (cols - 1) * 8 + 3, y = (rows - 1) * 8 + 3;
		assert_int_equal(rgba[4 * ((size_t)y * w + x) + 3], 0);
	}
	free(rgba);
	free(png);
	scene_free(&s);
}

static void texture_palette_png_is_a_grid_of_swatches(void **state)
{
	(void)state;
	check_swatches(16, 4, 4);
	check_swatches(256, 16, 8);
	check_swatches(8, 4, 4);        /* 4x2 grid, all filled */
	check_swatches(6, 4, 4);        /* two empty cells */
	check_swatches(20, 16, 8);      /* 16x2, twelve empty */
}

/* ---- sizes known before the file is made --------------------------------- */

/* A stored PNG is as big as texture_png_size says, for every shape: odd
 * 4-bit widths, one row, a 1024 x 1024 image of 16 stored blocks, tRNS
 * or none, tEXt and iTXt; and libpng reads back every pixel. */
static void stored_size_is_known_before(void **state)
{
	(void)state;
	static const uint32_t sides[][2] = {
		{ 1, 1 }, { 3, 1 }, { 7, 5 }, { 16, 16 }, { 255, 3 },
		{ 256, 256 }, { 1024, 1024 }, { 1, 1024 },
	};
	static const uint32_t counts[] = { 1, 2, 16, 200, 256 };
	static const struct png_text_entry text[] = {
		{ "Source", "DATA/DATA.BIN town TEX_\xe7\x94\xba" },
		{ "Software", "ccsfs" },
	};
	struct reason why = { "" };
	for (size_t i = 0; i < sizeof sides / sizeof *sides; i++)
	for (int psm = 0x13; psm <= 0x14; psm++)
	for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
		uint32_t w = sides[i][0], h = sides[i][1];
		struct palette pal = { .count = counts[c] };
		for (uint32_t k = 0; k < pal.count; k++) {
			memset(pal.rgba[k], (int)k, 3);
			pal.rgba[k][3] = k == 1 && c % 2 ? 0x40 : 0xff;
		}
		uint32_t reach = psm == 0x14 && pal.count > 16 ? 16 : pal.count;
		struct indexed_image img = { w, h, malloc((size_t)w * h) };
		assert_non_null(img.index);
		for (size_t p = 0; p < (size_t)w * h; p++)
			img.index[p] = (uint8_t)((p * 7 + p / w) % reach);
		size_t want, len;
		assert_int_equal(texture_png_size(w, h, (uint8_t)psm, &pal,
						  text, c % 3, &want), 0);
		uint8_t *png;
		assert_int_equal(texture_png(&img, (uint8_t)psm, &pal, text,
					     c % 3, &png, &len, &why), 0);
		assert_int_equal(len, want);
		uint32_t rw, rh;
		uint8_t *rgba = png_to_rgba(png, len, &rw, &rh);
		assert_int_equal(rw, w);
		assert_int_equal(rh, h);
		for (size_t p = 0; p < (size_t)w * h; p += 1 + p / 3)
			assert_int_equal(rgba[4 * p], img.index[p]);
		free(rgba);
		free(png);
		texture_image_free(&img);
	}
	for (uint32_t n = 1; n <= 256; n++) {
		struct palette pal = { .count = n };
		memset(pal.rgba, 0xff, sizeof pal.rgba);
		size_t want, len;
		uint8_t *png;
		assert_int_equal(texture_palette_png_size(&pal, text, 2, &want), 0);
		assert_int_equal(texture_palette_png(&pal, text, 2, &png, &len, &why), 0);
		assert_int_equal(len, want);
		free(png);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(round_trips_every_pixel),
		BOTH(trns_trims_opaque_tail),
		BOTH(utf8_text_goes_to_itxt),
		BOTH(texture_palette_png_is_a_grid_of_swatches),
		cmocka_unit_test(stored_size_is_known_before),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
