/* SPDX-License-Identifier: MIT */
/* test_model.c - model.obj, model.mtl and hit.obj from synthetic chunks:
 * every layout, the number text, and the same bytes in any locale.  Bad
 * input is in test_model_bad.c. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsw.h"
#include "decode/model/model.h"
#include "decode/model/obj_fmt.h"
#include "model_build.h"
#include "testutil.h"

/* ---- rigid ------------------------------------------------------------- */

static void test_rigid_unlit(void **state)
{
	(void)state;
	struct chunk c = box_chunk(0x100, 0, 2.5f, O_MAT_WOOD);
	struct output o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	static const char head[] = "# model MDL_box (object 1), mtype 0x0, "
		"1 mmats, vertexScale 2.5\nmtllib model.mtl\n";
	assert_true(strncmp(o.obj, head, strlen(head)) == 0);
	expect_line(o.obj, "o MDL_box_0");
	expect_line(o.obj, "usemtl MAT_wood");
	check_positions(o.obj, 2.5f, 0);
	uint32_t normal[8], colour[8], st[8];
	box_arrays(normal, colour, st);
	for (int i = 0; i < 8; i++) {
		double v[6], t[3], n[4];
		assert_int_equal(numbers_of(o.obj, "v ", i, v, 6), 6);
		for (int k = 0; k < 3; k++)
			assert_true(v[3 + k] ==
				    ((colour[i] >> (8 * k)) & 0xff) / 128.0);
		assert_int_equal(numbers_of(o.obj, "vt ", i, t, 3), 2);
		assert_true(t[0] == (st[i] & 0xffff) / 256.0);
		assert_true(t[1] == (st[i] >> 16) / 256.0);
		assert_int_equal(numbers_of(o.obj, "vn ", i, n, 4), 3);
		for (int k = 0; k < 3; k++)
			assert_true(n[k] ==
				    (int8_t)(normal[i] >> (8 * k)) / 64.0);
	}
	expect_lines(o.obj, "f ", box_faces);
	assert_null(strstr(o.obj, "left out"));
	expect_lines(o.mtl, "", "# materials of model.obj\n"
		     "newmtl MAT_wood\nKd 1 1 1\nd 1\n"
		     "map_Kd ../TEX_wood/texture.png\n");
	output_free(&o);
	free(c.p);
}

/* Version 0x90 reads mtype & 0xff: 0x601 is then 1 (lit: colours stored
 * but dropped, ST kept); at 0x100 it is a morph target (no colour, no
 * ST). */
static void test_versions(void **state)
{
	(void)state;
	struct chunk c = box_chunk(0x90, 0x601, 1.0f, O_MAT_WOOD);
	struct output o = run_model(&c, 0x90);
	assert_int_equal(o.rc, 0);
	double v[6];
	assert_int_equal(numbers_of(o.obj, "v ", 0, v, 6), 3);
	check_positions(o.obj, 1.0f, 0);
	expect_lines(o.obj, "f ", box_faces);
	output_free(&o);
	free(c.p);

	c = box_chunk(0x100, 0x601, 1.0f, O_MAT_WOOD);
	o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	assert_int_equal(numbers_of(o.obj, "v ", 7, v, 6), 3);
	check_positions(o.obj, 1.0f, 0);
	expect_lines(o.obj, "vt ", "");
	expect_lines(o.obj, "f ", "f 2//2 1//1 3//3\nf 2//2 3//3 4//4\n"
		     "f 4//4 3//3 5//5\nf 7//7 6//6 8//8\n");
	output_free(&o);
	free(c.p);
}

/* Scales far from 1 still give 6 significant digits and the source. */
static void test_position_scales(void **state)
{
	(void)state;
	static const float scales[] = {
		1.0f, 0.001f, 1000.0f, 3.3333333f, 1e-7f, 1e9f, -12.5f, 0.0f,
	};
	for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
		struct chunk c = box_chunk(0x100, 0, scales[i], 0);
		struct output o = run_model(&c, 0x100);
		assert_int_equal(o.rc, 0);
		check_positions(o.obj, scales[i], 0);
		assert_null(strstr(o.obj, "usemtl"));
		output_free(&o);
		free(c.p);
	}
}

