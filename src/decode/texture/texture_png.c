/* SPDX-License-Identifier: MIT */
/* texture_png.c - indexed images and palettes written as PNG (texture.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <png.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "decode/texture/png_stored.h"
#include "decode/texture/texture.h"
#include "util/bufpool.h"
#include "util/reason.h"
#include "util/strbuf.h"

/* Encoder settings, measured on a 256 x 256 8-bit CCSW_PAT_NOISY texture
 * (64 KiB of indices, 256-colour PLTE + tRNS; libpng 1.6.39, -O2, mean of
 * 200 encodes on one core of the build machine):
 *
 *	filter  zlib level   bytes    ms
 *	none    1            27,534   1.26
 *	none    3            25,887   2.01
 *	none    6            23,745   3.91
 *	none    9            23,267  16.09
 *	all     1            30,535   1.95
 *	all     3            29,304   2.51
 *	all     6            26,043   9.42
 *	all     9            25,726  63.75
 *
 * Filters only hurt: indices are not magnitudes, so differencing them
 * makes noise (the PNG spec says as much for palette images).  Level 1
 * costs a third of level 6's time for 16% more bytes; a PNG is made when
 * a reader opens it and a 1024 x 1024 texture is 16 times this one, so
 * time wins. */
#define PNG_ZLIB_LEVEL 1
#define PNG_FILTERS PNG_FILTER_NONE



/* What the libpng callbacks share; libpng reaches it through its io and
 * error pointers. */
struct png_sink {
	struct strbuf out;
	struct reason *why;
};

static void png_on_error(png_structp png, png_const_charp msg)
{
	struct png_sink *sink = png_get_error_ptr(png);
	reason_set(sink->why, "libpng: %s", msg);
	png_longjmp(png, 1);
}

static void png_on_warning(png_structp png, png_const_charp msg)
{
	/* Warnings are about things we chose (none expected); the image is
	 * still written, and this module does not log. */
	(void)png;
	(void)msg;
}

static void png_on_write(png_structp png, png_bytep bytes, size_t n)
{
	struct png_sink *sink = png_get_io_ptr(png);
	sb_append(&sink->out, bytes, n);    /* failure is sticky: seen at end */
}

static void png_on_flush(png_structp png)
{
	(void)png;
}

/* What a PNG writer needs beyond the pixels. */
struct png_job {
	const struct indexed_image *img;
	int bit_depth;                  /* 4 or 8 */
	const uint8_t (*rgba)[4];
	uint32_t colours;               /* PLTE entries, <= 1 << bit_depth */
	const struct png_text_entry *text;
	size_t text_count;
	uint8_t *row;                   /* (width + 1) / 2 bytes for 4-bit */
	int level;                      /* zlib level: 0 stores */
};

static bool is_printable_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return false;
	return true;
}

static int check_text(const struct png_text_entry *text, size_t n,
		      struct reason *why)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = text[i].key ? strlen(text[i].key) : 0;
		if (k == 0 || k > 79 || !is_printable_ascii(text[i].key) ||
		    !text[i].text) {
			reason_set(why, "png: text entry %zu needs a key of 1-79 "
			    "printable ASCII characters and a text", i);
			return -EINVAL;
		}
	}
	return 0;
}

static void set_palette(png_structp png, png_infop info,
			const struct png_job *job)
{
	/* Zeroed only to quiet -O2's maybe-uninitialized: colours >= 1. */
	png_color plte[CLUT_MAX_COLOURS] = { { 0, 0, 0 } };
	png_byte trns[CLUT_MAX_COLOURS] = { 0 };
	int trns_count = 0;
	for (uint32_t i = 0; i < job->colours; i++) {
		plte[i].red = job->rgba[i][0];
		plte[i].green = job->rgba[i][1];
		plte[i].blue = job->rgba[i][2];
		trns[i] = job->rgba[i][3];
		if (trns[i] != 255)
			trns_count = (int)i + 1;   /* trailing 255s are implied */
	}
	png_set_PLTE(png, info, plte, (int)job->colours);
	if (trns_count)
		png_set_tRNS(png, info, trns, trns_count, NULL);
}

