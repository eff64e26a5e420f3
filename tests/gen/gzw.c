/* SPDX-License-Identifier: MIT */
/* gzw.c - the gzip archive writer (see gzw.h). */
#include "gzw.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* XFL as gzip sets it: 2 for the slowest level, 4 for the fastest. */
static uint8_t xfl_for(int level)
{
	return level == 9 ? 2 : level == 1 ? 4 : 0;
}

/* Raw deflate (no zlib wrapper: the gzip header is ours) of data into
 * out, which has room for deflateBound bytes.  Returns the length or -1. */
static long raw_deflate(const void *data, size_t len, int level,
			uint8_t *out, size_t room)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, level, Z_DEFLATED, -15, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)room;
	int rc = deflate(&z, Z_FINISH);
	long n = (long)z.total_out;
	deflateEnd(&z);
	return rc == Z_STREAM_END ? n : -1;
}

uint8_t *gzw_member(const char *fname, const void *data, size_t len,
		    const struct gzw_opts *o, size_t *out_len)
{
	int level = o && o->level >= 0 ? o->level : 6;
	size_t name_len = strlen(fname);
	size_t head = 10 + name_len + 1;
	z_stream probe;
	memset(&probe, 0, sizeof probe);
	if (deflateInit2(&probe, level, Z_DEFLATED, -15, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	size_t room = deflateBound(&probe, (uLong)len);
	deflateEnd(&probe);

	uint8_t *m = malloc(head + room + 8);
	if (!m)
		return NULL;
	m[0] = 0x1f;
	m[1] = 0x8b;
	m[2] = 8;               /* deflate */
	m[3] = 0x08;            /* FNAME */
	put_le32(m + 4, o ? o->mtime : 0);
	m[8] = xfl_for(level);
	m[9] = 0;               /* OS: FAT, as a Windows-built tool writes */
	memcpy(m + 10, fname, name_len + 1);

	long dlen = raw_deflate(data, len, level, m + head, room);
	if (dlen < 0) {
		free(m);
		errno = EIO;
		return NULL;
	}
	enum gzw_fault fault = o ? o->fault : GZW_GOOD;
	if (fault == GZW_CUT) {
		/* Half the deflate data, but at least one byte short of it. */
		size_t keep = (size_t)dlen / 2;
		*out_len = head + keep;
		return m;
	}
	uint32_t crc = (uint32_t)crc32(0L, data, (uInt)len);
	uint32_t isize = (uint32_t)len;
	if (fault == GZW_BAD_CRC)
		crc ^= 1;
	if (fault == GZW_BAD_ISIZE)
		isize += 1;
	if (fault == GZW_HUGE_ISIZE)
		isize = 0xffffffffu;
	put_le32(m + head + dlen, crc);
	put_le32(m + head + dlen + 4, isize);
	*out_len = head + (size_t)dlen + 8;
	return m;
}

struct gzw {
	FILE *f;                /* NULL for a memory archive */
	uint8_t *mem;
	size_t mem_len, mem_cap;
	uint64_t offset;
	bool failed;
};

struct gzw *gzw_open(const char *path)
{
	struct gzw *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->f = fopen(path, "wb");
	if (!a->f) {
		free(a);
		return NULL;
	}
	return a;
}

struct gzw *gzw_mem(void)
{
	return calloc(1, sizeof(struct gzw));
}

static int mem_append(struct gzw *a, const void *p, size_t n)
{
	if (a->mem_cap - a->mem_len < n) {
		size_t cap = a->mem_cap ? a->mem_cap : 65536;
		while (cap - a->mem_len < n)
			cap *= 2;
		uint8_t *q = realloc(a->mem, cap);
		if (!q)
			return -1;
		a->mem = q;
		a->mem_cap = cap;
	}
	if (p)
		memcpy(a->mem + a->mem_len, p, n);
	else
		memset(a->mem + a->mem_len, 0, n);
	a->mem_len += n;
	return 0;
}

/* p NULL writes n zeros. */
static int append(struct gzw *a, const void *p, size_t n)
{
	int rc = 0;
	if (!a->f) {
		rc = mem_append(a, p, n);
	} else if (p) {
		rc = fwrite(p, 1, n, a->f) == n ? 0 : -1;
	} else {
		static const uint8_t zeros[GZW_SECTOR];
		for (size_t left = n; left && !rc;) {
			size_t k = left < sizeof zeros ? left : sizeof zeros;
			rc = fwrite(zeros, 1, k, a->f) == k ? 0 : -1;
			left -= k;
		}
	}
	if (rc)
		a->failed = true;
	else
		a->offset += n;
	return rc;
}

int gzw_add(struct gzw *a, const char *fname, const void *data, size_t len,
	    const struct gzw_opts *o, struct gzw_added *info)
{
	/* A member must start on a boundary even after gzw_raw(). */
	size_t lead = (size_t)((GZW_SECTOR - a->offset % GZW_SECTOR) % GZW_SECTOR);
	if (lead && append(a, NULL, lead))
		return -1;
	size_t n;
	uint8_t *m = gzw_member(fname, data, len, o, &n);
	if (!m)
		return -1;
	uint64_t start = a->offset;
	size_t pad = GZW_SECTOR - n % GZW_SECTOR;  /* 1..2048, never 0 */
	int rc = append(a, m, n);
	free(m);
	if (!rc)
		rc = append(a, NULL, pad);
	if (info) {
		info->offset = start;
		info->length = n;
		info->padded = n + pad;
	}
	return rc;
}

int gzw_raw(struct gzw *a, const void *bytes, size_t n)
{
	return append(a, bytes, n);
}

uint64_t gzw_offset(const struct gzw *a) { return a->offset; }

const uint8_t *gzw_mem_data(const struct gzw *a, size_t *len)
{
	*len = a->mem_len;
	return a->mem;
}

int gzw_close(struct gzw *a)
{
	if (!a)
		return 0;
	int rc = a->failed ? -1 : 0;
	if (a->f && fclose(a->f))
		rc = -1;
	free(a->mem);
	free(a);
	return rc;
}
