/* SPDX-License-Identifier: MIT */
/* test_ccsf.c - the CCSF walk: real chunk lengths, sections, errors,
 * truncation, and the texture and model length rules on hand-made bytes. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ccsf/ccsf.h"
#include "ccsw.h"

static const uint16_t versions[] = { 0x90, 0x92, 0x95, 0x96, 0x100 };
#define NVERSIONS (sizeof versions / sizeof versions[0])

static uint16_t u16at(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Walks a copy in a buffer of exactly n bytes, so ASan sees any read past
 * its end. */
static int walk_exact(const uint8_t *p, size_t n, struct ccsf_scene *s)
{
	uint8_t *copy = malloc(n);
	assert_true(copy != NULL || n == 0);
	if (n)
		memcpy(copy, p, n);
	int rc = ccsf_walk(copy, n, s);
	free(copy);
	return rc;
}

static size_t chunk_len_exact(const uint8_t *p, size_t n, uint16_t version,
			      bool frames, const char **why)
{
	uint8_t *copy = malloc(n);
	assert_true(copy != NULL || n == 0);
	if (n)
		memcpy(copy, p, n);
	size_t r = ccsf_chunk_length(copy, n, version, frames, why);
	free(copy);
	return r;
}

/* ---- a writer that remembers what the index must say ---- */

#define MAX_NAMES 256

struct build {
	struct ccsw *w;
	uint16_t version;
	const char *name;
	uint32_t file;
	uint8_t names[MAX_NAMES][30];   /* entry 0 blank */
	size_t name_len[MAX_NAMES];
	uint32_t nnames;
	const char *paths[8];
	uint32_t npaths;
	uint8_t *data;
	size_t len;
};

static void build_start(struct build *b, const char *name, uint16_t version)
{
	memset(b, 0, sizeof *b);
	b->name = name;
	b->version = version;
	b->w = ccsw_new(name, version);
	b->nnames = 1;
	b->npaths = 1;
	b->paths[b->npaths++] = " c:\\art\\scene.max";
	b->file = ccsw_file(b->w, " c:\\art\\scene.max");
	assert_int_equal(b->file, 1);
}

static uint32_t obj_raw(struct build *b, const uint8_t *name, size_t n)
{
	assert_true(b->nnames < MAX_NAMES);
	memcpy(b->names[b->nnames], name, n);
	b->name_len[b->nnames] = n;
	uint32_t id = ccsw_object(b->w, name, n, b->file);
	assert_int_equal(id, b->nnames);
	b->nnames++;
	return id;
}

static uint32_t obj(struct build *b, const char *prefix)
{
	char name[31];
	snprintf(name, sizeof name, "%s_%u", prefix, b->nnames);
	return obj_raw(b, (const uint8_t *)name, strlen(name));
}

static void build_finish(struct build *b)
{
	b->data = ccsw_finish(b->w, &b->len);
}

static void build_free(struct build *b)
{
	free(b->data);
	ccsw_free(b->w);
	b->data = NULL;
	b->w = NULL;
}

/* Every chunk the walk found is the writer's chunk i for i < n. */
static void expect_chunks_prefix(const struct ccsw *w, const uint8_t *file,
				 const struct ccsf_scene *s, size_t n)
{
	bool frames = false;
	uint32_t in_frames = 0;
	assert_true(s->chunk_count >= n);
	for (size_t i = 0; i < n; i++) {
		const struct ccsw_chunk_info *c = ccsw_chunk_at(w, i);
		const struct ccsf_chunk *k = &s->chunks[i];
		assert_non_null(c);
		assert_int_equal(k->offset, c->offset);
		assert_int_equal(k->length, c->length);
		assert_int_equal(k->kind, c->kind);
		assert_int_equal(u16at(file + k->offset), c->kind);
		assert_int_equal(k->in_frames, frames);
		if (ccsf_kind_has_object(k->kind))
			assert_int_equal(k->object, c->object);
		else
			assert_int_equal(k->object, 0);
		if (k->in_frames)
			in_frames++;
		if (!frames && k->kind == CCSF_FRAME)
			frames = true;
	}
	if (n == s->chunk_count)
		assert_int_equal(s->frame_chunk_count, in_frames);
}