static void set_text(png_structp png, png_infop info,
		     const struct png_job *job)
{
	for (size_t i = 0; i < job->text_count; i++) {
		png_text t;
		memset(&t, 0, sizeof t);
		t.key = (png_charp)job->text[i].key;
		t.text = (png_charp)job->text[i].text;
		/* tEXt is Latin-1; names converted from Shift-JIS are UTF-8,
		 * which only iTXt can say. */
		t.compression = is_printable_ascii(job->text[i].text) ?
			PNG_TEXT_COMPRESSION_NONE : PNG_ITXT_COMPRESSION_NONE;
		png_set_text(png, info, &t, 1);
	}
}

/* One row as PNG stores it: 8-bit indices as they are, 4-bit ones packed
 * with the left pixel in the high nibble.  Returns the row's bytes. */
static const uint8_t *png_row(const struct png_job *job, uint32_t y,
			      uint8_t *packed)
{
	const struct indexed_image *img = job->img;
	const uint8_t *src = img->index + (size_t)y * img->width;
	if (job->bit_depth == 8)
		return src;
	for (uint32_t x = 0; x < img->width; x += 2) {
		uint8_t right = x + 1 < img->width ? src[x + 1] : 0;
		packed[x / 2] = (uint8_t)(src[x] << 4 | (right & 0x0f));
	}
	return packed;
}

static size_t png_row_bytes(const struct png_job *job)
{
	uint32_t w = job->img->width;
	return job->bit_depth == 8 ? w : (w + 1) / 2;
}

#ifdef HAVE_LIBDEFLATE
/* libdeflate makes the image data when configure found it: on the full
 * synthetic disc it compressed textures about three times as fast as
 * zlib at the same level, for the same size, and it needs no per-image
 * setup (zlib clears 128 KiB of hash table for every stream, which
 * costs more than compressing a small texture).  libpng still writes
 * every chunk around it; it only has no way to take compressed data, so
 * IDAT and IEND go through png_write_chunk.  zlib, through libpng, stays
 * for builds without libdeflate and for the tests' second path. */
static bool png_libdeflate_on = true;
static pthread_key_t compressor_key[10];  /* one per zlib level */
static pthread_once_t compressor_once = PTHREAD_ONCE_INIT;

static void free_compressor(void *c)
{
	libdeflate_free_compressor(c);
}

static void make_compressor_key(void)
{
	for (int i = 0; i < 10; i++)
		if (pthread_key_create(&compressor_key[i], free_compressor) != 0)
			abort();        /* only with PTHREAD_KEYS_MAX keys in use */
}

/* One compressor per thread, kept: it holds a few hundred KiB of tables
 * that would otherwise be allocated and faulted in for every image. */
static struct libdeflate_compressor *thread_compressor(int level)
{
	pthread_once(&compressor_once, make_compressor_key);
	pthread_key_t key = compressor_key[level];
	struct libdeflate_compressor *c = pthread_getspecific(key);
	if (!c) {
		c = libdeflate_alloc_compressor(level);
		if (c && pthread_setspecific(key, c) != 0) {
			libdeflate_free_compressor(c);
			c = NULL;
		}
	}
	return c;
}

/* The filtered rows (filter byte 0, then the row) compressed as one zlib
 * stream into *out (malloc'ed).  Returns false when out of memory. */
static bool deflate_rows(const struct png_job *job, uint8_t **out,
			 size_t *out_len)
{
	struct libdeflate_compressor *c = thread_compressor(job->level);
	size_t row = png_row_bytes(job);
	size_t raw_len = (row + 1) * job->img->height;
	uint8_t *raw = c ? bufpool_alloc(raw_len) : NULL;
	size_t bound = c ? libdeflate_zlib_compress_bound(c, raw_len) : 0;
	uint8_t *z = raw ? bufpool_alloc(bound) : NULL;
	*out = z;
	if (!z) {
		bufpool_free(raw);
		return false;
	}
	for (uint32_t y = 0; y < job->img->height; y++) {
		uint8_t *r = raw + (row + 1) * y;
		r[0] = PNG_FILTER_VALUE_NONE;
		const uint8_t *src = png_row(job, y, r + 1);
		if (src != r + 1)
			memcpy(r + 1, src, row);
	}
	*out_len = libdeflate_zlib_compress(c, raw, raw_len, z, bound);
	bufpool_free(raw);
	return *out_len != 0;   /* 0 only if bound lied */
}
#endif

