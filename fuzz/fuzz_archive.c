/* SPDX-License-Identifier: MIT */
/* fuzz_archive.c - archive_probe on the first sector, archive_scan over
 * the input as a whole archive (a memfd blob), then a check-only inflate
 * of the first few members found, as the tree builder would do. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "archive/archive.h"
#include "fuzz_common.h"
#include "archive/gzip.h"

#define MAX_INFLATED (1u << 20)
#define MAX_MEMBERS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)archive_probe(data, size < ARCHIVE_SECTOR ? size : ARCHIVE_SECTOR);
	int fd = fuzz_memfd(NULL, 0, data, size);
	if (fd < 0)
		return 0;
	struct blob b = { fd, 0, size };
	struct archive_entry *e;
	size_t n;
	if (archive_scan(&b, &e, &n) == 0) {
		for (size_t i = 0; i < n && i < MAX_MEMBERS; i++) {
			/* The scan's promises: in order, on boundaries, and
			 * extents that tile the blob. */
			if (e[i].offset % ARCHIVE_SECTOR ||
			    e[i].offset + e[i].extent > size ||
			    (i + 1 < n && e[i].offset + e[i].extent != e[i + 1].offset))
				abort();
			struct gzip_result r;
			(void)gzip_inflate_member(&b, e[i].offset, e[i].extent,
						  MAX_INFLATED, NULL, NULL, &r);
		}
		free(e);
	}
	close(fd);
	return 0;
}
