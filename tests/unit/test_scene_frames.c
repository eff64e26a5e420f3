/* SPDX-License-Identifier: MIT */
/* test_scene_frames.c - a cutscene's frame section as scene.glb reads it:
 * records with their frames, a Top that goes back, objects translated to
 * the setup file's, the lines of what is left out, and a GLB made of a
 * setup file and a common setup file. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsw.h"
#include "decode/scene/scene_gltf.h"
#include "testutil.h"
#include "util/bytes.h"

/* A walked file and its bytes (exactly len, for ASan). */
struct walked {
	uint8_t *bytes;
	size_t len;
	struct ccsf_scene s;
};

static void walk(struct ccsw *w, struct walked *f)
{
	f->bytes = ccsw_finish(w, &f->len);
	ccsw_free(w);
	assert_non_null(f->bytes);
	memset(&f->s, 0, sizeof f->s);
	ccsf_walk(f->bytes, f->len, &f->s);
}

static void unwalk(struct walked *f)
{
	ccsf_scene_free(&f->s);
	free(f->bytes);
}

/* The setup: a camera (object 1) and a kite (object 2). */
static void setup_file(struct walked *f)
{
	struct ccsw *w = ccsw_new("str0001e", 0x100);
	uint32_t file = ccsw_file(w, " c:\\str\\str0001.max");
	uint32_t cam = ccsw_object_str(w, "CAM_main", file);
	uint32_t kite = ccsw_object_str(w, "OBJ_kite", file);
	ccsw_setup(w);
	ccsw_camera(w, cam);
	ccsw_obj(w, kite, 0, 0, 0);
	ccsw_frame(w, 1);
	ccsw_end(w);
	walk(w, f);
}

/* The scene file: OBJ_kite (1), OBJ_ghost (2, not the pair's), CAM_main
 * (3); frames 0, 1, 2, then a Top back to 1, then 3; F_Obj for the kite
 * and the ghost each frame, and at frame 0 an F_Camera that carries no
 * value.  cut: a last record that runs past the file. */
static void scene_file(struct walked *f, bool cut)
{
	struct ccsw *w = ccsw_new("str0001", 0x100);
	uint32_t file = ccsw_file(w, "#c:\\str\\str0001.max");
	uint32_t kite = ccsw_object_str(w, "OBJ_kite", file);
	uint32_t ghost = ccsw_object_str(w, "OBJ_ghost", file);
	uint32_t cam = ccsw_object_str(w, "CAM_main", file);
	ccsw_setup(w);
	ccsw_frame(w, 5);
	static const uint32_t tops[5] = { 0, 1, 2, 1, 3 };
	for (uint32_t i = 0; i < 5; i++) {
		ccsw_top(w, tops[i]);
		struct ccsw_f_obj o = ccsw_f_obj_moving(kite, tops[i]);
		ccsw_f_obj(w, &o);
		o.object = ghost;
		ccsw_f_obj(w, &o);
		if (i == 0)
			ccsw_f_camera(w, cam, 1, NULL);
	}
	if (cut) {
		static const uint32_t part[2] = { 1, 0 };
		ccsw_chunk(w, 0x0101, 0, part, sizeof part, 13);
	} else {
		ccsw_end(w);
	}
	walk(w, f);
}

/* Scene objects 1 (OBJ_kite) and 3 (CAM_main) are setup's 2 and 1. */
#define NOWHERE { SCENE_NOWHERE, 0 }
static const struct scene_def def_of[4] = { NOWHERE, { 0, 2 }, NOWHERE,
					    { 0, 1 } };
/* The same, with the ghost and the camera in a common setup file. */
static const struct scene_def def_common[4] = { NOWHERE, { 0, 2 },
						{ 1, 7 }, { 2, 3 } };

struct seen {
	int32_t frames[16];
	uint32_t objects[16];
	unsigned n;
	uint32_t camera;        /* the F_Camera record's object */
};

static void note(const struct anime_record *r, void *arg)
{
	struct seen *s = arg;
	if (r->kind == CCSF_F_CAMERA)
		s->camera = rd_u32le(r->p);
	if (r->kind != CCSF_F_OBJ || s->n >= 16)
		return;
	s->frames[s->n] = r->frame;
	s->objects[s->n++] = rd_u32le(r->p);
}

