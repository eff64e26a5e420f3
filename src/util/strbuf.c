/* SPDX-License-Identifier: MIT */
/* strbuf.c - growable byte buffer. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bufpool.h"
#include "util/strbuf.h"

/* Large buffers come from the pool, whose pages are mapped already; the
 * copy costs less than faulting in fresh ones. */
static char *grow(char *old, size_t len, size_t cap)
{
	if (cap < BUFPOOL_MIN)
		return realloc(old, cap);
	char *p = bufpool_alloc(cap);
	if (!p)
		return NULL;
	if (old)
		memcpy(p, old, len);
	p[len] = '\0';
	bufpool_free(old);
	return p;
}

char *sb_reserve(struct strbuf *sb, size_t n)
{
	if (sb->failed)
		return NULL;
	if (n > SIZE_MAX / 2 - sb->len) {
		sb->failed = true;
		return NULL;
	}
	if (sb->len + n + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 256;
		while (cap < sb->len + n + 1)
			cap *= 2;
		char *p = grow(sb->data, sb->len, cap);
		if (!p) {
			sb->failed = true;
			return NULL;
		}
		sb->data = p;
		sb->cap = cap;
	}
	return sb->data + sb->len;
}

void sb_append(struct strbuf *sb, const void *bytes, size_t n)
{
	char *dst = sb_reserve(sb, n);
	/* An empty list's text is NULL: memcpy must not see it. */
	if (!dst || !n)
		return;
	memcpy(dst, bytes, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_append(sb, s, strlen(s));
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	char small[256];
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n < 0) {
		sb->failed = true;
	} else if ((size_t)n < sizeof small) {
		sb_append(sb, small, (size_t)n);
	} else {
		char *dst = sb_reserve(sb, (size_t)n);
		if (dst) {
			vsnprintf(dst, (size_t)n + 1, fmt, ap2);
			sb->len += (size_t)n;
		}
	}
	va_end(ap2);
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

int sb_finish(struct strbuf *sb, uint8_t **data, size_t *len)
{
	if (sb->failed) {
		sb_free(sb);
		return -ENOMEM;
	}
	/* The cache counts len bytes: give back the doubling's slack so
	 * that what it counts is what is held. */
	char *shrunk = sb->len ? realloc(sb->data, sb->len) : NULL;
	if (shrunk)
		sb->data = shrunk;
	*data = (uint8_t *)sb->data;
	*len = sb->len;
	sb->data = NULL;
	sb->len = sb->cap = 0;
	return 0;
}

void sb_free(struct strbuf *sb)
{
	bufpool_free(sb->data);
	sb->data = NULL;
	sb->len = sb->cap = 0;
	sb->failed = false;
}