/* The whole walk equals the writer's record, and the index is decoded. */
static void expect_walk_matches(const struct build *b,
				const struct ccsf_scene *s)
{
	size_t n = ccsw_chunk_count(b->w);
	assert_int_equal(s->chunk_count, n);
	expect_chunks_prefix(b->w, b->data, s, n);
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (i)
			assert_int_equal(s->chunks[i].offset,
					 s->chunks[i - 1].offset +
					 s->chunks[i - 1].length);
		sum += s->chunks[i].length;
	}
	assert_int_equal(sum, ccsw_trailer_offset(b->w));
	assert_int_equal(s->trailer_offset, ccsw_trailer_offset(b->w));
	assert_int_equal(s->size, b->len);

	assert_int_equal(s->version, b->version);
	uint8_t name[32] = {0};
	size_t nl = strlen(b->name);
	memcpy(name, b->name, nl < 32 ? nl : 32);
	assert_memory_equal(s->name, name, 32);
	assert_int_equal(s->name[32], 0);
	assert_int_equal(s->header_words, 1);
	assert_int_equal(s->file_count, b->npaths);
	for (uint32_t i = 0; i < b->npaths; i++) {
		uint8_t path[32] = {0};
		if (b->paths[i])
			memcpy(path, b->paths[i], strlen(b->paths[i]));
		assert_memory_equal(s->files[i], path, 32);
		assert_int_equal(s->files[i][32], 0);
	}
	assert_int_equal(s->object_count, b->nnames);
	assert_int_equal(s->object_count, ccsw_object_count(b->w));
	for (uint32_t i = 0; i < b->nnames; i++) {
		uint8_t want[31] = {0};
		memcpy(want, b->names[i], b->name_len[i]);
		assert_memory_equal(s->objects[i].name, want, 31);
		assert_int_equal(s->objects[i].file, i ? b->file : 0);
	}
}

/* ---- files ---- */

static void add_textures(struct build *b, uint32_t clut16, uint32_t clut256,
			 bool heavy)
{
	static const uint8_t sizes[][2] = { {4, 3}, {3, 0}, {0, 0}, {5, 5},
					    {1, 6} };
	size_t nsizes = heavy ? 5 : 3;
	for (int bits = 0; bits < 2; bits++) {
		for (uint8_t mip = 0; mip <= 3; mip++) {
			for (size_t z = 0; z < (heavy ? nsizes : 1); z++) {
				size_t zi = heavy ? z : (mip % nsizes);
				struct ccsw_texture t = {
					.object = obj(b, "TEX"),
					.clut = bits ? clut256 : clut16,
					.blt_group = mip,
					.flag = 1, .psm = bits ? 0x13 : 0x14,
					.mipmap = mip, .aref = 0x70,
					.tw = sizes[zi][0], .th = sizes[zi][1],
					.buf_x = 768, .pattern = CCSW_PAT_NOISY,
					.seed = mip, .size_field = CCSW_SIZE_AUTO,
				};
				ccsw_texture(b->w, &t);
			}
		}
	}
}

