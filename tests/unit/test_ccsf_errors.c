/* SPDX-License-Identifier: MIT */
/* test_ccsf_errors.c - the CCSF walk on broken files: unknown kinds, sizes
 * and counts that run past the end, a lying index, files that are no CCSF
 * or end early, and every truncation of good ones. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "testutil.h"
#include "ccsf/ccsf.h"
#include "ccsw.h"
#include "ccsf_build.h"

/* ---- 1. errors ---- */

/* A small good body: setup, obj, material. */
static void small_body(struct build *b)
{
	uint32_t o = obj(b, "OBJ"), m = obj(b, "MAT");
	ccsw_setup(b->w);
	ccsw_obj(b->w, o, 0, 0, 0);
	ccsw_material(b->w, m, 0, 1.0f, 0, 0);
}

/* Walks b and expects -EIO at the writer's chunk `at` (all before kept). */
static void expect_fail_at(struct build *b, size_t at, const char *words)
{
	struct ccsf_scene s;
	assert_int_equal(walk_exact(b->data, b->len, &s), -EIO);
	if (!strstr(s.error.text, words))
		fail_msg("error \"%s\" lacks \"%s\"", s.error.text, words);
	const struct ccsw_chunk_info *c = ccsw_chunk_at(b->w, at);
	assert_non_null(c);
	assert_int_equal(s.error_offset, c->offset);
	assert_int_equal(s.trailer_offset, s.error_offset);
	assert_int_equal(s.chunk_count, at);
	expect_chunks_prefix(b->w, b->data, &s, at);
	assert_int_equal(s.size, b->len);
	ccsf_scene_free(&s);
}

static void unknown_kind_mid_walk(void **state)
{
	(void)state;
	for (size_t v = 0; v < NVERSIONS; v++) {
		struct build b;
		build_start(&b, "xunk", versions[v]);
		small_body(&b);
		size_t at = ccsw_chunk_count(b.w) + 2;
		uint8_t junk[8] = { 1, 0, 0, 0, 2, 0, 0, 0 };
		ccsw_chunk(b.w, 0x7f00, CCSW_TAG, junk, sizeof junk,
			   CCSW_SIZE_AUTO);
		ccsw_obj(b.w, 1, 0, 0, 0);
		ccsw_frame(b.w, 1);
		ccsw_end(b.w);
		build_finish(&b);
		expect_fail_at(&b, at, "unknown kind");
		build_free(&b);
	}
}

static void size_field_past_end(void **state)
{
	(void)state;
	struct build b;
	build_start(&b, "xsize", 0x100);
	small_body(&b);
	size_t at = ccsw_chunk_count(b.w) + 2;
	uint8_t pay[12] = { 1 };
	ccsw_chunk(b.w, CCSW_OBJ, CCSW_TAG, pay, sizeof pay, 0x100000);
	ccsw_frame(b.w, 1);
	ccsw_end(b.w);
	build_finish(&b);
	expect_fail_at(&b, at, "past the end");
	build_free(&b);

	/* 0xffffffff words: no overflow into a small length */
	build_start(&b, "xsize", 0x100);
	small_body(&b);
	at = ccsw_chunk_count(b.w) + 2;
	ccsw_chunk(b.w, CCSW_MATERIAL, CCSW_TAG, pay, sizeof pay, 0xffffffffLL);
	ccsw_frame(b.w, 1);
	ccsw_end(b.w);
	build_finish(&b);
	expect_fail_at(&b, at, "past the end");
	build_free(&b);

	/* in the frame section too */
	build_start(&b, "xsize", 0x100);
	small_body(&b);
	ccsw_frame(b.w, 1);
	ccsw_top(b.w, 0);
	at = ccsw_chunk_count(b.w) + 2;
	ccsw_chunk(b.w, CCSW_F_AMBIENT, CCSW_TAG, pay, 4, 0x40000000);
	ccsw_end(b.w);
	build_finish(&b);
	expect_fail_at(&b, at, "past the end");
	build_free(&b);
}

