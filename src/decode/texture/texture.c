/* SPDX-License-Identifier: MIT */
/* texture.c - texture and CLUT chunks parsed and decoded to indices.
 *
 * Where a texture's levels lie is ccsf/layout.c's; the PNG bytes are
 * texture_png.c's (see texture.h for the steps).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsf/layout.h"
#include "decode/texture/texture.h"
#include "util/bufpool.h"
#include "util/bytes.h"
#include "util/reason.h"

/* ---- parsing ----------------------------------------------------------- */

static bool chunk_kind_is(const uint8_t *p, size_t len, uint16_t kind,
			  const char *name, struct reason *why)
{
	if (len < CCSF_CHUNK_HEADER) {
		reason_set(why, "%s chunk: %zu bytes, shorter than a chunk header",
		    name, len);
		return false;
	}
	if (rd_u16le(p) != kind) {
		reason_set(why, "%s chunk: kind is 0x%04x, not 0x%04x", name,
		    rd_u16le(p), kind);
		return false;
	}
	return true;
}

static uint32_t level_side(uint8_t log2, unsigned level)
{
	uint32_t side = (1u << log2) >> level;
	return side ? side : 1;
}

/* Bytes the pixels of a width x height level occupy; 4-bit levels pack
 * two pixels a byte across row ends. */
static size_t level_pixel_bytes(uint32_t width, uint32_t height, uint8_t psm)
{
	size_t pixels = (size_t)width * height;
	return psm == TEXTURE_PSMT4 ? (pixels + 1) / 2 : pixels;
}

static int texture_check_fields(const struct texture *tex, struct reason *why)
{
	if (tex->psm != TEXTURE_PSMT8 && tex->psm != TEXTURE_PSMT4) {
		reason_set(why, "texture: psm 0x%02x is neither 0x13 (8-bit) nor "
		    "0x14 (4-bit)", tex->psm);
		return -EIO;
	}
	if (tex->tw > TEXTURE_MAX_LOG2 || tex->th > TEXTURE_MAX_LOG2) {
		reason_set(why, "texture: tw %u / th %u: a side above 2^%d pixels",
		    tex->tw, tex->th, TEXTURE_MAX_LOG2);
		return -EIO;
	}
	if (tex->mipmap >= TEXTURE_MAX_LEVELS) {
		reason_set(why, "texture: mipmap %u: more than %d levels after the "
		    "first", tex->mipmap, TEXTURE_MAX_LEVELS - 1);
		return -EIO;
	}
	return 0;
}

static int texture_read_level(const uint8_t *p, size_t len, uint64_t *at,
			      struct texture *tex, unsigned n, struct reason *why)
{
	struct texture_level *out = &tex->level[n];
	struct ccsf_level lv;
	int rc = ccsf_level_describe(p, len, *at, &lv);
	if (rc == -EIO) {
		reason_set(why, "texture: chunk ends inside level %u's header", n);
		return -EIO;
	}
	out->buf_x = lv.buf_x;
	out->buf_y = lv.buf_y;
	out->width = level_side(tex->tw, n);
	out->height = level_side(tex->th, n);
	uint64_t bytes = 4 * (uint64_t)lv.count;
	size_t need = level_pixel_bytes(out->width, out->height, tex->psm);
	if (rc == -ERANGE) {
		reason_set(why, "texture: level %u claims %" PRIu64 " bytes of pixels, "
		    "the chunk holds %zu more", n, bytes,
		    (size_t)(len - lv.pixels));
		return -EIO;
	}
	if (bytes < need) {
		reason_set(why, "texture: level %u is %" PRIu32 "x%" PRIu32 " and needs "
		    "%zu bytes, its count gives %" PRIu64, n, out->width,
		    out->height, need, bytes);
		return -EIO;
	}
	out->bytes = (size_t)bytes;
	out->pixels = p + lv.pixels;
	*at = lv.end;
	return 0;
}

