/* SPDX-License-Identifier: MIT */
/* ccsw_texture.c - texture and palette chunks, levels and pixels. */
#include "ccsw_internal.h"

/* ---- textures and palettes ---- */

uint32_t ccsw_level_words(unsigned tw, unsigned th, unsigned level,
			  uint8_t psm)
{
	uint32_t width = (1u << tw) >> level, height = (1u << th) >> level;
	if (!width)
		width = 1;
	if (!height)
		height = 1;
	uint64_t bits = (uint64_t)width * height * (psm == 0x14 ? 4 : 8);
	return (uint32_t)((bits + 31) / 32);
}

uint8_t ccsw_pattern_index(enum ccsw_pattern p, uint32_t seed,
			   uint32_t x, uint32_t y, uint32_t width,
			   uint32_t height, uint8_t max_index)
{
	/* A solid block in the top-left eighth shows at a glance whether a
	 * converter got the bottom-row-first order right. */
	if (x < (width + 7) / 8 && y < (height + 7) / 8)
		return max_index;
	uint32_t ramp = (x * 256 / width + y * 256 / height) / 2;  /* 0..255 */
	uint32_t v;
	switch (p) {
	case CCSW_PAT_CHECKER:
		v = (((x / 8) + (y / 8)) & 1) ? 200 : 40;
		v = (v + ramp / 4) & 0xff;
		break;
	case CCSW_PAT_NOISY: {
		/* Banded ramp with one pixel in six speckled: about 2.5:1 at
		 * deflate level 1, like the real disc's 8-bit art. */
		uint32_t h = mix32(seed, y * width + x);
		v = (ramp & ~7u) + (h % 6 == 0 ? (h >> 4) % 16 : 0);
		v &= 0xff;
		break;
	}
	case CCSW_PAT_GRADIENT:
	default:
		v = ramp;
		break;
	}
	return max_index == 15 ? (uint8_t)(v >> 4) : (uint8_t)v;
}

/* One level's stored bytes: bottom image row first. */
static void put_level_pixels(struct buf *b, const struct ccsw_texture *t,
			     unsigned level)
{
	uint32_t width = (1u << t->tw) >> level, height = (1u << t->th) >> level;
	if (!width)
		width = 1;
	if (!height)
		height = 1;
	bool four = t->psm == 0x14;
	uint8_t max = four ? 15 : 255;
	size_t start = b->len;
	uint8_t pending = 0;
	bool half = false;
	for (uint32_t r = 0; r < height; r++) {
		uint32_t y = height - 1 - r;
		for (uint32_t x = 0; x < width; x++) {
			uint8_t v = ccsw_pattern_index(t->pattern,
						       t->seed + level, x, y,
						       width, height, max);
			if (!four) {
				put_u8(b, v);
			} else if (!half) {
				pending = v;    /* left pixel: low nibble */
				half = true;
			} else {
				put_u8(b, (uint8_t)(pending | v << 4));
				half = false;
			}
		}
	}
	if (half)
		put_u8(b, pending);
	size_t want = (size_t)ccsw_level_words(t->tw, t->th, level, t->psm) * 4;
	put_fill(b, 0, want - (b->len - start));
}

void ccsw_texture(struct ccsw *w, const struct ccsw_texture *t)
{
	struct buf p = {0};
	bool has_levels = w->version >= 0x90;
	unsigned levels = has_levels ? t->mipmap + 1u : 1u;
	put_u32(&p, t->object);
	put_u32(&p, t->clut);
	if (w->version >= 0x92)
		put_u32(&p, t->blt_group);
	put_u8(&p, t->flag);
	put_u8(&p, t->psm);
	if (has_levels) {
		put_u8(&p, t->mipmap);
		put_u8(&p, t->aref);
		put_u8(&p, t->tw);
		put_u8(&p, t->th);
	}
	put_align4(&p, 0xcd);   /* the debug heap fill the exporter left */
	size_t given = 0;
	for (unsigned l = 0; l < levels; l++) {
		uint32_t words = ccsw_level_words(t->tw, t->th, l, t->psm);
		put_u16(&p, (uint16_t)(t->buf_x + 64 * l));
		put_u16(&p, t->buf_y);
		put_u32(&p, l == 0 && t->count_lie ? t->count_lie : words);
		if (t->pixels) {
			put_bytes(&p, t->pixels + given, (size_t)words * 4);
			given += (size_t)words * 4;
		} else {
			put_level_pixels(&p, t, l);
		}
	}
	long long size = t->size_field >= 0 ? t->size_field
					    : (long long)(p.len / 4) + 0x32;
	emit(w, CCSW_TEXTURE, &p, size, t->object);
}

uint32_t ccsw_clut_colour(const struct ccsw_clut *c, uint32_t i)
{
	uint32_t n = c->count > 1 ? c->count : 2;
	uint32_t t = i * 255 / (n - 1);
	uint32_t tint = c->seed % 3;
	uint32_t r = tint == 0 ? t : t / 2, g = tint == 1 ? t : 255 - t;
	uint32_t b = tint == 2 ? t : (t * 3 / 4);
	uint32_t a = c->alpha_ramp ? i * 0x80 / (n - 1) : 0x80;
	return r | g << 8 | b << 16 | a << 24;
}

void ccsw_clut(struct ccsw *w, const struct ccsw_clut *c)
{
	struct buf p = {0};
	put_u32(&p, c->object);
	if (w->version >= 0x92)
		put_u32(&p, c->blt_group);
	if (w->version >= 0x90) {
		put_u8(&p, c->flag);
		put_u8(&p, c->cpsm);
		put_u8(&p, c->unknown2);
		put_u8(&p, c->unknown3);
		put_u16(&p, c->buf_x);
		put_u16(&p, c->buf_y);
		put_u32(&p, c->count);
	}
	for (uint32_t i = 0; i < c->count; i++)
		put_u32(&p, c->colours ? c->colours[i]
				       : ccsw_clut_colour(c, i));
	emit(w, CCSW_CLUT, &p, CCSW_SIZE_AUTO, c->object);
}