static void texture_levels_past_end(void **state)
{
	(void)state;
	static const uint32_t lies[] = { 0x40000000u, 0xffffffffu,
					 0x3fffffffu, 100000u };
	for (size_t v = 0; v < NVERSIONS; v++) {
		for (size_t l = 0; l < sizeof lies / sizeof lies[0]; l++) {
			struct build b;
			build_start(&b, "xtex", versions[v]);
			uint32_t clt = obj(&b, "CLT"), tex = obj(&b, "TEX");
			ccsw_setup(b.w);
			struct ccsw_clut c = { .object = clt, .count = 16 };
			ccsw_clut(b.w, &c);
			size_t at = ccsw_chunk_count(b.w) + 2;
			struct ccsw_texture t = {
				.object = tex, .clut = clt, .psm = 0x14,
				.mipmap = (uint8_t)(l % 4), .tw = 3, .th = 3,
				.size_field = CCSW_SIZE_AUTO,
				.count_lie = lies[l],
			};
			ccsw_texture(b.w, &t);
			ccsw_frame(b.w, 1);
			ccsw_end(b.w);
			build_finish(&b);
			expect_fail_at(&b, at, "levels run past the end");
			build_free(&b);
		}
	}
}

/* Offset in the file of word `word` of the first mmat's header of the
 * model chunk at writer index at. */
static size_t mmat_word(const struct build *b, size_t at, unsigned word)
{
	const struct ccsw_chunk_info *c = ccsw_chunk_at(b->w, at);
	assert_int_equal(c->kind, CCSW_MODEL);
	return c->offset + 8 + 20 + 4 * word;
}

static void model_vertices_past_end(void **state)
{
	(void)state;
	static const uint32_t lies[] = { 0x7fffffffu, 0xffffffffu, 1000000u,
					 0x2aaaaaabu };
	static const uint16_t mtypes[] = { 0, 1, 0x600, 5, 8 };
	for (size_t v = 0; v < NVERSIONS; v++) {
		for (size_t t = 0; t < sizeof mtypes / sizeof mtypes[0]; t++) {
			for (size_t l = 0; l < sizeof lies / sizeof lies[0];
			     l++) {
				struct build b;
				build_start(&b, "xmdl", versions[v]);
				uint32_t mat = obj(&b, "MAT"), m = obj(&b, "MDL");
				ccsw_setup(b.w);
				ccsw_material(b.w, mat, 0, 1, 0, 0);
				size_t at = ccsw_chunk_count(b.w) + 2;
				struct ccsw_mmat mm = { .name = m,
							.material = mat,
							.vertices = 4,
							.indices = 6 };
				struct ccsw_model md = {
					.object = m, .vertex_scale = 1,
					.mtype = mtypes[t], .mmat_count = 1,
					.mmats = &mm,
					.size_field = CCSW_SIZE_AUTO };
				ccsw_model(b.w, &md);
				ccsw_frame(b.w, 1);
				ccsw_end(b.w);
				build_finish(&b);
				/* rigid: vertexNum; bone: vertexNum;
				 * shadow: vNum */
				unsigned word = mtypes[t] == 8 ? 0 :
						mtypes[t] == 5 ? 1 : 2;
				put32(b.data + mmat_word(&b, at, word),
				      lies[l]);
				expect_fail_at(&b, at, "past the end");
				build_free(&b);
			}
		}
	}
}

