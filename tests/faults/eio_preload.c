/* SPDX-License-Identifier: MIT */
/* eio_preload.c - an LD_PRELOAD shim for faults.sh: pread() and pread64()
 * of one file fail with EIO where they touch a range of its bytes, as a
 * scratched disc or a failing drive would make them.
 *
 *	CCSFS_EIO_FILE   the file (its path as /proc/self/fd shows it,
 *	                 i.e. absolute, symbolic links resolved)
 *	CCSFS_EIO_FROM   first byte that fails (decimal)
 *	CCSFS_EIO_TO     first byte past the range (decimal)
 *	CCSFS_EIO_STALL  a path: set, the reads in the range do not fail but
 *	                 wait, as a drive that retries does, until that
 *	                 path exists (two minutes at most); PATH.waiting is
 *	                 made when the first one starts waiting
 *
 * Without CCSFS_EIO_FILE nothing fails.  Every other call goes to libc.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);

static int fails(int fd, size_t count, uint64_t offset)
{
	const char *file = getenv("CCSFS_EIO_FILE");
	const char *from_s = getenv("CCSFS_EIO_FROM");
	const char *to_s = getenv("CCSFS_EIO_TO");
	if (!file || !from_s || !to_s || count == 0)
		return 0;
	uint64_t from = strtoull(from_s, NULL, 10);
	uint64_t to = strtoull(to_s, NULL, 10);
	if (offset >= to || offset + count <= from)
		return 0;
	char link[64], path[4096];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof path - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	return strcmp(path, file) == 0;
}

static ssize_t call_next(const char *name, int fd, void *buf, size_t count,
			 off_t offset)
{
	pread_fn next = (pread_fn)(uintptr_t)dlsym(RTLD_NEXT, name);
	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	return next(fd, buf, count, offset);
}

/* False once the read may go on: it waited for CCSFS_EIO_STALL. */
static int read_fails(void)
{
	const char *go = getenv("CCSFS_EIO_STALL");
	if (!go) {
		errno = EIO;
		return 1;
	}
	char waiting[4096];
	snprintf(waiting, sizeof waiting, "%s.waiting", go);
	int fd = open(waiting, O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < 12000 && access(go, F_OK) != 0; i++)
		usleep(10000);
	return 0;
}

ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	if (fails(fd, count, (uint64_t)offset) && read_fails())
		return -1;
	return call_next("pread", fd, buf, count, offset);
}

ssize_t pread64(int fd, void *buf, size_t count, off64_t offset)
{
	if (fails(fd, count, (uint64_t)offset) && read_fails())
		return -1;
	return call_next("pread64", fd, buf, count, offset);
}
