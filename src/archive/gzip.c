/* SPDX-License-Identifier: MIT */
/* gzip.c - gzip member headers and inflation with zlib. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "util/bufpool.h"
#include "util/bytes.h"

#include "archive/gzip.h"

#define GZ_FTEXT 0x01
#define GZ_FNAME 0x08
#define READ_CHUNK (256 * 1024)

int gzip_parse_header(const uint8_t *p, size_t len, struct gzip_header *h)
{
	if (len < 10 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8)
		return -EINVAL;
	if (p[3] & ~(GZ_FTEXT | GZ_FNAME))
		return -EINVAL;
	if (p[8] != 0 && p[8] != 2 && p[8] != 4)        /* XFL */
		return -EINVAL;
	if (p[9] > 13 && p[9] != 255)                   /* OS */
		return -EINVAL;
	memset(h, 0, sizeof *h);
	h->flags = p[3];
	h->mtime = rd_u32le(p + 4);
	h->xfl = p[8];
	h->os = p[9];
	h->length = 10;
	if (!(h->flags & GZ_FNAME))
		return 0;
	size_t i = 10;
	/* At most GZIP_NAME_MAX bytes before the NUL: h->name holds that
	 * many and the NUL. */
	while (i < len && i - 10 < GZIP_NAME_MAX && p[i] != 0) {
		if (p[i] < 0x20 || p[i] > 0x7e)
			return -EINVAL;
		i++;
	}
	if (i >= len || p[i] != 0)
		return -EINVAL;
	h->has_name = true;
	memcpy(h->name, p + 10, i - 10);
	h->name[i - 10] = '\0';
	h->length = i + 1;
	return 0;
}

/* The output side: a buffer that grows, or a scratch window to discard
 * into when only checking. */
struct sink {
	uint8_t *buf;
	size_t cap;
	size_t len;
	size_t max;
	bool discard;
};

static int sink_room(struct sink *s, z_stream *z)
{
	if (s->discard) {
		s->len += s->cap - z->avail_out;
		z->next_out = s->buf;
		z->avail_out = (uInt)s->cap;
		/* Checking costs no memory, but a member over the cap is
		 * refused here as reading it would be, and a bomb whose
		 * ISIZE wrapped past 4 GiB is not taken for a small one. */
		return s->len > s->max ? -EFBIG : 0;
	}
	s->len = s->cap - z->avail_out;
	if (z->avail_out)
		return 0;
	if (s->cap >= s->max)
		return -EFBIG;
	size_t ncap = s->cap < s->max / 2 ? s->cap * 2 : s->max;
	uint8_t *n = realloc(s->buf, ncap);
	if (!n)
		return -ENOMEM;
	s->buf = n;
	s->cap = ncap;
	z->next_out = n + s->len;
	z->avail_out = (uInt)(ncap - s->len);
	return 0;
}

static size_t sink_len(const struct sink *s, const z_stream *z)
{
	if (!s->buf)
		return 0;
	return s->discard ? s->len + (s->cap - z->avail_out)
			  : s->cap - z->avail_out;
}

/* A first guess at the inflated size, from where ISIZE most likely sits:
 * the archives compress about 2.5:1, so start at 4x and grow. */
