/* SPDX-License-Identifier: MIT */
/* ccsw.c - the synthetic CCSF writer (see ccsw.h): buffer, objects,
 * the setup section's small chunks and the file's assembly. */
#include "ccsw_internal.h"

/* ---- growable byte buffer ---- */


void *xrealloc(void *p, size_t n)
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

void put_bytes(struct buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(buf_grow(b, n), p, n);
}

void put_fill(struct buf *b, uint8_t v, size_t n)
{
	if (n)
		memset(buf_grow(b, n), v, n);
}

void put_u8(struct buf *b, uint8_t v) { put_bytes(b, &v, 1); }

void put_u16(struct buf *b, uint16_t v)
{
	uint8_t *p = buf_grow(b, 2);
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

void put_u32(struct buf *b, uint32_t v)
{
	uint8_t *p = buf_grow(b, 4);
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

void put_f32(struct buf *b, float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	put_u32(b, u);
}

void put_f32s(struct buf *b, const float *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_f32(b, f[i]);
}

void put_s16s(struct buf *b, const int16_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_u16(b, (uint16_t)v[i]);
}

/* Padding is relative to the payload start, which is word aligned in the
 * file, so payload alignment is file alignment. */
void put_align4(struct buf *b, uint8_t fill)
{
	put_fill(b, fill, (4 - (b->len & 3)) & 3);
}

void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* ---- deterministic noise ---- */


/* ---- the writer ---- */



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
void add_chunk(struct ccsw *w, uint16_t kind, uint16_t tag,
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
void emit(struct ccsw *w, uint16_t kind, struct buf *p,
		 long long size_field, uint32_t object)
{
	add_chunk(w, kind, CCSW_TAG, p->p, p->len, size_field, object);
	buf_free(p);
}

uint16_t stream_tag(const struct ccsw *w)
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