static void test_two_mmats(void **state)
{
	(void)state;
	uint32_t normal[8], colour[8], st[8];
	box_arrays(normal, colour, st);
	struct ccsw_mmat mm[2] = {
		{ .name = O_MMAT_NAME, .material = O_MAT_WOOD, .vertices = 8,
		  .pos = box_pos, .normal = normal, .colour = colour,
		  .st = st },
		{ .name = 0, .material = O_MAT_GLASS, .vertices = 8,
		  .pos = box_pos, .normal = normal, .colour = colour,
		  .st = st },
	};
	struct ccsw_model m = {
		.object = O_MODEL, .vertex_scale = 1.0f, .mtype = 0,
		.mmat_count = 2, .mmats = mm,
		.size_field = CCSW_SIZE_AUTO,
	};
	struct chunk c = model_chunk(0x100, &m);
	struct output o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	expect_lines(o.obj, "o ", "o MDL_box_0\no mmat1\n");
	expect_lines(o.obj, "usemtl ", "usemtl MAT_wood\nusemtl "
		     "MAT_glass_pane\n");
	check_positions(o.obj, 1.0f, 8);
	char *faces = lines_with(o.obj, "f ");
	assert_non_null(strstr(faces, "f 10/10/10 9/9/9 11/11/11\n"
			       "f 10/10/10 11/11/11 12/12/12\n"));
	free(faces);
	expect_lines(o.mtl, "", "# materials of model.obj\n"
		     "newmtl MAT_wood\nKd 1 1 1\nd 1\n"
		     "map_Kd ../TEX_wood/texture.png\n"
		     "newmtl MAT_glass_pane\nKd 1 1 1\nd 0.25\n"
		     "# left out: map_Kd: texture 6 has no image\n");
	output_free(&o);
	free(c.p);
}

/* ---- shadow ------------------------------------------------------------ */

static void test_shadow(void **state)
{
	(void)state;
	static const int16_t pos[4 * 3] = {
		0, 0, 0,  4096, 0, 0,  0, 4096, 0,  0, 0, 4096,
	};
	static const int32_t tri[15] = {
		0, 1, 2,  0, 3, 1,  1, 9, 2,  -1, 0, 1,  3, 2, 1,
	};
	struct ccsw_mmat mm = {
		.vertices = 4, .indices = 15, .pos = pos, .tri = tri,
	};
	struct ccsw_model m = {
		.object = O_MODEL, .vertex_scale = 2.0f, .mtype = 8,
		.mmat_count = 1, .mmats = &mm, .size_field = CCSW_SIZE_AUTO,
	};
	struct chunk c = model_chunk(0x100, &m);
	struct output o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	expect_lines(o.obj, "v ", "v 0 0 0\nv 2 0 0\nv 0 2 0\nv 0 0 2\n");
	expect_lines(o.obj, "f ", "f 1 2 3\nf 1 4 2\nf 4 3 2\n");
	expect_line(o.obj, "# left out: 2 triangle(s) of mmat 0 index past "
		    "vNum 4 (first: triangle 2, index 9)");
	assert_null(strstr(o.obj, "usemtl"));
	output_free(&o);
	free(c.p);
}

/* ---- bone and skin ----------------------------------------------------- */

