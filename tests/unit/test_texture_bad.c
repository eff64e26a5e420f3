/* SPDX-License-Identifier: MIT */
/* test_texture_bad.c - texture and CLUT chunks that are refused: counts
 * and sizes that claim more than the chunk holds, fields out of range,
 * indices past the palette, every truncation, and libpng's own errors. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ccsw.h"
#include "decode/texture/texture.h"
#include "testutil.h"
#include "texture_build.h"

/* ---- bad input --------------------------------------------------------- */

static void expect_texture_error(const uint8_t *p, size_t len,
				 uint16_t version, const char *part)
{
	struct reason why = { "" };
	struct texture tex;
	assert_int_equal(texture_parse(p, len, version, &tex, &why), -EIO);
	assert_reason(why.text, part);
}

static void expect_clut_error(const uint8_t *p, size_t len, uint16_t version,
			      const char *part)
{
	struct reason why = { "" };
	struct clut clut;
	assert_int_equal(texture_clut_parse(p, len, version, &clut, &why), -EIO);
	assert_reason(why.text, part);
}

/* Where tw sits in a texture chunk: header, texture, clut, blt_group from
 * 0x92, then flag, psm, mipmap, aref. */
static size_t tw_offset(uint16_t version)
{
	return 8 + 8 + (version >= 0x92 ? 4 : 0) + 4;
}

static void count_claiming_more_than_held(void **state)
{
	(void)state;
	struct ccsw_texture td = texture_desc(0x13, 4, 4, 0, CCSW_PAT_NOISY);
	td.count_lie = 65;                      /* 64 words are there */
	struct scene s;
	build(0x100, &td, NULL, &s);
	expect_texture_error(s.tex, s.tex_len, 0x100,
			     "level 0 claims 260 bytes");
	scene_free(&s);
}

static void size_fields_claiming_more_pixels(void **state)
{
	(void)state;
	uint16_t versions[] = { 0x90, 0x92, 0x100 };
	for (size_t i = 0; i < 3; i++) {
		struct ccsw_texture td = texture_desc(0x13, 4, 4, 0,
						      CCSW_PAT_NOISY);
		struct scene s;
		build(versions[i], &td, NULL, &s);
		/* 16x16 pixels held, 32x16 claimed */
		s.tex[tw_offset(versions[i])] = 5;
		expect_texture_error(s.tex, s.tex_len, versions[i],
				     "level 0 is 32x16 and needs 512 bytes");
		scene_free(&s);
	}
	/* A mip level too small for its size: level 1's count (8 words of
	 * 8x8 4-bit pixels) patched to 7, and the chunk cut to match. */
	struct ccsw_texture td = texture_desc(0x14, 4, 4, 1, CCSW_PAT_NOISY);
	struct scene s;
	build(0x100, &td, NULL, &s);
	size_t level1 = 8 + 20 + 8 + 128;
	assert_int_equal(s.tex[level1 + 4], 8);
	s.tex[level1 + 4] = 7;
	expect_texture_error(s.tex, s.tex_len - 4, 0x100,
			     "level 1 is 8x8 and needs 32 bytes, its count gives 28");
	scene_free(&s);
}

static void bad_fields(void **state)
{
	(void)state;
	struct scene s;
	struct ccsw_texture td = texture_desc(0x00, 3, 3, 0, CCSW_PAT_NOISY);
	build(0x100, &td, NULL, &s);
	expect_texture_error(s.tex, s.tex_len, 0x100, "psm 0x00");
	scene_free(&s);

	td = texture_desc(0x13, 11, 0, 0, CCSW_PAT_GRADIENT);
	build(0x100, &td, NULL, &s);
	expect_texture_error(s.tex, s.tex_len, 0x100, "tw 11");
	scene_free(&s);

	/* 2^20 x 2^20 (a TiB of indices) claimed over a 4x4 texture's
	 * pixels: refused on the fields, nothing sized by them. */
	td = texture_desc(0x13, 2, 2, 0, CCSW_PAT_GRADIENT);
	build(0x100, &td, NULL, &s);
	assert_true(s.tex[24] == 2 && s.tex[25] == 2);  /* tw, th */
	s.tex[24] = s.tex[25] = 20;
	expect_texture_error(s.tex, s.tex_len, 0x100,
			     "tw 20 / th 20: a side above 2^10 pixels");
	scene_free(&s);

	td = texture_desc(0x13, 2, 11, 0, CCSW_PAT_GRADIENT);
	build(0x92, &td, NULL, &s);
	expect_texture_error(s.tex, s.tex_len, 0x92, "th 11");
	scene_free(&s);

	td = texture_desc(0x14, 4, 4, 4, CCSW_PAT_GRADIENT);
	build(0x100, &td, NULL, &s);
	expect_texture_error(s.tex, s.tex_len, 0x100, "mipmap 4");
	/* The same bytes are no CLUT, and no texture before version 0x90. */
	expect_clut_error(s.tex, s.tex_len, 0x100, "kind is 0x0300");
	expect_texture_error(s.tex, s.tex_len, 0x8f, "version 0x8f");
	scene_free(&s);
}