void texture_use_libdeflate(bool on)
{
#ifdef HAVE_LIBDEFLATE
	png_libdeflate_on = on;
#else
	(void)on;
#endif
}

/* Runs under the caller's setjmp: any libpng error longjmps out.  The
 * rows go through libpng's zlib unless idat holds them compressed. */
static void write_png_body(png_structp png, png_infop info,
			   const struct png_job *job, const uint8_t *idat,
			   size_t idat_len)
{
	const struct indexed_image *img = job->img;
	png_set_IHDR(png, info, img->width, img->height, job->bit_depth,
		     PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	set_palette(png, info, job);
	set_text(png, info, job);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTERS);
	png_set_compression_level(png, job->level);
	png_write_info(png, info);
	if (idat) {
		png_write_chunk(png, (png_const_bytep)"IDAT", idat, idat_len);
		png_write_chunk(png, (png_const_bytep)"IEND", NULL, 0);
		return;
	}
	for (uint32_t y = 0; y < img->height; y++)
		png_write_row(png, png_row(job, y, job->row));
	png_write_end(png, info);
}

/* The one place that talks to libpng's setjmp; nothing that lives across
 * the setjmp is assigned after it, so nothing needs to be volatile. */
static int write_png(struct png_job *job, uint8_t **png_out, size_t *len,
		     struct reason *why)
{
	*png_out = NULL;
	*len = 0;
	struct png_sink sink = { STRBUF_INIT, why };
	uint8_t *row = malloc(job->img->width / 2 + 1);
	if (!row) {
		reason_set(why, "png: out of memory");
		return -ENOMEM;
	}
	job->row = row;
	uint8_t *idat = NULL;
	size_t idat_len = 0;
#ifdef HAVE_LIBDEFLATE
	if (png_libdeflate_on && !deflate_rows(job, &idat, &idat_len)) {
		free(row);
		bufpool_free(idat);
		reason_set(why, "png: out of memory");
		return -ENOMEM;
	}
#endif
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING,
						  &sink, png_on_error,
						  png_on_warning);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		free(row);
		bufpool_free(idat);
		reason_set(why, "png: out of memory");
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(row);
		bufpool_free(idat);
		sb_free(&sink.out);
		return -EIO;
	}
	png_set_write_fn(png, &sink, png_on_write, png_on_flush);
	write_png_body(png, info, job, idat, idat_len);
	png_destroy_write_struct(&png, &info);
	free(row);
	bufpool_free(idat);
	int rc = sb_finish(&sink.out, png_out, len);
	if (rc)
		reason_set(why, "png: out of memory");
	return rc;
}

static int check_indices(const struct indexed_image *img, uint32_t colours,
			 struct reason *why)
{
	size_t n = (size_t)img->width * img->height;
	if (colours >= 256)
		return 0;               /* no byte can reach past it */
	for (size_t k = 0; k < n; k++) {
		if (img->index[k] >= colours) {
			reason_set(why, "png: pixel (%zu, %zu) has index %u, the PLTE "
			    "has %" PRIu32 " colours", k % img->width,
			    k / img->width, img->index[k], colours);
			return -EINVAL;
		}
	}
	return 0;
}

static int check_image(const struct indexed_image *img, struct reason *why)
{
	if (!img->index || !img->width || !img->height ||
	    img->width > (1u << TEXTURE_MAX_LOG2) ||
	    img->height > (1u << TEXTURE_MAX_LOG2)) {
		reason_set(why, "png: image is empty or above 1024 pixels a side");
		return -EINVAL;
	}
	return 0;
}

int texture_png(const struct indexed_image *img, uint8_t psm,
		const struct palette *pal, const struct png_text_entry *text,
		size_t text_count, uint8_t **png, size_t *png_len, struct reason *why)
{
	return texture_png_level(img, psm, pal, text, text_count, 0, png,
				 png_len, why);
}