static void add_models(struct build *b, uint32_t mat, bool heavy)
{
	static const uint16_t rigid[] = { 0, 1, 0x40, 0x200, 0x400, 0x600,
					  0x601, 0x640, 0x241 };
	for (size_t i = 0; i < sizeof rigid / sizeof rigid[0]; i++) {
		struct ccsw_mmat mm[3];
		memset(mm, 0, sizeof mm);
		uint16_t n = heavy ? 3 : (i & 1) + 1;
		for (uint16_t k = 0; k < n; k++) {
			mm[k].name = obj(b, "MDL");
			mm[k].material = mat;
			mm[k].vertices = (uint32_t)(5 + k + i);  /* odd, even */
			mm[k].seed = (uint32_t)(i * 7 + k);
		}
		struct ccsw_model m = {
			.object = obj(b, "MDL"), .vertex_scale = 1.0f,
			.mtype = rigid[i], .mmat_count = n, .mmats = mm,
			.size_field = CCSW_SIZE_AUTO,
		};
		ccsw_model(b->w, &m);
	}
	/* bone (offsetNum 0), skin (offsetNum > 0), and both in one */
	struct ccsw_mmat bone = { .material = mat, .node = 2, .vertices = 3,
				  .seed = 11 };
	struct ccsw_mmat skin = { .material = mat, .vertices = 3, .offsets = 5,
				  .seed = 12 };
	struct ccsw_mmat both[2] = { bone, skin };
	struct ccsw_model mb = { .object = obj(b, "MDL"), .vertex_scale = 2.0f,
				 .mtype = 5, .mmat_count = 1, .mmats = &bone,
				 .size_field = CCSW_SIZE_AUTO };
	ccsw_model(b->w, &mb);
	struct ccsw_model ms = mb;
	ms.object = obj(b, "MDL");
	ms.mmats = &skin;
	ccsw_model(b->w, &ms);
	struct ccsw_model m2 = mb;
	m2.object = obj(b, "MDL");
	m2.mmats = both;
	m2.mmat_count = 2;
	ccsw_model(b->w, &m2);
	if (heavy) {
		struct ccsw_mmat big = { .material = mat, .vertices = 40,
					 .offsets = 70, .seed = 13 };
		struct ccsw_model mbig = mb;
		mbig.object = obj(b, "MDL");
		mbig.mmats = &big;
		ccsw_model(b->w, &mbig);
	}
	/* shadow: vNum 5, and vNum 0 (nothing follows vNum, iNum) */
	struct ccsw_mmat sh[2] = {
		{ .vertices = 5, .indices = 9, .seed = 14 },
		{ .vertices = 0, .indices = 6 },
	};
	struct ccsw_model msh = { .object = obj(b, "MDL"), .vertex_scale = 1.0f,
				  .mtype = 8, .mmat_count = 2, .mmats = sh,
				  .size_field = CCSW_SIZE_AUTO };
	ccsw_model(b->w, &msh);
	msh.object = obj(b, "MDL");
	msh.mmats = &sh[1];
	msh.mmat_count = 1;
	ccsw_model(b->w, &msh);
	/* mmatNum 0 */
	static const uint16_t empty[] = { 0, 5, 8 };
	for (size_t i = 0; i < 3; i++) {
		struct ccsw_model me = { .object = obj(b, "MDL"),
					 .vertex_scale = 1.0f,
					 .mtype = empty[i], .mmat_count = 0,
					 .size_field = CCSW_SIZE_AUTO };
		ccsw_model(b->w, &me);
	}
}

