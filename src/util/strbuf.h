/* SPDX-License-Identifier: MIT */
/* strbuf.h - a growable byte buffer for the text and image producers.
 *
 * Allocation failure is sticky: once `failed` is set further appends do
 * nothing, and the producer reports -ENOMEM once at the end instead of
 * checking every append.
 */
#ifndef CCSFS_STRBUF_H
#define CCSFS_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf {
	char *data;
	size_t len;
	size_t cap;
	bool failed;
};

#define STRBUF_INIT { NULL, 0, 0, false }

void sb_append(struct strbuf *sb, const void *bytes, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
/* Makes room for n more bytes; returns where they go, or NULL. */
char *sb_reserve(struct strbuf *sb, size_t n);
/* Hands the bytes to the caller (who frees them); the buffer is emptied.
 * Returns -ENOMEM if any append failed. */
int sb_finish(struct strbuf *sb, uint8_t **data, size_t *len);
void sb_free(struct strbuf *sb);

#endif
