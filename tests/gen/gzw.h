/* SPDX-License-Identifier: MIT */
/* gzw.h - writer of .hack//-style gzip archives (doc/formats/archive.md,
 * Members).
 *
 * An archive is gzip members laid end to end, each starting on a 2048-byte
 * boundary: 1f 8b 08, FLG 0x08 (FNAME only), MTIME, XFL, OS, the
 * NUL-terminated name, raw deflate data, CRC32, ISIZE, then 1 to 2047 zero
 * bytes up to the next boundary (a full 2048 when the member ends exactly
 * on one, since the padding is never empty).
 *
 * Members can be made broken on purpose (gzw_fault) for the tests of what
 * a reader does with bad input.
 *
 * The archive goes to a file (gzw_open) or stays in memory (gzw_mem) for
 * unit tests.  Functions returning int give 0 or -1 (errno set).
 */
#ifndef CCSGEN_GZW_H
#define CCSGEN_GZW_H

#include <stddef.h>
#include <stdint.h>

#define GZW_SECTOR 2048

enum gzw_fault {
	GZW_GOOD = 0,
	GZW_BAD_CRC,    /* CRC32 field off by one bit */
	GZW_CUT,        /* deflate data cut in the middle; no CRC, no ISIZE */
	GZW_BAD_ISIZE,  /* ISIZE one more than the real length */
	GZW_HUGE_ISIZE, /* ISIZE 0xffffffff: claims 4 GiB */
};

struct gzw_opts {
	int level;              /* zlib level 0..9; -1 = 6 */
	uint32_t mtime;
	enum gzw_fault fault;
};

/* One member's bytes without padding.  fname is written as given (the
 * discs use lower case); "" gives an empty name, still with FLG 0x08 and
 * its NUL.  malloc'ed; NULL on failure. */
uint8_t *gzw_member(const char *fname, const void *data, size_t len,
		    const struct gzw_opts *o, size_t *out_len);

struct gzw;

struct gzw *gzw_open(const char *path);
struct gzw *gzw_mem(void);

/* Where a member landed. */
struct gzw_added {
	uint64_t offset;        /* its first byte, on a sector boundary */
	uint64_t length;        /* member bytes, padding excluded */
	uint64_t padded;        /* member plus padding */
};

/* Appends a member and its padding.  info may be NULL. */
int gzw_add(struct gzw *a, const char *fname, const void *data, size_t len,
	    const struct gzw_opts *o, struct gzw_added *info);

/* Appends raw bytes (no padding), e.g. garbage between members. */
int gzw_raw(struct gzw *a, const void *bytes, size_t n);

uint64_t gzw_offset(const struct gzw *a);     /* bytes written so far */

/* Memory archives: the bytes so far (owned by the archive). */
const uint8_t *gzw_mem_data(const struct gzw *a, size_t *len);

/* Flushes and closes a file archive (returns -1 if any write failed) and
 * frees either kind. */
int gzw_close(struct gzw *a);

#endif