/* The frame section with every frame kind. */
static void add_frames(struct build *b, uint32_t o, uint32_t mat,
		       uint32_t cam, uint32_t mph, uint32_t mdl)
{
	ccsw_frame(b->w, 2);
	for (uint32_t f = 0; f < 2; f++) {
		ccsw_top(b->w, f);
		struct ccsw_f_obj fo = { .object = o, .scale = {1, 1, 1},
					 .tp = 1.0f, .disp_sw = 1 };
		ccsw_f_obj(b->w, &fo);
		ccsw_f_note(b->w, o, 3, f);
		ccsw_f_material(b->w, mat, 0, 0.5f, 0.25f);
		ccsw_f_material(b->w, mat, 2, 0, 0);
		float v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
		ccsw_f_camera(b->w, cam, 0, v);
		ccsw_f_camera(b->w, cam, 0x1a, v);
		ccsw_f_camera(b->w, cam, 1, NULL);
		ccsw_f_ambient(b->w, 0x808080);
		uint8_t light[56] = {0};   /* object 0: the writer says 0 */
		ccsw_chunk(b->w, CCSF_F_DISTANTLIGHT, CCSW_TAG, light, 24,
			   CCSW_SIZE_AUTO);
		ccsw_chunk(b->w, CCSF_F_DIRECTLIGHT, CCSW_TAG, light, 56,
			   CCSW_SIZE_AUTO);
		ccsw_chunk(b->w, CCSF_F_SPOTLIGHT, CCSW_TAG, light, 56,
			   CCSW_SIZE_AUTO);
		ccsw_chunk(b->w, CCSF_F_OMNILIGHT, CCSW_TAG, light, 36,
			   CCSW_SIZE_AUTO);
		ccsw_chunk(b->w, CCSF_F_MODELVERTEX, CCSW_TAG, light, 12,
			   CCSW_SIZE_AUTO);
		ccsw_chunk(b->w, CCSF_F_MODELNORMAL, CCSW_TAG, light, 12,
			   CCSW_SIZE_AUTO);
		ccsw_f_shadow(b->w, o, 10, 20, 30, 0.5f);
		uint32_t targets[2] = { mdl, mdl };
		float weights[2] = { 0.25f, 0.75f };
		ccsw_f_morpher(b->w, mph, 2, targets, weights);
		ccsw_f_pcm(b->w, 7, 2, NULL, f * 512);
	}
	ccsw_end(b->w);
}

/* A scene with every setup kind (and every frame kind if frames). */
static void build_every_kind(struct build *b, uint16_t version, bool frames,
			     bool heavy)
{
	build_start(b, "xevery00", version);
	/* a Shift-JIS name exactly 30 bytes long: no NUL in the file */
	uint8_t sjis[30];
	for (int i = 0; i < 30; i += 2) {
		sjis[i] = 0x82;
		sjis[i + 1] = (uint8_t)(0xa0 + i);
	}
	uint32_t o = obj_raw(b, sjis, 30);
	uint32_t parent = obj(b, "OBJ");
	uint32_t clt16 = obj(b, "CLT"), clt256 = obj(b, "CLT");
	uint32_t mat = obj(b, "MAT");
	uint32_t cam = obj(b, "CAM"), lgt = obj(b, "LGT"), anm = obj(b, "ANM");
	uint32_t cmp = obj(b, "CMP"), hit = obj(b, "HIT"), box = obj(b, "BOX");
	uint32_t eff = obj(b, "EFF"), blt = obj(b, "BLT"), fbr = obj(b, "FBR");
	uint32_t pag = obj(b, "PAG"), dmy = obj(b, "DMY"), dmr = obj(b, "DMY");
	uint32_t mph = obj(b, "MPH"), mdl = obj(b, "MDL"), shd = obj(b, "OBJ");
	uint32_t prt = obj(b, "OBJ"), lay = obj(b, "OBJ");

	ccsw_setup(b->w);
	struct ccsw_clut c16 = { .object = clt16, .flag = 1, .buf_x = 896,
				 .buf_y = 992, .count = 16, .seed = 1 };
	struct ccsw_clut c256 = { .object = clt256, .blt_group = blt,
				  .count = 256, .alpha_ramp = true, .seed = 2 };
	ccsw_clut(b->w, &c16);
	ccsw_clut(b->w, &c256);
	add_textures(b, clt16, clt256, heavy);
	ccsw_material(b->w, mat, 3, 1.0f, 4, 5);
	add_models(b, mat, heavy);
	ccsw_obj(b->w, o, parent, mdl, shd);
	ccsw_obj(b->w, parent, 0, 0, 0);
	ccsw_obj2(b->w, o, 3, mph, lay, 0);
	uint32_t nodes[3] = { o, parent, shd };
	ccsw_clump(b->w, cmp, 3, nodes);
	ccsw_clump(b->w, cmp, 0, NULL);
	ccsw_extobj(b->w, o, parent, mdl);
	float mn[3] = { -1, -2, -3 }, mx[3] = { 1, 2, 3 };
	ccsw_bbox(b->w, box, o, mn, mx);
	ccsw_dummypos(b->w, dmy, mx);
	ccsw_dummyposrot(b->w, dmr, mx, mn);
	ccsw_morpher(b->w, mph, mdl);
	ccsw_camera(b->w, cam);
	ccsw_light(b->w, lgt, 3);
	uint8_t lk[3] = { 0, 1, 0 };
	uint32_t lo[3] = { lay, lay, 0 };
	ccsw_layer(b->w, 3, lk, lo);
	ccsw_fbrect(b->w, fbr, 1, 0, 512, 512, 512);
	struct ccsw_fb_page pages[2] = { { 8, 16, 1, 2, 0x13 },
					 { 8, 30, 1, 1, 0 } };
	ccsw_fbpage(b->w, pag, 2, pages);
	ccsw_opaque(b->w, CCSW_PARTICLE, prt, 7, 1);
	ccsw_opaque(b->w, CCSW_EFF, eff, 9, 2);
	ccsw_opaque(b->w, CCSW_BLTGRP, blt, 0, 3);
	ccsw_opaque(b->w, CCSW_SHADOW, shd, 5, 4);
	ccsw_anime(b->w, anm, o, 3);
	ccsw_anime(b->w, anm, o, 0);
	struct ccsw_hit_group g[2] = { { .vertices = 6, .attribute = 1,
					 .seed = 5 },
				       { .vertices = 3, .attribute = 2,
					 .seed = 6 } };
	ccsw_hit(b->w, hit, parent, 2, g);
	ccsw_hit(b->w, hit, parent, 0, NULL);
	ccsw_pcm(b->w, 7, 1, 0, 1, NULL, 0);
	ccsw_pcm(b->w, 8, 1, 0, 0, NULL, 0);
	if (frames) {
		add_frames(b, o, mat, cam, mph, mdl);
	} else {
		ccsw_frame(b->w, 1);
		ccsw_end(b->w);
	}
	build_finish(b);
}

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