int texture_parse(const uint8_t *p, size_t len, uint16_t version,
		  struct texture *tex, struct reason *why)
{
	memset(tex, 0, sizeof *tex);
	if (!chunk_kind_is(p, len, CCSF_TEXTURE, "texture", why))
		return -EIO;
	if (version < 0x90) {
		reason_set(why, "texture: version 0x%x has no mipmap, tw or th "
		    "(they start at 0x90)", version);
		return -EIO;
	}
	struct ccsf_texture t;
	if (ccsf_texture_head(p, len, version, &t)) {
		reason_set(why, "texture: chunk ends inside its fields (%zu bytes)",
		    len);
		return -EIO;
	}
	tex->object = t.object;
	tex->clut = t.clut;
	tex->blt_group = t.blt_group;
	tex->flag = t.flag;
	tex->psm = t.psm;
	tex->mipmap = t.mipmap;
	tex->aref = t.aref;
	tex->tw = t.tw;
	tex->th = t.th;
	int rc = texture_check_fields(tex, why);
	if (rc)
		return rc;
	tex->levels = t.levels;
	uint64_t at = t.first_level;
	for (unsigned n = 0; n < tex->levels; n++) {
		rc = texture_read_level(p, len, &at, tex, n, why);
		if (rc)
			return rc;
	}
	tex->length = (size_t)at;
	return 0;
}

int texture_clut_parse(const uint8_t *p, size_t len, uint16_t version,
	       struct clut *clut, struct reason *why)
{
	memset(clut, 0, sizeof *clut);
	if (!chunk_kind_is(p, len, CCSF_CLUT, "clut", why))
		return -EIO;
	if (version < 0x90) {
		reason_set(why, "clut: version 0x%x has no colour count (it starts "
		    "at 0x90)", version);
		return -EIO;
	}
	struct cursor c = cursor_make(p, len);
	(void)cur_take(&c, CCSF_CHUNK_HEADER);
	clut->object = cur_u32(&c);
	if (version >= 0x92)
		clut->blt_group = cur_u32(&c);
	clut->flag = cur_u8(&c);
	clut->cpsm = cur_u8(&c);
	clut->unknown2 = cur_u8(&c);
	clut->unknown3 = cur_u8(&c);
	clut->buf_x = cur_u16(&c);
	clut->buf_y = cur_u16(&c);
	clut->count = cur_u32(&c);
	if (c.bad) {
		reason_set(why, "clut: chunk ends inside its fields (%zu bytes)", len);
		return -EIO;
	}
	if (clut->count == 0 || clut->count > CLUT_MAX_COLOURS ||
	    clut->count % 2) {
		reason_set(why, "clut: count %" PRIu32 " is not an even number from 2 "
		    "to 256 (16 or 256 expected)", clut->count);
		return -EIO;
	}
	if ((size_t)clut->count * 4 > cur_left(&c)) {
		reason_set(why, "clut: %" PRIu32 " colours need %" PRIu32 " bytes, the "
		    "chunk holds %zu more", clut->count, clut->count * 4,
		    cur_left(&c));
		return -EIO;
	}
	clut->colours = cur_take(&c, (size_t)clut->count * 4);
	clut->length = c.pos;
	return 0;
}

void texture_palette_from_clut(const struct clut *clut, struct palette *pal)
{
	memset(pal, 0, sizeof *pal);
	pal->count = clut->count <= CLUT_MAX_COLOURS ? clut->count
						     : CLUT_MAX_COLOURS;
	for (uint32_t i = 0; i < pal->count; i++) {
		const uint8_t *c = clut->colours + 4 * (size_t)i;
		unsigned a = 2u * c[3];
		pal->rgba[i][0] = c[0];
		pal->rgba[i][1] = c[1];
		pal->rgba[i][2] = c[2];
		pal->rgba[i][3] = (uint8_t)(a > 255 ? 255 : a);
	}
}

/* ---- decoding ---------------------------------------------------------- */

void texture_image_free(struct indexed_image *img)
{
	bufpool_free(img->index);
	img->index = NULL;
	img->width = img->height = 0;
}

/* A level straight from a struct the caller may have built by hand: the
 * sizes must still fit the pixels. */
static int level_usable(const struct texture *tex, unsigned level, struct reason *why)
{
	if (level >= tex->levels || level >= TEXTURE_MAX_LEVELS) {
		reason_set(why, "texture: no level %u (it has %u)", level,
		    tex->levels);
		return -EINVAL;
	}
	const struct texture_level *lv = &tex->level[level];
	if (tex->psm != TEXTURE_PSMT8 && tex->psm != TEXTURE_PSMT4) {
		reason_set(why, "texture: psm 0x%02x is neither 0x13 nor 0x14",
		    tex->psm);
		return -EINVAL;
	}
	if (!lv->width || !lv->height ||
	    lv->width > (1u << TEXTURE_MAX_LOG2) ||
	    lv->height > (1u << TEXTURE_MAX_LOG2) || !lv->pixels ||
	    lv->bytes < level_pixel_bytes(lv->width, lv->height, tex->psm)) {
		reason_set(why, "texture: level %u's size does not fit its pixels",
		    level);
		return -EINVAL;
	}
	return 0;
}

