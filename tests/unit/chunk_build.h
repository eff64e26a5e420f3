/* SPDX-License-Identifier: MIT */
/* chunk_build.h - what the <kind>.txt decoders' test programs share:
 * chunks built by hand a field at a time, and the decoders' text checked
 * line by line, at every length. */
#ifndef CCSFS_CHUNK_BUILD_H
#define CCSFS_CHUNK_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/text/chunk_text.h"
#include "testutil.h"

/* ---- building chunks --------------------------------------------------- */

struct chunk {
	uint8_t b[2048];
	size_t n;
};

/* Little-endian fields appended, as the files store them. */
void put8(struct chunk *c, unsigned v);
void put16(struct chunk *c, unsigned v);
void put32(struct chunk *c, uint32_t v);
void putf(struct chunk *c, float f);
/* Fill bytes up to the next word, where the files align their fields. */
void pad4(struct chunk *c, unsigned fill);
/* A chunk header of this kind, tag 0xcccc, its size set by chunk_end(). */
void chunk_begin(struct chunk *c, uint16_t kind);
/* Sets the size field from the length, as the files do for most kinds. */
void chunk_end(struct chunk *c);

/* ---- decoding ---------------------------------------------------------- */

/* The object names the tests' chunks point at, by index. */
const char *test_name(void *ctx, uint32_t index);
/* The text of a chunk built elsewhere, larger than struct chunk holds. */
char *decode_bytes(const uint8_t *p, size_t len, uint16_t version,
		   chunk_object_name_fn names);
/* The text of the first len bytes, with these names (or none). */
char *decode_with(const struct chunk *c, size_t len, uint16_t version,
		  chunk_object_name_fn names);
/* The text of the whole chunk, with test_name's names. */
char *decode(const struct chunk *c, uint16_t version);
/* The whole text must be want. */
void expect_text(const struct chunk *c, uint16_t version, const char *want);
/* The text must have no line that starts so. */
void expect_no_line_starting(const char *text, const char *start);
/* The text's last line, with its '\n'. */
const char *last_line(const char *text);
/* Every prefix of the chunk decodes without a fault; every short one ends
 * with the error line and the whole one has none. */
void every_length(const struct chunk *c, uint16_t version);

#endif