/* A skin's offsetNum that lies, and a negative shadow iNum. */
static void model_other_counts_past_end(void **state)
{
	(void)state;
	for (int k = 0; k < 3; k++) {
		struct build b;
		build_start(&b, "xmdl", 0x100);
		uint32_t mat = obj(&b, "MAT"), m = obj(&b, "MDL");
		ccsw_setup(b.w);
		size_t at = ccsw_chunk_count(b.w) + 2;
		struct ccsw_mmat mm = { .material = mat, .vertices = 3,
					.offsets = k == 0 ? 4 : 0,
					.indices = 3 };
		struct ccsw_model md = { .object = m, .vertex_scale = 1,
					 .mtype = k == 2 ? 8 : 5,
					 .mmat_count = 1, .mmats = &mm,
					 .size_field = CCSW_SIZE_AUTO };
		ccsw_model(b.w, &md);
		ccsw_frame(b.w, 1);
		ccsw_end(b.w);
		build_finish(&b);
		if (k == 0)             /* skin offsetNum */
			put32(b.data + mmat_word(&b, at, 2), 0xfffffff0u);
		else if (k == 1)        /* bone: mmatNum 2, only one there */
			b.data[ccsw_chunk_at(b.w, at)->offset + 8 + 10] = 200;
		else                    /* shadow iNum negative */
			put32(b.data + mmat_word(&b, at, 1), 0x80000000u);
		expect_fail_at(&b, at, "past the end");
		build_free(&b);
	}
}

/* mtype bit 2 (name, material, vertexNum, boneNum, offsetNum) is in no
 * file: the walk refuses it rather than guess, unless there are no mmats. */
static void model_mtype_bit2(void **state)
{
	(void)state;
	for (int mmats = 0; mmats < 2; mmats++) {
		struct build b;
		build_start(&b, "xbit2", 0x100);
		uint32_t m = obj(&b, "MDL");
		ccsw_setup(b.w);
		size_t at = ccsw_chunk_count(b.w) + 2;
		struct ccsw_mmat mm = { .name = m, .vertices = 3 };
		struct ccsw_model md = { .object = m, .vertex_scale = 1,
					 .mtype = 2, .mmat_count = (uint16_t)mmats,
					 .mmats = &mm,
					 .size_field = CCSW_SIZE_AUTO };
		ccsw_model(b.w, &md);
		ccsw_frame(b.w, 1);
		ccsw_end(b.w);
		build_finish(&b);
		if (mmats) {
			expect_fail_at(&b, at, "bit 2");
		} else {
			struct ccsf_scene s;
			assert_int_equal(walk_exact(b.data, b.len, &s), 0);
			expect_walk_matches(&b, &s);
			ccsf_scene_free(&s);
		}
		build_free(&b);
	}
}

static void index_lies(void **state)
{
	(void)state;
	static const uint32_t lie[][2] = {
		{ 0, 0x7fffffff }, { 0x7fffffff, 0 }, { 0, 100 },
		{ 3, 0 }, { 0xffffffff, 0xffffffff }, { 0x80000000, 0x80000000 },
	};
	for (size_t i = 0; i < sizeof lie / sizeof lie[0]; i++) {
		struct build b;
		build_start(&b, "xidx", 0x100);
		small_body(&b);
		ccsw_frame(b.w, 1);
		ccsw_end(b.w);
		uint32_t files = lie[i][0] ? lie[i][0] : 2;
		uint32_t objects = lie[i][1] ? lie[i][1] : ccsw_object_count(b.w);
		ccsw_index_lie(b.w, files, objects);
		build_finish(&b);
		struct ccsf_scene s;
		assert_int_equal(walk_exact(b.data, b.len, &s), -EIO);
		assert_non_null(strstr(s.error.text, "index"));
		assert_int_equal(s.error_offset, ccsw_chunk_at(b.w, 1)->offset);
		assert_int_equal(s.chunk_count, 1);     /* the header */
		assert_int_equal(s.chunks[0].kind, CCSF_HEADER);
		assert_int_equal(s.chunks[0].length,
				 ccsw_chunk_at(b.w, 0)->length);
		assert_int_equal(s.trailer_offset, s.error_offset);
		ccsf_scene_free(&s);
		build_free(&b);
	}
}

static void expect_not_ccsf(const uint8_t *p, size_t n)
{
	struct ccsf_scene s;
	assert_int_equal(walk_exact(p, n, &s), -EIO);
	assert_int_equal(s.chunk_count, 0);
	assert_int_equal(s.frame_chunk_count, 0);
	assert_int_equal(s.object_count, 0);
	assert_int_equal(s.trailer_offset, 0);
	assert_int_equal(s.error_offset, 0);
	assert_true(s.error.text[0] != '\0');
	ccsf_scene_free(&s);
}

