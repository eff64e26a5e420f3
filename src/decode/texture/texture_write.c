/* SPDX-License-Identifier: MIT */
/* texture_write.c - PNG back into texture and CLUT chunks
 * (doc/formats/texture.md, Back from PNG). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "decode/texture/texture_write.h"

/* What libpng may take of an untrusted file besides its rows. */
#define PNG_CHUNK_MALLOC_MAX (1u << 20)
#define PNG_CHUNK_CACHE_MAX 64

struct png_src {
	const uint8_t *p;
	size_t len, at;
	struct reason *why;
};

static void on_read(png_structp png, png_bytep out, size_t n)
{
	struct png_src *s = png_get_io_ptr(png);
	if (n > s->len - s->at)
		png_error(png, "the file ends early");
	memcpy(out, s->p + s->at, n);
	s->at += n;
}

static void on_error(png_structp png, png_const_charp msg)
{
	struct png_src *s = png_get_error_ptr(png);
	reason_set(s->why, "not a PNG libpng reads: %s", msg);
	png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

void texture_png_in_free(struct png_in *img)
{
	free(img->rgba);
	free(img->index);
	img->rgba = img->index = NULL;
}

/* An indexed image's RGBA from its palette; an index past it is an
 * error (libpng leaves it to the reader). */
static int expand_indexed(struct png_in *img, struct reason *why)
{
	size_t n = (size_t)img->width * img->height;
	for (size_t i = 0; i < n; i++) {
		if (img->index[i] >= img->colours) {
			reason_set(why, "pixel %zu uses colour %u of a palette of %"
				   PRIu32, i, img->index[i], img->colours);
			return -EINVAL;
		}
		memcpy(img->rgba + 4 * i, img->plte[img->index[i]], 4);
	}
	return 0;
}

/* Sets up the transformations and the buffers once the header is read:
 * indices one a byte for an indexed PNG, else RGBA8. */
static void read_setup(png_structp png, png_infop info, struct png_in *img,
		       bool *indexed)
{
	png_uint_32 w, h;
	int depth, type;
	png_get_IHDR(png, info, &w, &h, &depth, &type, NULL, NULL, NULL);
	img->width = w;
	img->height = h;
	*indexed = type == PNG_COLOR_TYPE_PALETTE;
	if (*indexed) {
		png_colorp plte;
		int count = 0;
		if (!png_get_PLTE(png, info, &plte, &count) || count < 1)
			png_error(png, "an indexed PNG without a palette");
		png_bytep trns = NULL;
		int ntrns = 0;
		png_get_tRNS(png, info, &trns, &ntrns, NULL);
		img->colours = (uint32_t)count;
		for (int i = 0; i < count; i++) {
			img->plte[i][0] = plte[i].red;
			img->plte[i][1] = plte[i].green;
			img->plte[i][2] = plte[i].blue;
			img->plte[i][3] = trns && i < ntrns ? trns[i] : 255;
		}
		png_set_packing(png);
	} else {
		png_set_expand(png);
		png_set_strip_16(png);
		png_set_gray_to_rgb(png);
		png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
	}
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
	size_t n = (size_t)w * h;
	img->rgba = malloc(n * 4);
	img->index = *indexed ? malloc(n) : NULL;
	if (!img->rgba || (*indexed && !img->index))
		png_error(png, "out of memory");
	if (png_get_rowbytes(png, info) != (*indexed ? (size_t)w : (size_t)w * 4))
		png_error(png, "an unexpected row size");
}

/* The one place that talks to libpng's setjmp: the png_in's pointers
 * are freed by the caller, so nothing assigned after it matters. */
static int read_png(struct png_src *src, struct png_in *img)
{
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, src,
						 on_error, on_warning);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	png_bytep *volatile rows = NULL;
	if (!info) {
		png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
		reason_set(src->why, "out of memory for libpng");
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		free(rows);
		png_destroy_read_struct(&png, &info, NULL);
		return -EINVAL;
	}
	png_set_user_limits(png, TEXTURE_PNG_MAX_SIDE, TEXTURE_PNG_MAX_SIDE);
	png_set_chunk_malloc_max(png, PNG_CHUNK_MALLOC_MAX);
	png_set_chunk_cache_max(png, PNG_CHUNK_CACHE_MAX);
	png_set_read_fn(png, src, on_read);
	png_read_info(png, info);
	bool indexed;
	read_setup(png, info, img, &indexed);
	rows = malloc(img->height * sizeof *rows);
	if (!rows)
		png_error(png, "out of memory");
	for (uint32_t y = 0; y < img->height; y++)
		rows[y] = indexed ? img->index + (size_t)y * img->width
				  : img->rgba + (size_t)y * img->width * 4;
	png_read_image(png, rows);
	png_read_end(png, NULL);
	free(rows);
	png_destroy_read_struct(&png, &info, NULL);
	return indexed ? 1 : 0;
}

