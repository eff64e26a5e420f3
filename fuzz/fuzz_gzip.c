/* SPDX-License-Identifier: MIT */
/* fuzz_gzip.c - one gzip member at the start of the input: its header,
 * then inflation on a memfd blob, keeping the bytes under small max_out
 * caps and checking only.  Every inflation runs twice, with libdeflate
 * (when configure found it) and with zlib alone, and the two must agree
 * on everything a caller sees. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "archive/gzip.h"

struct outcome {
	int rc;
	uint8_t *out;
	size_t len;
	struct gzip_result r;
};

static void run(const struct blob *b, uint64_t extent, size_t max,
		bool keep, bool libdeflate, struct outcome *o)
{
	gzip_use_libdeflate(libdeflate);
	o->out = NULL;
	o->len = 0;
	o->rc = gzip_inflate_member(b, 0, extent, max, keep ? &o->out : NULL,
				    keep ? &o->len : NULL, &o->r);
	if (o->len > max || (o->rc == 0 && o->r.error.text[0]) ||
	    (o->rc && !o->r.error.text[0]) ||
	    !memchr(o->r.error.text, '\0', sizeof o->r.error.text) ||
	    (o->len && !o->out))
		abort();
	/* Touch every byte handed back, so ASan sees a short buffer. */
	volatile uint8_t sum = 0;
	for (size_t i = 0; i < o->len; i++)
		sum ^= o->out[i];
	(void)sum;
}

static void inflate_both(const struct blob *b, uint64_t extent, size_t max,
			 bool keep)
{
	struct outcome fast, slow;
	run(b, extent, max, keep, true, &fast);
	run(b, extent, max, keep, false, &slow);
	if (fast.rc != slow.rc || fast.len != slow.len ||
	    (fast.len && memcmp(fast.out, slow.out, fast.len)))
		abort();
	if (fast.rc == 0 &&
	    (fast.r.compressed != slow.r.compressed ||
	     fast.r.crc != slow.r.crc || fast.r.isize != slow.r.isize ||
	     fast.r.padding_clean != slow.r.padding_clean))
		abort();
	free(fast.out);
	free(slow.out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gzip_header h;
	if (gzip_parse_header(data, size, &h) == 0 &&
	    (h.length > size || strlen(h.name) > GZIP_NAME_MAX))
		abort();
	int fd = fuzz_memfd(NULL, 0, data, size);
	if (fd < 0)
		return 0;
	struct blob b = { fd, 0, size };
	inflate_both(&b, size, 64u << 10, true);
	inflate_both(&b, size, 100, true);
	inflate_both(&b, size, 0, true);
	/* An extent shorter than the bytes, as when the scan found a
	 * (false) next member inside this one. */
	if (size > 16)
		inflate_both(&b, size / 2, 64u << 10, true);
	inflate_both(&b, size, 1u << 20, false);
	gzip_use_libdeflate(true);
	close(fd);
	return 0;
}
