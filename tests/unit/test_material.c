/* SPDX-License-Identifier: MIT */
/* test_material.c - the Material chunk as model.mtl and scene.glb read
 * it (decode/model/material.c): the texture, and the transparency
 * clamped to 0 to 1, opaque where the float is not finite. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "ccsf/ccsf.h"
#include "ccsw.h"
#include "decode/model/material.h"
#include "testutil.h"
#include "util/bytes.h"

enum { O_TEX = 1, O_HALF, O_OVER, O_UNDER, O_NAN, O_NEG_INF, O_INF,
       O_SHORT, O_NONE, O_COUNT };

struct fixture {
	uint8_t *file;
	size_t len;
	struct ccsf_scene s;
};

static void make(struct fixture *f)
{
	static const char *names[O_COUNT] = { "", "TEX_t", "MAT_half",
		"MAT_over", "MAT_under", "MAT_nan", "MAT_neg_inf", "MAT_inf",
		"MAT_short", "MAT_none" };
	struct ccsw *w = ccsw_new("material", 0x100);
	uint32_t file = ccsw_file(w, " c:\\art\\material.max");
	for (int i = 1; i < O_COUNT; i++)
		assert_int_equal(ccsw_object_str(w, names[i], file), i);
	ccsw_setup(w);
	ccsw_material(w, O_HALF, O_TEX, 0.25f, 0, 0);
	ccsw_material(w, O_OVER, O_TEX, 2.0f, 0, 0);
	ccsw_material(w, O_UNDER, 0, -1.0f, 0, 0);
	ccsw_material(w, O_NAN, O_TEX, NAN, 0, 0);
	ccsw_material(w, O_NEG_INF, O_TEX, -INFINITY, 0, 0);
	ccsw_material(w, O_INF, O_TEX, INFINITY, 0, 0);
	/* The object and the texture, but no room for the transparency. */
	uint8_t shorter[8];
	wr_u32le(shorter, O_SHORT);
	wr_u32le(shorter + 4, O_TEX);
	ccsw_chunk(w, CCSF_MATERIAL, 0xcccc, shorter, sizeof shorter,
		   CCSW_SIZE_AUTO);
	ccsw_frame(w, 1);
	ccsw_end(w);
	f->file = ccsw_finish(w, &f->len);
	ccsw_free(w);
	assert_int_equal(ccsf_walk(f->file, f->len, &f->s), 0);
}

static void unmake(struct fixture *f)
{
	ccsf_scene_free(&f->s);
	free(f->file);
}

static void expect(const struct fixture *f, uint32_t mat, int rc,
		   uint32_t texture, float transparency)
{
	uint32_t t = 99;
	float tr = -99;
	assert_int_equal(material_chunk(&f->s, f->file, f->len, mat, &t, &tr),
			 rc);
	assert_int_equal(t, texture);
	assert_true(tr == transparency);
}

static void fields_and_clamp(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	expect(&f, O_HALF, 0, O_TEX, 0.25f);
	expect(&f, O_OVER, 0, O_TEX, 1);
	expect(&f, O_UNDER, 0, 0, 0);
	expect(&f, O_NAN, 0, O_TEX, 1);
	expect(&f, O_NEG_INF, 0, O_TEX, 1);
	expect(&f, O_INF, 0, O_TEX, 1);
	unmake(&f);
}

/* None, or too short for its fields: no texture, opaque, -ENOENT. */
static void missing_and_short(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	expect(&f, O_NONE, -ENOENT, 0, 1);
	expect(&f, O_SHORT, -ENOENT, 0, 1);
	expect(&f, 0, -ENOENT, 0, 1);
	/* Bytes that end inside the chunk: as if it were not there. */
	uint32_t chunk, t = 99;
	float tr = -99;
	assert_int_equal(ccsf_find_owned(&f.s, CCSF_MATERIAL, O_INF, &chunk),
			 0);
	size_t cut = f.s.chunks[chunk].offset + CCSF_CHUNK_HEADER + 10;
	assert_int_equal(material_chunk(&f.s, f.file, cut, O_INF, &t, &tr),
			 -ENOENT);
	assert_int_equal(t, 0);
	assert_true(tr == 1);
	unmake(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields_and_clamp),
		cmocka_unit_test(missing_and_short),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
