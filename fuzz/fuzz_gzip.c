/* fuzz_gzip.c - one gzip member at the start of the input: its header,
 * then inflation on a memfd blob, keeping the bytes under small max_out
 * caps and checking only. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "gzip.h"

static void inflate_once(const struct blob *b, uint64_t extent, size_t max)
{
	uint8_t *out = NULL;
	size_t len = 0;
	struct gzip_result r;
	int rc = gzip_inflate_member(b, 0, extent, max, &out, &len, &r);
	if (len > max || (rc == 0 && r.error[0]) || (rc && !r.error[0]) ||
	    !memchr(r.error, '\0', sizeof r.error))
		abort();
	/* Touch every byte handed back, so ASan sees a short buffer. */
	volatile uint8_t sum = 0;
	for (size_t i = 0; i < len; i++)
		sum ^= out[i];
	free(out);
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
	inflate_once(&b, size, 64u << 10);
	inflate_once(&b, size, 100);
	inflate_once(&b, size, 0);
	/* An extent shorter than the bytes, as when the scan found a
	 * (false) next member inside this one. */
	if (size > 16)
		inflate_once(&b, size / 2, 64u << 10);
	struct gzip_result r;
	(void)gzip_inflate_member(&b, 0, size, 1u << 20, NULL, NULL, &r);
	close(fd);
	return 0;
}
