/* SPDX-License-Identifier: MIT */
/* testutil.h - what the unit tests share: cmocka, and bytes in memory
 * presented as a blob (a memfd), the way the daemon sees a file. */
#ifndef CCSFS_TESTUTIL_H
#define CCSFS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/mman.h>
#include <unistd.h>

#include "io/blob.h"

static inline struct blob blob_from_bytes(const void *p, size_t n)
{
	struct blob b = { -1, 0, n };
	b.fd = memfd_create("ccsfs-test", MFD_CLOEXEC);
	assert_true(b.fd >= 0);
	assert_int_equal(write(b.fd, p, n), (ssize_t)n);
	return b;
}

static inline void blob_close(struct blob *b)
{
	close(b->fd);
	b->fd = -1;
}

#endif
