/* SPDX-License-Identifier: MIT */
/* strbuf.h - a growable byte buffer for the text and image producers.
 *
 * Allocation failure is sticky: once `failed` is set further appends do
 * nothing, and the producer reports -ENOMEM once at the end instead of
 * checking every append.
 *
 * A text that grows past BUFPOOL_MIN is built in one of a few shared
 * scratch buffers, whose pages stay mapped from one file to the next,
 * and copied once into a buffer of exactly its length by sb_finish.
 * Doubling in fresh mappings faulted in twice the file's pages and shrank
 * the last one with mremap, each unmap a TLB flush on both cores: a third
 * of the CPU of making every model.txt and model.obj.
 *
 * A strbuf made by sb_init_measure only counts: a listing needs a text's
 * exact size, not its bytes, and the same appends that make the text
 * tell its length when what they wrote is dropped as the buffer fills.
 * The appends must not look back at what they wrote (none does: each
 * reserves, writes and commits).
 */
#ifndef CCSFS_STRBUF_H
#define CCSFS_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct scratch;

/* What the scratch buffers hold at most, all of them made: memory the
 * daemon's bound (cache_size) has to count. */
#define SB_SCRATCH_BYTES (8u << 20)
/* Room for any one line of the texts: what a measuring strbuf keeps (small
 * enough to stay in the core's cache), and what an exact one has past its
 * end. */
#define SB_LINE_ROOM (16u << 10)

struct strbuf {
	char *data;
	size_t len;
	size_t cap;
	bool failed;
	bool measure;             /* counting only: see sb_init_measure */
	struct scratch *scratch;  /* data is a scratch buffer */
	size_t dropped;           /* measuring: bytes counted and let go */
	bool restartable;         /* see sb_init_restartable */
	bool counted;             /* outgrew the scratch: counting since */
	bool exact;               /* sized by sb_init_exact */
};

#define STRBUF_INIT { NULL, 0, 0, false, false, NULL, 0, false, false, false }

/* A strbuf that counts what is appended and keeps only SB_LINE_ROOM;
 * sb_finish then gives the count. */
void sb_init_measure(struct strbuf *sb);

/* A made file's text is held once, whatever its length.  Doubling through
 * pool buffers held a text past the scratch up to twice over while it
 * was made; instead:
 * - sb_init_exact, for a text whose length is known (counted by a
 *   listing, or made before): one buffer of that size and SB_LINE_ROOM
 *   (the last lines' reserves reach past the text), no scratch and no
 *   copy.
 * - sb_init_restartable, for one whose length is not: a text that
 *   outgrows the scratch is counted from there on, not kept, and
 *   sb_finish gives -EAGAIN with the length in *len, for the caller to
 *   make it again with sb_init_exact.  Such a text is made twice.
 * Either may be made with the appends of a measuring strbuf only. */
void sb_init_exact(struct strbuf *sb, size_t size);
void sb_init_restartable(struct strbuf *sb);

void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
/* v in decimal, as %llu and %lld print it, without printf's cost: the
 * model texts print millions of small integers. */
void sb_put_u64(struct strbuf *sb, uint64_t v);
void sb_put_i64(struct strbuf *sb, int64_t v);
/* sb_reserve's way when the room is not there yet: grows the buffer. */
char *sb_reserve_grow(struct strbuf *sb, size_t n);

/* Makes room for n more bytes; returns where they go, or NULL.  Inline,
 * with sb_append and sb_puts: the texts are made of millions of short
 * appends, and out of line the call and strlen were a tenth of the CPU
 * of making every file of the disc. */
static inline char *sb_reserve(struct strbuf *sb, size_t n)
{
	if (!sb->failed && n < sb->cap - sb->len)
		return sb->data + sb->len;
	return sb_reserve_grow(sb, n);
}

/* Room for the n bytes a producer expects to append, taken at once; a
 * measuring strbuf keeps none, and one of an exact size has its room. */
static inline void sb_expect(struct strbuf *sb, size_t n)
{
	if (!sb->measure && !sb->exact)
		(void)sb_reserve(sb, n);
}

static inline void sb_append(struct strbuf *sb, const void *bytes, size_t n)
{
	char *dst = sb_reserve(sb, n);
	/* An empty list's text is NULL: memcpy must not see it. */
	if (!dst || !n)
		return;
	memcpy(dst, bytes, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

static inline void sb_puts(struct strbuf *sb, const char *s)
{
	sb_append(sb, s, strlen(s));
}

/* True when what is appended is only counted: the model texts' lines
 * then advance by their numbers' lengths without writing them (a
 * number's length costs half to three quarters of its text in a loop,
 * and a listing sizes gigabytes of them). */
static inline bool sb_counts_only(const struct strbuf *sb)
{
	return sb->measure;
}

/* The bytes written so far, counted ones included. */
static inline size_t sb_length(const struct strbuf *sb)
{
	return sb->dropped + sb->len;
}

/* A measuring strbuf counts n more bytes, as if they were appended: a
 * text whose length is summed rather than written line by line. */
static inline void sb_count(struct strbuf *sb, uint64_t n)
{
	sb->dropped += n;
}

/* A line written in place: room for the longest it can be reserved at
 * once (NULL after a failure), the line written at the pointer, then
 * closed with its newline.  The model texts' millions of lines go this
 * way, not through a reserve and a NUL a field. */
static inline char *sb_line_start(struct strbuf *sb, size_t room)
{
	return sb_reserve(sb, room);
}

static inline void sb_line_done(struct strbuf *sb, char *start, char *end)
{
	*end++ = '\n';
	sb->len += (size_t)(end - start);
	*end = '\0';
}

/* Hands the bytes to the caller (who frees them); the buffer is emptied.
 * Returns -ENOMEM if any append failed.  A measuring strbuf gives only
 * *len, the count of every byte appended, and sets *data (when given)
 * to NULL; so does a restartable one that outgrew the scratch, with
 * -EAGAIN. */
int sb_finish(struct strbuf *sb, uint8_t **data, size_t *len);
void sb_free(struct strbuf *sb);
/* Frees the scratch buffers no strbuf holds (at unmount, so that leak
 * checkers see a clean exit). */
void sb_scratch_drain(void);

#endif
