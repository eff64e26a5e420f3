/* SPDX-License-Identifier: MIT */
/* copy.c - streamed copies into the output. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "pack/copy.h"

#define STEP ((size_t)1 << 20)

static void advance(struct pack_progress *pg, uint64_t n)
{
	if (!pg)
		return;
	uint64_t before = pg->done >> 24;
	pg->done += n;
	/* Shown every 16 MiB: a terminal line is not worth more. */
	if (pg->show && (pg->done >> 24) != before)
		pg->show(pg, pg->ctx);
}

int pack_copy_bytes(int out, const void *p, size_t n, uint64_t off,
		    struct pack_progress *pg)
{
	const uint8_t *b = p;
	for (size_t done = 0; done < n; ) {
		ssize_t w = pwrite(out, b + done, n - done,
				   (off_t)(off + done));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		done += (size_t)w;
		advance(pg, (uint64_t)w);
	}
	return 0;
}

int pack_copy_zeros(int out, uint64_t off, uint64_t n,
		    struct pack_progress *pg)
{
	static const uint8_t zeros[65536];
	while (n) {
		size_t step = n < sizeof zeros ? (size_t)n : sizeof zeros;
		int rc = pack_copy_bytes(out, zeros, step, off, pg);
		if (rc < 0)
			return rc;
		off += step;
		n -= step;
	}
	return 0;
}

/* Through a buffer, where the kernel cannot copy (another file system,
 * a pipe). */
static int copy_buffered(int in, uint64_t in_off, int out, uint64_t out_off,
			 uint64_t n, struct pack_progress *pg)
{
	uint8_t *buf = malloc(STEP);
	if (!buf)
		return -ENOMEM;
	int rc = 0;
	while (rc == 0 && n) {
		size_t step = n < STEP ? (size_t)n : STEP;
		ssize_t got = pread(in, buf, step, (off_t)in_off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rc = got < 0 ? -errno : -EIO;
			break;
		}
		rc = pack_copy_bytes(out, buf, (size_t)got, out_off, pg);
		in_off += (uint64_t)got;
		out_off += (uint64_t)got;
		n -= (uint64_t)got;
	}
	free(buf);
	return rc;
}

int pack_copy(int in, uint64_t in_off, int out, uint64_t out_off,
	      uint64_t n, struct pack_progress *pg)
{
	while (n) {
		off_t io = (off_t)in_off, oo = (off_t)out_off;
		size_t step = n < 64 * STEP ? (size_t)n : 64 * STEP;
		ssize_t got = copy_file_range(in, &io, out, &oo, step, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return copy_buffered(in, in_off, out, out_off, n, pg);
		if (got == 0)
			return -EIO;
		in_off += (uint64_t)got;
		out_off += (uint64_t)got;
		n -= (uint64_t)got;
		advance(pg, (uint64_t)got);
	}
	return 0;
}
