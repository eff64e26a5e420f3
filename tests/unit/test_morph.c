/* SPDX-License-Identifier: MIT */
/* test_morph.c - morphers and their targets: the F_Morpher walk, the fit
 * of a target to its base, and scene.glb's morph targets and weights. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsw.h"
#include "decode/motion/anime.h"
#include "decode/motion/morph.h"
#include "decode/scene/scene_gltf.h"
#include "testutil.h"
#include "util/bytes.h"

enum { O_OBJ = 1, O_BASE, O_T1, O_T2, O_BAD, O_MPH, O_ANM, O_MAT, O_COUNT };
static const char *names[O_COUNT] = { "", "OBJ_m", "MDL_base", "MDL_t1",
	"MDL_t2", "MDL_bad", "MPH_m", "ANM_m", "MAT_m" };

struct fixture {
	uint8_t *file;
	size_t len;
	struct ccsf_scene s;
};

/* One triangle (a strip of three), vertex scale 1: s16 4096 is 1.0. */
static void model(struct ccsw *w, uint32_t object, uint16_t mtype,
		  uint32_t n, int16_t dz, int16_t sx)
{
	int16_t pos[9] = { 0, 0, 0, 4096, 0, 0, 0, 4096, 0 };
	static const uint32_t normal[3] = { 64u << 16 | 1u << 24,
		64u << 16 | 1u << 24, 64u << 16 };
	for (int i = 0; i < 3; i++) {
		pos[3 * i] = (int16_t)(pos[3 * i] * sx);
		pos[3 * i + 2] = (int16_t)(pos[3 * i + 2] + dz);
	}
	struct ccsw_mmat mm = { .material = O_MAT, .vertices = n, .pos = pos,
				.normal = normal };
	struct ccsw_model m = { .object = object, .vertex_scale = 1.0f,
				.mtype = mtype, .mmat_count = 1, .mmats = &mm,
				.size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &m);
}

/* MPH_m morphs MDL_base toward t1 (z up by 1) and t2 (x twice); MDL_bad
 * has a vertex too few.  F_Morpher: frame 0 t1 0.25 and bad 1, frame 2
 * t2 1, frame 2 again t1 0.5 (of two at a frame the later holds). */