static void not_a_ccsf_file(void **state)
{
	(void)state;
	uint8_t rnd[4096];
	uint32_t x = 0x12345678;
	for (size_t i = 0; i < sizeof rnd; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		rnd[i] = (uint8_t)x;
	}
	rnd[0] = 0x37;  /* not kind 1 */
	expect_not_ccsf(rnd, sizeof rnd);
	const uint8_t three[3] = { 0x01, 0x00, 0xcc };
	expect_not_ccsf(three, sizeof three);
	expect_not_ccsf(NULL, 0);
	struct ccsf_scene s;
	assert_int_equal(ccsf_walk(NULL, 0, &s), -EIO);
	assert_int_equal(s.chunk_count, 0);
	ccsf_scene_free(&s);

	/* kind 1 with the wrong magic, and the right magic cut short */
	struct build b;
	build_start(&b, "xmagic", 0x100);
	small_body(&b);
	ccsw_frame(b.w, 1);
	ccsw_end(b.w);
	build_finish(&b);
	b.data[8 + 3] = 'G';
	expect_not_ccsf(b.data, b.len);
	b.data[8 + 3] = 'F';
	for (size_t n = 0; n < ccsw_chunk_at(b.w, 0)->length; n++)
		expect_not_ccsf(b.data, n);
	/* a header size field too small for its fields */
	put32(b.data + 4, 3);
	expect_not_ccsf(b.data, b.len);
	/* ... or for version (10) and frames (11) */
	put32(b.data + 4, 10);
	expect_not_ccsf(b.data, b.len);
	put32(b.data + 4, 11);
	expect_not_ccsf(b.data, b.len);
	build_free(&b);
}

static void ends_before_frame(void **state)
{
	(void)state;
	struct build b;
	build_start(&b, "xnoframe", 0x92);
	small_body(&b);
	ccsw_clump(b.w, 1, 0, NULL);
	build_finish(&b);
	struct ccsf_scene s;
	assert_int_equal(walk_exact(b.data, b.len, &s), -EIO);
	assert_non_null(strstr(s.error.text, "before the Frame"));
	assert_int_equal(s.chunk_count, ccsw_chunk_count(b.w));
	expect_chunks_prefix(b.w, b.data, &s, s.chunk_count);
	assert_int_equal(s.error_offset, b.len);
	assert_int_equal(s.trailer_offset, b.len);
	assert_int_equal(s.frame_chunk_count, 0);
	assert_int_equal(s.object_count, 3);
	ccsf_scene_free(&s);
	build_free(&b);
}

static void frames_without_end_top(void **state)
{
	(void)state;
	for (int variant = 0; variant < 3; variant++) {
		struct build b;
		build_start(&b, "xnoend", 0x100);
		small_body(&b);
		ccsw_frame(b.w, 2);
		if (variant >= 1) {
			ccsw_top(b.w, 0);
			ccsw_f_ambient(b.w, 1);
		}
		if (variant == 2)
			ccsw_top(b.w, 0xfffffffd);  /* -3 does not end it */
		build_finish(&b);
		struct ccsf_scene s;
		assert_int_equal(walk_exact(b.data, b.len, &s), -EIO);
		assert_non_null(strstr(s.error.text, "no end Top"));
		assert_int_equal(s.chunk_count, ccsw_chunk_count(b.w));
		expect_chunks_prefix(b.w, b.data, &s, s.chunk_count);
		assert_int_equal(s.frame_chunk_count,
				 variant == 0 ? 0 : variant == 1 ? 2 : 3);
		assert_int_equal(s.error_offset, b.len);
		assert_int_equal(s.trailer_offset, b.len);
		ccsf_scene_free(&s);
		build_free(&b);
	}
}

