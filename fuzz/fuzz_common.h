/* SPDX-License-Identifier: MIT */
/* fuzz_common.h - helpers shared by the fuzz harnesses (fuzz/README). */
#ifndef CCSFS_FUZZ_COMMON_H
#define CCSFS_FUZZ_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/blob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The header versions the decoders tell apart; an input's first byte
 * picks one. */
static const uint16_t fuzz_versions[] = { 0x90, 0x92, 0x96, 0x100 };
#define FUZZ_VERSION(b) (fuzz_versions[(b) % 4])

/* The bytes in an anonymous in-memory file, so the code under test reads
 * them with pread like a real archive.  Returns the fd or -1. */
static inline int fuzz_memfd(const uint8_t *prefix, size_t plen,
			     const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if ((plen && pwrite(fd, prefix, plen, 0) != (ssize_t)plen) ||
	    (size && pwrite(fd, data, size, (off_t)plen) != (ssize_t)size)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A copy of n bytes in a buffer of exactly n bytes, so ASan catches a
 * read one past a chunk cut out of the input. */
static inline uint8_t *fuzz_dup(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);
	if (q && n)
		memcpy(q, p, n);
	return q;
}

#endif
