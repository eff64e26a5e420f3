/* SPDX-License-Identifier: MIT */
/* deflate.c - a gzip member written with libdeflate or zlib. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "archive/gzip.h"
#include "pack/deflate.h"
#include "util/bytes.h"

enum { HEADER_FIXED = 10, TRAILER = 8 };

static bool name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > GZIP_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (name[i] < 0x20 || name[i] > 0x7e)
			return false;
	return true;
}

/* Raw deflate of in into out (room bytes): the count written, or 0 when
 * it does not fit or fails. */
static size_t deflate_raw(const uint8_t *in, size_t len, uint8_t *out,
			  size_t room)
{
#ifdef HAVE_LIBDEFLATE
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(12);
	if (!c)
		return 0;
	size_t n = libdeflate_deflate_compress(c, in, len, out, room);
	libdeflate_free_compressor(c);
	return n;
#else
	z_stream z;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	/* len is at most 4 GiB - 1, which uInt holds. */
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = room > UINT32_MAX ? UINT32_MAX : (uInt)room;
	int rc = deflate(&z, Z_FINISH);
	size_t done = (size_t)z.total_out;
	deflateEnd(&z);
	return rc == Z_STREAM_END ? done : 0;
#endif
}

static size_t bound(size_t len)
{
#ifdef HAVE_LIBDEFLATE
	return libdeflate_deflate_compress_bound(NULL, len);
#else
	/* Stored blocks at worst: 5 bytes per 16 KiB, and a margin. */
	return len + len / 16384 * 5 + 64;
#endif
}

int pack_deflate_member(const uint8_t *data, size_t len, const char *name,
			uint32_t mtime, uint8_t **out, size_t *out_len)
{
	if (!name_ok(name) || (uint64_t)len > UINT32_MAX)
		return -EINVAL;
	size_t head = HEADER_FIXED + strlen(name) + 1;
	size_t room = bound(len);
	uint8_t *buf = malloc(head + room + TRAILER);
	if (!buf)
		return -ENOMEM;
	static const uint8_t fixed[4] = { 0x1f, 0x8b, 8, 0x08 };
	memcpy(buf, fixed, 4);
	wr_u32le(buf + 4, mtime);
	buf[8] = 2;             /* XFL: the slowest, best compression */
	buf[9] = 3;             /* OS: Unix */
	memcpy(buf + HEADER_FIXED, name, strlen(name) + 1);
	size_t n = deflate_raw(data, len, buf + head, room);
	if (n == 0) {
		free(buf);
		return -ENOMEM;
	}
	uLong crc = crc32(0L, Z_NULL, 0);
	for (size_t done = 0; done < len; ) {
		size_t step = len - done > (1u << 30) ? 1u << 30 : len - done;
		crc = crc32(crc, data + done, (uInt)step);
		done += step;
	}
	wr_u32le(buf + head + n, (uint32_t)crc);
	wr_u32le(buf + head + n + 4, (uint32_t)len);
	*out = buf;
	*out_len = head + n + TRAILER;
	return 0;
}