static void test_bone_and_skin(void **state)
{
	(void)state;
	static const int16_t pos[4 * 3] = {
		0, 0, 0,  4096, 0, 0,  0, 4096, 0,  4096, 4096, 0,
	};
	uint32_t normal[4], st[4];
	for (int i = 0; i < 4; i++) {
		normal[i] = 64u << 16 | (i < 2 ? 1u : 0u) << 24;
		st[i] = (uint32_t)i * 256;
	}
	/* Skin: vertex 1 has three entries: the first unweighted, so it sits
	 * at the second (position, normal, node), and only its last carries
	 * the strip flag. */
	struct ccsw_skin_entry entries[6] = {
		{ { 0, 0, 0 }, 256 | 1 << 9 | 2 << 10 },
		{ { 999, 999, 999 }, 0 | 5 << 10 },
		{ { 4096, 0, 0 }, 128 | 6 << 10 },
		{ { -999, -999, -999 }, 128 | 1 << 9 | 7 << 10 },
		{ { 0, 4096, 0 }, 256 | 1 << 9 | 2 << 10 },
		{ { 4096, 4096, 0 }, 256 | 1 << 9 | 6 << 10 },
	};
	uint32_t skin_normal[6] = {
		normal[0], 0x007f7f7f, 64u << 16, 0x017f7f7f, normal[2],
		normal[3],
	};
	struct ccsw_mmat mm[2] = {
		{ .material = O_MAT_WOOD, .node = 3, .vertices = 4,
		  .pos = pos, .normal = normal, .st = st },
		{ .material = O_MAT_WOOD, .vertices = 4, .offsets = 6,
		  .entries = entries, .normal = skin_normal, .st = st },
	};
	struct ccsw_model m = {
		.object = O_MODEL, .vertex_scale = 1.0f, .mtype = 5,
		.mmat_count = 2, .mmats = mm, .size_field = CCSW_SIZE_AUTO,
	};
	struct chunk c = model_chunk(0x100, &m);
	struct output o = run_model(&c, 0x100);
	assert_int_equal(o.rc, 0);
	assert_non_null(strstr(o.obj, "# bone and skin vertices are unposed"));
	expect_lines(o.obj, "g ", "g mmat0_node3\ng mmat1_node2\n"
		     "g mmat1_node6\n");
	expect_lines(o.obj, "v ", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n"
		     "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n");
	expect_lines(o.obj, "f ", "f 2/2/2 1/1/1 3/3/3\nf 2/2/2 3/3/3 4/4/4\n"
		     "f 6/6/6 5/5/5 7/7/7\nf 6/6/6 7/7/7 8/8/8\n");
	expect_lines(o.obj, "vn ", "vn 0 0 1\nvn 0 0 1\nvn 0 0 1\nvn 0 0 1\n"
		     "vn 0 0 1\nvn 0 0 1\nvn 0 0 1\nvn 0 0 1\n");
	expect_lines(o.obj, "usemtl ", "usemtl MAT_wood\nusemtl MAT_wood\n");
	/* one newmtl for the material both mmats use */
	expect_lines(o.mtl, "newmtl ", "newmtl MAT_wood\n");
	output_free(&o);

	/* The mesh keeps each vertex's node slot and skin entries. */
	struct model_mesh mesh;
	struct reason why = { "" };
	assert_int_equal(model_decode(c.p, c.len, 0x100, &mesh, &why), 0);
	assert_int_equal(mesh.mmat_count, 2);
	assert_int_equal(mesh.mmats[0].layout, MODEL_BONE);
	assert_int_equal(mesh.mmats[1].layout, MODEL_SKIN);
	assert_int_equal(mesh.vertices[0].node, 3);
	static const uint32_t nodes[4] = { 2, 6, 2, 6 };
	for (int i = 0; i < 4; i++)
		assert_int_equal(mesh.vertices[4 + i].node, nodes[i]);
	assert_int_equal(mesh.vertices[5].first_entry, 1);
	assert_int_equal(mesh.vertices[5].entry_count, 3);
	assert_int_equal(mesh.vertices[5].strip, 1);
	assert_int_equal(mesh.entries[1].node, 5);
	assert_int_equal(mesh.entries[1].weight, 0);
	assert_int_equal(mesh.entries[3].node, 7);
	assert_true(mesh.entries[3].last);
	assert_int_equal(mesh.entry_count, 6);
	model_mesh_free(&mesh);

	/* model.mtl's decode: the same mmats, layouts and materials, and
	 * nothing read past them. */
	assert_int_equal(model_decode_as(c.p, c.len, 0x100, false, &mesh,
					 &why), 0);
	assert_int_equal(mesh.mmat_count, 2);
	assert_int_equal(mesh.mmats[0].layout, MODEL_BONE);
	assert_int_equal(mesh.mmats[1].layout, MODEL_SKIN);
	assert_int_equal(mesh.mmats[0].material, O_MAT_WOOD);
	assert_int_equal(mesh.mmats[1].material, O_MAT_WOOD);
	assert_int_equal(mesh.vertex_count, 0);
	assert_int_equal(mesh.face_count, 0);
	assert_int_equal(mesh.entry_count, 0);
	model_mesh_free(&mesh);
	free(c.p);
}