/* ---- 3. errors ---- */

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

/* ---- 4. truncation ---- */

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

/* ---- 5. the length rules on hand-made bytes ---- */

/* 4 x 2 8-bit texture, one mip level (2 x 1), written by hand. */
static size_t hand_texture(uint8_t *out, bool blt_group)
{
	size_t n = 0;
	uint32_t payload = blt_group ? 48 : 44;
	const uint8_t head[] = { 0x00, 0x03, 0xcc, 0xcc };
	memcpy(out + n, head, 4); n += 4;
	put32(out + n, payload / 4 + 0x32); n += 4;  /* the exporter's lie */
	put32(out + n, 5); n += 4;                   /* texture */
	put32(out + n, 4); n += 4;                   /* clut */
	if (blt_group) {
		put32(out + n, 9); n += 4;
	}
	const uint8_t fields[] = { 0x01, 0x13, 0x01, 0x70, 0x02, 0x01,
				   0xcd, 0xcd };
	memcpy(out + n, fields, 8); n += 8;          /* flag .. th, pad */
	const uint8_t l0[] = { 0x00, 0x03, 0x00, 0x00, 2, 0, 0, 0,
			       10, 11, 12, 13, 14, 15, 16, 17 };
	memcpy(out + n, l0, sizeof l0); n += sizeof l0;
	const uint8_t l1[] = { 0x40, 0x03, 0x00, 0x00, 1, 0, 0, 0,
			       20, 21, 0, 0 };
	memcpy(out + n, l1, sizeof l1); n += sizeof l1;
	assert_int_equal(n, 8 + payload);
	return n;
}

