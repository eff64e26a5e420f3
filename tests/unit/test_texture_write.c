/* SPDX-License-Identifier: MIT */
/* test_texture_write.c - PNG back into texture and CLUT chunks: the
 * product's own texture.png round-trips to the same bytes, a pixel lands
 * in its stored row (bottom first) and nibble (low first), a colour not
 * in the palette becomes the nearest, alpha 255 is 0x80, level 0 makes
 * the mip levels again, and a bad or oversized PNG is refused. */
#include "config.h"

#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "ccsw.h"
#include "decode/texture/texture.h"
#include "decode/texture/texture_write.h"
#include "testutil.h"
#include "texture_build.h"


struct fixture {
	struct scene s;
	struct texture tex;
	struct clut clut;
	struct palette pal;
};

static void setup_tex(struct fixture *f, uint8_t psm, uint8_t tw, uint8_t th,
		      uint8_t mipmap, uint32_t colours)
{
	struct ccsw_texture td = texture_desc(psm, tw, th, mipmap,
					      CCSW_PAT_NOISY);
	struct ccsw_clut cd = clut_desc(colours, true, 7);
	build(0x100, &td, &cd, &f->s);
	struct reason why = { "" };
	assert_int_equal(texture_parse(f->s.tex, f->s.tex_len, 0x100, &f->tex,
				       &why), 0);
	assert_int_equal(texture_clut_parse(f->s.clut, f->s.clut_len, 0x100,
					    &f->clut, &why), 0);
	texture_palette_from_clut(&f->clut, &f->pal);
}

/* The product's own PNG of a level, read back by the reader under
 * test. */
static void level_png(const struct fixture *f, unsigned level,
		      struct png_in *img)
{
	struct indexed_image ii;
	struct reason why = { "" };
	assert_int_equal(texture_decode(&f->tex, level, f->pal.count, &ii,
					&why), 0);
	uint8_t *png;
	size_t len;
	assert_int_equal(texture_png(&ii, f->tex.psm, &f->pal, NULL, 0, &png,
				     &len, &why), 0);
	texture_image_free(&ii);
	assert_int_equal(texture_png_read(png, len, img, &why), 0);
	free(png);
}

static void round_trip(uint8_t psm)
{
	struct fixture f;
	setup_tex(&f, psm, 5, 4, 2, psm == TEXTURE_PSMT4 ? 16 : 256);
	uint8_t *out = exact_copy(f.s.tex, f.s.tex_len);
	memset(out + (f.tex.level[0].pixels - f.s.tex), 0,
	       f.tex.level[0].bytes / 4);
	struct png_in img;
	level_png(&f, 0, &img);
	assert_non_null(img.index);
	struct reason why = { "" };
	assert_int_equal(texture_write_png(&f.tex, f.s.tex, out, &f.pal, 0,
					   &img, false, &why), 0);
	assert_memory_equal(out, f.s.tex, f.s.tex_len);
	texture_png_in_free(&img);
	free(out);
	scene_free(&f.s);
}

static void test_round_trip_psmt8(void **state)
{
	(void)state;
	round_trip(TEXTURE_PSMT8);
}

static void test_round_trip_psmt4(void **state)
{
	(void)state;
	round_trip(TEXTURE_PSMT4);
}

/* An image of the texture's own colours, each pixel index idx(x, y). */
static void own_colours(const struct fixture *f, uint32_t w, uint32_t h,
			uint8_t (*idx)(uint32_t x, uint32_t y),
			struct png_in *img)
{
	memset(img, 0, sizeof *img);
	img->width = w;
	img->height = h;
	img->rgba = malloc((size_t)w * h * 4);
	assert_non_null(img->rgba);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			memcpy(img->rgba + ((size_t)y * w + x) * 4,
			       f->pal.rgba[idx(x, y)], 4);
}

static uint8_t corner_marks(uint32_t x, uint32_t y)
{
	/* Bottom-left 5, the pixel right of it 10, top-left 3, else 1. */
	if (y == 7 && x == 0)
		return 5;
	if (y == 7 && x == 1)
		return 10;
	return y == 0 && x == 0 ? 3 : 1;
}

