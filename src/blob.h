/* blob.h - a run of bytes in a file: a whole file, an archive inside a
 * disc image, a file's extent on the disc.
 *
 * Everything ccsfs reads from its source goes through blob_read(), so an
 * ISO extent and a plain file are the same thing to the code above.
 */
#ifndef CCSFS_BLOB_H
#define CCSFS_BLOB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct blob {
	int fd;
	uint64_t base;  /* where the bytes start in fd */
	uint64_t size;
};

/* Reads up to n bytes at off (relative to the blob); fewer only at the
 * blob's end.  Returns the count or a negative errno. */
ssize_t blob_read(const struct blob *b, void *buf, size_t n, uint64_t off);

#endif