static void bad_clut_counts(void **state)
{
	(void)state;
	struct scene s;
	struct ccsw_clut cd = clut_desc(15, false, 0);
	build(0x100, NULL, &cd, &s);
	expect_clut_error(s.clut, s.clut_len, 0x100, "count 15");
	scene_free(&s);

	cd = clut_desc(0, false, 0);
	build(0x92, NULL, &cd, &s);
	expect_clut_error(s.clut, s.clut_len, 0x92, "count 0");
	scene_free(&s);

	/* 258 colours present: the count is too large even though they are */
	cd = clut_desc(258, false, 0);
	build(0x100, NULL, &cd, &s);
	expect_clut_error(s.clut, s.clut_len, 0x100, "count 258");
	scene_free(&s);

	/* 16 colours present, 18 claimed (count is the chunk's u32 at 24) */
	cd = clut_desc(16, false, 0);
	build(0x100, NULL, &cd, &s);
	assert_int_equal(s.clut[24], 16);
	s.clut[24] = 18;
	expect_clut_error(s.clut, s.clut_len, 0x100,
			  "18 colours need 72 bytes, the chunk holds 64");
	scene_free(&s);

	/* Version 0x90: no blt_group, count at 20. */
	cd = clut_desc(16, false, 0);
	build(0x90, NULL, &cd, &s);
	assert_int_equal(s.clut[20], 16);
	s.clut[20] = 0xff;
	s.clut[23] = 0x7f;
	expect_clut_error(s.clut, s.clut_len, 0x90, "count 2130706687");
	expect_clut_error(s.clut, s.clut_len, 0x8f, "version 0x8f");
	scene_free(&s);
}

static void index_past_palette_names_pixel(void **state)
{
	(void)state;
	struct ccsw_texture td = texture_desc(0x13, 4, 3, 0, CCSW_PAT_NOISY);
	struct ccsw_clut cd = clut_desc(16, false, 0);
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
	assert_int_equal(texture_decode(&tex, 0, pal.count, &img, &why), -EIO);
	assert_null(img.index);
	/* The top-left block is the generator's maximum index. */
	assert_reason(why.text, "pixel (0, 0)");
	assert_reason(why.text, "index 255");
	assert_reason(why.text, "16 colours");
	assert_int_equal(texture_decode(&tex, 1, pal.count, &img, &why),
			 -EINVAL);
	assert_reason(why.text, "no level 1");

	/* texture_png checks too, for an image that did not come from
	 * texture_decode(). */
	uint8_t index[4] = { 0, 1, 2, 16 };
	struct indexed_image small = { 2, 2, index };
	uint8_t *png = (uint8_t *)"x";
	size_t len = 1;
	assert_int_equal(texture_png(&small, 0x13, &pal, NULL, 0, &png, &len,
				     &why), -EINVAL);
	assert_null(png);
	assert_reason(why.text, "pixel (1, 1) has index 16");
	/* And a scene's measure, which checks without writing: the same
	 * refusal, and a yes once the index is in the palette. */
	size_t size;
	assert_int_equal(texture_png_size(2, 2, 0x13, &pal, NULL, 0, &size), 0);
	why.text[0] = '\0';
	assert_int_equal(texture_png_into(&small, 0x13, &pal, NULL, size,
					  &why), -EINVAL);
	assert_reason(why.text, "pixel (1, 1) has index 16");
	index[3] = 15;
	assert_int_equal(texture_png_into(&small, 0x13, &pal, NULL, size,
					  &why), 0);
	index[3] = 16;
	assert_int_equal(texture_png(&small, 0x00, &pal, NULL, 0, &png, &len,
				     &why), -EINVAL);
	assert_reason(why.text, "psm 0x00");
	scene_free(&s);
}