/* Rows bottom first, and at 4 bits the low nibble the left pixel. */
static void test_psmt4_bottom_row_low_nibble(void **state)
{
	(void)state;
	struct fixture f;
	setup_tex(&f, TEXTURE_PSMT4, 3, 3, 0, 16);
	/* Distinct colours, so that nearest finds each one again. */
	for (uint32_t i = 0; i < 16; i++) {
		uint8_t c[4] = { (uint8_t)(i * 16), (uint8_t)(255 - i * 16),
				 (uint8_t)(i * 7), 255 };
		memcpy(f.pal.rgba[i], c, 4);
	}
	struct png_in img;
	own_colours(&f, 8, 8, corner_marks, &img);
	uint8_t *out = exact_copy(f.s.tex, f.s.tex_len);
	struct reason why = { "" };
	assert_int_equal(texture_write_png(&f.tex, f.s.tex, out, &f.pal, 0,
					   &img, false, &why), 0);
	const uint8_t *px = out + (f.tex.level[0].pixels - f.s.tex);
	assert_int_equal(px[0], 0xa5);          /* stored row 0: the bottom */
	assert_int_equal(px[1], 0x11);
	assert_int_equal(px[7 * 4], 0x13);      /* the top row, last stored */
	texture_png_in_free(&img);
	free(out);
	scene_free(&f.s);
}

/* A colour not in the palette becomes the nearest; the palette stays. */
static void test_nearest_colour(void **state)
{
	(void)state;
	struct fixture f;
	setup_tex(&f, TEXTURE_PSMT8, 2, 2, 0, 256);
	struct png_in img;
	memset(&img, 0, sizeof img);
	img.width = img.height = 4;
	img.rgba = malloc(64);
	assert_non_null(img.rgba);
	uint8_t near[4];
	memcpy(near, f.pal.rgba[77], 4);
	near[0] = near[0] > 0 ? near[0] - 1 : 1;
	for (int i = 0; i < 16; i++)
		memcpy(img.rgba + 4 * i, near, 4);
	uint8_t *out = exact_copy(f.s.tex, f.s.tex_len);
	struct reason why = { "" };
	assert_int_equal(texture_write_png(&f.tex, f.s.tex, out, &f.pal, 0,
					   &img, false, &why), 0);
	const uint8_t *px = out + (f.tex.level[0].pixels - f.s.tex);
	uint8_t want = texture_nearest(&f.pal, 256, near);
	assert_memory_equal(f.pal.rgba[want], f.pal.rgba[77], 4);
	for (int i = 0; i < 16; i++)
		assert_memory_equal(f.pal.rgba[px[i]], f.pal.rgba[77], 4);
	texture_png_in_free(&img);
	free(out);
	scene_free(&f.s);
}

static uint8_t all_nine(uint32_t x, uint32_t y)
{
	(void)x;
	(void)y;
	return 9;
}

/* Level 0 makes every mip level again from its colours. */
static void test_mips_remade(void **state)
{
	(void)state;
	struct fixture f;
	setup_tex(&f, TEXTURE_PSMT8, 4, 4, 2, 256);
	assert_int_equal(f.tex.levels, 3);
	struct png_in img;
	own_colours(&f, 16, 16, all_nine, &img);
	uint8_t *out = exact_copy(f.s.tex, f.s.tex_len);
	struct reason why = { "" };
	assert_int_equal(texture_write_png(&f.tex, f.s.tex, out, &f.pal, 0,
					   &img, true, &why), 0);
	for (unsigned l = 0; l < 3; l++) {
		const struct texture_level *lv = &f.tex.level[l];
		const uint8_t *px = out + (lv->pixels - f.s.tex);
		for (uint32_t i = 0; i < lv->width * lv->height; i++)
			assert_memory_equal(f.pal.rgba[px[i]], f.pal.rgba[9], 4);
	}
	/* Without remaking, level 1 stays as it was. */
	uint8_t *kept = exact_copy(f.s.tex, f.s.tex_len);
	assert_int_equal(texture_write_png(&f.tex, f.s.tex, kept, &f.pal, 0,
					   &img, false, &why), 0);
	size_t at = (size_t)(f.tex.level[1].pixels - f.s.tex);
	assert_memory_equal(kept + at, f.s.tex + at, 64);
	/* A level of another size is refused, naming both sizes. */
	assert_int_equal(texture_write_png(&f.tex, f.s.tex, kept, &f.pal, 1,
					   &img, false, &why), -EINVAL);
	assert_reason(why.text, "16x16");
	assert_reason(why.text, "8x8");
	texture_png_in_free(&img);
	free(out);
	free(kept);
	scene_free(&f.s);
}

/* The swatch back into the CLUT: alpha 255 is 0x80, 128 is 0x40, and
 * a colour shown as it was keeps its bytes. */