static void texture_rule_by_version(void **state)
{
	(void)state;
	static const uint8_t pixels[12] = { 10, 11, 12, 13, 14, 15, 16, 17,
					    20, 21, 0, 0 };
	for (int bg = 0; bg < 2; bg++) {
		uint16_t version = bg ? 0x92 : 0x90;
		uint8_t buf[512];
		memset(buf, 0xee, sizeof buf);
		size_t real = hand_texture(buf, bg);
		assert_int_equal(real, bg ? 56 : 52);
		size_t claimed = 8 + 4 * (size_t)(buf[4] | buf[5] << 8);
		assert_true(claimed > real);
		const char *why = NULL;
		/* the buffer as long as the size field claims */
		assert_int_equal(chunk_len_exact(buf, claimed, version, false,
						 &why), real);
		assert_int_equal(chunk_len_exact(buf, real, version, false,
						 &why), real);
		why = NULL;
		assert_int_equal(chunk_len_exact(buf, real - 1, version, false,
						 &why), 0);
		assert_non_null(why);
		for (size_t n = 0; n < real; n++) {
			why = NULL;
			assert_int_equal(chunk_len_exact(buf, n, version, false,
							 &why), 0);
			assert_non_null(why);
		}
		/* in the frame section a texture is not a kind */
		why = NULL;
		assert_int_equal(chunk_len_exact(buf, claimed, version, true,
						 &why), 0);
		assert_non_null(strstr(why, "unknown kind"));

		/* the generator writes the same bytes */
		struct ccsw *w = ccsw_new("x", version);
		struct ccsw_texture t = {
			.object = 5, .clut = 4, .blt_group = 9, .flag = 1,
			.psm = 0x13, .mipmap = 1, .aref = 0x70, .tw = 2,
			.th = 1, .buf_x = 768, .pixels = pixels,
			.size_field = CCSW_SIZE_AUTO,
		};
		ccsw_texture(w, &t);
		size_t len;
		uint8_t *f = ccsw_finish(w, &len);
		const struct ccsw_chunk_info *c = ccsw_chunk_at(w, 2);
		assert_int_equal(c->kind, CCSW_TEXTURE);
		assert_int_equal(c->length, real);
		assert_memory_equal(f + c->offset, buf, real);
		free(f);
		ccsw_free(w);
	}
	/* the 0x92 bytes read at 0x90: blt_group taken for the fields, so
	 * level 0's count is 0x300 words and runs past the end */
	uint8_t b92[512];
	memset(b92, 0, sizeof b92);
	size_t real = hand_texture(b92, true);
	const char *why = NULL;
	assert_int_equal(chunk_len_exact(b92, real + 64, 0x90, false, &why), 0);
	assert_non_null(strstr(why, "levels"));
	/* the 0x90 bytes read at 0x92 are not their real length either */
	uint8_t b90[512];
	memset(b90, 0, sizeof b90);
	real = hand_texture(b90, false);
	why = NULL;
	assert_true(chunk_len_exact(b90, sizeof b90, 0x92, false, &why) !=
		    real);

	/* doc/formats/texture.md, Worked example: xasc00's texture, 256 x 256
	 * at 4 bits, size 0x2039 declared, 0x2007 words read */
	size_t big = 8 + 4 * 0x2039;
	uint8_t *x = calloc(1, big);
	assert_non_null(x);
	const uint8_t xasc[] = {
		0x00, 0x03, 0xcc, 0xcc, 0x39, 0x20, 0x00, 0x00,
		0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x70,
		0x08, 0x08, 0xcd, 0xcd, 0x00, 0x03, 0x00, 0x00,
		0x00, 0x20, 0x00, 0x00,
	};
	memcpy(x, xasc, sizeof xasc);
	why = NULL;
	assert_int_equal(chunk_len_exact(x, big, 0x100, false, &why),
			 8 + 4 * 0x2007);
	free(x);
}

static size_t put_pos(uint8_t *p, int n)
{
	size_t k = 0;
	for (int i = 0; i < 3 * n; i++) {
		p[k++] = (uint8_t)(i * 3);
		p[k++] = (uint8_t)(i & 1 ? 0xff : 0);
	}
	while (k & 3)
		p[k++] = 0;
	return k;
}