static size_t first_capacity(uint64_t extent, size_t max)
{
	uint64_t guess = extent * 4 + 4096;
	return guess < max ? (size_t)guess : max;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

struct reader {
	const struct blob *b;
	uint64_t start, pos, end;
	uint8_t *buf;
};

static int reader_fill(struct reader *rd, z_stream *z)
{
	size_t want = rd->end - rd->pos < READ_CHUNK ?
		      (size_t)(rd->end - rd->pos) : READ_CHUNK;
	ssize_t got = want ? blob_read(rd->b, rd->buf, want, rd->pos) : 0;
	if (got < 0)
		return (int)got;
	rd->pos += (uint64_t)got;
	z->next_in = rd->buf;
	z->avail_in = (uInt)got;
	return 0;
}

/* Checks that nothing but zeros follows the member up to its extent. */
static int check_padding(struct reader *rd, z_stream *z, bool *clean)
{
	*clean = all_zero(z->next_in, z->avail_in);
	while (*clean && rd->pos < rd->end) {
		int rc = reader_fill(rd, z);
		if (rc < 0)
			return rc;
		if (!z->avail_in)
			break;
		*clean = all_zero(z->next_in, z->avail_in);
	}
	return 0;
}

/* After zlib's "incorrect length check": what the trailer claims (the 4
 * bytes zlib has just consumed) beside what the data made, so a member
 * claiming 4 GiB says so. */
static void say_isize(struct reader *rd, z_stream *z, struct gzip_result *r)
{
	uint8_t isize[4];
	uint64_t end = rd->pos - z->avail_in;
	if (!z->msg || strcmp(z->msg, "incorrect length check") != 0 ||
	    end < rd->start + 4 ||
	    blob_read(rd->b, isize, 4, end - 4) != 4)
		return;
	reason_set(&r->error, "incorrect length check: ISIZE "
		 "claims %" PRIu32 " bytes, the data inflates to %llu",
		 rd_u32le(isize), (unsigned long long)z->total_out);
}

static int run_inflate(struct reader *rd, z_stream *z, struct sink *s,
		       struct gzip_result *r)
{
	for (;;) {
		if (!z->avail_in) {
			int rc = reader_fill(rd, z);
			if (rc < 0) {
				reason_set(&r->error, "read error at byte %llu: %s",
					 (unsigned long long)rd->pos, strerror(-rc));
				return -EIO;
			}
			if (!z->avail_in) {
				reason_set(&r->error, "deflate data cut off: no end within "
					 "the member's %llu bytes",
					 (unsigned long long)(rd->end - rd->start));
				return -EIO;
			}
		}
		int zr = inflate(z, Z_NO_FLUSH);
		if (zr == Z_STREAM_END)
			return 0;
		if (zr != Z_OK && zr != Z_BUF_ERROR) {
			reason_set(&r->error, "%s",
				 z->msg ? z->msg : "corrupt deflate data");
			say_isize(rd, z, r);
			return -EIO;
		}
		int rc = sink_room(s, z);
		if (rc == -EFBIG) {
			reason_set(&r->error, "inflates to more than %zu bytes", s->max);
			return -EFBIG;
		}
		if (rc < 0)
			return rc;
	}
}

/* Where the member's bytes can end at the latest: its last non-zero byte
 * plus a trailer's worth (CRC and ISIZE may end in zeros).  The padding
 * after it is never fed to zlib, so a member cut short fails at its cut
 * instead of decoding zeros into bytes that were never there. */
static uint64_t trimmed_extent(const struct blob *b, uint64_t off,
			       uint64_t extent)
{
	uint8_t tail[2 * 2048];
	size_t n = extent < sizeof tail ? (size_t)extent : sizeof tail;
	ssize_t got = blob_read(b, tail, n, off + extent - n);
	if (got != (ssize_t)n)
		return extent;
	size_t last = n;
	while (last > 0 && tail[last - 1] == 0)
		last--;
	if (last == 0)
		return extent;
	uint64_t end = extent - n + last + 8;
	return end < extent ? end : extent;
}

/* The inflated bytes to the caller, the guess's slack given back; or
 * freed, when the caller wants only the outcome (out NULL) or there are
 * none. */
static void hand_out(uint8_t *buf, size_t len, uint8_t **out, size_t *out_len)
{
	if (!out || !len) {
		bufpool_free(buf);
		if (out) {
			*out = NULL;
			*out_len = 0;
		}
		return;
	}
	uint8_t *shrunk = realloc(buf, len);
	*out = shrunk ? shrunk : buf;
	*out_len = len;
}

static int zlib_inflate_member(const struct blob *b, uint64_t off,
			       uint64_t extent, size_t max_out, uint8_t **out,
			       size_t *out_len, struct gzip_result *r)
{
	memset(r, 0, sizeof *r);
	struct sink s = { .max = max_out, .discard = out == NULL };
	s.cap = s.discard ? 64 * 1024 : first_capacity(extent, max_out);
	s.buf = malloc(s.cap ? s.cap : 1);
	uint8_t *inbuf = malloc(READ_CHUNK);
	struct reader rd = { b, off, off, off + trimmed_extent(b, off, extent),
			     inbuf };
	z_stream z;
	memset(&z, 0, sizeof z);
	z.avail_out = (uInt)s.cap;      /* so that a failed start yields 0 */
	int rc = -ENOMEM;
	/* 16 + 15: zlib parses the gzip wrapper and checks CRC32 and ISIZE. */
	if (!s.buf || !inbuf || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		goto done;
	z.next_out = s.buf;
	z.avail_out = (uInt)s.cap;
	rc = run_inflate(&rd, &z, &s, r);
	if (rc == 0) {
		r->compressed = rd.pos - z.avail_in - off;
		/* zlib has checked the trailer against these. */
		r->crc = (uint32_t)z.adler;
		r->isize = (uint32_t)z.total_out;
		rc = check_padding(&rd, &z, &r->padding_clean);
		if (rc < 0)
			reason_set(&r->error, "read error: %s",
				 strerror(-rc));
	}
	inflateEnd(&z);
done:
	free(inbuf);
	size_t len = sink_len(&s, &z);
	if (rc == -ENOMEM && !reason_given(&r->error))
		reason_set(&r->error, "out of memory");
	hand_out(s.buf, len, out, out_len);
	return rc;
}

#ifdef HAVE_LIBDEFLATE
static bool libdeflate_on = true;
#define LIBDEFLATE_MAX_EXTENT (16u << 20)

/* What ISIZE may be, smallest first: the trailer ends within 8 bytes
 * after the member's last non-zero byte, which leaves up to 9 readings.
 * Only those within the cap and not below 9/10 of the deflate data are
 * kept: data never shrinks to less when stored, so what is left out are
 * the true ISIZE shifted a byte or more out (1/256 of it and less).  The
 * true one is then the smallest, and the next reading up (the true one
 * shifted in, over CRC bytes: ~256 times it) is only tried if it fails,
 * where taking the largest reserved ~65536 times the member. */
static unsigned isize_guesses(const uint8_t *in, size_t n, size_t head,
			      size_t max_out, size_t guess[9])
{
	size_t last = n;
	while (last > 0 && in[last - 1] == 0)
		last--;
	size_t data = last > head + 8 ? last - head - 8 : 0;
	size_t floor = data / 10 * 9;
	unsigned count = 0;
	for (size_t end = last; end <= last + 8 && end <= n; end++) {
		if (end < 18)
			continue;
		size_t isize = rd_u32le(in + end - 4);
		if (isize == 0 || isize > max_out || isize < floor)
			continue;
		bool seen = false;
		for (unsigned j = 0; j < count; j++)
			seen |= guess[j] == isize;
		if (seen)
			continue;
		unsigned i = count++;
		for (; i > 0 && guess[i - 1] > isize; i--)
			guess[i] = guess[i - 1];
		guess[i] = isize;
	}
	return count;
}

/* How much of a guessed output is faulted in before inflating: the
 * members inflate to 2-4 times their size, and a trailer that claims
 * far more (a broken one, or a crafted one claiming a gigabyte) must not
 * cost more than that up front; the rest faults in as it is written. */
#define PREFAULT_RATIO 16

static size_t prefault_span(size_t guess, size_t compressed)
{
	return compressed > SIZE_MAX / PREFAULT_RATIO ||
	       guess < compressed * PREFAULT_RATIO ?
	       guess : compressed * PREFAULT_RATIO;
}

/* The whole member in one read, inflated by libdeflate into a buffer of
 * its final size: about twice zlib's speed.  Returns 1 when zlib must do
 * it instead: a broken member, whose partial bytes and message only a
 * streaming inflate gives; a size the trailer does not tell; or a header
 * in another form than the archives' (gzip_parse_header's), where zlib
 * checks what libdeflate skips, such as a header CRC (found by
 * fuzz/fuzz_gzip: libdeflate took a member whose header CRC zlib
 * refused). */
static int libdeflate_inflate_member(const struct blob *b, uint64_t off,
				     uint64_t extent, size_t max_out,
				     uint8_t **out, size_t *out_len,
				     struct gzip_result *r)
{
	uint64_t end = trimmed_extent(b, off, extent);
	if (end > SIZE_MAX / 2)
		return 1;
	uint8_t *in = bufpool_alloc_filled(end ? (size_t)end : 1, (size_t)end);
	if (!in)
		return -ENOMEM;
	ssize_t got = blob_read(b, in, (size_t)end, off);
	struct gzip_header h;
	size_t guess[9];
	unsigned guesses = got == (ssize_t)end &&
			   gzip_parse_header(in, (size_t)end, &h) == 0 ?
			   isize_guesses(in, (size_t)end, h.length, max_out,
					 guess) : 0;
	struct libdeflate_decompressor *d =
		guesses ? libdeflate_alloc_decompressor() : NULL;
	uint8_t *buf = NULL;
	enum libdeflate_result lr = LIBDEFLATE_INSUFFICIENT_SPACE;
	size_t in_used = 0, out_used = 0;
	for (unsigned i = 0; d && i < guesses &&
	     lr == LIBDEFLATE_INSUFFICIENT_SPACE; i++) {
		bufpool_free(buf);
		buf = bufpool_alloc_filled(guess[i], prefault_span(guess[i],
								   (size_t)end));
		if (!buf)
			break;
		lr = libdeflate_gzip_decompress_ex(d, in, (size_t)end, buf,
						   guess[i], &in_used,
						   &out_used);
	}
	int rc = 1;
	if (buf && lr == LIBDEFLATE_SUCCESS) {
		memset(r, 0, sizeof *r);
		r->compressed = in_used;
		r->crc = rd_u32le(in + in_used - 8);
		r->isize = rd_u32le(in + in_used - 4);
		/* Past the trimmed end there are only zeros already. */
		r->padding_clean = all_zero(in + in_used, (size_t)end - in_used);
		rc = 0;
	}
	if (d)
		libdeflate_free_decompressor(d);
	bufpool_free(in);
	if (rc == 0)
		hand_out(buf, out_used, out, out_len);
	else
		bufpool_free(buf);
	return rc;
}

void gzip_use_libdeflate(bool on)
{
	libdeflate_on = on;
}
#else
void gzip_use_libdeflate(bool on)
{
	(void)on;
}
#endif

int gzip_inflate_member(const struct blob *b, uint64_t off, uint64_t extent,
			size_t max_out, uint8_t **out, size_t *out_len,
			struct gzip_result *r)
{
#ifdef HAVE_LIBDEFLATE
	/* libdeflate holds the whole compressed member beside its output:
	 * a 10-minute cutscene's 80 MB of audio would double the peak, so
	 * zlib streams members that large. */
	if (libdeflate_on && extent <= LIBDEFLATE_MAX_EXTENT) {
		int rc = libdeflate_inflate_member(b, off, extent, max_out, out,
						   out_len, r);
		if (rc <= 0)
			return rc;
	}
#endif
	return zlib_inflate_member(b, off, extent, max_out, out, out_len, r);
}