int texture_png_read(const uint8_t *png, size_t len, struct png_in *img,
		     struct reason *why)
{
	memset(img, 0, sizeof *img);
	if (len < 8 || png_sig_cmp(png, 0, 8) != 0) {
		reason_set(why, "not a PNG (no PNG signature)");
		return -EINVAL;
	}
	struct png_src src = { png, len, 0, why };
	int rc = read_png(&src, img);
	if (rc == 1)
		rc = expand_indexed(img, why);
	if (rc < 0)
		texture_png_in_free(img);
	return rc < 0 ? rc : 0;
}

uint8_t texture_nearest(const struct palette *pal, uint32_t reach,
			const uint8_t rgba[4])
{
	uint32_t best = 0;
	uint64_t best_d = UINT64_MAX;
	for (uint32_t i = 0; i < reach && i < pal->count; i++) {
		uint64_t d = 0;
		for (int k = 0; k < 4; k++) {
			int64_t e = (int64_t)rgba[k] - pal->rgba[i][k];
			d += (uint64_t)(e * e);
		}
		if (d < best_d) {
			best_d = d;
			best = i;
		}
	}
	return (uint8_t)best;
}

/* How many colours a texture of this psm can reach. */
static uint32_t reach_of(uint8_t psm, const struct palette *pal)
{
	uint32_t r = psm == TEXTURE_PSMT4 ? 16 : CLUT_MAX_COLOURS;
	return pal->count < r ? pal->count : r;
}

/* Whether img's own palette is the texture's, colour for colour, over
 * what the texture reaches: then its indices are the texture's. */
static bool same_palette(const struct png_in *img, const struct palette *pal,
			 uint32_t reach)
{
	if (!img->index || img->colours > reach)
		return false;
	for (uint32_t i = 0; i < img->colours; i++)
		if (memcmp(img->plte[i], pal->rgba[i], 4) != 0)
			return false;
	return true;
}

/* Stores indices (top row first) as the level's pixels: bottom row
 * first, two a byte low nibble first at 4 bits. */
static void store_level(const struct texture *tex, const uint8_t *parsed,
			uint8_t *out, unsigned level, const uint8_t *index)
{
	const struct texture_level *lv = &tex->level[level];
	uint8_t *px = out + (lv->pixels - parsed);
	uint32_t w = lv->width, h = lv->height;
	bool four = tex->psm == TEXTURE_PSMT4;
	for (uint32_t y = 0; y < h; y++) {
		const uint8_t *row = index + (size_t)y * w;
		size_t stored = (size_t)(h - 1 - y) * w;
		if (!four) {
			memcpy(px + stored, row, w);
			continue;
		}
		for (uint32_t x = 0; x < w; x++) {
			size_t k = stored + x;
			uint8_t keep = px[k / 2] & (k & 1 ? 0x0f : 0xf0);
			px[k / 2] = (uint8_t)(keep | (row[x] & 0x0f) <<
					      (k & 1 ? 4 : 0));
		}
	}
}

/* A level's indices from RGBA: the nearest colour of each pixel. */
static int nearest_all(const uint8_t *rgba, size_t n,
		       const struct palette *pal, uint32_t reach,
		       uint8_t **index)
{
	*index = malloc(n ? n : 1);
	if (!*index)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		(*index)[i] = texture_nearest(pal, reach, rgba + 4 * i);
	return 0;
}

/* The image at half the size, each pixel the mean of (up to) 2x2. */
static uint8_t *halve(const uint8_t *rgba, uint32_t w, uint32_t h,
		      uint32_t hw, uint32_t hh)
{
	uint8_t *out = malloc((size_t)hw * hh * 4);
	for (uint32_t y = 0; out && y < hh; y++)
		for (uint32_t x = 0; x < hw; x++)
			for (int k = 0; k < 4; k++) {
				unsigned sum = 0, cnt = 0;
				for (uint32_t dy = 0; dy < 2; dy++)
					for (uint32_t dx = 0; dx < 2; dx++) {
						uint32_t sx = 2 * x + dx, sy = 2 * y + dy;
						if (sx < w && sy < h) {
							sum += rgba[((size_t)sy * w + sx) * 4 + k];
							cnt++;
						}
					}
				out[((size_t)y * hw + x) * 4 + k] =
					(uint8_t)((sum + cnt / 2) / cnt);
			}
	return out;
}