static void bone_model_rule(void **state)
{
	(void)state;
	/* mtype 5, two mmats: a bone body (3 vertices) and a skin body
	 * (2 vertices, 3 entries, 2 of them with bit 9), by hand */
	uint8_t buf[400];
	memset(buf, 0xee, sizeof buf);
	size_t n = 0;
	const uint8_t head[] = { 0x00, 0x08, 0xcc, 0xcc };
	memcpy(buf, head, 4); n = 8;
	put32(buf + n, 7); n += 4;                   /* model */
	put32(buf + n, 0x3f800000); n += 4;          /* 1.0f */
	const uint8_t mh[] = { 5, 0, 2, 0, 0, 0, 0, 0, 0x70, 0, 0, 0 };
	memcpy(buf + n, mh, sizeof mh); n += sizeof mh;
	size_t mmat0 = n;
	put32(buf + n, 3); n += 4;                   /* material */
	put32(buf + n, 3); n += 4;                   /* vertexNum */
	put32(buf + n, 0); n += 4;                   /* offsetNum: bone */
	put32(buf + n, 2); n += 4;                   /* node slot */
	n += put_pos(buf + n, 3);                    /* 18 + 2 */
	for (int i = 0; i < 6; i++) {                /* normal, st */
		put32(buf + n, (uint32_t)(0x01003e00 + i)); n += 4;
	}
	assert_int_equal(n - mmat0, 60);
	size_t mmat1 = n;
	put32(buf + n, 3); n += 4;                   /* material */
	put32(buf + n, 2); n += 4;                   /* vertexNum */
	put32(buf + n, 3); n += 4;                   /* offsetNum */
	static const uint16_t wts[3] = { 160, 96 | 1 << 9 | 1 << 10,
					 256 | 1 << 9 };
	for (int e = 0; e < 3; e++) {
		for (int k = 0; k < 3; k++) {
			buf[n++] = (uint8_t)(e * 10 + k);
			buf[n++] = 0;
		}
		buf[n++] = (uint8_t)wts[e];
		buf[n++] = (uint8_t)(wts[e] >> 8);
	}
	for (int i = 0; i < 3 + 2; i++) {            /* normal[3], st[2] */
		put32(buf + n, (uint32_t)(0x00003e00 + i)); n += 4;
	}
	assert_int_equal(n - mmat1, 56);
	size_t real = n;
	assert_int_equal(real, 144);
	uint32_t size = (uint32_t)(real - 8) / 4 + 15 * 2;
	put32(buf + 4, size);
	size_t claimed = 8 + 4 * (size_t)size;
	assert_int_equal(claimed - real, 15 * 4 * 2);

	for (size_t v = 0; v < NVERSIONS; v++) {
		const char *why = NULL;
		assert_int_equal(chunk_len_exact(buf, claimed, versions[v],
						 false, &why), real);
		assert_int_equal(chunk_len_exact(buf, real, versions[v], false,
						 &why), real);
		why = NULL;
		assert_int_equal(chunk_len_exact(buf, real - 4, versions[v],
						 false, &why), 0);
		assert_non_null(why);
	}
	/* mtype 0x105 at 0x96 is read as 5; at 0x100 as 0x105, still & 4 */
	buf[8 + 9] = 0x01;
	const char *why = NULL;
	assert_int_equal(chunk_len_exact(buf, claimed, 0x96, false, &why), real);
	assert_int_equal(chunk_len_exact(buf, claimed, 0x100, false, &why), real);
	buf[8 + 9] = 0x00;

	/* the generator writes the same bytes and the same wrong size */
	int16_t pos0[9], pos1[9];
	for (int i = 0; i < 9; i++) {
		pos0[i] = (int16_t)((i & 1 ? 0xff00 : 0) | (uint8_t)(i * 3));
	}
	struct ccsw_skin_entry ent[3];
	for (int e = 0; e < 3; e++) {
		for (int k = 0; k < 3; k++)
			ent[e].pos[k] = (int16_t)(e * 10 + k);
		ent[e].w = wts[e];
	}
	memset(pos1, 0, sizeof pos1);
	uint32_t nrm0[3], st0[3], nrm1[3], st1[2];
	for (int i = 0; i < 3; i++) {
		nrm0[i] = 0x01003e00u + (uint32_t)i;
		st0[i] = 0x01003e00u + 3 + (uint32_t)i;
		nrm1[i] = 0x00003e00u + (uint32_t)i;
	}
	st1[0] = 0x00003e03;
	st1[1] = 0x00003e04;
	struct ccsw_mmat mm[2] = {
		{ .material = 3, .node = 2, .vertices = 3, .pos = pos0,
		  .normal = nrm0, .st = st0 },
		{ .material = 3, .vertices = 2, .offsets = 3, .normal = nrm1,
		  .st = st1, .entries = ent },
	};
	struct ccsw *w = ccsw_new("x", 0x100);
	struct ccsw_model md = { .object = 7, .vertex_scale = 1.0f,
				 .mtype = 5, .mmat_count = 2, .mmats = mm,
				 .size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &md);
	size_t len;
	uint8_t *f = ccsw_finish(w, &len);
	const struct ccsw_chunk_info *c = ccsw_chunk_at(w, 2);
	assert_int_equal(c->kind, CCSW_MODEL);
	assert_int_equal(c->length, real);
	assert_memory_equal(f + c->offset, buf, real);
	free(f);
	ccsw_free(w);
}

