/* SPDX-License-Identifier: MIT */
/* test_model.c - model.obj, model.mtl and hit.obj from synthetic chunks. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ccsw.h"
#include "decode/model.h"

/* ---- a fake scene ------------------------------------------------------ */

enum {
	O_MODEL = 1, O_MMAT_NAME, O_MAT_WOOD, O_TEX_WOOD, O_MAT_GLASS,
	O_TEX_NOIMAGE, O_MAT_NOCHUNK, O_HIT, O_COUNT
};

static const char *const names[O_COUNT] = {
	[O_MODEL] = "MDL_box", [O_MMAT_NAME] = "MDL_box_0",
	[O_MAT_WOOD] = "MAT_wood", [O_TEX_WOOD] = "TEX_wood",
	[O_MAT_GLASS] = "MAT_glass pane", [O_TEX_NOIMAGE] = "TEX_noimage",
	[O_MAT_NOCHUNK] = "MAT_nochunk", [O_HIT] = "HIT_floor",
};

static const char *fake_name(void *ctx, uint32_t i)
{
	(void)ctx;
	return i > 0 && i < O_COUNT ? names[i] : NULL;
}

static int fake_material(void *ctx, uint32_t m, uint32_t *tex, float *tp)
{
	(void)ctx;
	if (m == O_MAT_WOOD) {
		*tex = O_TEX_WOOD;
		*tp = 1.0f;
		return 0;
	}
	if (m == O_MAT_GLASS) {
		*tex = O_TEX_NOIMAGE;
		*tp = 0.25f;
		return 0;
	}
	return -ENOENT;
}

static const char *fake_texture_path(void *ctx, uint32_t t)
{
	(void)ctx;
	return t == O_TEX_WOOD ? "../TEX_wood/texture.png" : NULL;
}

static const struct model_env env = {
	NULL, fake_name, fake_material, fake_texture_path,
};

/* ---- building chunks --------------------------------------------------- */

struct chunk {
	uint8_t *p;     /* exactly len bytes: ASan sees a read past it */
	size_t len;
};

static struct ccsw *new_writer(uint16_t version)
{
	struct ccsw *w = ccsw_new("model", version);
	uint32_t f = ccsw_file(w, " c:\\art\\box.max");
	for (int i = 1; i < O_COUNT; i++)
		assert_int_equal(ccsw_object_str(w, names[i], f), i);
	ccsw_setup(w);
	return w;
}

/* The first chunk of `kind` in the finished file, copied out. */
static struct chunk finish_chunk(struct ccsw *w, uint16_t kind)
{
	ccsw_frame(w, 1);
	ccsw_end(w);
	size_t len;
	uint8_t *file = ccsw_finish(w, &len);
	struct chunk c = { NULL, 0 };
	for (size_t i = 0; i < ccsw_chunk_count(w); i++) {
		const struct ccsw_chunk_info *ci = ccsw_chunk_at(w, i);
		if (ci->kind != kind)
			continue;
		c.len = ci->length;
		c.p = malloc(c.len);
		assert_non_null(c.p);
		memcpy(c.p, file + ci->offset, c.len);
		break;
	}
	assert_non_null(c.p);
	free(file);
	ccsw_free(w);
	return c;
}

static struct chunk model_chunk(uint16_t version, const struct ccsw_model *m)
{
	struct ccsw *w = new_writer(version);
	ccsw_model(w, m);
	return finish_chunk(w, CCSW_MODEL);
}

struct output {
	char *obj, *mtl;
	int rc;
	struct reason why;
};

static char *finish_text(struct strbuf *sb)
{
	uint8_t *data;
	size_t n;
	assert_int_equal(sb_finish(sb, &data, &n), 0);
	char *text = malloc(n + 1);
	assert_non_null(text);
	if (n)
		memcpy(text, data, n);
	text[n] = '\0';
	free(data);
	return text;
}

static struct output run_model(const struct chunk *c, uint16_t version)
{
	struct output o;
	struct strbuf obj = STRBUF_INIT, mtl = STRBUF_INIT;
	o.rc = model_obj(c->p, c->len, version, &env, &obj, &mtl, &o.why);
	o.obj = finish_text(&obj);
	o.mtl = finish_text(&mtl);
	/* The listing's check says the same of every chunk, unmade. */
	struct reason why = { "" };
	assert_int_equal(model_check(c->p, c->len, version, &why), o.rc);
	assert_string_equal(why.text, o.why.text);
	return o;
}

static void output_free(struct output *o)
{
	free(o->obj);
	free(o->mtl);
}

/* ---- reading OBJ text back --------------------------------------------- */

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static void expect_line(const char *text, const char *line)
{
	if (!has_line(text, line))
		fail_msg("no line \"%s\" in:\n%s", line, text);
}