static void test_records_rise_and_translate(void **state)
{
	(void)state;
	struct walked sc;
	scene_file(&sc, false);
	struct scene_frames f = { &sc.s, sc.bytes, sc.len, def_of, NULL,
				  NULL, NULL };
	struct seen raw = { 0 }, mapped = { 0 };
	uint32_t went_back = 0;
	scene_frames_each(&f, note, &raw, &went_back);
	/* Frame 1 again after 2 is passed over, with its records. */
	static const int32_t want[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	assert_int_equal(raw.n, 8);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(raw.frames[i], want[i]);
	assert_int_equal(raw.objects[0], 1);
	assert_int_equal(raw.objects[1], 2);
	assert_true(went_back > 0);
	assert_int_equal(raw.camera, 3);
	assert_int_equal(scene_frames_each_mapped(&f, note, &mapped), 0);
	assert_int_equal(mapped.n, 8);
	/* F_Obj records keep the scene file's objects, which any source
	 * may define; F_Camera's are the setup's. */
	assert_int_equal(mapped.objects[0], 1);
	assert_int_equal(mapped.objects[1], 2);
	assert_int_equal(mapped.camera, 1);
	assert_int_equal(scene_frames_object(&f, 3), 1);
	assert_int_equal(scene_frames_object(&f, 2), UINT32_MAX);
	assert_int_equal(scene_frames_object(&f, 99), UINT32_MAX);
	/* The file's bytes are not touched by the translation. */
	assert_int_equal(raw.camera, 3);
	unwalk(&sc);
}

static void test_problems(void **state)
{
	(void)state;
	struct walked setup, sc;
	setup_file(&setup);
	scene_file(&sc, true);
	struct scene_frames f = { &sc.s, sc.bytes, sc.len, def_of, NULL,
				  NULL, NULL };
	struct strbuf out = STRBUF_INIT;
	assert_int_equal(scene_frames_problems(&setup.s, &f, &out), 0);
	assert_non_null(out.data);
	/* Four records of the ghost are under rising Tops. */
	assert_non_null(strstr(out.data, "frames: 4 records for #2, which "
			       "the pair does not define: left out\n"));
	assert_non_null(strstr(out.data, "frames: camera #3 has no F_Camera "
			       "record"));
	assert_non_null(strstr(out.data, "goes back in time"));
	assert_non_null(strstr(out.data, "frames: the file is cut at byte "));
	assert_null(strstr(out.data, "OBJ_kite"));
	sb_free(&out);
	unwalk(&sc);
	unwalk(&setup);
}

static const char *name_of(void *ctx, uint32_t i)
{
	return ((const char **)ctx)[i];
}

static void test_problem_names(void **state)
{
	(void)state;
	struct walked setup, sc;
	setup_file(&setup);
	scene_file(&sc, false);
	const char *names[4] = { "", "OBJ_kite", "OBJ_ghost", "CAM_main" };
	struct scene_frames f = { &sc.s, sc.bytes, sc.len, def_of, name_of,
				  names, NULL };
	struct strbuf out = STRBUF_INIT;
	struct seen seen = { 0 };
	uint32_t back;
	scene_frames_each(&f, note, &seen, &back);
	char want[400];
	snprintf(want, sizeof want,
		 "frames: 4 records for OBJ_ghost, which the pair does not "
		 "define: left out\n"
		 "frames: camera CAM_main has no F_Camera record: it stays "
		 "where its setup puts it\n"
		 "frames: the Top at byte %u goes back in time: its records "
		 "are left out\n", (unsigned)back);
	assert_int_equal(scene_frames_problems(&setup.s, &f, &out), 0);
	assert_string_equal(out.data, want);
	sb_free(&out);
	unwalk(&sc);
	unwalk(&setup);
}

/* Objects a common setup file defines are in scene.glb: only its camera
 * and morpher records are left out. */
static void test_common_sources(void **state)
{
	(void)state;
	struct walked setup, sc;
	setup_file(&setup);
	scene_file(&sc, false);
	const char *names[4] = { "", "OBJ_kite", "OBJ_ghost", "CAM_main" };
	struct scene_frames f = { &sc.s, sc.bytes, sc.len, def_common,
				  name_of, names, NULL };
	struct strbuf out = STRBUF_INIT;
	assert_int_equal(scene_frames_def(&f, 2).source, 1);
	assert_int_equal(scene_frames_def(&f, 2).object, 7);
	assert_int_equal(scene_frames_def(&f, 4).source, SCENE_NOWHERE);
	assert_int_equal(scene_frames_problems(&setup.s, &f, &out), 0);
	assert_non_null(out.data);
	assert_null(strstr(out.data, "OBJ_ghost"));
	assert_non_null(strstr(out.data, "frames: 1 camera or morpher records "
			       "for CAM_main, which a common setup file "
			       "defines: left out\n"));
	sb_free(&out);
	unwalk(&sc);
	unwalk(&setup);
}

/* A common setup file: OBJ_far (no model, named by no scene), its child
 * OBJ_gull (MDL_gull) and OBJ_unused (MDL_unused), objects 1 to 5 in
 * this order, then the mmats' names. */
static const char *const common_names[8] = {
	"", "OBJ_far", "OBJ_gull", "MDL_gull", "OBJ_unused", "MDL_unused",
	"MDL_gull_0", "MDL_unused_0" };

static void common_file(struct walked *f)
{
	struct ccsw *w = ccsw_new("str8000e", 0x100);
	uint32_t file = ccsw_file(w, " c:\\str\\str8000.max");
	uint32_t id[8];
	for (uint32_t i = 1; i < 8; i++)
		id[i] = ccsw_object_str(w, common_names[i], file);
	ccsw_setup(w);
	for (uint32_t m = 0; m < 2; m++) {
		struct ccsw_mmat mm = { .name = id[6 + m], .vertices = 6,
					.seed = 5 + m };
		struct ccsw_model model = { .object = id[3 + 2 * m],
			.vertex_scale = 1.0f, .mtype = 1, .mmat_count = 1,
			.mmats = &mm, .size_field = CCSW_SIZE_AUTO };
		ccsw_model(w, &model);
	}
	ccsw_obj(w, id[1], 0, 0, 0);
	ccsw_obj(w, id[2], id[1], id[3], 0);
	ccsw_obj(w, id[4], 0, id[5], 0);
	ccsw_frame(w, 1);
	ccsw_end(w);
	walk(w, f);
}

static const char *setup_name(void *ctx, uint32_t i)
{
	static const char *const names[3] = { "", "CAM_main", "OBJ_kite" };
	(void)ctx;
	return i < 3 ? names[i] : NULL;
}

static const char *common_name(void *ctx, uint32_t i)
{
	(void)ctx;
	return i < 8 ? common_names[i] : NULL;
}

/* The GLB of the pair and the common file: the ghost's records move
 * the common file's OBJ_gull, which comes with its mesh below the root
 * (its parent OBJ_far is named by no scene object), and nothing of
 * OBJ_unused.  A definition that points past the sources or their
 * objects is passed over. */
static void test_cutscene_of_two_files(void **state)
{
	(void)state;
	struct walked setup, common, sc;
	setup_file(&setup);
	common_file(&common);
	scene_file(&sc, false);
	const struct scene_source src[2] = {
		{ &setup.s, setup.bytes, setup.len, NULL, setup_name },
		{ &common.s, common.bytes, common.len, NULL, common_name } };
	const struct scene_def defs[2][4] = {
		{ NOWHERE, { 0, 2 }, { 1, 2 }, { 0, 1 } },
		{ NOWHERE, { 5, 2 }, { 1, 9999 }, { 0, 1 } } };
	for (int k = 0; k < 2; k++) {
		struct scene_frames f = { &sc.s, sc.bytes, sc.len, defs[k],
					  NULL, NULL, NULL };
		uint8_t *out;
		size_t len;
		assert_int_equal(scene_glb_cutscene(src, 2, "test", &f, &out,
						    &len), 0);
		assert_true(len > 20 && !memcmp(out, "glTF", 4));
		size_t measured = 0;
		assert_int_equal(scene_glb_cutscene(src, 2, "test", &f, NULL,
						    &measured), 0);
		assert_int_equal(measured, len);
		uint32_t jlen = rd_u32le(out + 12);
		const char *j = (const char *)out + 20;
		const char *gull = "{\"name\":\"OBJ_gull\",\"mesh\":0}";
		assert_true(!memmem(j, jlen, gull, strlen(gull)) == (k == 1));
		assert_true(!memmem(j, jlen, "\"MDL_gull\"", 10) == (k == 1));
		assert_null(memmem(j, jlen, "OBJ_unused", 10));
		assert_null(memmem(j, jlen, "OBJ_far", 7));
		if (k == 0)     /* the root's children: kite, gull, camera */
			assert_non_null(memmem(j, jlen, "\"children\":[1,2,3]",
					       18));
		free(out);
	}
	struct scene_frames f = { &sc.s, sc.bytes, sc.len, def_of, NULL,
				  NULL, NULL };
	uint8_t *out = NULL;
	size_t len = 0;
	assert_int_equal(scene_glb_cutscene(src, 0, "test", &f, &out, &len),
			 -EINVAL);
	unwalk(&sc);
	unwalk(&common);
	unwalk(&setup);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_rise_and_translate),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_problem_names),
		cmocka_unit_test(test_common_sources),
		cmocka_unit_test(test_cutscene_of_two_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