/* Level 0: the whole file laid out by png_stored.c, in one buffer of the
 * size it said. */
static int write_stored(const struct png_job *job, uint8_t **png_out,
			size_t *len, struct reason *why)
{
	if (!png_stored_text_ok(job->text, job->text_count)) {
		reason_set(why, "png: a text key has a leading, "
			   "trailing or doubled space");
		return -EINVAL;
	}
	struct png_indexed p = {
		job->img->width, job->img->height, job->bit_depth, job->rgba,
		job->colours, job->text, job->text_count
	};
	*len = png_stored_size(&p);
	*png_out = bufpool_alloc_filled(*len, *len);
	if (!*png_out) {
		*len = 0;
		reason_set(why, "png: out of memory");
		return -ENOMEM;
	}
	png_stored_write(&p, job->img->index, *png_out);
	return 0;
}

static int write_any(struct png_job *job, uint8_t **png_out, size_t *len,
		     struct reason *why)
{
	return job->level ? write_png(job, png_out, len, why)
			  : write_stored(job, png_out, len, why);
}

/* The checks every texture PNG passes, and its job. */
static int texture_job(const struct indexed_image *img, uint8_t psm,
		       const struct palette *pal,
		       const struct png_text_entry *text, size_t text_count,
		       int level, struct png_job *job, struct reason *why)
{
	if (level < 0 || level > 9) {
		reason_set(why, "png: zlib level %d is not 0 to 9",
			   level);
		return -EINVAL;
	}
	if (psm != TEXTURE_PSMT8 && psm != TEXTURE_PSMT4) {
		reason_set(why, "png: psm 0x%02x is neither 0x13 nor 0x14", psm);
		return -EINVAL;
	}
	int bit_depth = psm == TEXTURE_PSMT4 ? 4 : 8;
	uint32_t colours = pal->count;
	if (colours > (1u << bit_depth))
		colours = 1u << bit_depth;
	if (colours == 0) {
		reason_set(why, "png: the palette is empty");
		return -EINVAL;
	}
	int rc = check_image(img, why);
	if (!rc)
		rc = check_text(text, text_count, why);
	if (!rc)
		rc = check_indices(img, colours, why);
	if (rc)
		return rc;
	*job = (struct png_job){
		img, bit_depth, (const uint8_t (*)[4])pal->rgba, colours,
		text, text_count, NULL, level
	};
	return 0;
}

int texture_png_level(const struct indexed_image *img, uint8_t psm,
		      const struct palette *pal,
		      const struct png_text_entry *text, size_t text_count,
		      int level, uint8_t **png, size_t *png_len, struct reason *why)
{
	*png = NULL;
	*png_len = 0;
	struct png_job job;
	int rc = texture_job(img, psm, pal, text, text_count, level, &job, why);
	return rc ? rc : write_any(&job, png, png_len, why);
}

int texture_png_into(const struct indexed_image *img, uint8_t psm,
		     const struct palette *pal, uint8_t *out, size_t size,
		     struct reason *why)
{
	struct png_job job;
	int rc = texture_job(img, psm, pal, NULL, 0, 0, &job, why);
	if (rc)
		return rc;
	struct png_indexed p = { img->width, img->height, job.bit_depth,
				 job.rgba, job.colours, NULL, 0 };
	if (png_stored_size(&p) != size) {
		reason_set(why, "png: %zu bytes of room for a "
			   "PNG of %zu", size, png_stored_size(&p));
		return -EINVAL;
	}
	if (out)
		png_stored_write(&p, img->index, out);
	return 0;
}