static void every_truncation_fails(void **state)
{
	(void)state;
	uint16_t versions[] = { 0x90, 0x92, 0x100 };
	for (size_t v = 0; v < 3; v++) {
		struct ccsw_texture td = texture_desc(0x14, 2, 3, 2,
						      CCSW_PAT_NOISY);
		struct ccsw_clut cd = clut_desc(16, true, 0);
		struct scene s;
		build(versions[v], &td, &cd, &s);
		for (size_t n = 0; n < s.tex_len; n++) {
			uint8_t *cut = exact_copy(s.tex, n);
			struct reason why = { "" };
			struct texture tex;
			assert_int_equal(texture_parse(cut, n, versions[v],
						       &tex, &why), -EIO);
			assert_true(why.text[0] != '\0');
			free(cut);
		}
		for (size_t n = 0; n < s.clut_len; n++) {
			uint8_t *cut = exact_copy(s.clut, n);
			struct reason why = { "" };
			struct clut clut;
			assert_int_equal(texture_clut_parse(cut, n, versions[v],
						    &clut, &why), -EIO);
			assert_true(why.text[0] != '\0');
			free(cut);
		}
		/* and the whole chunks, in exact buffers, decode */
		struct texture tex;
		struct indexed_image img;
		assert_int_equal(texture_parse(s.tex, s.tex_len, versions[v],
					       &tex, NULL), 0);
		for (unsigned l = 0; l < tex.levels; l++) {
			assert_int_equal(texture_decode(&tex, l, 16, &img,
							NULL), 0);
			texture_image_free(&img);
		}
		scene_free(&s);
	}
}

/* A key libpng refuses (all spaces: nothing left once they are squeezed)
 * fails inside libpng when it compresses: its longjmp comes back as
 * -EIO with libpng's words, and (under ASan) nothing leaks.  The stored
 * writer, which writes keys as they are, refuses it first. */
static void libpng_error_is_caught(void **state)
{
	(void)state;
	struct palette pal = { .count = 2 };
	uint8_t index[4] = { 0, 1, 1, 0 };
	struct indexed_image img = { 2, 2, index };
	static const struct png_text_entry text[] = {
		{ "Source", "fine" }, { "   ", "refused" },
	};
	uint8_t *png;
	size_t len;
	struct reason why = { "" };
	assert_int_equal(texture_png_level(&img, 0x14, &pal, text, 2, 1, &png,
					   &len, &why), -EIO);
	assert_null(png);
	assert_reason(why.text, "libpng");
	assert_int_equal(texture_palette_png_level(&pal, text, 2, 1, &png, &len, &why),
			 -EIO);
	assert_null(png);
	assert_int_equal(texture_png(&img, 0x14, &pal, text, 2, &png, &len,
				     &why), -EINVAL);
	assert_null(png);
	assert_reason(why.text, "doubled space");
	size_t size;
	assert_int_equal(texture_png_size(2, 2, 0x14, &pal, text, 2, &size),
			 -EINVAL);
	assert_int_equal(texture_palette_png(&pal, text, 2, &png, &len, &why), -EINVAL);

	static const struct png_text_entry empty_key[] = { { "", "x" } };
	assert_int_equal(texture_png(&img, 0x14, &pal, empty_key, 1, &png,
				     &len, &why), -EINVAL);
	assert_reason(why.text, "text entry 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(count_claiming_more_than_held),
		cmocka_unit_test(size_fields_claiming_more_pixels),
		cmocka_unit_test(bad_fields),
		cmocka_unit_test(bad_clut_counts),
		cmocka_unit_test(index_past_palette_names_pixel),
		cmocka_unit_test(every_truncation_fails),
		BOTH(libpng_error_is_caught),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
