/* SPDX-License-Identifier: MIT */
/* png_stored.c - stored-deflate indexed PNGs, sized before they are made
 * (png_stored.h). */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "decode/texture/png_stored.h"
#include "util/bytes.h"
#include "util/checksum.h"

/* A stored deflate block holds at most this many bytes (RFC 1951 3.2.4). */
#define STORED_MAX 65535u

static const uint8_t signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n',
				      0x1a, '\n' };

static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return false;
	return true;
}

bool png_stored_text_ok(const struct png_text_entry *text, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *k = text[i].key;
		size_t len = k ? strlen(k) : 0;
		if (len == 0 || len > 79 || !printable(k) || !text[i].text ||
		    k[0] == ' ' || k[len - 1] == ' ' || strstr(k, "  "))
			return false;
	}
	return true;
}

static size_t row_bytes(const struct png_indexed *p)
{
	return p->bit_depth == 8 ? p->width : (p->width + 1) / 2;
}

/* The filtered rows: a filter byte (none) before each row. */
static size_t raw_bytes(const struct png_indexed *p)
{
	return (row_bytes(p) + 1) * p->height;
}

static size_t stored_blocks(size_t raw)
{
	return raw ? (raw + STORED_MAX - 1) / STORED_MAX : 1;
}

/* tRNS holds alphas up to the last one that is not 255. */
static uint32_t trns_count(const struct png_indexed *p)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < p->colours; i++)
		if (p->rgba[i][3] != 255)
			n = i + 1;
	return n;
}

/* tEXt: key, NUL, text; iTXt adds a compression flag and method and an
 * empty language tag and translated key, each NUL-ended. */
static size_t text_data_bytes(const struct png_text_entry *t)
{
	size_t n = strlen(t->key) + 1 + strlen(t->text);
	return printable(t->text) ? n : n + 4;
}

static size_t idat_data_bytes(const struct png_indexed *p)
{
	size_t raw = raw_bytes(p);
	return 2 + raw + 5 * stored_blocks(raw) + 4;
}

size_t png_stored_size(const struct png_indexed *p)
{
	size_t n = sizeof signature + 12 + 13 + 12 + 3 * (size_t)p->colours;
	uint32_t trns = trns_count(p);
	if (trns)
		n += 12 + trns;
	for (size_t i = 0; i < p->text_count; i++)
		n += 12 + text_data_bytes(&p->text[i]);
	return n + 12 + idat_data_bytes(p) + 12;
}

/* A chunk is its length, type, data and the CRC of type and data; the
 * data has been written after the 8 header bytes at o.  Returns its end. */
static uint8_t *close_chunk(uint8_t *o, const char *type, size_t len)
{
	wr_u32be(o, (uint32_t)len);
	memcpy(o + 4, type, 4);
	wr_u32be(o + 8 + len, checksum_crc32(0, o + 4, 4 + len));
	return o + 12 + len;
}

static uint8_t *put_header(const struct png_indexed *p, uint8_t *o)
{
	memcpy(o, signature, sizeof signature);
	o += sizeof signature;
	uint8_t *d = o + 8;
	wr_u32be(d, p->width);
	wr_u32be(d + 4, p->height);
	d[8] = (uint8_t)p->bit_depth;
	d[9] = 3;                       /* colour type: palette */
	d[10] = d[11] = d[12] = 0;      /* deflate, adaptive filters, no interlace */
	o = close_chunk(o, "IHDR", 13);
	for (uint32_t i = 0; i < p->colours; i++)
		memcpy(o + 8 + 3 * i, p->rgba[i], 3);
	o = close_chunk(o, "PLTE", 3 * (size_t)p->colours);
	uint32_t trns = trns_count(p);
	for (uint32_t i = 0; i < trns; i++)
		o[8 + i] = p->rgba[i][3];
	return trns ? close_chunk(o, "tRNS", trns) : o;
}

static uint8_t *put_text(const struct png_text_entry *t, uint8_t *o)
{
	bool latin = printable(t->text);
	size_t k = strlen(t->key), n = strlen(t->text);
	uint8_t *d = o + 8;
	memcpy(d, t->key, k + 1);
	d += k + 1;
	if (!latin) {
		memset(d, 0, 4);        /* uncompressed, no language, no key */
		d += 4;
	}
	memcpy(d, t->text, n);
	return close_chunk(o, latin ? "tEXt" : "iTXt", text_data_bytes(t));
}

/* The zlib stream's stored blocks as they fill: each block's 5-byte
 * header is written when its first byte comes, with the length it will
 * have, which the total fixes.  Adler-32 is summed over each block's
 * bytes once the block is full, not over every row and filter byte as
 * they come: a call per 64 KiB instead of two per row. */
struct stored_out {
	uint8_t *o;
	size_t left;            /* raw bytes still to come */
	size_t room;            /* left in the current block */
	uint32_t adler;
	const uint8_t *run;     /* the current block's bytes not yet summed */
};

static void sum_run(struct stored_out *s)
{
	if (s->run)
		s->adler = checksum_adler32(s->adler, s->run,
					    (size_t)(s->o - s->run));
	s->run = NULL;
}

static void emit(struct stored_out *s, const uint8_t *p, size_t n)
{
	while (n) {
		if (!s->room) {
			sum_run(s);
			s->room = s->left < STORED_MAX ? s->left : STORED_MAX;
			s->o[0] = s->room == s->left;   /* BFINAL, BTYPE 00 */
			wr_u16le(s->o + 1, (uint16_t)s->room);
			wr_u16le(s->o + 3, (uint16_t)~s->room);
			s->o += 5;
			s->run = s->o;
		}
		size_t k = n < s->room ? n : s->room;
		memcpy(s->o, p, k);
		s->o += k;
		p += k;
		n -= k;
		s->room -= k;
		s->left -= k;
	}
}

/* Each row after its filter byte (none); 4-bit indices packed, the left
 * pixel in the high nibble. */
static void emit_rows(const struct png_indexed *p, const uint8_t *index,
		      struct stored_out *s)
{
	static const uint8_t filter_none = 0;
	uint8_t packed[512];
	for (uint32_t y = 0; y < p->height; y++) {
		const uint8_t *src = index + (size_t)y * p->width;
		emit(s, &filter_none, 1);
		if (p->bit_depth == 8) {
			emit(s, src, p->width);
			continue;
		}
		for (uint32_t x = 0; x < p->width; x += 2) {
			uint8_t right = x + 1 < p->width ? src[x + 1] : 0;
			packed[x / 2] = (uint8_t)(src[x] << 4 | (right & 0x0f));
		}
		emit(s, packed, row_bytes(p));
	}
}

/* The zlib stream: header, the rows in stored blocks, Adler-32. */
static uint8_t *put_idat(const struct png_indexed *p, const uint8_t *index,
			 uint8_t *o)
{
	uint8_t *z = o + 8;
	z[0] = 0x78;                    /* deflate, 32 KiB window */
	z[1] = 0x01;                    /* lowest level; FCHECK */
	struct stored_out s = { z + 2, raw_bytes(p), 0, 1, NULL };
	emit_rows(p, index, &s);
	sum_run(&s);
	wr_u32be(s.o, s.adler);
	return close_chunk(o, "IDAT", idat_data_bytes(p));
}

void png_stored_write(const struct png_indexed *p, const uint8_t *index,
		      uint8_t *out)
{
	uint8_t *o = put_header(p, out);
	for (size_t i = 0; i < p->text_count; i++)
		o = put_text(&p->text[i], o);
	o = put_idat(p, index, o);
	close_chunk(o, "IEND", 0);
}