static void trailer_after_end_top(void **state)
{
	(void)state;
	for (int variant = 0; variant < 4; variant++) {
		struct build b;
		build_start(&b, "xtrail", 0x100);
		small_body(&b);
		ccsw_frame(b.w, 1);
		ccsw_top(b.w, 0);
		ccsw_top(b.w, variant == 1 ? 0xfffffffe : CCSW_END_FRAME);
		if (variant == 2) {
			/* a whole good chunk after the end: still trailer */
			static const uint8_t amb[12] = { 0x01, 0x06, 0xcc,
							 0xcc, 1, 0, 0, 0 };
			ccsw_trailer(b.w, amb, sizeof amb);
		} else if (variant == 3) {
			/* a chunk claiming far more than the file */
			static const uint8_t bad[8] = { 0x00, 0x7f, 0xcc, 0xcc,
							0xff, 0xff, 0xff, 0xff };
			ccsw_trailer(b.w, bad, sizeof bad);
		} else {
			static const uint8_t junk[5] = { 0xcd, 0xcd, 0, 1, 2 };
			ccsw_trailer(b.w, junk, variant == 1 ? 1 : 5);
		}
		build_finish(&b);
		assert_true(ccsw_trailer_offset(b.w) < b.len);
		struct ccsf_scene s;
		int rc = walk_exact(b.data, b.len, &s);
		assert_int_equal(rc, 0);
		assert_string_equal(s.error.text, "");
		assert_int_equal(s.chunk_count, ccsw_chunk_count(b.w));
		expect_chunks_prefix(b.w, b.data, &s, s.chunk_count);
		assert_int_equal(s.trailer_offset, ccsw_trailer_offset(b.w));
		assert_int_equal(s.size, b.len);
		ccsf_scene_free(&s);
		build_free(&b);
	}
}

static void kinds_in_the_wrong_section(void **state)
{
	(void)state;
	/* frame kinds in the setup section */
	static const uint16_t fk[] = { CCSW_TOP, CCSW_F_OBJ, CCSW_F_PCM,
				       CCSW_F_AMBIENT };
	for (size_t i = 0; i < sizeof fk / sizeof fk[0]; i++) {
		struct build b;
		build_start(&b, "xwrong", 0x100);
		small_body(&b);
		size_t at = ccsw_chunk_count(b.w) + 2;
		uint8_t pay[52] = {0};
		ccsw_chunk(b.w, fk[i], CCSW_TAG, pay, sizeof pay,
			   CCSW_SIZE_AUTO);
		ccsw_frame(b.w, 1);
		ccsw_end(b.w);
		build_finish(&b);
		expect_fail_at(&b, at, "unknown kind in the setup section");
		build_free(&b);
	}
	/* setup kinds in the frame section */
	static const uint16_t sk[] = { CCSW_OBJ, CCSW_TEXTURE, CCSW_MODEL,
				       CCSW_FRAME, CCSW_SETUP, CCSW_HEADER,
				       CCSW_PCM };
	for (size_t i = 0; i < sizeof sk / sizeof sk[0]; i++) {
		struct build b;
		build_start(&b, "xwrong", 0x100);
		small_body(&b);
		ccsw_frame(b.w, 1);
		ccsw_top(b.w, 0);
		size_t at = ccsw_chunk_count(b.w) + 2;
		uint8_t pay[16] = {0};
		ccsw_chunk(b.w, sk[i], CCSW_TAG, pay, sizeof pay,
			   CCSW_SIZE_AUTO);
		ccsw_end(b.w);
		build_finish(&b);
		expect_fail_at(&b, at, "unknown kind in the frame section");
		build_free(&b);
	}
}

/* ---- 2. truncation ---- */

