/* SPDX-License-Identifier: MIT */
/* ccsw_internal.h - what the parts of the CCSF writer share: the byte buffer,
 * the writer's state and the chunk emitter.  Only ccsw*.c include it. */
#ifndef CCSGEN_CCSW_INT_H
#define CCSGEN_CCSW_INT_H

#include "ccsw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	uint8_t *p;
	size_t len, cap;
};

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

/* A hash rather than a stream generator, so a pixel or vertex depends only
 * on (seed, position) and any part can be recomputed by a test. */
static inline uint32_t mix32(uint32_t a, uint32_t b)
{
	uint32_t h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u);
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

void *xrealloc(void *p, size_t n);
void put_bytes(struct buf *b, const void *p, size_t n);
void put_fill(struct buf *b, uint8_t v, size_t n);
void put_u8(struct buf *b, uint8_t v);
void put_u16(struct buf *b, uint16_t v);
void put_u32(struct buf *b, uint32_t v);
void put_f32(struct buf *b, float f);
void put_f32s(struct buf *b, const float *f, size_t n);
void put_s16s(struct buf *b, const int16_t *v, size_t n);
void put_align4(struct buf *b, uint8_t fill);
void buf_free(struct buf *b);
void add_chunk(struct ccsw *w, uint16_t kind, uint16_t tag,
		      const void *payload, size_t len, long long size_field,
		      uint32_t object);
void emit(struct ccsw *w, uint16_t kind, struct buf *p,
		 long long size_field, uint32_t object);
uint16_t stream_tag(const struct ccsw *w);

/* Frame records as the frame section and the Anime chunk both hold them
 * (ccsw_frames.c): a record is its 8-byte header, then the payload. */
void put_record(struct buf *b, uint16_t kind, uint16_t tag,
		const struct buf *payload);
void f_obj_payload(struct buf *p, const struct ccsw_f_obj *f);
void f_camera_payload(struct buf *p, uint32_t object, uint32_t flag,
		      const float *values);

#endif