/* Levels 1 and up again from level 0's colours. */
static int remake_lower(const struct texture *tex, const uint8_t *parsed,
			uint8_t *out, const struct palette *pal,
			const struct png_in *img, uint32_t reach)
{
	uint8_t *cur = (uint8_t *)img->rgba;
	uint32_t w = img->width, h = img->height;
	int rc = 0;
	for (unsigned l = 1; rc == 0 && l < tex->levels; l++) {
		const struct texture_level *lv = &tex->level[l];
		uint8_t *next = halve(cur, w, h, lv->width, lv->height);
		uint8_t *index = NULL;
		rc = next ? nearest_all(next, (size_t)lv->width * lv->height,
					pal, reach, &index) : -ENOMEM;
		if (rc == 0)
			store_level(tex, parsed, out, l, index);
		free(index);
		if (cur != img->rgba)
			free(cur);
		cur = next;
		w = lv->width;
		h = lv->height;
	}
	if (cur != img->rgba)
		free(cur);
	return rc;
}

int texture_write_png(const struct texture *tex, const uint8_t *parsed,
		      uint8_t *out, const struct palette *pal, unsigned level,
		      const struct png_in *img, bool remake_mips,
		      struct reason *why)
{
	if (level >= tex->levels)
		return -EINVAL;
	const struct texture_level *lv = &tex->level[level];
	if (img->width != lv->width || img->height != lv->height) {
		reason_set(why, "the image is %" PRIu32 "x%" PRIu32
			   ", the texture's level %u %" PRIu32 "x%" PRIu32,
			   img->width, img->height, level, lv->width,
			   lv->height);
		return -EINVAL;
	}
	uint32_t reach = reach_of(tex->psm, pal);
	size_t n = (size_t)img->width * img->height;
	uint8_t *index = NULL;
	int rc = 0;
	if (same_palette(img, pal, reach)) {
		index = malloc(n ? n : 1);
		if (index)
			memcpy(index, img->index, n);
		else
			rc = -ENOMEM;
	} else {
		rc = nearest_all(img->rgba, n, pal, reach, &index);
	}
	if (rc == 0)
		store_level(tex, parsed, out, level, index);
	free(index);
	if (rc == 0 && level == 0 && remake_mips)
		rc = remake_lower(tex, parsed, out, pal, img, reach);
	if (rc == -ENOMEM)
		reason_set(why, "out of memory");
	return rc;
}

/* The game's alpha for a PNG's: 255 is 0x80, opaque. */
static uint8_t game_alpha(uint8_t a)
{
	return a == 255 ? 0x80 : (uint8_t)((a + 1) / 2);
}

int texture_clut_write_png(const struct clut *clut, const uint8_t *parsed,
			   uint8_t *out, const struct png_in *img,
			   struct reason *why)
{
	uint32_t cols = clut->count <= 16 ? 4 : 16;
	uint32_t rows = (clut->count + cols - 1) / cols;
	if (img->width != cols * PALETTE_SWATCH ||
	    img->height != rows * PALETTE_SWATCH) {
		reason_set(why, "the swatch is %" PRIu32 "x%" PRIu32
			   ", the palette's %" PRIu32 "x%" PRIu32,
			   img->width, img->height, cols * PALETTE_SWATCH,
			   rows * PALETTE_SWATCH);
		return -EINVAL;
	}
	struct palette was;
	texture_palette_from_clut(clut, &was);
	uint8_t *colours = out + (clut->colours - parsed);
	for (uint32_t i = 0; i < clut->count; i++) {
		size_t x = (i % cols) * PALETTE_SWATCH;
		size_t y = (i / cols) * PALETTE_SWATCH;
		const uint8_t *px = img->rgba + (y * img->width + x) * 4;
		if (memcmp(px, was.rgba[i], 4) == 0)
			continue;
		memcpy(colours + 4 * i, px, 3);
		colours[4 * i + 3] = game_alpha(px[3]);
	}
	return 0;
}