static void make(struct fixture *f)
{
	struct ccsw *w = ccsw_new("morph", 0x100);
	uint32_t file = ccsw_file(w, " c:\\art\\morph.max");
	for (int i = 1; i < O_COUNT; i++)
		assert_int_equal(ccsw_object_str(w, names[i], file), i);
	ccsw_setup(w);
	model(w, O_BASE, 1, 3, 0, 1);
	model(w, O_T1, 0x600, 3, 4096, 1);
	model(w, O_T2, 0x601, 3, 0, 2);
	model(w, O_BAD, 0x600, 2, 0, 1);
	ccsw_morpher(w, O_MPH, O_BASE);
	ccsw_obj(w, O_OBJ, 0, O_BASE, 0);
	struct ccsw_frame_rec r[3] = {
		{ .frame = 0, .kind = CCSW_F_MORPHER, .object = O_MPH,
		  .target_count = 2, .targets = { O_T1, O_BAD },
		  .values = { 0.25f, 1 } },
		{ .frame = 2, .kind = CCSW_F_MORPHER, .object = O_MPH,
		  .target_count = 1, .targets = { O_T2 }, .values = { 1 } },
		{ .frame = 2, .kind = CCSW_F_MORPHER, .object = O_MPH,
		  .target_count = 1, .targets = { O_T1 }, .values = { 0.5f } },
	};
	struct ccsw_anime_desc a = { .object = O_ANM, .frames = 4,
				     .rec_count = 3, .recs = r };
	ccsw_anime_write(w, &a);
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

static void targets_in_first_named_order(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	struct morph_list l;
	assert_int_equal(morph_list_build(&f.s, f.file, f.len, &l), 0);
	assert_int_equal(l.count, 1);
	assert_int_equal(l.m[0].morpher, O_MPH);
	assert_int_equal(l.m[0].base, O_BASE);
	assert_int_equal(l.m[0].target_count, 3);
	assert_int_equal(l.m[0].targets[0], O_T1);
	assert_int_equal(l.m[0].targets[1], O_BAD);
	assert_int_equal(l.m[0].targets[2], O_T2);
	morph_list_free(&l);
	unmake(&f);
}

/* A count past the record: only the pairs inside it. */
static void record_count_is_bounded(void **state)
{
	(void)state;
	uint8_t p[16];
	wr_u32le(p, O_MPH);
	wr_u16le(p + 4, 1000);
	wr_u16le(p + 6, 0);
	wr_u32le(p + 8, O_T1);
	wr_f32le(p + 12, 0.75f);
	struct anime_record r = { .frame = 0, .kind = 0x1901, .p = p,
				  .len = sizeof p };
	uint32_t mph, pairs, t;
	float w;
	assert_true(morph_record(&r, &mph, &pairs));
	assert_int_equal(mph, O_MPH);
	assert_int_equal(pairs, 1);
	morph_record_pair(&r, 0, &t, &w);
	assert_int_equal(t, O_T1);
	assert_true(w == 0.75f);
	r.len = 7;
	assert_false(morph_record(&r, &mph, &pairs));
	r.len = sizeof p;
	r.kind = 0x0101;
	assert_false(morph_record(&r, &mph, &pairs));
}

static void target_fits_its_base(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	uint32_t chunk;
	assert_int_equal(ccsf_find_owned(&f.s, CCSF_MODEL, O_BASE, &chunk), 0);
	const struct ccsf_chunk *c = &f.s.chunks[chunk];
	struct model_mesh base, t;
	struct reason why = { "" };
	assert_int_equal(model_decode(f.file + c->offset, c->length, 0x100,
				      &base, &why), 0);
	assert_int_equal(morph_target_decode(&f.s, f.file, f.len, &base, O_T1,
					     &t, &why), 0);
	model_mesh_free(&t);
	assert_int_equal(morph_target_decode(&f.s, f.file, f.len, &base, O_BAD,
					     &t, &why), -EIO);
	assert_string_equal(why.text, "mmat 0 has 2 vertices, the base 3");
	model_mesh_free(&t);
	assert_int_equal(morph_target_decode(&f.s, f.file, f.len, &base, O_MAT,
					     &t, &why), -EIO);
	assert_string_equal(why.text, "no model chunk");
	model_mesh_free(&t);
	model_mesh_free(&base);
	unmake(&f);
}

static const char *name_of(void *ctx, uint32_t index)
{
	(void)ctx;
	return index < O_COUNT ? names[index] : NULL;
}

/* Accessor `acc`'s floats in the GLB and its count. */
static const float *accessor(const uint8_t *g, const char *json,
			     uint32_t acc, uint32_t *count)
{
	const char *a = strstr(json, "\"accessors\":[");
	const char *v = strstr(json, "\"bufferViews\":[");
	assert_non_null(a);
	assert_non_null(v);
	unsigned view = 0, off = 0;
	for (uint32_t i = 0; i <= acc; i++)
		assert_non_null(a = strstr(a + 1, "{\"bufferView\":"));
	assert_int_equal(sscanf(a, "{\"bufferView\":%u,\"componentType\":5126,"
				"\"count\":%u", &view, count), 2);
	for (uint32_t i = 0; i <= view; i++)
		assert_non_null(v = strstr(v + 1, "{\"buffer\":0,"));
	assert_int_equal(sscanf(v, "{\"buffer\":0,\"byteOffset\":%u", &off), 1);
	uint32_t jlen = rd_u32le(g + 12);
	return (const float *)(const void *)(g + 28 + jlen + off);
}

/* The base's mesh carries t1 and t2 (bad is left out and named), their
 * deltas; the animation's STEP weights: frame 0 (0.25, 0), frame 2
 * (0.5, 0): the later record at a frame holds. */
static void scene_glb_has_targets_and_weights(void **state)
{
	(void)state;
	struct fixture f;
	make(&f);
	struct scene_env env = { NULL, name_of, "test" };
	uint8_t *out;
	size_t len;
	assert_int_equal(scene_glb(&f.s, f.file, f.len, &env, &out, &len), 0);
	size_t measured = 0;
	assert_int_equal(scene_glb(&f.s, f.file, f.len, &env, NULL,
				   &measured), 0);
	assert_int_equal(measured, len);
	uint32_t jlen = rd_u32le(out + 12);
	char *j = calloc(1, jlen + 1);
	assert_non_null(j);
	memcpy(j, out + 20, jlen);
	assert_non_null(strstr(j, "\"weights\":[0,0],\"extras\":{\"targetNames\":"
			       "[\"MDL_t1\",\"MDL_t2\"]}"));
	assert_non_null(strstr(j, "\"MDL_bad: morph target of MDL_base (MPH_m): "
			       "mmat 0 has 2 vertices, the base 3\""));
	unsigned t1, n1, t2, n2;
	const char *t = strstr(j, "\"targets\":[");
	assert_non_null(t);
	assert_int_equal(sscanf(t, "\"targets\":[{\"POSITION\":%u,\"NORMAL\":%u}"
				",{\"POSITION\":%u,\"NORMAL\":%u}]", &t1, &n1,
				&t2, &n2), 4);
	uint32_t count;
	const float *d = accessor(out, j, t1, &count);
	assert_int_equal(count, 3);
	for (int i = 0; i < 3; i++) {
		assert_true(d[3 * i] == 0 && d[3 * i + 1] == 0);
		assert_true(d[3 * i + 2] == 1);
	}
	d = accessor(out, j, t2, &count);
	assert_true(d[0] == 0 && d[3] == 1 && d[6] == 0);
	d = accessor(out, j, n1, &count);
	assert_true(d[2] == 0);         /* both normals point up */
	unsigned in, wout;
	const char *s = strstr(j, "\"samplers\":[{\"input\":");
	assert_non_null(s);
	assert_int_equal(sscanf(s, "\"samplers\":[{\"input\":%u,\"output\":%u,"
				"\"interpolation\":\"STEP\"}", &in, &wout), 2);
	assert_non_null(strstr(j, "\"target\":{\"node\":1,\"path\":\"weights\"}"));
	d = accessor(out, j, in, &count);
	assert_int_equal(count, 2);
	assert_true(d[0] == 0 && d[1] == 2.0f / 30.0f);
	d = accessor(out, j, wout, &count);
	assert_int_equal(count, 4);
	assert_true(d[0] == 0.25f && d[1] == 0 && d[2] == 0.5f && d[3] == 0);
	free(j);
	free(out);
	unmake(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(targets_in_first_named_order),
		cmocka_unit_test(record_count_is_bounded),
		cmocka_unit_test(target_fits_its_base),
		cmocka_unit_test(scene_glb_has_targets_and_weights),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
