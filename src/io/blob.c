/* SPDX-License-Identifier: MIT */
/* blob.c - pread within a blob's bounds. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/blob.h"

int blob_open_file(const char *path, struct blob *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -ENOENT;
	}
	*b = (struct blob){ fd, 0, (uint64_t)st.st_size };
	return 0;
}

ssize_t blob_read(const struct blob *b, void *buf, size_t n, uint64_t off)
{
	if (off >= b->size)
		return 0;
	if (n > b->size - off)
		n = (size_t)(b->size - off);
	size_t done = 0;
	while (done < n) {
		ssize_t r = pread(b->fd, (char *)buf + done, n - done,
				  (off_t)(b->base + off + done));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* The file shrank under us (an image cut while mounted):
		 * what is missing is an error, not an early end. */
		if (r == 0)
			return -EIO;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

void blob_will_read_all(const struct blob *b)
{
	(void)posix_fadvise(b->fd, (off_t)b->base, (off_t)b->size,
			    POSIX_FADV_SEQUENTIAL);
}

void blob_will_need(const struct blob *b, uint64_t off, uint64_t n)
{
	if (off >= b->size)
		return;
	if (n > b->size - off)
		n = b->size - off;
	(void)posix_fadvise(b->fd, (off_t)(b->base + off), (off_t)n,
			    POSIX_FADV_WILLNEED);
}
