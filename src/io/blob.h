/* SPDX-License-Identifier: MIT */
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

/* The whole host file at path as a blob, its fd opened read-only (the
 * caller closes it).  0; -errno; -ENOENT when it is not a regular file. */
int blob_open_file(const char *path, struct blob *b);

/* Reads up to n bytes at off (relative to the blob); fewer only at the
 * blob's end.  Returns the count or a negative errno: -EIO when the file
 * ends before the blob does (it shrank since the blob was made). */
ssize_t blob_read(const struct blob *b, void *buf, size_t n, uint64_t off);

/* Tells the kernel the blob is about to be read in order, so it reads
 * ahead twice as far (a cold archive scan: 0.09 s against 0.11 s without
 * it and 0.10 s for cat; WILLNEED was slower, as it blocks while it
 * queues the whole range).  A hint: failure is ignored. */
void blob_will_read_all(const struct blob *b);

/* Tells the kernel n bytes at off will be read soon, so that many small
 * reads far apart (one window a member of the game's index) go to the
 * disk at once rather than one after another.  A hint, as above. */
void blob_will_need(const struct blob *b, uint64_t off, uint64_t n);

#endif