int texture_png_size(uint32_t width, uint32_t height, uint8_t psm,
		     const struct palette *pal,
		     const struct png_text_entry *text, size_t text_count,
		     size_t *size)
{
	if ((psm != TEXTURE_PSMT8 && psm != TEXTURE_PSMT4) || !pal->count ||
	    !width || !height || width > (1u << TEXTURE_MAX_LOG2) ||
	    height > (1u << TEXTURE_MAX_LOG2) ||
	    check_text(text, text_count, NULL) ||
	    !png_stored_text_ok(text, text_count))
		return -EINVAL;
	int bit_depth = psm == TEXTURE_PSMT4 ? 4 : 8;
	uint32_t colours = pal->count;
	if (colours > (1u << bit_depth))
		colours = 1u << bit_depth;
	struct png_indexed p = { width, height, bit_depth,
				 (const uint8_t (*)[4])pal->rgba, colours,
				 text, text_count };
	*size = png_stored_size(&p);
	return 0;
}

int texture_palette_png(const struct palette *pal, const struct png_text_entry *text,
		size_t text_count, uint8_t **png, size_t *png_len, struct reason *why)
{
	return texture_palette_png_level(pal, text, text_count, 0, png, png_len, why);
}

/* The grid texture_palette_png draws: cols x rows cells, and the PLTE's size,
 * which has one more, transparent, entry when there are spare cells (one
 * always fits: a grid with spare cells has fewer colours than its bit
 * depth allows). */
static void palette_grid(const struct palette *pal, uint32_t *cols,
			 uint32_t *rows, uint32_t *colours)
{
	*cols = pal->count <= 16 ? 4 : 16;
	*rows = (pal->count + *cols - 1) / *cols;
	*colours = pal->count < *cols * *rows ? pal->count + 1 : pal->count;
}

int texture_palette_png_size(const struct palette *pal,
		     const struct png_text_entry *text, size_t text_count,
		     size_t *size)
{
	if (pal->count == 0 || pal->count > CLUT_MAX_COLOURS ||
	    check_text(text, text_count, NULL) ||
	    !png_stored_text_ok(text, text_count))
		return -EINVAL;
	uint32_t cols, rows, colours;
	palette_grid(pal, &cols, &rows, &colours);
	uint8_t rgba[CLUT_MAX_COLOURS][4];
	memset(rgba, 0, sizeof rgba);
	memcpy(rgba, pal->rgba, (size_t)pal->count * 4);
	struct png_indexed p = { cols * PALETTE_SWATCH, rows * PALETTE_SWATCH,
				 colours <= 16 ? 4 : 8,
				 (const uint8_t (*)[4])rgba, colours, text,
				 text_count };
	*size = png_stored_size(&p);
	return 0;
}

int texture_palette_png_level(const struct palette *pal,
		      const struct png_text_entry *text, size_t text_count,
		      int level, uint8_t **png, size_t *png_len, struct reason *why)
{
	*png = NULL;
	*png_len = 0;
	if (pal->count == 0 || pal->count > CLUT_MAX_COLOURS) {
		reason_set(why, "png: palette of %" PRIu32 " colours", pal->count);
		return -EINVAL;
	}
	int rc = check_text(text, text_count, why);
	if (rc)
		return rc;
	uint32_t cols, rows, colours;
	palette_grid(pal, &cols, &rows, &colours);
	uint8_t (*rgba)[4] = calloc(CLUT_MAX_COLOURS, sizeof *rgba);
	struct indexed_image img = {
		cols * PALETTE_SWATCH, rows * PALETTE_SWATCH,
		malloc((size_t)cols * rows * PALETTE_SWATCH * PALETTE_SWATCH)
	};
	if (!rgba || !img.index) {
		free(rgba);
		free(img.index);
		reason_set(why, "png: out of memory");
		return -ENOMEM;
	}
	memcpy(rgba, pal->rgba, (size_t)pal->count * 4);
	for (uint32_t y = 0; y < img.height; y++) {
		for (uint32_t x = 0; x < img.width; x++) {
			uint32_t i = (y / PALETTE_SWATCH) * cols +
				     x / PALETTE_SWATCH;
			img.index[(size_t)y * img.width + x] =
				(uint8_t)(i < pal->count ? i : pal->count);
		}
	}
	struct png_job job = {
		&img, colours <= 16 ? 4 : 8, (const uint8_t (*)[4])rgba,
		colours, text, text_count, NULL, level
	};
	rc = write_any(&job, png, png_len, why);
	free(img.index);
	free(rgba);
	return rc;
}
