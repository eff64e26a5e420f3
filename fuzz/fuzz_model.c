/* SPDX-License-Identifier: MIT */
/* fuzz_model.c - the OBJ producers: model_obj (with its .mtl) and
 * model_hit_obj on the same chunk.
 *
 * Input: byte 0 picks the header version (0x90, 0x92, 0x96, 0x100),
 * byte 1 the chunk's kind (even: model 0x0800, odd: hit 0x0b00, written
 * over the chunk's own; 0xff keeps it), the rest is the chunk from its
 * 8-byte header on, in a buffer of exactly its length. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "decode/model/model.h"
#include "fuzz_common.h"
#include "util/strbuf.h"

/* A scene where some objects, materials and textures exist. */
static const char *object_name(void *ctx, uint32_t index)
{
	(void)ctx;
	switch (index % 4) {
	case 0: return NULL;
	case 1: return "MDL_xasc00";
	case 2: return "MAT_\xe3\x81\x82 with space\n";
	default: return "";
	}
}

static int material(void *ctx, uint32_t index, uint32_t *texture,
		    float *transparency)
{
	(void)ctx;
	if (index % 5 == 0)
		return -ENOENT;
	*texture = index * 7;
	*transparency = (float)(index % 3) / 2.0f;
	return 0;
}

static const char *texture_path(void *ctx, uint32_t texture)
{
	(void)ctx;
	return texture % 2 ? "../TEX_xasc00/texture.png" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	uint16_t version = FUZZ_VERSION(data[0]);
	size_t len = size - 2;
	uint8_t *chunk = fuzz_dup(data + 2, len);
	if (!chunk)
		return 0;
	if (data[1] != 0xff && len >= 2) {
		uint16_t kind = data[1] & 1 ? CCSF_HIT : CCSF_MODEL;
		chunk[0] = (uint8_t)kind;
		chunk[1] = (uint8_t)(kind >> 8);
	}
	struct model_env env = { NULL, object_name, material, texture_path };
	struct model_env none = { 0 };
	struct reason why = { "" };
	struct strbuf obj = STRBUF_INIT, mtl = STRBUF_INIT;
	if (model_obj(chunk, len, version, data[0] & 4 ? &none : &env, &obj,
		      data[0] & 8 ? NULL : &mtl, &why) != 0 &&
	    !memchr(why.text, '\0', sizeof why.text))
		abort();
	sb_free(&obj);
	sb_free(&mtl);
	struct strbuf hit = STRBUF_INIT;
	(void)model_hit_obj(chunk, len, data[0] & 4 ? NULL : &env, &hit, &why);
	sb_free(&hit);
	free(chunk);
	return 0;
}
