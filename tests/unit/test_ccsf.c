/* SPDX-License-Identifier: MIT */
/* test_ccsf.c - the CCSF walk on good files: every kind in every version,
 * a stream-style file, and the kinds' names.  Broken files are in
 * test_ccsf_errors.c, the length rules on hand-made bytes in
 * test_ccsf_rules.c. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "ccsf/ccsf.h"
#include "ccsw.h"
#include "ccsf_build.h"

/* ---- 1. every kind in every version ---- */

static void every_kind_every_version(void **state)
{
	(void)state;
	for (size_t v = 0; v < NVERSIONS; v++) {
		for (int frames = 0; frames < 2; frames++) {
			struct build b;
			build_every_kind(&b, versions[v], frames, frames);
			struct ccsf_scene s;
			int rc = walk_exact(b.data, b.len, &s);
			if (rc)
				fprintf(stderr, "v 0x%x: %s at %zu\n",
					versions[v], s.error.text, s.error_offset);
			assert_int_equal(rc, 0);
			assert_string_equal(s.error.text, "");
			expect_walk_matches(&b, &s);
			assert_int_equal(s.trailer_offset, b.len);
			assert_int_equal(s.frames, frames ? 2 : 1);
			/* the kinds the writer got wrong size fields for
			 * are really in the file */
			size_t textures = 0, wrong = 0, models = 0;
			for (uint32_t i = 0; i < s.chunk_count; i++) {
				const struct ccsf_chunk *c = &s.chunks[i];
				uint32_t size = (uint32_t)b.data[c->offset + 4] |
					(uint32_t)b.data[c->offset + 5] << 8 |
					(uint32_t)b.data[c->offset + 6] << 16 |
					(uint32_t)b.data[c->offset + 7] << 24;
				textures += c->kind == CCSF_TEXTURE;
				models += c->kind == CCSF_MODEL;
				if (8 + 4 * (uint64_t)size != c->length)
					wrong++;
			}
			assert_int_equal(textures, frames ? 5 * 8 : 8);
			assert_true(models >= 17);
			assert_true(wrong >= textures + 3);
			ccsf_scene_free(&s);
			build_free(&b);
		}
	}
}

/* A DATA.BIN-style minimal file: setup, Frame 1, end Top. */
static void minimal_file(void **state)
{
	(void)state;
	struct build b;
	build_start(&b, "xmin", 0x100);
	ccsw_setup(b.w);
	ccsw_frame(b.w, 1);
	ccsw_end(b.w);
	build_finish(&b);
	struct ccsf_scene s;
	assert_int_equal(walk_exact(b.data, b.len, &s), 0);
	expect_walk_matches(&b, &s);
	assert_int_equal(s.chunk_count, 5);
	assert_int_equal(s.frame_chunk_count, 1);
	assert_true(s.chunks[4].in_frames);
	assert_false(s.chunks[3].in_frames);
	ccsf_scene_free(&s);
	build_free(&b);
}

/* A 32-byte header name has no NUL in the file. */
static void header_name_of_32_bytes(void **state)
{
	(void)state;
	struct build b;
	build_start(&b, "abcdefghijklmnopqrstuvwxyz012345", 0x96);
	ccsw_setup(b.w);
	ccsw_frame(b.w, 1);
	ccsw_end(b.w);
	build_finish(&b);
	struct ccsf_scene s;
	assert_int_equal(walk_exact(b.data, b.len, &s), 0);
	expect_walk_matches(&b, &s);
	assert_string_equal((const char *)s.name,
			    "abcdefghijklmnopqrstuvwxyz012345");
	ccsf_scene_free(&s);
	build_free(&b);
}

/* An object index outside the index table is not an owner (0). */
static void object_out_of_range(void **state)
{
	(void)state;
	struct build b;
	build_start(&b, "xrange", 0x100);
	uint32_t o = obj(&b, "OBJ");
	uint32_t count = ccsw_object_count(b.w);
	ccsw_setup(b.w);
	ccsw_obj(b.w, o, 0, 0, 0);
	ccsw_obj(b.w, count, 0, 0, 0);
	ccsw_obj(b.w, count - 1, 0, 0, 0);
	ccsw_dummypos(b.w, 0xffffffffu, (const float[3]){ 0, 0, 0 });
	ccsw_frame(b.w, 1);
	ccsw_top(b.w, 0);
	ccsw_f_shadow(b.w, count, 0, 0, 0, 1);
	ccsw_f_shadow(b.w, o, 0, 0, 0, 1);
	ccsw_end(b.w);
	build_finish(&b);
	struct ccsf_scene s;
	assert_int_equal(walk_exact(b.data, b.len, &s), 0);
	assert_int_equal(s.object_count, count);
	assert_int_equal(s.chunk_count, 12);
	assert_int_equal(s.chunks[3].object, o);
	assert_int_equal(s.chunks[4].object, 0);
	assert_int_equal(s.chunks[5].object, count - 1);
	assert_int_equal(s.chunks[6].object, 0);
	assert_int_equal(s.chunks[9].object, 0);
	assert_int_equal(s.chunks[10].object, o);
	ccsf_scene_free(&s);
	build_free(&b);
}