/* A rigid and a shadow model by hand, for the other two bodies. */
static void rigid_and_shadow_rule(void **state)
{
	(void)state;
	uint8_t buf[256];
	/* rigid mtype 0x600 (positions, normals) with 3 vertices */
	memset(buf, 0xee, sizeof buf);
	size_t n = 8;
	buf[0] = 0x00; buf[1] = 0x08;
	put32(buf + n, 7); n += 4;
	put32(buf + n, 0x3f800000); n += 4;
	const uint8_t mh[] = { 0x00, 0x06, 1, 0, 0, 0, 0, 0, 0x70, 0, 0, 0 };
	memcpy(buf + n, mh, sizeof mh); n += sizeof mh;
	put32(buf + n, 1); n += 4;   /* name */
	put32(buf + n, 2); n += 4;   /* material */
	put32(buf + n, 3); n += 4;   /* vertexNum */
	n += put_pos(buf + n, 3);
	n += 12;                     /* normals */
	put32(buf + 4, (uint32_t)(n - 8) / 4);
	const char *why = NULL;
	assert_int_equal(chunk_len_exact(buf, n, 0x100, false, &why), n);
	/* at 0x96 the layout is mtype 0: colour and st too, past the end */
	why = NULL;
	assert_int_equal(chunk_len_exact(buf, n, 0x96, false, &why), 0);
	assert_non_null(why);
	assert_int_equal(chunk_len_exact(buf, n + 24, 0x96, false, &why),
			 n + 24);

	/* shadow: vNum 0 (iNum ignored), then vNum 3 iNum 3 */
	memset(buf, 0xee, sizeof buf);
	n = 8;
	buf[0] = 0x00; buf[1] = 0x08;
	put32(buf + n, 7); n += 4;
	put32(buf + n, 0x3f800000); n += 4;
	const uint8_t sh[] = { 0x08, 0x00, 2, 0, 0, 0, 0, 0, 0x70, 0, 0, 0 };
	memcpy(buf + n, sh, sizeof sh); n += sizeof sh;
	put32(buf + n, 0); n += 4;
	put32(buf + n, 99); n += 4;
	put32(buf + n, 3); n += 4;
	put32(buf + n, 3); n += 4;
	n += put_pos(buf + n, 3);
	n += 12;
	put32(buf + 4, (uint32_t)(n - 8) / 4);
	why = NULL;
	assert_int_equal(chunk_len_exact(buf, n, 0x100, false, &why), n);
	assert_int_equal(chunk_len_exact(buf, n, 0x90, false, &why), n);
}

/* ---- 6. names ---- */

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
		cmocka_unit_test(texture_rule_by_version),
		cmocka_unit_test(bone_model_rule),
		cmocka_unit_test(rigid_and_shadow_rule),
		cmocka_unit_test(kind_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
