/* SPDX-License-Identifier: MIT */
/* fuzz_chunk_text.c - the decoders behind <kind>.txt.
 *
 * Input: byte 0 picks the header version (0x90, 0x92, 0x96, 0x100),
 * byte 1 picks the kind (an index into the kinds with a decoder, written
 * over the chunk's own kind; 0xff keeps the chunk's kind), the rest is
 * the chunk from its 8-byte header on, in a buffer of exactly its length.
 * The walk's length rule for the chunk runs too (bit 2 of byte 0: as if
 * in the frame section). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "decode/text/chunk_text.h"
#include "fuzz_common.h"
#include "util/strbuf.h"

static const uint16_t kinds[] = {
	CCSF_HEADER, CCSF_INDEX, CCSF_SETUP, CCSF_FRAME, CCSF_OBJ,
	CCSF_MATERIAL, CCSF_TEXTURE, CCSF_CLUT, CCSF_CAMERA, CCSF_LIGHT,
	CCSF_ANIME, CCSF_MODEL, CCSF_CLUMP, CCSF_EXTOBJ, CCSF_HIT, CCSF_BBOX,
	CCSF_PARTICLE, CCSF_EFF, CCSF_BLTGRP, CCSF_FBRECT, CCSF_FBPAGE,
	CCSF_DUMMYPOS, CCSF_DUMMYPOSROT, CCSF_LAYER, CCSF_SHADOW,
	CCSF_MORPHER, CCSF_OBJ2, CCSF_PCM, CCSF_F_OBJ, CCSF_F_NOTE,
	CCSF_F_MATERIAL, CCSF_F_CAMERA, CCSF_F_AMBIENT, CCSF_F_DISTANTLIGHT,
	CCSF_F_DIRECTLIGHT, CCSF_F_SPOTLIGHT, CCSF_F_OMNILIGHT,
	CCSF_F_MODELVERTEX, CCSF_F_MODELNORMAL, CCSF_F_SHADOW,
	CCSF_F_MORPHER, CCSF_F_PCM, CCSF_TOP,
};
#define KINDS (sizeof kinds / sizeof kinds[0])

/* Names for some indices, none for others, one that is not ASCII. */
static const char *object_name(void *ctx, uint32_t index)
{
	(void)ctx;
	if (index % 3 == 2)
		return NULL;
	return index % 3 ? "TEX_\xe3\x81\x82%s" : "OBJ_name";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	uint16_t version = FUZZ_VERSION(data[0]);
	uint8_t pick = data[1];
	size_t len = size - 2;
	uint8_t *chunk = fuzz_dup(data + 2, len);
	if (!chunk)
		return 0;
	if (pick != 0xff && len >= 2) {
		uint16_t kind = kinds[pick % KINDS];
		chunk[0] = (uint8_t)kind;
		chunk[1] = (uint8_t)(kind >> 8);
	}
	const char *why = NULL;
	size_t real = ccsf_chunk_length(chunk, len, version, data[0] & 4, &why);
	if (real > len || (real == 0 && !why))
		abort();
	struct chunk_text_ctx ctx = { version, object_name, NULL };
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
	/* The whole rest, as a chunk whose length is known: text without
	 * NULs, the same on a second run ... */
	if (chunk_text(chunk, len, &ctx, &out) == 0 &&
	    chunk_text(chunk, len, &ctx, &again) == 0 &&
	    (out.len != again.len ||
	     (out.len && (memchr(out.data, '\0', out.len) ||
			  memcmp(out.data, again.data, out.len)))))
		abort();
	sb_free(&out);
	sb_free(&again);
	/* ... and cut to the walk's length, without names. */
	if (real) {
		struct strbuf o2 = STRBUF_INIT;
		(void)chunk_text(chunk, real, NULL, &o2);
		sb_free(&o2);
	}
	free(chunk);
	return 0;
}
