/* SPDX-License-Identifier: MIT */
/* gzip.h - one gzip member (RFC 1952) of an archive: its header, and its
 * deflate data inflated with zlib.
 */
#ifndef CCSFS_GZIP_H
#define CCSFS_GZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/blob.h"
#include "util/reason.h"

#define GZIP_NAME_MAX 255

struct gzip_header {
	uint32_t mtime;
	uint8_t flags, xfl, os;
	bool has_name;
	char name[GZIP_NAME_MAX + 1];   /* printable ASCII, NUL-ended */
	size_t length;                  /* bytes before the deflate data */
};

/* Parses a member header as the archives write it: method 8, FLG FNAME
 * (or nothing), a printable NUL-terminated name.  Stricter than RFC 1952
 * on purpose: the archive scan uses it to tell member starts from bytes
 * that only look like one.  Returns 0 or -EINVAL. */
int gzip_parse_header(const uint8_t *p, size_t len, struct gzip_header *h);

/* What inflating a member established. */
struct gzip_result {
	uint64_t compressed;    /* header, deflate data and trailer */
	uint32_t crc;           /* the trailer's CRC32 */
	uint32_t isize;         /* the trailer's ISIZE */
	bool padding_clean;     /* only zero bytes up to the member's extent */
	struct reason error;    /* why it failed; "" on success */
};

/* Inflates the member whose header starts at `off` in b and whose bytes
 * may run to off + extent (the next member's start).  With out NULL the
 * data is only checked.  On success *out holds exactly the inflated bytes
 * (checked against CRC32 and ISIZE).  On failure returns -EIO with
 * r->error set and, when out is not NULL, *out and *out_len hold what was
 * inflated before the fault (possibly nothing).  Members inflating to more
 * than max_out bytes fail with -EFBIG.  Never logs: the caller knows which
 * member this is. */
int gzip_inflate_member(const struct blob *b, uint64_t off, uint64_t extent,
			size_t max_out, uint8_t **out, size_t *out_len,
			struct gzip_result *r);

/* Inflation uses libdeflate when configure found it (about twice zlib's
 * speed), zlib for broken members and otherwise.  Tests switch libdeflate
 * off to try the zlib path on every member; a no-op without libdeflate. */
void gzip_use_libdeflate(bool on);

#endif