static uint8_t max_index(const uint8_t *p, size_t n, bool four)
{
	uint8_t max = 0;
	if (four) {
		for (size_t i = 0; i < n; i++) {
			uint8_t lo = p[i] & 0x0f, hi = p[i] >> 4;
			max = lo > max ? lo : max;
			max = hi > max ? hi : max;
		}
	} else {
		for (size_t i = 0; i < n; i++)
			max = p[i] > max ? p[i] : max;
	}
	return max;
}

/* Says which pixel first takes an index past the palette; only on the
 * error path, so it may be slow. */
static int index_error(const struct texture *tex, unsigned level,
		       uint32_t palette_count, struct reason *why)
{
	const struct texture_level *lv = &tex->level[level];
	uint32_t w = lv->width, h = lv->height;
	bool four = tex->psm == TEXTURE_PSMT4;
	for (uint32_t y = 0; y < h; y++) {
		size_t stored = (size_t)(h - 1 - y) * w;
		for (uint32_t x = 0; x < w; x++) {
			size_t k = stored + x;
			uint8_t v = four ? (uint8_t)(lv->pixels[k / 2] >>
						     (k & 1 ? 4 : 0) & 0x0f)
					 : lv->pixels[k];
			if (v >= palette_count) {
				reason_set(why, "texture: level %u pixel (%" PRIu32
				    ", %" PRIu32 ") from the top left has "
				    "index %u, the palette has %" PRIu32
				    " colours", level, x, y, v, palette_count);
				return -EIO;
			}
		}
	}
	return 0;
}

static size_t level_bytes(const struct texture *tex, unsigned level)
{
	const struct texture_level *lv = &tex->level[level];
	return level_pixel_bytes(lv->width, lv->height, tex->psm);
}

int texture_check(const struct texture *tex, unsigned level,
		  uint32_t palette_count, struct reason *why)
{
	int rc = level_usable(tex, level, why);
	if (rc)
		return rc;
	/* A palette of every index a pixel can hold needs no look at the
	 * pixels; else a whole-level maximum first, one pass the compiler
	 * vectorises. */
	bool four = tex->psm == TEXTURE_PSMT4;
	if (palette_count >= (four ? 16u : 256u))
		return 0;
	if (max_index(tex->level[level].pixels, level_bytes(tex, level),
		      four) < palette_count)
		return 0;
	return index_error(tex, level, palette_count, why);
}

int texture_decode(const struct texture *tex, unsigned level,
		   uint32_t palette_count, struct indexed_image *img,
		   struct reason *why)
{
	memset(img, 0, sizeof *img);
	int rc = texture_check(tex, level, palette_count, why);
	if (rc)
		return rc;
	const struct texture_level *lv = &tex->level[level];
	uint32_t w = lv->width, h = lv->height;
	/* From the pool: a 256x256 image is a mapping of its own, and every
	 * texture.png of a walk would fault it in and unmap it again. */
	img->index = bufpool_alloc((size_t)w * h);
	if (!img->index) {
		reason_set(why, "texture: out of memory for %" PRIu32 "x%" PRIu32
		    " pixels", w, h);
		return -ENOMEM;
	}
	img->width = w;
	img->height = h;
	bool four = tex->psm == TEXTURE_PSMT4;
	for (uint32_t y = 0; y < h; y++) {
		/* Stored rows are bottom first (BMP order). */
		size_t stored = (size_t)(h - 1 - y) * w;
		uint8_t *out = img->index + (size_t)y * w;
		if (!four) {
			memcpy(out, lv->pixels + stored, w);
			continue;
		}
		for (uint32_t x = 0; x < w; x++) {
			size_t k = stored + x;
			out[x] = (uint8_t)(lv->pixels[k / 2] >> (k & 1 ? 4 : 0) &
					   0x0f);
		}
	}
	return 0;
}