/* ---- hit --------------------------------------------------------------- */

static char *run_hit(const uint8_t *p, size_t len, int want_rc)
{
	struct strbuf sb = STRBUF_INIT;
	struct reason why = { "" };
	assert_int_equal(model_hit_obj(p, len, &env, &sb, &why), want_rc);
	if (want_rc)
		assert_true(why.text[0] != '\0');
	return finish_text(&sb);
}

static void test_hit(void **state)
{
	(void)state;
	static const float a[3 * 3] = { 0, 0, 0,  1.5f, 0, 0,  0, 2.25f, -3 };
	static const float b[7 * 3] = {
		10, 0, 0,  11, 0, 0,  10, 1, 0,  0.1f, 0.2f, 0.3f,
		1e6f, -1e-4f, 123456.7f,  -5, -5, -5,  9, 9, 9,
	};
	struct ccsw_hit_group g[2] = {
		{ .vertices = 3, .attribute = 0x12, .pos = a },
		{ .vertices = 7, .attribute = 0x7, .pos = b },
	};
	struct ccsw *w = new_writer(0x100);
	ccsw_hit(w, O_HIT, 0, 2, g);
	struct chunk c = finish_chunk(w, CCSW_HIT);
	char *obj = run_hit(c.p, c.len, 0);
	expect_line(obj, "# hit HIT_floor (object 8), parent 0, 2 groups, "
		    "10 vertices");
	expect_lines(obj, "g ", "g group0_attr0x12\ng group1_attr0x7\n");
	expect_lines(obj, "v ", "v 0 0 0\nv 1.5 0 0\nv 0 2.25 -3\n"
		     "v 10 0 0\nv 11 0 0\nv 10 1 0\n"
		     "v 0.1 0.2 0.3\nv 1000000 -0.0001 123456.7\n"
		     "v -5 -5 -5\n");
	expect_lines(obj, "f ", "f 1 2 3\nf 4 5 6\nf 7 8 9\n");
	expect_line(obj, "# left out: the last 1 vertices of group 1: not a "
		    "whole triangle");
	free(obj);
	/* every truncation: never a fault; a cut header is -EIO */
	for (size_t n = 0; n < c.len; n++) {
		uint8_t *cut = malloc(n ? n : 1);
		memcpy(cut, c.p, n);
		obj = run_hit(cut, n, n < 24 ? -EIO : 0);
		if (n >= 24)
			assert_non_null(strstr(obj, "# left out: groups "));
		free(obj);
		free(cut);
	}
	free(c.p);
}

/* The number formatter at the edges of float, through hit.obj (whose
 * positions are f32 as they are). */
static void test_float_text(void **state)
{
	(void)state;
	const float inf = __builtin_inff(), nan = __builtin_nanf("");
	const float pos[6 * 3] = {
		3.4028235e38f, 1.4e-45f, -1e15f,
		1e16f, 0.00001f, 1e-6f,
		0.99999997f, 9999999.0f, -0.0f,
		nan, inf, -inf,
		123.4567f, -0.5f, 99999.996f,     /* float 99999.9921875 */
		1.17549435e-38f, 2.5e-7f, 1e-4f,   /* 1e-4f: 9.99999975e-05 */
	};
	struct ccsw_hit_group g = { .vertices = 6, .attribute = 0, .pos = pos };
	struct ccsw *w = new_writer(0x100);
	ccsw_hit(w, O_HIT, 0, 1, &g);
	struct chunk c = finish_chunk(w, CCSW_HIT);
	char *obj = run_hit(c.p, c.len, 0);
	expect_lines(obj, "v ",
		     "v 3.4028235e+38 1e-45 -1000000000000000\n"
		     "v 1e+16 0.00001 1e-06\n"
		     "v 0.99999994 9999999 0\n"
		     "v nan inf -inf\n"
		     "v 123.4567 -0.5 99999.99\n"
		     "v 1.1754944e-38 2.5e-07 0.0001\n");
	free(obj);
	free(c.p);
}

