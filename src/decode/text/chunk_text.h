/* SPDX-License-Identifier: MIT */
/* chunk_text.h - the decoders behind <kind>.txt.
 *
 * One `key: value` field a line, in file order, numbers in decimal and in
 * hex where the format thinks in hex (kinds, flags), so that grep and diff
 * work on them.  The text is the same on every run.
 */
#ifndef CCSFS_CHUNK_TEXT_H
#define CCSFS_CHUNK_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* Object names for the decoders to print beside indices; may be NULL. */
typedef const char *(*chunk_object_name_fn)(void *ctx, uint32_t index);

struct chunk_text_ctx {
	uint16_t version;               /* the file's header version */
	chunk_object_name_fn object_name;
	void *name_ctx;
};

/* True when `kind` has a decoder (it gets a .txt file). */
bool chunk_text_has(uint16_t kind);

/* Decodes one chunk (p points at its 8-byte header, len is its real
 * length).  Fields that the chunk is too short for are not printed; a
 * final `error:` line says what was missing.  Returns 0 or -ENOMEM. */
int chunk_text(const uint8_t *p, size_t len, const struct chunk_text_ctx *ctx,
	       struct strbuf *out);

#endif