/* The lines starting with `prefix` (e.g. "f "), joined by '\n'. */
static char *lines_with(const char *text, const char *prefix)
{
	size_t n = strlen(prefix), cap = strlen(text) + 1, len = 0;
	char *out = malloc(cap);
	assert_non_null(out);
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (strncmp(p, prefix, n) == 0) {
			memcpy(out + len, p, l);
			len += l;
			out[len++] = '\n';
		}
		p += l + (e ? 1 : 0);
	}
	out[len] = '\0';
	return out;
}

static void expect_lines(const char *text, const char *prefix,
			 const char *want)
{
	char *got = lines_with(text, prefix);
	if (strcmp(got, want) != 0)
		fail_msg("lines \"%s\":\n%s\nwanted:\n%s\nin:\n%s", prefix, got,
			 want, text);
	free(got);
}

/* The numbers of the k-th line starting with prefix ("v "). */
static int numbers_of(const char *text, const char *prefix, int k,
		      double *out, int max)
{
	size_t n = strlen(prefix);
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		if (strncmp(p, prefix, n) == 0 && k-- == 0) {
			int count = 0;
			const char *q = p + n;
			while (count < max && q < e) {
				char *end;
				out[count] = strtod(q, &end);
				if (end == q)
					break;
				count++;
				q = end;
			}
			return count;
		}
		if (!e)
			break;
		p = e + 1;
	}
	fail_msg("no line %d starting \"%s\"", k, prefix);
	return 0;
}

/* Within 6 significant digits of the single-precision value. */
static void expect_close(double got, float want)
{
	double tol = fabs((double)want) * 1e-6;
	if (fabs(got - (double)want) > tol)
		fail_msg("got %.9g, wanted %.9g", got, (double)want);
}

/* lround() without libm, which the unit tests do not link. */
static long nearest(double x)
{
	return (long)(x < 0 ? x - 0.5 : x + 0.5);
}

static float scaled(int16_t s, float scale)
{
	return (float)s / 4096.0f * scale;
}

/* ---- rigid ------------------------------------------------------------- */

static const uint32_t strip_flags[8] = { 1, 1, 0, 0, 0, 1, 1, 0 };

static const int16_t box_pos[8 * 3] = {
	0, 0, 0,  4096, 0, 0,  0, 4096, 0,  4096, 4096, 0,
	-32768, 32767, 1,  -1, 12345, -4096,  100, 200, 300,  7, -7, 8191,
};

static void box_arrays(uint32_t normal[8], uint32_t colour[8],
		       uint32_t st[8])
{
	for (uint32_t i = 0; i < 8; i++) {
		int8_t nx = (int8_t)(i * 9 - 30), ny = (int8_t)-64;
		int8_t nz = (int8_t)(i == 7 ? 63 : 1);
		normal[i] = (uint8_t)nx | (uint32_t)(uint8_t)ny << 8 |
			    (uint32_t)(uint8_t)nz << 16 | strip_flags[i] << 24;
		colour[i] = (0x80 + i) | (0x40u - i) << 8 | 0xffu << 16 |
			    0x80u << 24;
		st[i] = (i * 128) | (uint32_t)(65535 - i * 300) << 16;
	}
}

static const char box_faces[] =
	"f 2/2/2 1/1/1 3/3/3\n"
	"f 2/2/2 3/3/3 4/4/4\n"
	"f 4/4/4 3/3/3 5/5/5\n"
	"f 7/7/7 6/6/6 8/8/8\n";

static struct chunk box_chunk(uint16_t version, uint16_t mtype, float scale,
			      uint32_t material)
{
	uint32_t normal[8], colour[8], st[8];
	box_arrays(normal, colour, st);
	struct ccsw_mmat mm = {
		.name = O_MMAT_NAME, .material = material, .vertices = 8,
		.pos = box_pos, .normal = normal, .colour = colour, .st = st,
	};
	struct ccsw_model m = {
		.object = O_MODEL, .vertex_scale = scale, .mtype = mtype,
		.mmat_count = 1, .mmats = &mm, .size_field = CCSW_SIZE_AUTO,
	};
	return model_chunk(version, &m);
}

static void check_positions(const char *obj, float scale, int base)
{
	for (int i = 0; i < 8; i++) {
		double v[6];
		assert_true(numbers_of(obj, "v ", base + i, v, 6) >= 3);
		for (int k = 0; k < 3; k++) {
			float want = scaled(box_pos[3 * i + k], scale);
			expect_close(v[k], want);
			/* and the source s16 comes back */
			if (scale != 0.0f)
				assert_int_equal(nearest(v[k] * 4096.0 / scale),
						 box_pos[3 * i + k]);
		}
	}
}

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
	free(c.p);
}

/* ---- hit --------------------------------------------------------------- */

static char *run_hit(const uint8_t *p, size_t len, int want_rc)
{
	struct strbuf sb = STRBUF_INIT;
	struct reason why = { "" };
	assert_int_equal(hit_obj(p, len, &env, &sb, &why), want_rc);
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
		cmocka_unit_test(test_lying_counts),
		cmocka_unit_test(test_short_strips),
		cmocka_unit_test(test_bad_materials),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_same_bytes_in_any_locale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
