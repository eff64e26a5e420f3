/* SPDX-License-Identifier: MIT */
/* ccsw.c - the synthetic CCSF writer (see ccsw.h). */
#include "ccsw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- growable byte buffer ---- */

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "ccsw: out of memory\n");
		abort();
	}
	return q;
}

static uint8_t *buf_grow(struct buf *b, size_t n)
{
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap - b->len < n)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	uint8_t *at = b->p + b->len;
	b->len += n;
	return at;
}

static void put_bytes(struct buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(buf_grow(b, n), p, n);
}

static void put_fill(struct buf *b, uint8_t v, size_t n)
{
	if (n)
		memset(buf_grow(b, n), v, n);
}

static void put_u8(struct buf *b, uint8_t v) { put_bytes(b, &v, 1); }

static void put_u16(struct buf *b, uint16_t v)
{
	uint8_t *p = buf_grow(b, 2);
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put_u32(struct buf *b, uint32_t v)
{
	uint8_t *p = buf_grow(b, 4);
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put_f32(struct buf *b, float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	put_u32(b, u);
}

static void put_f32s(struct buf *b, const float *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_f32(b, f[i]);
}

static void put_s16s(struct buf *b, const int16_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_u16(b, (uint16_t)v[i]);
}

/* Padding is relative to the payload start, which is word aligned in the
 * file, so payload alignment is file alignment. */
static void put_align4(struct buf *b, uint8_t fill)
{
	put_fill(b, fill, (4 - (b->len & 3)) & 3);
}

static void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* ---- deterministic noise ---- */

/* A hash rather than a stream generator, so a pixel or vertex depends only
 * on (seed, position) and any part can be recomputed by a test. */
static uint32_t mix32(uint32_t a, uint32_t b)
{
	uint32_t h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u);
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

/* ---- the writer ---- */

struct object_entry {
	uint8_t name[30];
	uint16_t file;
};

struct ccsw {
	char name[32];
	uint16_t version;
	bool zero_stream_tags;
	bool header_frames_set;
	uint32_t header_frames;

	char (*files)[32];              /* entry 0 included */
	uint32_t file_count;
	struct object_entry *objects;   /* entry 0 included */
	uint32_t object_count;
	bool index_lies;
	uint32_t lie_files, lie_objects;

	struct buf body;                /* every chunk after the index */
	struct buf trailer;

	struct ccsw_chunk_info *chunks; /* header, index, then body chunks */
	size_t chunk_count, chunk_cap;
	size_t body_start;              /* set by finish */
	bool finished;
};

/* A fixed char[] field of the file: zero-filled, no NUL when full. */
static void copy_field(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	memset(dst, 0, size);
	memcpy(dst, src, n < size ? n : size);
}

struct ccsw *ccsw_new(const char *name, uint16_t version)
{
	struct ccsw *w = xrealloc(NULL, sizeof *w);
	memset(w, 0, sizeof *w);
	copy_field(w->name, sizeof w->name, name);
	w->version = version;
	w->files = xrealloc(NULL, sizeof *w->files);
	memset(w->files[0], 0, 32);
	w->file_count = 1;
	w->objects = xrealloc(NULL, sizeof *w->objects);
	memset(&w->objects[0], 0, sizeof w->objects[0]);
	w->object_count = 1;
	return w;
}

void ccsw_free(struct ccsw *w)
{
	if (!w)
		return;
	free(w->files);
	free(w->objects);
	buf_free(&w->body);
	buf_free(&w->trailer);
	free(w->chunks);
	free(w);
}

uint16_t ccsw_version(const struct ccsw *w) { return w->version; }

void ccsw_set_stream_tags(struct ccsw *w, bool zero_tags)
{
	w->zero_stream_tags = zero_tags;
}

void ccsw_set_header_frames(struct ccsw *w, uint32_t frames)
{
	w->header_frames = frames;
	w->header_frames_set = true;
}

uint32_t ccsw_file(struct ccsw *w, const char *path)
{
	w->files = xrealloc(w->files, (w->file_count + 1) * sizeof *w->files);
	char *f = w->files[w->file_count];
	copy_field(f, 32, path);
	return w->file_count++;
}

uint32_t ccsw_object(struct ccsw *w, const uint8_t *name, size_t n,
		     uint32_t file)
{
	w->objects = xrealloc(w->objects,
			      (w->object_count + 1) * sizeof *w->objects);
	struct object_entry *o = &w->objects[w->object_count];
	memset(o, 0, sizeof *o);
	memcpy(o->name, name, n < 30 ? n : 30);
	o->file = (uint16_t)file;
	return w->object_count++;
}

uint32_t ccsw_object_str(struct ccsw *w, const char *name, uint32_t file)
{
	return ccsw_object(w, (const uint8_t *)name, strlen(name), file);
}

uint32_t ccsw_object_count(const struct ccsw *w) { return w->object_count; }

void ccsw_index_lie(struct ccsw *w, uint32_t file_count,
		    uint32_t object_count)
{
	w->index_lies = true;
	w->lie_files = file_count;
	w->lie_objects = object_count;
}

static void note_chunk(struct ccsw *w, size_t offset, size_t length,
		       uint16_t kind, uint32_t object)
{
	if (w->chunk_count == w->chunk_cap) {
		w->chunk_cap = w->chunk_cap ? 2 * w->chunk_cap : 64;
		w->chunks = xrealloc(w->chunks,
				     w->chunk_cap * sizeof *w->chunks);
	}
	struct ccsw_chunk_info *c = &w->chunks[w->chunk_count++];
	c->offset = offset;
	c->length = length;
	c->kind = kind;
	c->object = object;
}

/* Appends one chunk to the body.  The recorded length is the real one
 * (header plus padded payload), whatever the size field claims. */
static void add_chunk(struct ccsw *w, uint16_t kind, uint16_t tag,
		      const void *payload, size_t len, long long size_field,
		      uint32_t object)
{
	size_t padded = (len + 3) & ~(size_t)3;
	uint32_t size = size_field < 0 ? (uint32_t)(padded / 4)
				       : (uint32_t)size_field;
	size_t at = w->body.len;
	put_u16(&w->body, kind);
	put_u16(&w->body, tag);
	put_u32(&w->body, size);
	put_bytes(&w->body, payload, len);
	put_fill(&w->body, 0, padded - len);
	note_chunk(w, at, 8 + padded, kind, object);
}

void ccsw_chunk(struct ccsw *w, uint16_t kind, uint16_t tag,
		const void *payload, size_t len, long long size_field)
{
	add_chunk(w, kind, tag, payload, len, size_field, 0);
}

void ccsw_trailer(struct ccsw *w, const void *bytes, size_t n)
{
	put_bytes(&w->trailer, bytes, n);
}

/* Most helpers build a payload in a buf and hand it over here. */
static void emit(struct ccsw *w, uint16_t kind, struct buf *p,
		 long long size_field, uint32_t object)
{
	add_chunk(w, kind, CCSW_TAG, p->p, p->len, size_field, object);
	buf_free(p);
}

static uint16_t stream_tag(const struct ccsw *w)
{
	return w->zero_stream_tags ? 0 : CCSW_TAG;
}

/* ---- setup section: small chunks ---- */

void ccsw_setup(struct ccsw *w)
{
	add_chunk(w, CCSW_SETUP, 0, NULL, 0, CCSW_SIZE_AUTO, 0);
}

void ccsw_obj(struct ccsw *w, uint32_t object, uint32_t parent,
	      uint32_t model, uint32_t shadow_model)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u32(&p, parent);
	put_u32(&p, model);
	if (w->version >= 0x96)
		put_u32(&p, shadow_model);
	emit(w, CCSW_OBJ, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_obj2(struct ccsw *w, uint32_t object, uint32_t flags,
	       uint32_t modifier, uint32_t layer, uint32_t slayer)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u32(&p, flags);
	put_u32(&p, modifier);
	put_u32(&p, layer);
	put_u32(&p, slayer);
	emit(w, CCSW_OBJ2, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_material(struct ccsw *w, uint32_t object, uint32_t texture,
		   float transparency, uint16_t crop_u, uint16_t crop_v)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u32(&p, texture);
	put_f32(&p, transparency);
	put_u16(&p, crop_u);
	put_u16(&p, crop_v);
	emit(w, CCSW_MATERIAL, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_clump(struct ccsw *w, uint32_t object, uint16_t n,
		const uint32_t *nodes)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u16(&p, n);
	put_align4(&p, 0);
	for (uint16_t i = 0; i < n; i++)
		put_u32(&p, nodes[i]);
	emit(w, CCSW_CLUMP, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_extobj(struct ccsw *w, uint32_t object, uint32_t parent,
		 uint32_t target)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u32(&p, parent);
	put_u32(&p, target);
	emit(w, CCSW_EXTOBJ, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_bbox(struct ccsw *w, uint32_t box, uint32_t target,
	       const float min[3], const float max[3])
{
	struct buf p = {0};
	put_u32(&p, box);
	put_u32(&p, target);
	put_f32s(&p, min, 3);
	put_f32s(&p, max, 3);
	emit(w, CCSW_BBOX, &p, CCSW_SIZE_AUTO, box);
}

void ccsw_dummypos(struct ccsw *w, uint32_t object, const float pos[3])
{
	struct buf p = {0};
	put_u32(&p, object);
	put_f32s(&p, pos, 3);
	emit(w, CCSW_DUMMYPOS, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_dummyposrot(struct ccsw *w, uint32_t object, const float pos[3],
		      const float rot[3])
{
	struct buf p = {0};
	put_u32(&p, object);
	put_f32s(&p, pos, 3);
	put_f32s(&p, rot, 3);
	emit(w, CCSW_DUMMYPOSROT, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_morpher(struct ccsw *w, uint32_t morpher, uint32_t base_model)
{
	struct buf p = {0};
	put_u32(&p, morpher);
	put_u32(&p, base_model);
	emit(w, CCSW_MORPHER, &p, CCSW_SIZE_AUTO, morpher);
}

void ccsw_camera(struct ccsw *w, uint32_t object)
{
	struct buf p = {0};
	put_u32(&p, object);
	emit(w, CCSW_CAMERA, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_light(struct ccsw *w, uint32_t object, int16_t type)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u16(&p, (uint16_t)type);
	put_align4(&p, 0);
	emit(w, CCSW_LIGHT, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_layer(struct ccsw *w, uint16_t n, const uint8_t *kinds,
		const uint32_t *objects)
{
	struct buf p = {0};
	put_u16(&p, n);
	put_align4(&p, 0);
	for (uint16_t i = 0; i < n; i++) {
		put_u8(&p, kinds[i]);
		put_align4(&p, 0);
		put_u32(&p, objects[i]);
	}
	emit(w, CCSW_LAYER, &p, CCSW_SIZE_AUTO, 0);
}

void ccsw_fbrect(struct ccsw *w, uint32_t object, uint8_t type,
		 uint16_t fx, uint16_t fy, uint16_t width, uint16_t height)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u8(&p, type);
	put_align4(&p, 0);
	put_u16(&p, fx);
	put_u16(&p, fy);
	put_u16(&p, width);
	put_u16(&p, height);
	emit(w, CCSW_FBRECT, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_fbpage(struct ccsw *w, uint32_t object, uint32_t n,
		 const struct ccsw_fb_page *pages)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u32(&p, n);
	for (uint32_t i = 0; i < n; i++) {
		put_u8(&p, pages[i].px);
		put_u8(&p, pages[i].py);
		put_u8(&p, pages[i].pw);
		put_u8(&p, pages[i].ph);
		put_u8(&p, pages[i].type);
		put_align4(&p, 0);
	}
	emit(w, CCSW_FBPAGE, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_opaque(struct ccsw *w, uint16_t kind, uint32_t object,
		 uint32_t words, uint32_t seed)
{
	struct buf p = {0};
	put_u32(&p, object);
	for (uint32_t i = 0; i < words; i++)
		put_u32(&p, mix32(seed, i) & 0x00ffffffu);
	emit(w, kind, &p, CCSW_SIZE_AUTO, object);
}

/* ---- frame-record payloads, shared by the frame section and Anime ---- */

static void put_record(struct buf *b, uint16_t kind, uint16_t tag,
		       const struct buf *payload)
{
	put_u16(b, kind);
	put_u16(b, tag);
	put_u32(b, (uint32_t)(payload->len / 4));
	put_bytes(b, payload->p, payload->len);
}

static void f_obj_payload(struct buf *p, const struct ccsw_f_obj *f)
{
	put_u32(p, f->object);
	put_u32(p, f->flag);
	put_f32s(p, f->pos, 3);
	put_f32s(p, f->rot, 3);
	put_f32s(p, f->scale, 3);
	put_f32(p, f->tp);
	put_u32(p, f->disp_sw);
}

static struct ccsw_f_obj f_obj_moving(uint32_t object, uint32_t frame)
{
	struct ccsw_f_obj f = {
		.object = object, .flag = 0,
		.pos = { (float)frame * 2.0f, 0.0f, (float)(frame % 16) },
		.rot = { 0.0f, 0.0f, (float)((frame * 6) % 360) },
		.scale = { 1.0f, 1.0f, 1.0f }, .tp = 1.0f, .disp_sw = 1,
	};
	return f;
}

void ccsw_anime(struct ccsw *w, uint32_t object, uint32_t target,
		uint32_t frames)
{
	struct buf body = {0}, rec = {0};
	for (uint32_t f = 0; f <= frames; f++) {
		put_u32(&rec, f < frames ? f : CCSW_END_FRAME);
		put_record(&body, CCSW_TOP, CCSW_TAG, &rec);
		buf_free(&rec);
		if (f == frames)
			break;
		struct ccsw_f_obj fo = f_obj_moving(target, f);
		f_obj_payload(&rec, &fo);
		put_record(&body, CCSW_F_OBJ, CCSW_TAG, &rec);
		buf_free(&rec);
	}
	struct buf p = {0};
	put_u32(&p, object);
	put_u32(&p, frames);
	put_u32(&p, (uint32_t)(body.len / 4));
	put_bytes(&p, body.p, body.len);
	buf_free(&body);
	emit(w, CCSW_ANIME, &p, CCSW_SIZE_AUTO, object);
}

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

/* ---- models ---- */

uint16_t ccsw_layout_mtype(const struct ccsw *w, uint16_t mtype)
{
	return w->version < 0x100 ? (uint16_t)(mtype & 0xff) : mtype;
}

static uint32_t strip_len(const struct ccsw_mmat *m)
{
	return m->strip >= 3 ? m->strip : 6;
}

/* A zigzag band: even vertices on one edge, odd on the other, with a
 * seeded wobble so the mesh is not flat. */
static void gen_position(const struct ccsw_mmat *m, uint32_t i,
			 int16_t out[3])
{
	uint32_t s = strip_len(m), strip = i / s, k = i % s;
	int32_t x = (int32_t)(k / 2) * 400 - 1600;
	int32_t y = (int32_t)(k & 1) * 400 + (int32_t)strip * 500 - 2000;
	int32_t z = (int32_t)((strip * 37 + k * 11) % 64) * 8 +
		    (int32_t)(mix32(m->seed, i) % 32) - 256;
	out[0] = (int16_t)x;
	out[1] = (int16_t)y;
	out[2] = (int16_t)z;
}

/* Byte 3 is the strip flag: the first two vertices of each strip open it. */
static uint32_t gen_normal(const struct ccsw_mmat *m, uint32_t i)
{
	uint32_t h = mix32(m->seed ^ 0x5a5a, i);
	int8_t nx = (int8_t)((int)(h & 3) - 2), ny = (int8_t)((int)(h >> 4 & 3) - 2);
	int8_t nz = 62;
	uint32_t flag = (i % strip_len(m)) < 2 ? 1 : 0;
	return (uint8_t)nx | (uint32_t)(uint8_t)ny << 8 |
	       (uint32_t)(uint8_t)nz << 16 | flag << 24;
}

/* A colour per strip, lightly varied per vertex (vertex-lit art). */
static uint32_t gen_colour(const struct ccsw_mmat *m, uint32_t i)
{
	uint32_t base = mix32(m->seed ^ 0xc0c0, i / strip_len(m));
	uint32_t h = mix32(m->seed ^ 0xc1c1, i) & 3;
	return (0x40 + (base & 0x3c) + h) | (0x40 + (base >> 8 & 0x3c)) << 8 |
	       (0x40 + (base >> 16 & 0x3c)) << 16 | 0x80u << 24;
}

static uint32_t gen_st(const struct ccsw_mmat *m, uint32_t i)
{
	uint32_t s = strip_len(m), k = i % s;
	uint32_t S = (k / 2) * 256 / ((s + 1) / 2), T = (k & 1) * 255;
	T += (i / s) % 4 * 16;
	return S | T << 16;
}

static void put_positions(struct buf *p, const struct ccsw_mmat *m,
			  uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		int16_t v[3];
		if (m->pos)
			memcpy(v, m->pos + 3 * (size_t)i, sizeof v);
		else
			gen_position(m, i, v);
		put_s16s(p, v, 3);
	}
	put_align4(p, 0);
}

static void put_words(struct buf *p, const struct ccsw_mmat *m,
		      const uint32_t *given, uint32_t n,
		      uint32_t (*gen)(const struct ccsw_mmat *, uint32_t))
{
	for (uint32_t i = 0; i < n; i++)
		put_u32(p, given ? given[i] : gen(m, i));
}

static void put_rigid(struct buf *p, const struct ccsw_mmat *m,
		      uint16_t mtype)
{
	put_u32(p, m->name);
	put_u32(p, m->material);
	put_u32(p, m->vertices);
	put_positions(p, m, m->vertices);
	if (!(mtype & 0x40))
		put_words(p, m, m->normal, m->vertices, gen_normal);
	if (!(mtype & 0x200))
		put_words(p, m, m->colour, m->vertices, gen_colour);
	if (!(mtype & 0x400))
		put_words(p, m, m->st, m->vertices, gen_st);
}

static void put_bone(struct buf *p, const struct ccsw_mmat *m)
{
	put_u32(p, m->node);
	put_positions(p, m, m->vertices);
	put_words(p, m, m->normal, m->vertices, gen_normal);
	put_words(p, m, m->st, m->vertices, gen_st);
}

/* Spreads offsets entries over the vertices: vertex v gets one entry plus
 * one extra while extras remain, weights summing to 256. */
static struct ccsw_skin_entry gen_skin_entry(const struct ccsw_mmat *m,
					     uint32_t e, bool *last)
{
	uint32_t extra = m->offsets - m->vertices;
	if (m->offsets < m->vertices || extra > m->vertices) {
		fprintf(stderr, "ccsw: generated skin needs vertices <= "
			"offsets <= 2 * vertices\n");
		abort();
	}
	/* vertices below `extra` have two entries, the rest one */
	uint32_t v, first;
	if (e < 2 * extra) {
		v = e / 2;
		first = !(e & 1);
		*last = !first;
	} else {
		v = extra + (e - 2 * extra);
		first = 1;
		*last = true;
	}
	bool two = v < extra;
	uint32_t weight = !two ? 256 : first ? 160 : 96;
	uint32_t node = (v + (first ? 0 : 1)) % 8;
	struct ccsw_skin_entry s;
	gen_position(m, v, s.pos);
	s.w = (uint16_t)(weight | (*last ? 1u << 9 : 0) | node << 10);
	return s;
}

static void put_skin(struct buf *p, const struct ccsw_mmat *m)
{
	uint32_t ends = 0;
	for (uint32_t e = 0; e < m->offsets; e++) {
		struct ccsw_skin_entry s;
		bool last;
		if (m->entries) {
			s = m->entries[e];
			last = s.w & (1u << 9);
		} else {
			s = gen_skin_entry(m, e, &last);
		}
		ends += last;
		put_s16s(p, s.pos, 3);
		put_u16(p, s.w);
	}
	put_words(p, m, m->normal, m->offsets, gen_normal);
	put_words(p, m, m->st, ends, gen_st);
}

static void put_shadow(struct buf *p, const struct ccsw_mmat *m)
{
	put_u32(p, m->vertices);
	put_u32(p, m->indices);
	if (m->vertices == 0)
		return;
	put_positions(p, m, m->vertices);
	for (uint32_t i = 0; i < m->indices; i++) {
		int32_t v = m->tri ? m->tri[i]
				   : (int32_t)((i / 3 + i % 3) % m->vertices);
		put_u32(p, (uint32_t)v);
	}
}

void ccsw_model(struct ccsw *w, const struct ccsw_model *m)
{
	uint16_t layout = ccsw_layout_mtype(w, m->mtype);
	struct buf p = {0};
	put_u32(&p, m->object);
	put_f32(&p, m->vertex_scale);
	put_u16(&p, m->mtype);
	put_u16(&p, m->mmat_count);
	put_u16(&p, m->flag);
	put_u16(&p, 0);                 /* zoffs */
	put_u8(&p, 0x70);
	put_align4(&p, 0);
	for (uint16_t i = 0; i < m->mmat_count; i++) {
		const struct ccsw_mmat *mm = &m->mmats[i];
		if (layout & 4) {
			put_u32(&p, mm->material);
			put_u32(&p, mm->vertices);
			put_u32(&p, mm->offsets);
			if (mm->offsets)
				put_skin(&p, mm);
			else
				put_bone(&p, mm);
		} else if (layout & 8) {
			put_shadow(&p, mm);
		} else {
			put_rigid(&p, mm, layout);
		}
	}
	long long size = m->size_field;
	if (size < 0) {
		size = (long long)(p.len / 4);
		if (layout & 4)
			size += 15LL * m->mmat_count;
	}
	emit(w, CCSW_MODEL, &p, size, m->object);
}

/* ---- hit meshes ---- */

static float approx_sqrt(float x)
{
	if (x <= 0.0f)
		return 0.0f;
	float r = x > 1.0f ? x / 2.0f : 1.0f;
	for (int i = 0; i < 20; i++)
		r = 0.5f * (r + x / r);
	return r;
}

static void gen_hit_vertex(const struct ccsw_hit_group *g, uint32_t i,
			   float out[3])
{
	uint32_t tri = i / 3, corner = i % 3;
	float x = (float)(tri % 8) * 10.0f + (corner == 1 ? 10.0f : 0.0f);
	float y = (float)(tri / 8) * 10.0f + (corner == 2 ? 10.0f : 0.0f);
	float z = (float)(mix32(g->seed, tri) % 100) / 20.0f;
	out[0] = x;
	out[1] = y;
	out[2] = z;
}

static void put_hit_group(struct buf *p, const struct ccsw_hit_group *g)
{
	uint32_t n = g->vertices;
	float *pos = xrealloc(NULL, (size_t)(n ? n : 1) * 3 * sizeof *pos);
	for (uint32_t i = 0; i < n; i++) {
		if (g->pos)
			memcpy(pos + 3 * i, g->pos + 3 * i, 3 * sizeof *pos);
		else
			gen_hit_vertex(g, i, pos + 3 * i);
	}
	put_u32(p, n);
	put_u32(p, g->attribute);
	put_f32s(p, pos, (size_t)n * 3);
	for (uint32_t i = 0; i < n; i++) {
		const float *a = pos + 3 * (i - i % 3);
		float nrm[3] = { 0.0f, 0.0f, 1.0f };
		if (i - i % 3 + 2 < n) {
			float u[3], v[3];
			for (int k = 0; k < 3; k++) {
				u[k] = a[3 + k] - a[k];
				v[k] = a[6 + k] - a[k];
			}
			nrm[0] = u[1] * v[2] - u[2] * v[1];
			nrm[1] = u[2] * v[0] - u[0] * v[2];
			nrm[2] = u[0] * v[1] - u[1] * v[0];
			float len = approx_sqrt(nrm[0] * nrm[0] +
						nrm[1] * nrm[1] +
						nrm[2] * nrm[2]);
			for (int k = 0; k < 3 && len > 0.0f; k++)
				nrm[k] /= len;
		}
		put_f32s(p, nrm, 3);
	}
	free(pos);
}

void ccsw_hit(struct ccsw *w, uint32_t object, uint32_t parent,
	      uint16_t groups, const struct ccsw_hit_group *g)
{
	struct buf p = {0};
	uint32_t total = 0;
	for (uint16_t i = 0; i < groups; i++)
		total += g[i].vertices;
	put_u32(&p, object);
	put_u32(&p, parent);
	put_u16(&p, groups);
	put_u16(&p, 0);
	put_u32(&p, total);
	for (uint16_t i = 0; i < groups; i++)
		put_hit_group(&p, &g[i]);
	emit(w, CCSW_HIT, &p, CCSW_SIZE_AUTO, object);
}

/* ---- audio ---- */

/* A parabolic sine, integer only (no libm): left 375 Hz, right 750 Hz at
 * 48 kHz, so each period is a whole number of samples and the tone runs on
 * seamlessly from block to block and frame to frame.  Sample n of a
 * channel is the same wherever it is written, so a test can rebuild the
 * expected audio from ccsw_pcm_sample() alone. */
int16_t ccsw_pcm_sample(int channel, uint32_t n)
{
	uint32_t period = channel ? 64 : 128;
	int32_t ph = (int32_t)(n % period) * 1024 / (int32_t)period; /* 0..1023 */
	int32_t half = ph < 512 ? ph : ph - 512;          /* 0..511 */
	int32_t v = half * (512 - half);                  /* 0..65536 */
	v = v * 12000 / 65536;
	/* a little hiss, so the audio compresses like audio, not a table */
	int32_t hiss = (int32_t)(mix32((uint32_t)channel, n) & 255) - 128;
	return (int16_t)((ph < 512 ? v : -v) + hiss);
}

static void put_pcm_blocks(struct buf *p, uint32_t blocks,
			   const int16_t *samples, uint32_t first_sample)
{
	for (uint32_t b = 0; b < blocks; b++) {
		for (int ch = 0; ch < 2; ch++) {
			for (uint32_t i = 0; i < 256; i++) {
				int16_t s = samples
					? samples[(size_t)b * 512 + ch * 256 + i]
					: ccsw_pcm_sample(ch, first_sample +
							  b * 256 + i);
				put_u16(p, (uint16_t)s);
			}
		}
	}
}

void ccsw_pcm(struct ccsw *w, uint32_t id, uint8_t type, uint8_t track_type,
	      uint32_t blocks, const int16_t *samples, uint32_t first_sample)
{
	struct buf p = {0};
	put_u32(&p, id);
	put_u8(&p, type);
	put_u8(&p, 16);
	put_u8(&p, track_type);
	put_u8(&p, 0);
	put_u32(&p, blocks);
	put_u32(&p, 256);
	put_pcm_blocks(&p, blocks, samples, first_sample);
	add_chunk(w, CCSW_PCM, stream_tag(w), p.p, p.len, CCSW_SIZE_AUTO, 0);
	buf_free(&p);
}

/* ---- frame section ---- */

void ccsw_frame(struct ccsw *w, uint32_t count)
{
	struct buf p = {0};
	put_u32(&p, count);
	add_chunk(w, CCSW_FRAME, stream_tag(w), p.p, p.len, CCSW_SIZE_AUTO, 0);
	buf_free(&p);
	if (!w->header_frames_set)
		w->header_frames = count;
}

void ccsw_top(struct ccsw *w, uint32_t frame)
{
	struct buf p = {0};
	put_u32(&p, frame);
	emit(w, CCSW_TOP, &p, CCSW_SIZE_AUTO, 0);
}

void ccsw_end(struct ccsw *w) { ccsw_top(w, CCSW_END_FRAME); }

void ccsw_f_obj(struct ccsw *w, const struct ccsw_f_obj *f)
{
	struct buf p = {0};
	f_obj_payload(&p, f);
	emit(w, CCSW_F_OBJ, &p, CCSW_SIZE_AUTO, f->object);
}

void ccsw_f_note(struct ccsw *w, uint32_t object, uint32_t event,
		 uint32_t param)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u32(&p, event);
	put_u32(&p, param);
	emit(w, CCSW_F_NOTE, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_f_material(struct ccsw *w, uint32_t material, uint32_t flag,
		     float u, float v)
{
	struct buf p = {0};
	put_u32(&p, material);
	put_u32(&p, flag);
	if (!(flag & 2)) {
		put_f32(&p, u);
		put_f32(&p, v);
	}
	emit(w, CCSW_F_MATERIAL, &p, CCSW_SIZE_AUTO, material);
}

void ccsw_f_camera(struct ccsw *w, uint32_t object, uint32_t flag,
		   const float *values)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u32(&p, flag);
	if (!(flag & 1)) {
		size_t k = 0;
		for (int bit = 1; bit <= 8; bit++)
			if (!(flag & (1u << bit)))
				put_f32(&p, values ? values[k++] : 0.0f);
	}
	emit(w, CCSW_F_CAMERA, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_f_ambient(struct ccsw *w, uint32_t rgb)
{
	struct buf p = {0};
	put_u32(&p, rgb);
	emit(w, CCSW_F_AMBIENT, &p, CCSW_SIZE_AUTO, 0);
}

void ccsw_f_shadow(struct ccsw *w, uint32_t object, float rx, float ry,
		   float rz, float alpha)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_f32(&p, rx);
	put_f32(&p, ry);
	put_f32(&p, rz);
	put_f32(&p, alpha);
	emit(w, CCSW_F_SHADOW, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_f_morpher(struct ccsw *w, uint32_t morpher, uint16_t n,
		    const uint32_t *targets, const float *weights)
{
	struct buf p = {0};
	put_u32(&p, morpher);
	put_u16(&p, n);
	put_u16(&p, 0);
	for (uint16_t i = 0; i < n; i++) {
		put_u32(&p, targets[i]);
		put_f32(&p, weights[i]);
	}
	emit(w, CCSW_F_MORPHER, &p, CCSW_SIZE_AUTO, morpher);
}

void ccsw_f_pcm(struct ccsw *w, uint32_t id, uint16_t blocks,
		const int16_t *samples, uint32_t first_sample)
{
	struct buf p = {0};
	put_u32(&p, id);
	put_u16(&p, blocks);
	put_u16(&p, 0);
	put_u32(&p, 256);
	put_pcm_blocks(&p, blocks, samples, first_sample);
	add_chunk(w, CCSW_F_PCM, stream_tag(w), p.p, p.len, CCSW_SIZE_AUTO, 0);
	buf_free(&p);
}

/* ---- assembly ---- */

static void put_header(struct buf *out, const struct ccsw *w)
{
	put_u16(out, CCSW_HEADER);
	put_u16(out, CCSW_TAG);
	put_u32(out, 13);
	put_bytes(out, "CCSF", 4);
	put_bytes(out, w->name, 32);
	put_u16(out, w->version);
	put_u16(out, 0);
	put_u32(out, w->header_frames);
	put_u32(out, 1);                /* count */
	put_u32(out, 0);                /* words[0] */
}

static void put_index(struct buf *out, const struct ccsw *w)
{
	put_u16(out, CCSW_INDEX);
	put_u16(out, CCSW_TAG);
	put_u32(out, 2 + 8 * (w->file_count + w->object_count));
	put_u32(out, w->index_lies ? w->lie_files : w->file_count);
	put_u32(out, w->index_lies ? w->lie_objects : w->object_count);
	for (uint32_t i = 0; i < w->file_count; i++)
		put_bytes(out, w->files[i], 32);
	for (uint32_t i = 0; i < w->object_count; i++) {
		put_bytes(out, w->objects[i].name, 30);
		put_u16(out, w->objects[i].file);
	}
}

uint8_t *ccsw_finish(struct ccsw *w, size_t *len)
{
	struct buf out = {0};
	put_header(&out, w);
	size_t index_at = out.len;
	put_index(&out, w);
	w->body_start = out.len;
	put_bytes(&out, w->body.p, w->body.len);
	put_bytes(&out, w->trailer.p, w->trailer.len);

	if (!w->finished) {
		/* Header and index go first in the chunk table. */
		note_chunk(w, 0, index_at, CCSW_HEADER, 0);
		note_chunk(w, index_at, w->body_start - index_at, CCSW_INDEX, 0);
		struct ccsw_chunk_info h = w->chunks[w->chunk_count - 2];
		struct ccsw_chunk_info ix = w->chunks[w->chunk_count - 1];
		memmove(w->chunks + 2, w->chunks,
			(w->chunk_count - 2) * sizeof *w->chunks);
		w->chunks[0] = h;
		w->chunks[1] = ix;
		for (size_t i = 2; i < w->chunk_count; i++)
			w->chunks[i].offset += w->body_start;
		w->finished = true;
	}
	*len = out.len;
	if (!out.p)
		out.p = xrealloc(NULL, 1);
	return out.p;
}

size_t ccsw_chunk_count(const struct ccsw *w) { return w->chunk_count; }

const struct ccsw_chunk_info *ccsw_chunk_at(const struct ccsw *w, size_t i)
{
	return i < w->chunk_count ? &w->chunks[i] : NULL;
}

size_t ccsw_trailer_offset(const struct ccsw *w)
{
	return w->body_start + w->body.len;
}
