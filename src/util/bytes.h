/* SPDX-License-Identifier: MIT */
/* bytes.h - little-endian reads that never run past the end of a buffer,
 * and the writers beside them.
 *
 * Every size and count in the formats ccsfs reads is untrusted, so parsers
 * go through a cursor: a read past the end sets `bad` and yields zero
 * instead of touching memory it does not own.  A parser checks `bad` once
 * at the end of a record rather than after every field.
 */
#ifndef CCSFS_BYTES_H
#define CCSFS_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t rd_u16le(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t rd_u32le(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) |
	       ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline float rd_f32le(const uint8_t *p)
{
	uint32_t u = rd_u32le(p);
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* The writers, for the headers ccsfs makes (WAV, GLB, PNG). */
static inline void wr_u16le(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void wr_u32le(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* PNG's numbers are big-endian. */
static inline void wr_u32be(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void wr_f32le(uint8_t *p, float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	wr_u32le(p, u);
}

struct cursor {
	const uint8_t *p;
	size_t len;
	size_t pos;
	bool bad;       /* a read went past len */
};

static inline struct cursor cursor_make(const uint8_t *p, size_t len)
{
	struct cursor c = { p, len, 0, false };
	return c;
}

static inline size_t cur_left(const struct cursor *c)
{
	return c->pos <= c->len ? c->len - c->pos : 0;
}

/* Returns a pointer to n readable bytes and advances, or NULL (and marks
 * the cursor bad) when fewer than n are left. */
static inline const uint8_t *cur_take(struct cursor *c, size_t n)
{
	if (c->bad || n > cur_left(c)) {
		c->bad = true;
		return NULL;
	}
	const uint8_t *p = c->p + c->pos;
	c->pos += n;
	return p;
}

static inline uint8_t cur_u8(struct cursor *c)
{
	const uint8_t *p = cur_take(c, 1);
	return p ? p[0] : 0;
}

static inline uint16_t cur_u16(struct cursor *c)
{
	const uint8_t *p = cur_take(c, 2);
	return p ? rd_u16le(p) : 0;
}

static inline uint32_t cur_u32(struct cursor *c)
{
	const uint8_t *p = cur_take(c, 4);
	return p ? rd_u32le(p) : 0;
}

static inline int16_t cur_s16(struct cursor *c)
{
	return (int16_t)cur_u16(c);
}

static inline int32_t cur_s32(struct cursor *c)
{
	return (int32_t)cur_u32(c);
}

static inline float cur_f32(struct cursor *c)
{
	const uint8_t *p = cur_take(c, 4);
	return p ? rd_f32le(p) : 0.0f;
}

/* Skips to the next multiple of 4 from the start of the buffer. */
static inline void cur_align4(struct cursor *c)
{
	size_t pad = (4 - (c->pos & 3)) & 3;
	(void)cur_take(c, pad);
}

#endif