static void test_palette_alpha(void **state)
{
	(void)state;
	struct fixture f;
	setup_tex(&f, TEXTURE_PSMT4, 3, 3, 0, 16);
	uint8_t *png;
	size_t len;
	struct reason why = { "" };
	assert_int_equal(texture_palette_png(&f.pal, NULL, 0, &png, &len, &why),
			 0);
	struct png_in img;
	assert_int_equal(texture_png_read(png, len, &img, &why), 0);
	free(png);
	assert_int_equal(img.width, 32);
	/* Colour 1 (cell 1, 0) opaque red, colour 2 half transparent. */
	for (uint32_t y = 0; y < 8; y++)
		for (uint32_t x = 0; x < 8; x++) {
			uint8_t *p1 = img.rgba + ((size_t)y * 32 + 8 + x) * 4;
			uint8_t *p2 = img.rgba + ((size_t)y * 32 + 16 + x) * 4;
			memcpy(p1, (uint8_t[]){ 255, 0, 0, 255 }, 4);
			memcpy(p2, (uint8_t[]){ 0, 0, 255, 128 }, 4);
		}
	uint8_t *out = exact_copy(f.s.clut, f.s.clut_len);
	assert_int_equal(texture_clut_write_png(&f.clut, f.s.clut, out, &img,
						&why), 0);
	size_t at = (size_t)(f.clut.colours - f.s.clut);
	assert_memory_equal(out + at + 4, ((uint8_t[]){ 255, 0, 0, 0x80 }), 4);
	assert_memory_equal(out + at + 8, ((uint8_t[]){ 0, 0, 255, 0x40 }), 4);
	assert_memory_equal(out + at, f.s.clut + at, 4);
	assert_memory_equal(out + at + 12, f.s.clut + at + 12, 13 * 4);
	texture_png_in_free(&img);
	free(out);
	scene_free(&f.s);
}

/* An RGBA PNG as an image editor writes it, through libpng's own
 * writer. */
static uint8_t *rgba_png(uint32_t w, uint32_t h, const uint8_t *rgba,
			 size_t *len)
{
	png_image im;
	memset(&im, 0, sizeof im);
	im.version = PNG_IMAGE_VERSION;
	im.width = w;
	im.height = h;
	im.format = PNG_FORMAT_RGBA;
	png_alloc_size_t size = 0;
	assert_true(png_image_write_to_memory(&im, NULL, &size, 0, rgba, 0,
					      NULL));
	uint8_t *png = malloc(size);
	assert_non_null(png);
	assert_true(png_image_write_to_memory(&im, png, &size, 0, rgba, 0,
					      NULL));
	*len = size;
	return png;
}

static void test_reader_rgba_and_refusals(void **state)
{
	(void)state;
	uint8_t rgba[2 * 3 * 4];
	for (size_t i = 0; i < sizeof rgba; i++)
		rgba[i] = (uint8_t)(i * 11);
	size_t len;
	uint8_t *png = rgba_png(2, 3, rgba, &len);
	struct png_in img;
	struct reason why = { "" };
	assert_int_equal(texture_png_read(png, len, &img, &why), 0);
	assert_int_equal(img.width, 2);
	assert_int_equal(img.height, 3);
	assert_null(img.index);
	assert_memory_equal(img.rgba, rgba, sizeof rgba);
	texture_png_in_free(&img);
	/* Cut short: refused with libpng's reason, nothing kept. */
	assert_int_equal(texture_png_read(png, len - 20, &img, &why), -EINVAL);
	assert_reason(why.text, "PNG");
	assert_null(img.rgba);
	/* Not a PNG at all. */
	assert_int_equal(texture_png_read((const uint8_t *)"GIF89a..", 8, &img,
					  &why), -EINVAL);
	free(png);
	/* Wider than any texture: refused before its rows are read. */
	uint8_t *wide = calloc(2048 * 4, 1);
	assert_non_null(wide);
	png = rgba_png(2048, 1, wide, &len);
	assert_int_equal(texture_png_read(png, len, &img, &why), -EINVAL);
	free(png);
	free(wide);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_psmt8),
		cmocka_unit_test(test_round_trip_psmt4),
		cmocka_unit_test(test_psmt4_bottom_row_low_nibble),
		cmocka_unit_test(test_nearest_colour),
		cmocka_unit_test(test_mips_remade),
		cmocka_unit_test(test_palette_alpha),
		cmocka_unit_test(test_reader_rgba_and_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
