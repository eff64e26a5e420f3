/* SPDX-License-Identifier: MIT */
/* ccsf_build.c - scenes for the CCSF walk's tests, made with the
 * generator, and the checks of a walk against what it wrote. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ccsf/ccsf.h"
#include "ccsw.h"
#include "ccsf_build.h"

const uint16_t versions[] = { 0x90, 0x92, 0x95, 0x96, 0x100 };

uint16_t u16at(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Walks a copy in a buffer of exactly n bytes, so ASan sees any read past
 * its end. */
int walk_exact(const uint8_t *p, size_t n, struct ccsf_scene *s)
{
	uint8_t *copy = malloc(n);
	assert_true(copy != NULL || n == 0);
	if (n)
		memcpy(copy, p, n);
	int rc = ccsf_walk(copy, n, s);
	free(copy);
	return rc;
}

/* ---- a writer that remembers what the index must say ---- */

void build_start(struct build *b, const char *name, uint16_t version)
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

uint32_t obj_raw(struct build *b, const uint8_t *name, size_t n)
{
	assert_true(b->nnames < MAX_NAMES);
	memcpy(b->names[b->nnames], name, n);
	b->name_len[b->nnames] = n;
	uint32_t id = ccsw_object(b->w, name, n, b->file);
	assert_int_equal(id, b->nnames);
	b->nnames++;
	return id;
}

uint32_t obj(struct build *b, const char *prefix)
{
	char name[31];
	snprintf(name, sizeof name, "%s_%u", prefix, b->nnames);
	return obj_raw(b, (const uint8_t *)name, strlen(name));
}

void build_finish(struct build *b)
{
	b->data = ccsw_finish(b->w, &b->len);
}

void build_free(struct build *b)
{
	free(b->data);
	ccsw_free(b->w);
	b->data = NULL;
	b->w = NULL;
}

/* Every chunk the walk found is the writer's chunk i for i < n. */
void expect_chunks_prefix(const struct ccsw *w, const uint8_t *file,
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
void expect_walk_matches(const struct build *b, const struct ccsf_scene *s)
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

void add_textures(struct build *b, uint32_t clut16, uint32_t clut256,
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

void add_models(struct build *b, uint32_t mat, bool heavy)
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
void build_every_kind(struct build *b, uint16_t version, bool frames,
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