/* ---- 2. a stream-style file ---- */

static void stream_file_with_frames(void **state)
{
	(void)state;
	struct build b;
	build_start(&b, "str0001", 0x100);
	ccsw_set_stream_tags(b.w, true);
	uint32_t o = obj(&b, "OBJ"), shd = obj(&b, "OBJ");
	uint32_t mph = obj(&b, "MPH"), mdl = obj(&b, "MDL");
	ccsw_setup(b.w);
	ccsw_obj(b.w, o, 0, mdl, 0);
	ccsw_pcm(b.w, 1, 1, 2, 3, NULL, 0);
	ccsw_frame(b.w, 3);
	size_t frame_at = ccsw_chunk_count(b.w) - 1 + 2;  /* + header, index */
	for (uint32_t f = 0; f < 3; f++) {
		ccsw_top(b.w, f);
		struct ccsw_f_obj fo = { .object = o, .pos = { 1, 2, 3 },
					 .scale = {1, 1, 1}, .tp = 1 };
		ccsw_f_obj(b.w, &fo);
		ccsw_f_pcm(b.w, 1, (uint16_t)(2 + f), NULL, f * 1600);
		ccsw_f_shadow(b.w, shd, 1, 2, 3, 0.5f);
		uint32_t t[1] = { mdl };
		float wt[1] = { 1.0f };
		ccsw_f_morpher(b.w, mph, 1, t, wt);
	}
	ccsw_end(b.w);
	build_finish(&b);

	struct ccsf_scene s;
	assert_int_equal(walk_exact(b.data, b.len, &s), 0);
	expect_walk_matches(&b, &s);
	assert_int_equal(s.frames, 3);
	assert_int_equal(s.chunks[frame_at].kind, CCSF_FRAME);
	/* the zero tags really are in the file */
	assert_int_equal(u16at(b.data + s.chunks[frame_at].offset + 2), 0);
	for (uint32_t i = 0; i < s.chunk_count; i++) {
		const struct ccsf_chunk *c = &s.chunks[i];
		assert_int_equal(c->in_frames, i > frame_at);
		if (c->kind == CCSF_PCM || c->kind == CCSF_F_PCM)
			assert_int_equal(u16at(b.data + c->offset + 2), 0);
		if (c->kind == CCSF_F_PCM)
			assert_true(c->length >= 8 + 12 + 2 * 1024);
		if (c->kind == CCSF_F_OBJ || c->kind == CCSF_F_SHADOW)
			assert_int_equal(c->object,
					 c->kind == CCSF_F_OBJ ? o : shd);
		if (c->kind == CCSF_F_MORPHER)
			assert_int_equal(c->object, mph);
	}
	assert_int_equal(s.frame_chunk_count, s.chunk_count - frame_at - 1);
	assert_int_equal(s.frame_chunk_count, 3 * 5 + 1);
	assert_int_equal(s.chunks[s.chunk_count - 1].kind, CCSF_TOP);
	ccsf_scene_free(&s);
	build_free(&b);
}

/* ---- 3. names ---- */

static void kind_names(void **state)
{
	(void)state;
	assert_string_equal(ccsf_kind_name(CCSF_TEXTURE), "texture");
	assert_string_equal(ccsf_kind_name(CCSF_F_OBJ), "f_obj");
	assert_string_equal(ccsf_kind_name(CCSF_TOP), "top");
	assert_string_equal(ccsf_kind_name(CCSF_DUMMYPOSROT), "dummyposrot");
	assert_string_equal(ccsf_kind_name(CCSF_MODEL), "model");
	assert_string_equal(ccsf_kind_name(CCSF_F_PCM), "f_pcm");
	assert_null(ccsf_kind_name(0x7f00));
	assert_null(ccsf_kind_name(0x0000));
	assert_null(ccsf_kind_name(0xffff));
	assert_true(ccsf_kind_has_object(CCSF_TEXTURE));
	assert_true(ccsf_kind_has_object(CCSF_F_OBJ));
	assert_false(ccsf_kind_has_object(CCSF_TOP));
	assert_false(ccsf_kind_has_object(CCSF_LAYER));
	assert_false(ccsf_kind_has_object(CCSF_PCM));
	assert_false(ccsf_kind_has_object(0x7f00));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_kind_every_version),
		cmocka_unit_test(minimal_file),
		cmocka_unit_test(header_name_of_32_bytes),
		cmocka_unit_test(object_out_of_range),
		cmocka_unit_test(stream_file_with_frames),
		cmocka_unit_test(kind_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
