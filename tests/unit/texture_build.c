/* SPDX-License-Identifier: MIT */
/* texture_build.c - the texture tests' files from the generator, and the
 * setups that choose how their PNGs are written. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ccsw.h"
#include "decode/texture/texture.h"
#include "testutil.h"
#include "texture_build.h"

/* ---- helpers ----------------------------------------------------------- */

/* A copy in a buffer of exactly n bytes, so ASan sees any overread. */
uint8_t *exact_copy(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);
	assert_non_null(q);
	memcpy(q, p, n);
	return q;
}

static uint8_t *chunk_copy(struct ccsw *w, const uint8_t *file, uint16_t kind,
			   size_t *len)
{
	for (size_t i = 0; i < ccsw_chunk_count(w); i++) {
		const struct ccsw_chunk_info *c = ccsw_chunk_at(w, i);
		if (c->kind == kind) {
			*len = c->length;
			return exact_copy(file + c->offset, c->length);
		}
	}
	fail_msg("no chunk of kind 0x%04x", kind);
	return NULL;
}

/* A file with one CLUT and one texture; either may be NULL. */
void build(uint16_t version, const struct ccsw_texture *t,
	   const struct ccsw_clut *c, struct scene *s)
{
	memset(s, 0, sizeof *s);
	struct ccsw *w = ccsw_new("xasc00", version);
	uint32_t f = ccsw_file(w, " c:\\art\\xasc00.max");
	ccsw_object_str(w, "CLT_xasc00", f);
	ccsw_object_str(w, "TEX_xasc00", f);
	ccsw_setup(w);
	if (c)
		ccsw_clut(w, c);
	if (t)
		ccsw_texture(w, t);
	ccsw_frame(w, 1);
	ccsw_end(w);
	s->file = ccsw_finish(w, &s->len);
	s->version = version;
	if (c)
		s->clut = chunk_copy(w, s->file, CCSW_CLUT, &s->clut_len);
	if (t)
		s->tex = chunk_copy(w, s->file, CCSW_TEXTURE, &s->tex_len);
	ccsw_free(w);
}

void scene_free(struct scene *s)
{
	free(s->file);
	free(s->tex);
	free(s->clut);
}

struct ccsw_texture texture_desc(uint8_t psm, uint8_t tw, uint8_t th,
				 uint8_t mipmap, enum ccsw_pattern pattern)
{
	struct ccsw_texture t = {
		.object = 2, .clut = 1, .flag = 1, .psm = psm,
		.mipmap = mipmap, .aref = 0x70, .tw = tw, .th = th,
		.buf_x = 768, .pattern = pattern, .seed = 1234,
		.size_field = CCSW_SIZE_AUTO,
	};
	return t;
}

struct ccsw_clut clut_desc(uint32_t count, bool alpha_ramp, uint32_t seed)
{
	struct ccsw_clut c = {
		.object = 1, .flag = 1, .buf_x = 896, .buf_y = 992,
		.count = count, .alpha_ramp = alpha_ramp, .seed = seed,
	};
	return c;
}

/* ---- the writers ------------------------------------------------------- */

int test_level;

int stored(void **state)
{
	(void)state;
	test_level = 0;
	return 0;
}

int with_libdeflate(void **state)
{
	(void)state;
	test_level = 1;
	texture_use_libdeflate(true);
	return 0;
}

int with_zlib(void **state)
{
	(void)state;
	test_level = 1;
	texture_use_libdeflate(false);
	return 0;
}
