/* SPDX-License-Identifier: MIT */
/* testutil.h - what the unit tests share: cmocka, bytes in memory
 * presented as a blob (a memfd), the way the daemon sees a file, and
 * texts checked a line at a time. */
#ifndef CCSFS_TESTUTIL_H
#define CCSFS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
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

/* The text has this whole line (without its '\n'). */
static inline bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

/* Fails, showing the whole text, unless it has this line. */
static inline void expect_line(const char *text, const char *line)
{
	if (!has_line(text, line))
		fail_msg("no line \"%s\" in:\n%s", line, text);
}

#endif
