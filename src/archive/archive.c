/* SPDX-License-Identifier: MIT */
/* archive.c - finding members on sector boundaries. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive.h"
#include "util/names.h"
#include "util/vec.h"

/* The scan is bound by reading the archive, like cat, and reads in cat's
 * size: a buffer that stays in the CPU's cache.  4 MiB reads took five
 * times as long here (54 ms against 11 ms for the 136 MB full-size
 * DATA.BIN, warm), every byte going out to memory and back. */
#define SCAN_READ (128u << 10)
/* Bytes past a boundary that a header (with its name) may need. */
#define HEADER_SPAN (10 + GZIP_NAME_MAX + 1)

bool archive_probe(const uint8_t *p, size_t len)
{
	struct gzip_header h;
	return gzip_parse_header(p, len, &h) == 0;
}

static int push_entry(struct archive_entry **v, size_t *n, size_t *cap,
		      uint64_t offset, const struct gzip_header *h)
{
	if (vec_reserve(*v, cap, *n + 1, 256) < 0)
		return -ENOMEM;
	(*v)[*n].offset = offset;
	(*v)[*n].extent = 0;
	(*v)[*n].header = *h;
	(*v)[*n].record = -1;
	(*v)[*n].table = 0;
	(*v)[*n].tail_isize = 0;
	(*n)++;
	return 0;
}

/* A member starts at a boundary that opens a valid header and, after the
 * first, follows at least one byte of the previous member's zero padding:
 * the bytes 1f 8b 08 also occur inside deflate data. */
static bool member_starts(const uint8_t *buf, size_t have, size_t at,
			  uint64_t abs, struct gzip_header *h)
{
	if (buf[at] != 0x1f)
		return false;
	if (abs > 0 && buf[at - 1] != 0)
		return false;
	return gzip_parse_header(buf + at, have - at, h) == 0;
}

/* A window of the archive.  A bad sector (a scratched disc) hides what
 * is in it, not the whole archive: on EIO the window is read again a
 * sector at a time, what cannot be read as zeros, which start no member;
 * the member it lies in fails when it is inflated. */
static ssize_t read_window(const struct blob *b, uint8_t *buf, size_t n,
			   uint64_t from)
{
	ssize_t got = blob_read(b, buf, n, from);
	if (got != -EIO)
		return got;
	size_t done = 0;
	while (done < n) {
		size_t k = n - done < ARCHIVE_SECTOR ? n - done : ARCHIVE_SECTOR;
		ssize_t r = blob_read(b, buf + done, k, from + done);
		if (r < 0)
			memset(buf + done, 0, k);
		done += r < 0 ? k : (size_t)r;
		if (r >= 0 && (size_t)r < k)
			break;
	}
	return (ssize_t)done;
}

/* The members whose headers start in [from, to), both multiples of
 * SCAN_READ (to may be the end). */
struct scan_part {
	const struct blob *b;
	uint64_t from, to;
	struct archive_entry *entries;
	size_t count, cap;
	int rc;
};

static void *scan_part(void *arg)
{
	struct scan_part *sp = arg;
	const struct blob *b = sp->b;
	/* One byte before each window, for the padding check. */
	uint8_t *buf = malloc(1 + SCAN_READ + HEADER_SPAN);
	if (!buf) {
		sp->rc = -ENOMEM;
		return NULL;
	}
	for (uint64_t pos = sp->from; pos < sp->to && sp->rc == 0;
	     pos += SCAN_READ) {
		buf[0] = 0;
		uint64_t from = pos ? pos - 1 : 0;
		ssize_t got = read_window(b, pos ? buf : buf + 1,
					SCAN_READ + HEADER_SPAN + (pos ? 1 : 0), from);
		if (got < 0) {
			sp->rc = (int)got;
			break;
		}
		size_t have = (size_t)got + (pos ? 0 : 1);
		for (size_t at = 1; at < have && at <= SCAN_READ; at += ARCHIVE_SECTOR) {
			struct gzip_header h;
			if (member_starts(buf, have, at, pos + at - 1, &h))
				sp->rc = push_entry(&sp->entries, &sp->count,
						    &sp->cap, pos + at - 1, &h);
		}
	}
	free(buf);
	return NULL;
}

/* Archives this large are read in two halves at once: with two reads in
 * flight the disk delivers more than with one (the full-size DATA.BIN,
 * cold: 78-87 ms against 87-90 ms), and a header check is cheap. */
#define SCAN_SPLIT (16u << 20)

int archive_scan_parts(const struct blob *b, unsigned parts,
		       struct archive_entry **entries, size_t *count)
{
	*entries = NULL;
	*count = 0;
	struct scan_part sp[2];
	memset(sp, 0, sizeof sp);
	uint64_t mid = parts > 1 ? b->size / 2 / SCAN_READ * SCAN_READ : 0;
	unsigned n = mid ? 2 : 1;
	for (unsigned i = 0; i < n; i++) {
		sp[i].b = b;
		sp[i].from = i ? mid : 0;
		sp[i].to = i + 1 < n ? mid : b->size;
	}
	blob_will_read_all(b);
	pthread_t second;
	bool apart = n > 1 &&
		     pthread_create(&second, NULL, scan_part, &sp[1]) == 0;
	scan_part(&sp[0]);
	if (apart)
		pthread_join(second, NULL);
	else if (n > 1)
		scan_part(&sp[1]);
	int rc = sp[0].rc ? sp[0].rc : sp[1].rc;       /* [1] is 0 unused */
	if (rc == 0 && n > 1 && sp[1].count) {
		size_t cap = sp[0].cap;
		if (vec_reserve(sp[0].entries, &cap, sp[0].count + sp[1].count,
				256) < 0) {
			rc = -ENOMEM;
		} else {
			memcpy(sp[0].entries + sp[0].count, sp[1].entries,
			       sp[1].count * sizeof *sp[1].entries);
			sp[0].count += sp[1].count;
		}
	}
	free(sp[1].entries);
	if (rc < 0) {
		free(sp[0].entries);
		return rc;
	}
	*entries = sp[0].entries;
	*count = sp[0].count;
	for (size_t i = 0; i < *count; i++) {
		uint64_t end = i + 1 < *count ? (*entries)[i + 1].offset : b->size;
		(*entries)[i].extent = end - (*entries)[i].offset;
	}
	return 0;
}

int archive_scan(const struct blob *b, struct archive_entry **entries,
		 size_t *count)
{
	return archive_scan_parts(b, b->size >= SCAN_SPLIT ? 2 : 1, entries,
				  count);
}

void archive_member_name(const struct archive_entry *e, char *out,
			 size_t outsz)
{
	char raw[GZIP_NAME_MAX + 1];
	snprintf(raw, sizeof raw, "%s", e->header.name);
	char *dot = strrchr(raw, '.');
	if (dot && dot != raw)
		*dot = '\0';
	if (!name_escape_ascii((const uint8_t *)raw, strlen(raw), out))
		snprintf(out, outsz, "member-%" PRIu64,
			 e->offset / ARCHIVE_SECTOR);
}
