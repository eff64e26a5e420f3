/* SPDX-License-Identifier: MIT */
/* test_model_bad.c - model.obj from bad model chunks: lying counts, short
 * strips, materials that are not there, layouts no file uses, and every
 * truncation. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ccsw.h"
#include "decode/model/model.h"
#include "model_build.h"
#include "testutil.h"

/* ---- bad input --------------------------------------------------------- */

/* Offsets in a one-mmat rigid model chunk. */
enum { OFF_MMATNUM = 8 + 10, OFF_VERTEXNUM = 28 + 8 };

static void put_u32_at(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void test_lying_counts(void **state)
{
	(void)state;
	struct chunk c = box_chunk(0x100, 0, 1.0f, O_MAT_WOOD);
	put_u32_at(c.p + OFF_VERTEXNUM, 0x7fffffff);
	struct output o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	expect_lines(o.obj, "v ", "");
	expect_line(o.obj, "# left out: mmats 0 to 0: its vertices need "
		    "38654705648 bytes, the chunk has 144 left");
	output_free(&o);

	/* 2^31 vertices: 36 GiB if believed; nothing is made of them. */
	put_u32_at(c.p + OFF_VERTEXNUM, 0x80000000u);
	o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	expect_lines(o.obj, "v ", "");
	expect_line(o.obj, "# left out: mmats 0 to 0: its vertices need "
		    "38654705664 bytes, the chunk has 144 left");
	output_free(&o);

	put_u32_at(c.p + OFF_VERTEXNUM, 8);
	c.p[OFF_MMATNUM] = 5;
	o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	check_positions(o.obj, 1.0f, 0);
	expect_lines(o.obj, "f ", box_faces);
	expect_line(o.obj, "# left out: mmats 1 to 4: the header words run "
		    "past the end of the chunk");
	output_free(&o);
	free(c.p);
}

static struct chunk strip_chunk(uint32_t n, const uint32_t *flags)
{
	int16_t pos[8 * 3] = { 0 };
	uint32_t normal[8];
	for (uint32_t i = 0; i < n; i++) {
		pos[3 * i] = (int16_t)(i * 4096);
		normal[i] = flags[i] << 24;
	}
	struct ccsw_mmat mm = {
		.name = O_MMAT_NAME, .vertices = n, .pos = pos,
		.normal = normal,
	};
	struct ccsw_model m = {
		.object = O_MODEL, .vertex_scale = 1.0f, .mtype = 0x600,
		.mmat_count = 1, .mmats = &mm, .size_field = CCSW_SIZE_AUTO,
	};
	return model_chunk(0x100, &m);
}

static void test_short_strips(void **state)
{
	(void)state;
	static const uint32_t one[1] = { 1 };
	struct chunk c = strip_chunk(1, one);
	struct output o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	expect_lines(o.obj, "v ", "v 0 0 0\n");
	expect_lines(o.obj, "f ", "");
	output_free(&o);
	free(c.p);

	/* a strip that ends after one vertex: the unflagged vertex after it
	 * has only one vertex before it */
	static const uint32_t cut[2] = { 1, 0 };
	c = strip_chunk(2, cut);
	o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	expect_lines(o.obj, "f ", "");
	expect_line(o.obj, "# left out: 1 triangle(s) of mmat 0: vertex 1 is "
		    "unflagged with fewer than two vertices before it");
	output_free(&o);
	free(c.p);

	/* a one-vertex strip in the middle makes nothing on its own */
	static const uint32_t mid[7] = { 1, 1, 0, 1, 1, 1, 0 };
	c = strip_chunk(7, mid);
	o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	expect_lines(o.obj, "f ", "f 2//2 1//1 3//3\nf 6//6 5//5 7//7\n");
	assert_null(strstr(o.obj, "left out"));
	output_free(&o);
	free(c.p);
}

static void test_bad_materials(void **state)
{
	(void)state;
	struct chunk c = box_chunk(0x100, 0, 1.0f, 99);
	struct output o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	expect_lines(o.obj, "usemtl", "");
	expect_line(o.obj, "# left out: usemtl: material 99 of mmat 0 is no "
		    "object of the scene");
	expect_lines(o.obj, "f ", box_faces);
	expect_lines(o.mtl, "newmtl", "");
	output_free(&o);
	free(c.p);

	c = box_chunk(0x100, 0, 1.0f, O_MAT_NOCHUNK);
	o = run_model(&c, 0x100);
	expect_line(o.obj, "# left out: usemtl: material 7 of mmat 0 has no "
		    "Material chunk");
	output_free(&o);
	free(c.p);
}

static void test_errors(void **state)
{
	(void)state;
	struct chunk c = box_chunk(0x100, 2, 1.0f, O_MAT_WOOD);
	struct output o = run_model(&c, 0x100);
	assert_int_equal(o.rc, -EIO);
	assert_string_equal(o.why.text, "mtype bit 0x02: a layout no file uses");
	assert_string_equal(o.obj, "");
	output_free(&o);
	free(c.p);
	c = box_chunk(0x100, 0, 1.0f, O_MAT_WOOD);
	c.p[0] = 0x00;
	c.p[1] = 0x0b;
	o = run_model(&c, 0x100);
	assert_int_equal(o.rc, -EIO);
	assert_string_equal(o.why.text, "not a model chunk");
	output_free(&o);
	/* no env, no mtl, no why: still the geometry */
	c.p[0] = 0x00;
	c.p[1] = 0x08;
	struct strbuf obj = STRBUF_INIT;
	assert_int_equal(model_obj(c.p, c.len, 0x100, NULL, &obj, NULL, NULL), 0);
	char *text = finish_text(&obj);
	expect_lines(text, "f ", box_faces);
	expect_line(text, "# left out: usemtl: material 3 of mmat 0 is no "
		    "object of the scene");
	free(text);
	free(c.p);
}

/* Every prefix of small chunks of each layout, in an exactly-sized
 * buffer: no fault; a cut header is -EIO, anything longer an OBJ that
 * says what was left out. */
static void every_truncation(const struct chunk *c, uint16_t version)
{
	for (size_t n = 0; n <= c->len; n++) {
		struct chunk cut = { malloc(n ? n : 1), n };
		memcpy(cut.p, c->p, n);
		struct output o = run_model(&cut, version);
		if (n < 28) {
			assert_int_equal(o.rc, -EIO);
			assert_string_equal(o.why.text,
					    "the model header is cut short");
		} else {
			assert_int_equal(o.rc, 0);
			if (n < c->len)
				assert_non_null(strstr(o.obj, "# left out: "
						       "mmats "));
			else
				assert_null(strstr(o.obj, "# left out: mmats"));
		}
		output_free(&o);
		free(cut.p);
	}
}

static void test_truncations(void **state)
{
	(void)state;
	struct chunk c = box_chunk(0x100, 0, 1.0f, O_MAT_WOOD);
	every_truncation(&c, 0x100);
	free(c.p);
	struct ccsw_mmat shadow = { .vertices = 5, .indices = 9, .seed = 1 };
	struct ccsw_model m = {
		.object = O_MODEL, .vertex_scale = 1.0f, .mtype = 8,
		.mmat_count = 1, .mmats = &shadow,
		.size_field = CCSW_SIZE_AUTO,
	};
	c = model_chunk(0x100, &m);
	every_truncation(&c, 0x100);
	free(c.p);
	struct ccsw_mmat bone[2] = {
		{ .material = O_MAT_WOOD, .node = 1, .vertices = 6, .seed = 2 },
		{ .material = O_MAT_WOOD, .vertices = 6, .offsets = 9,
		  .seed = 3 },
	};
	m = (struct ccsw_model){
		.object = O_MODEL, .vertex_scale = 1.0f, .mtype = 5,
		.mmat_count = 2, .mmats = bone, .size_field = CCSW_SIZE_AUTO,
	};
	c = model_chunk(0x100, &m);
	every_truncation(&c, 0x100);
	free(c.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lying_counts),
		cmocka_unit_test(test_short_strips),
		cmocka_unit_test(test_bad_materials),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_truncations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