static void walk_every_prefix(struct build *b)
{
	struct ccsf_scene full;
	assert_int_equal(walk_exact(b->data, b->len, &full), 0);
	expect_walk_matches(b, &full);
	size_t end = full.trailer_offset;
	for (size_t n = 0; n <= b->len; n++) {
		struct ccsf_scene s;
		int rc = walk_exact(b->data, n, &s);
		/* chunks that fit in n bytes, in order */
		uint32_t fit = 0;
		while (fit < full.chunk_count &&
		       full.chunks[fit].offset + full.chunks[fit].length <= n)
			fit++;
		if (n >= end) {
			assert_int_equal(rc, 0);
			assert_string_equal(s.error.text, "");
			assert_int_equal(s.trailer_offset, end);
		} else {
			if (rc != -EIO)
				fail_msg("prefix %zu of %zu: rc %d", n, b->len, rc);
			assert_true(s.error.text[0] != '\0');
			assert_int_equal(s.error_offset, s.trailer_offset);
		}
		assert_int_equal(s.chunk_count, fit);
		for (uint32_t i = 0; i < s.chunk_count; i++) {
			assert_int_equal(s.chunks[i].offset,
					 full.chunks[i].offset);
			assert_int_equal(s.chunks[i].length,
					 full.chunks[i].length);
			assert_int_equal(s.chunks[i].kind, full.chunks[i].kind);
			assert_int_equal(s.chunks[i].in_frames,
					 full.chunks[i].in_frames);
			assert_int_equal(s.chunks[i].object,
					 full.chunks[i].object);
		}
		assert_true(s.trailer_offset <= n);
		size_t last = fit ? full.chunks[fit - 1].offset +
				    full.chunks[fit - 1].length : 0;
		assert_int_equal(s.trailer_offset, last);
		assert_int_equal(s.size, n);
		if (fit >= 2) {
			assert_int_equal(s.object_count, full.object_count);
			assert_int_equal(s.version, full.version);
		}
		ccsf_scene_free(&s);
	}
	ccsf_scene_free(&full);
}

static void truncated_small_every_kind(void **state)
{
	(void)state;
	struct build b;
	build_every_kind(&b, 0x95, true, false);
	walk_every_prefix(&b);
	build_free(&b);
}

static void truncated_texture_model_heavy(void **state)
{
	(void)state;
	struct build b;
	build_start(&b, "xheavy", 0x100);
	uint32_t c16 = obj(&b, "CLT"), c256 = obj(&b, "CLT");
	uint32_t mat = obj(&b, "MAT");
	ccsw_setup(b.w);
	struct ccsw_clut cl = { .object = c16, .count = 16 };
	ccsw_clut(b.w, &cl);
	cl.object = c256;
	cl.count = 256;
	ccsw_clut(b.w, &cl);
	add_textures(&b, c16, c256, false);
	add_models(&b, mat, false);
	add_textures(&b, c16, c256, false);
	ccsw_frame(b.w, 1);
	ccsw_end(b.w);
	static const uint8_t tail[6] = { 0xcd, 0xcd, 0xcd, 0xcd, 0, 0 };
	ccsw_trailer(b.w, tail, sizeof tail);
	build_finish(&b);
	walk_every_prefix(&b);
	build_free(&b);

	/* the same at 0x90 (no blt_group) */
	build_start(&b, "xheavy", 0x90);
	mat = obj(&b, "MAT");
	ccsw_setup(b.w);
	add_textures(&b, 0, 0, false);
	add_models(&b, mat, false);
	ccsw_frame(b.w, 1);
	ccsw_end(b.w);
	build_finish(&b);
	walk_every_prefix(&b);
	build_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unknown_kind_mid_walk),
		cmocka_unit_test(size_field_past_end),
		cmocka_unit_test(texture_levels_past_end),
		cmocka_unit_test(model_vertices_past_end),
		cmocka_unit_test(model_other_counts_past_end),
		cmocka_unit_test(model_mtype_bit2),
		cmocka_unit_test(index_lies),
		cmocka_unit_test(not_a_ccsf_file),
		cmocka_unit_test(ends_before_frame),
		cmocka_unit_test(frames_without_end_top),
		cmocka_unit_test(trailer_after_end_top),
		cmocka_unit_test(kinds_in_the_wrong_section),
		cmocka_unit_test(truncated_small_every_kind),
		cmocka_unit_test(truncated_texture_model_heavy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