/* printf's exact decimal of v / 2^shift, trailing zeros dropped. */
static size_t exact_text(char *want, size_t size, int32_t v, unsigned shift)
{
	snprintf(want, size, "%.8f", (double)v / (1 << shift));
	char *p = want + strlen(want) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
	return strlen(want);
}

/* The fixed-point columns (vn, colours, vt) against printf's exact
 * decimal: every value a normal, colour, S or T can hold, and the
 * counted lengths; the bytes after the text are the writer's own. */
static void test_fixed_point_text(void **state)
{
	(void)state;
	char got[64], want[64];
	for (unsigned b = 0; b < 256; b++) {
		const struct {
			const struct fixfmt_text *t;
			int32_t v;
			unsigned shift;
		} tab[] = {
			{ &obj_normal_text[b], (int8_t)b, 6 },
			{ &obj_colour_text[b], (int32_t)b, 7 },
		};
		for (int i = 0; i < 2; i++) {
			memset(got, '#', sizeof got);
			char *end = fixfmt_put(got, tab[i].t);
			size_t n = exact_text(want, sizeof want, tab[i].v,
					      tab[i].shift);
			if ((size_t)(end - got) != n || memcmp(got, want, n))
				fail_msg("%d / 2^%u written as %.*s", (int)tab[i].v,
					 tab[i].shift, (int)(end - got), got);
		}
	}
	for (uint32_t v = 0; v <= UINT16_MAX; v++) {
		memset(got, '#', sizeof got);
		char *end = fixfmt_put_256ths(got, (uint16_t)v);
		size_t n = exact_text(want, sizeof want, (int32_t)v, 8);
		if ((size_t)(end - got) != n || memcmp(got, want, n) != 0 ||
		    fixfmt_256ths_len((uint16_t)v) != n)
			fail_msg("%u / 256 written as %.*s", (unsigned)v,
				 (int)(end - got), got);
	}
}

/* ---- determinism ------------------------------------------------------- */

static void test_same_bytes_in_any_locale(void **state)
{
	(void)state;
	struct ccsw_mmat mm[2] = {
		{ .name = O_MMAT_NAME, .material = O_MAT_GLASS,
		  .vertices = 300, .seed = 7 },
		{ .name = O_MMAT_NAME, .material = O_MAT_WOOD,
		  .vertices = 120, .seed = 8 },
	};
	struct ccsw_model m = {
		.object = O_MODEL, .vertex_scale = 0.3f, .mtype = 0,
		.mmat_count = 2, .mmats = mm, .size_field = CCSW_SIZE_AUTO,
	};
	struct chunk c = model_chunk(0x100, &m);
	struct output a = run_model(&c, 0x100), b = run_model(&c, 0x100);
	assert_string_equal(a.obj, b.obj);
	assert_string_equal(a.mtl, b.mtl);
	assert_non_null(strstr(a.obj, "."));    /* fractions were written */
	output_free(&b);
	if (setlocale(LC_ALL, "de_DE.UTF-8")) {
		b = run_model(&c, 0x100);
		setlocale(LC_ALL, "C");
		assert_string_equal(a.obj, b.obj);
		assert_string_equal(a.mtl, b.mtl);
		output_free(&b);
	} else {
		print_message("de_DE.UTF-8 missing: locale check skipped\n");
	}
	output_free(&a);
	free(c.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rigid_unlit),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_position_scales),
		cmocka_unit_test(test_two_mmats),
		cmocka_unit_test(test_shadow),
		cmocka_unit_test(test_bone_and_skin),
		cmocka_unit_test(test_hit),
		cmocka_unit_test(test_float_text),
		cmocka_unit_test(test_fixed_point_text),
		cmocka_unit_test(test_same_bytes_in_any_locale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
