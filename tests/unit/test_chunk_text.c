/* SPDX-License-Identifier: MIT */
/* test_chunk_text.c - the <kind>.txt decoders on hand-built chunks: which
 * kinds have one, textures, CLUTs and models.  The other kinds are in
 * test_chunk_text_records.c. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ccsf/ccsf.h"
#include "chunk_build.h"
#include "decode/text/chunk_text.h"
#include "util/bytes.h"
#include "util/strbuf.h"

/* ---- samples ----------------------------------------------------------- */

/* xasc00's texture (doc/formats/texture.md, Worked example) with 4 words
 * of pixels. */
static void make_texture(struct chunk *c, uint16_t version, unsigned mipmap)
{
	chunk_begin(c, CCSF_TEXTURE);
	put32(c, 2);                    /* texture */
	put32(c, 1);                    /* clut */
	if (version >= 0x92)
		put32(c, 0);            /* blt_group */
	put8(c, 0x01);                  /* flag */
	put8(c, 0x14);                  /* psm */
	if (version >= 0x90) {
		put8(c, mipmap);
		put8(c, 0x70);          /* aref */
		put8(c, 8);             /* tw */
		put8(c, 8);             /* th */
	}
	pad4(c, 0xcd);
	for (unsigned level = 0; level <= mipmap; level++) {
		put16(c, 768 + level);
		put16(c, 0);
		put32(c, 4 >> level);
		for (unsigned i = 0; i < 4u >> level; i++)
			put32(c, 0x11111111 * i);
	}
	/* The files' size field is wrong for textures: keep it so. */
	chunk_end(c);
	c->b[4] = 0x39;
}

static void make_clut(struct chunk *c, uint16_t version)
{
	chunk_begin(c, CCSF_CLUT);
	put32(c, 1);
	if (version >= 0x92)
		put32(c, 9);
	put8(c, 0x05);                  /* flag */
	put8(c, 0);                     /* cpsm */
	put8(c, 0);
	put8(c, 112);
	put16(c, 896);
	put16(c, 992);
	put32(c, 3);
	put32(c, 0x800000ff);           /* 255 0 0 128 */
	put32(c, 0x8000ff00);
	put32(c, 0x00ff0000);
	chunk_end(c);
}

static void make_rigid_model(struct chunk *c, uint16_t mtype)
{
	chunk_begin(c, CCSF_MODEL);
	put32(c, 3);                    /* model */
	putf(c, 2.0f);                  /* vertexScale */
	put16(c, mtype);
	put16(c, 1);                    /* mmats */
	put16(c, 1);                    /* flag */
	put16(c, 0);                    /* zoffs */
	put8(c, 0x70);
	pad4(c, 0xcd);
	put32(c, 5);                    /* name */
	put32(c, 4);                    /* material */
	put32(c, 3);                    /* vertices */
	static const int16_t pos[3][3] = {
		{ 4096, -2048, 0 }, { 1, 2, 3 }, { -32768, 32767, 100 },
	};
	for (int v = 0; v < 3; v++)
		for (int i = 0; i < 3; i++)
			put16(c, (uint16_t)pos[v][i]);
	pad4(c, 0);
	if (!(mtype & 0x40))
		for (int v = 0; v < 3; v++)
			put32(c, (v < 2 ? 0x01u : 0u) << 24 | 0x40u << 16 |
			      (uint8_t)-64 << 8);   /* 0 -64 64, strip */
	if (!(mtype & 0x200))
		for (int v = 0; v < 3; v++)
			put32(c, 0x80402010u + (uint32_t)v);
	if (!(mtype & 0x400))
		for (int v = 0; v < 3; v++)
			put32(c, (uint32_t)(256 * v) << 16 | (uint32_t)(16 * v));
	chunk_end(c);
}

static void model_header(struct chunk *c, uint16_t mtype, uint16_t mmats,
			 float scale)
{
	chunk_begin(c, CCSF_MODEL);
	put32(c, 3);
	putf(c, scale);
	put16(c, mtype);
	put16(c, mmats);
	put16(c, 0);
	put16(c, 0);
	put8(c, 0x70);
	pad4(c, 0xcd);
}

static void make_bone_model(struct chunk *c, uint16_t mtype)
{
	model_header(c, mtype, 1, 4096.0f);
	put32(c, 4);                    /* material */
	put32(c, 1);                    /* vertices */
	put32(c, 0);                    /* offsets: bone */
	put32(c, 2);                    /* node slot */
	put16(c, 1);
	put16(c, 2);
	put16(c, (uint16_t)-3);
	pad4(c, 0);
	put32(c, 0x01400000);           /* normal 0 0 64, strip 1 */
	put32(c, 0x00200010);           /* st 16 32 */
	chunk_end(c);
}

static void make_skin_model(struct chunk *c)
{
	model_header(c, 5, 1, 1.0f);
	put32(c, 4);
	put32(c, 2);                    /* vertices */
	put32(c, 3);                    /* offsets: three entries */
	/* vertex 0: two entries, nodes 1 and 2; vertex 1: one, node 3 */
	static const uint16_t w[3] = {
		1 << 10 | 128, 2 << 10 | 1 << 9 | 128, 3 << 10 | 1 << 9 | 256,
	};
	for (int e = 0; e < 3; e++) {
		put16(c, (uint16_t)(4096 * (e + 1)));
		put16(c, 0);
		put16(c, 0);
		put16(c, w[e]);
	}
	for (int e = 0; e < 3; e++)
		put32(c, 0x00400000);   /* normal 0 0 64, no strip */
	put32(c, 0x00010002);           /* st of vertex 0: 2 1 */
	put32(c, 0x00030004);           /* st of vertex 1: 4 3 */
	chunk_end(c);
}

static void make_shadow_model(struct chunk *c)
{
	model_header(c, 8, 1, 0.5f);
	put32(c, 3);                    /* vNum */
	put32(c, 3);                    /* iNum */
	for (int v = 0; v < 3; v++) {
		put16(c, (uint16_t)(8192 * v));
		put16(c, 0);
		put16(c, 0);
	}
	pad4(c, 0);
	put32(c, 0);
	put32(c, 1);
	put32(c, 2);
	chunk_end(c);
}

/* ---- tests ------------------------------------------------------------- */

static void test_has(void **state)
{
	(void)state;
	static const uint16_t yes[] = {
		CCSF_HEADER, CCSF_INDEX, CCSF_SETUP, CCSF_FRAME, CCSF_OBJ,
		CCSF_MATERIAL, CCSF_TEXTURE, CCSF_CLUT, CCSF_CAMERA,
		CCSF_LIGHT, CCSF_MODEL, CCSF_CLUMP, CCSF_EXTOBJ, CCSF_HIT,
		CCSF_BBOX, CCSF_FBRECT, CCSF_FBPAGE, CCSF_DUMMYPOS,
		CCSF_DUMMYPOSROT, CCSF_LAYER, CCSF_MORPHER, CCSF_OBJ2,
		CCSF_PCM, CCSF_TOP, CCSF_F_SHADOW, CCSF_F_MORPHER,
		CCSF_F_PCM, CCSF_F_AMBIENT, CCSF_F_NOTE, CCSF_F_OBJ,
		/* laid out in doc/formats/ccsf.md, Frame section */
		CCSF_F_MATERIAL, CCSF_F_CAMERA, CCSF_F_DISTANTLIGHT,
		CCSF_F_OMNILIGHT,
	};
	static const uint16_t no[] = {
		CCSF_ANIME, CCSF_PARTICLE, CCSF_EFF, CCSF_BLTGRP, CCSF_SHADOW,
		CCSF_F_DIRECTLIGHT, CCSF_F_SPOTLIGHT, CCSF_F_MODELVERTEX,
		0x0000, 0x1234, 0xffff,
	};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		assert_true(chunk_text_has(yes[i]));
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		assert_false(chunk_text_has(no[i]));
}

static void test_texture_0x100(void **state)
{
	(void)state;
	struct chunk c;
	make_texture(&c, 0x100, 0);
	expect_text(&c, 0x100,
		"kind: 0x0300 (texture)\n"
		"tag: 0xcccc\n"
		"size: 57\n"
		"length: 52\n"
		"texture: 2 (TEX_xasc00)\n"
		"clut: 1 (CLT_xasc00)\n"
		"blt_group: 0\n"
		"flag: 0x01\n"
		"psm: 0x14\n"
		"mipmap: 0\n"
		"aref: 112\n"
		"tw: 8\n"
		"th: 8\n"
		"level 0: buf_x 768 buf_y 0 count 4\n"
		"level 0 pixels: 16 bytes\n");
	every_length(&c, 0x100);
}

static void test_texture_0x90_has_no_blt_group(void **state)
{
	(void)state;
	struct chunk c;
	make_texture(&c, 0x90, 2);
	char *text = decode(&c, 0x90);
	expect_no_line_starting(text, "blt_group:");
	expect_line(text, "flag: 0x01");
	expect_line(text, "mipmap: 2");
	expect_line(text, "level 1: buf_x 769 buf_y 0 count 2");
	expect_line(text, "level 2 pixels: 4 bytes");
	assert_string_equal(last_line(text), "level 2 pixels: 4 bytes\n");
	free(text);
	every_length(&c, 0x90);

	make_texture(&c, 0x92, 0);
	text = decode(&c, 0x92);
	expect_line(text, "blt_group: 0");
	free(text);
}

static void test_texture_before_0x90(void **state)
{
	(void)state;
	struct chunk c;
	make_texture(&c, 0x8f, 0);
	char *text = decode(&c, 0x8f);
	expect_line(text, "psm: 0x14");
	expect_no_line_starting(text, "mipmap:");
	expect_no_line_starting(text, "tw:");
	expect_line(text, "level 0: buf_x 768 buf_y 0 count 4");
	free(text);
	every_length(&c, 0x8f);
}

static void test_texture_lying_count(void **state)
{
	(void)state;
	struct chunk c;
	make_texture(&c, 0x100, 0);
	/* level 0 count: 0x2000 words, far more than the chunk holds */
	c.b[32] = 0x00;
	c.b[33] = 0x20;
	char *text = decode(&c, 0x100);
	expect_line(text, "level 0: buf_x 768 buf_y 0 count 8192");
	assert_string_equal(last_line(text),
			    "error: level 0 pixels needs 32768 bytes, 16 left\n");
	free(text);

	/* A mipmap count past the levels the chunk has. */
	make_texture(&c, 0x100, 0);
	c.b[22] = 3;
	text = decode(&c, 0x100);
	expect_line(text, "level 0 pixels: 16 bytes");
	assert_string_equal(last_line(text),
			    "error: level 1 needs 8 bytes, 0 left\n");
	free(text);
}

static void test_clut(void **state)
{
	(void)state;
	struct chunk c;
	make_clut(&c, 0x100);
	expect_text(&c, 0x100,
		"kind: 0x0400 (clut)\n"
		"tag: 0xcccc\n"
		"size: 8\n"
		"length: 40\n"
		"clut: 1 (CLT_xasc00)\n"
		"blt_group: 9\n"
		"flag: 0x05\n"
		"cpsm: 0x00\n"
		"unknown_2: 0\n"
		"unknown_3: 112\n"
		"buf_x: 896\n"
		"buf_y: 992\n"
		"count: 3\n"
		"colour 0: 255 0 0 128\n"
		"colour 1: 0 255 0 128\n"
		"colour 2: 0 0 255 0\n");
	every_length(&c, 0x100);

	make_clut(&c, 0x90);
	char *text = decode(&c, 0x90);
	expect_no_line_starting(text, "blt_group:");
	expect_line(text, "colour 2: 0 0 255 0");
	free(text);
	every_length(&c, 0x90);
}

static void test_clut_lying_count(void **state)
{
	(void)state;
	struct chunk c;
	make_clut(&c, 0x100);
	c.b[24] = 0;                    /* count 256 */
	c.b[25] = 1;
	char *text = decode(&c, 0x100);
	expect_line(text, "count: 256");
	expect_line(text, "colour 2: 0 0 255 0");
	assert_string_equal(last_line(text),
			    "error: colour 3 needs 4 bytes, 0 left\n");
	free(text);
}

static void test_model_rigid(void **state)
{
	(void)state;
	struct chunk c;
	make_rigid_model(&c, 1);
	expect_text(&c, 0x100,
		"kind: 0x0800 (model)\n"
		"tag: 0xcccc\n"
		"size: 22\n"
		"length: 96\n"
		"model: 3 (MDL_kite)\n"
		"vertex_scale: 2\n"
		"mtype: 0x0001\n"
		"mmats: 1\n"
		"flag: 0x0001\n"
		"zoffs: 0\n"
		"unknown: 0x70\n"
		"mmat 0 name: 5 (MDL_kite_0)\n"
		"mmat 0 material: 4 (MAT_kite)\n"
		"mmat 0 vertices: 3\n"
		"mmat 0 layout: rigid\n"
		"mmat 0 vertex 0: position 4096 -2048 0 scaled 2 -1 0"
		" normal 0 -64 64 strip 1 colour 16 32 64 128 st 0 0\n"
		"mmat 0 vertex 1: position 1 2 3 scaled"
		" 0.00048828125 0.0009765625 0.00146484375"
		" normal 0 -64 64 strip 1 colour 17 32 64 128 st 16 256\n"
		"mmat 0 vertex 2: position -32768 32767 100 scaled"
		" -16 15.9995117 0.048828125"
		" normal 0 -64 64 strip 0 colour 18 32 64 128 st 32 512\n");
	every_length(&c, 0x100);
}

static void test_model_rigid_without_arrays(void **state)
{
	(void)state;
	struct chunk c;
	/* A morph target: positions and normals only. */
	make_rigid_model(&c, 0x601);
	char *text = decode(&c, 0x100);
	expect_line(text, "mtype: 0x0601");
	expect_line(text, "mmat 0 vertex 1: position 1 2 3 scaled"
		    " 0.00048828125 0.0009765625 0.00146484375"
		    " normal 0 -64 64 strip 1");
	free(text);
	every_length(&c, 0x100);

	/* Positions only: the padding after them is the chunk's last word. */
	make_rigid_model(&c, 0x640);
	text = decode(&c, 0x100);
	expect_line(text, "mmat 0 vertex 2: position -32768 32767 100 scaled"
		    " -16 15.9995117 0.048828125");
	free(text);
	every_length(&c, 0x100);
}

/* A model of positions only (mtype 0x640) whose coordinates are every
 * s16 value in turn, at the scale given; its byte length. */
static size_t every_position_model(uint8_t *p, float scale, uint32_t vertices)
{
	uint8_t *o = p;
	wr_u16le(o, CCSF_MODEL);
	wr_u16le(o + 2, 0xcccc);
	wr_u32le(o + 8, 3);                     /* model */
	wr_f32le(o + 12, scale);
	wr_u16le(o + 16, 0x640);
	wr_u16le(o + 18, 1);                    /* mmats */
	wr_u16le(o + 20, 0);                    /* flag */
	wr_u16le(o + 22, 0);                    /* zoffs */
	o[24] = 0x70;
	memset(o + 25, 0xcd, 3);
	wr_u32le(o + 28, 5);                    /* name */
	wr_u32le(o + 32, 4);                    /* material */
	wr_u32le(o + 36, vertices);
	o += 40;
	for (uint32_t i = 0; i < 3 * vertices; i++, o += 2)
		wr_u16le(o, (uint16_t)i);
	while ((o - p) % 4)
		*o++ = 0;
	size_t n = (size_t)(o - p);
	wr_u32le(p + 4, (uint32_t)((n - 8) / 4));
	return n;
}

/* A listing learns each position's length once a scale and then takes
 * it from memory (util/lenmemo.h).  Every s16 value, at scales whose
 * texts take every form (a sign, subnormal and infinite results, NaN),
 * counted twice, the second time from memory: decode_bytes asserts the
 * counted size is the text's both times. */
static void test_model_every_position_counted(void **state)
{
	(void)state;
	static const float scales[] = { 2.0f, -0.75f, 1e-41f, 3e38f, NAN };
	const uint32_t vertices = 65536 / 3 + 1;
	uint8_t *p = malloc(48 + 6 * (size_t)vertices);
	assert_non_null(p);
	for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
		size_t n = every_position_model(p, scales[k], vertices);
		for (int pass = 0; pass < 2; pass++) {
			char *text = decode_bytes(p, n, 0x100, test_name);
			assert_non_null(strstr(text, "mmat 0 vertex 21845: "
					       "position -1 0 1 scaled"));
			free(text);
		}
	}
	char *text = decode_bytes(p, every_position_model(p, 2.0f, vertices),
				  0x100, test_name);
	expect_line(text, "mmat 0 vertex 10922: position 32766 32767 -32768"
		    " scaled 15.9990234 15.9995117 -16");
	free(text);
	free(p);
}

/* A rigid model with every array (mtype 1) of `vertices` vertices whose
 * normals, colours and S/T take every byte value, the S/T every u16 in
 * steps; its byte length. */
static size_t every_column_model(uint8_t *p, uint32_t vertices)
{
	size_t n = every_position_model(p, 2.0f, vertices);
	wr_u16le(p + 16, 1);
	uint8_t *o = p + n;
	for (uint32_t v = 0; v < vertices; v++, o += 4)
		for (int k = 0; k < 4; k++)
			o[k] = (uint8_t)(v * 7 + (uint32_t)k * 64);
	for (uint32_t v = 0; v < vertices; v++, o += 4)
		wr_u32le(o, v * 0x01030507u);
	for (uint32_t v = 0; v < vertices; v++, o += 4) {
		wr_u16le(o, (uint16_t)(v * 13));
		wr_u16le(o + 2, (uint16_t)(65535 - v * 29));
	}
	n = (size_t)(o - p);
	wr_u32le(p + 4, (uint32_t)((n - 8) / 4));
	return n;
}

/* A listing sums a body's line lengths column by column: every normal,
 * colour and S/T byte, vertex numbers of one to five digits, and the
 * body cut short in each array; decode_bytes asserts the sum is the
 * text's length. */
static void test_model_every_column_counted(void **state)
{
	(void)state;
	const uint32_t vertices = 12000;
	uint8_t *p = malloc(48 + 18 * (size_t)vertices);
	assert_non_null(p);
	size_t n = every_column_model(p, vertices);
	char *text = decode_bytes(p, n, 0x100, test_name);
	/* Vertex 11111: positions 33333 to 33335 as s16, normal bytes
	 * 7 * 11111 + 64k, colour 0x01030507 * 11111, st 13 * 11111 and
	 * 65535 - 29 * 11111, each cut to its width. */
	expect_line(text, "mmat 0 vertex 11111: position -32203 -32202 -32201"
		    " scaled -15.7241211 -15.7236328 -15.7231445"
		    " normal -47 17 81 strip 145 colour 209 50 15 234"
		    " st 13371 5460");
	free(text);
	/* Cut in the positions, the normals, the colours and the S/T. */
	size_t body = 40, positions = body + 6 * (size_t)vertices;
	const size_t cuts[] = {
		body + 6 * 5000 + 3, positions + 4 * 777 + 1,
		positions + 4 * (size_t)vertices + 4 * 9999 + 2, n - 1,
	};
	for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
		uint8_t *cut = malloc(cuts[k]);
		assert_non_null(cut);
		memcpy(cut, p, cuts[k]);
		text = decode_bytes(cut, cuts[k], 0x100, test_name);
		assert_int_equal(strncmp(last_line(text), "error: ", 7), 0);
		free(text);
		free(cut);
	}
	free(p);
}

static void test_model_old_version_masks_mtype(void **state)
{
	(void)state;
	struct chunk c;
	/* 0x0601 before 0x100 is 0x01: colours and ST are there. */
	make_rigid_model(&c, 1);
	c.b[17] = 0x06;
	char *text = decode(&c, 0x96);
	expect_line(text, "mtype: 0x0601 (used: 0x01)");
	expect_line(text, "mmat 0 vertex 0: position 4096 -2048 0 scaled 2 -1 0"
		    " normal 0 -64 64 strip 1 colour 16 32 64 128 st 0 0");
	free(text);
	every_length(&c, 0x96);
}

static void test_model_bone(void **state)
{
	(void)state;
	struct chunk c;
	make_bone_model(&c, 5);
	char *text = decode(&c, 0x100);
	expect_line(text, "mmat 0 material: 4 (MAT_kite)");
	expect_line(text, "mmat 0 vertices: 1");
	expect_line(text, "mmat 0 offsets: 0");
	expect_line(text, "mmat 0 layout: bone");
	expect_line(text, "mmat 0 node: 2");
	assert_string_equal(last_line(text),
		"mmat 0 vertex 0: position 1 2 -3 scaled 1 2 -3"
		" normal 0 0 64 strip 1 st 16 32\n");
	free(text);
	every_length(&c, 0x100);
}

static void test_model_skin(void **state)
{
	(void)state;
	struct chunk c;
	make_skin_model(&c);
	char *text = decode(&c, 0x100);
	expect_line(text, "mmat 0 layout: skin");
	expect_line(text, "mmat 0 entry 0: position 4096 0 0 scaled 1 0 0"
		    " weight 128 last 0 node 1 normal 0 0 64 strip 0");
	expect_line(text, "mmat 0 entry 1: position 8192 0 0 scaled 2 0 0"
		    " weight 128 last 1 node 2 normal 0 0 64 strip 0"
		    " vertex 0 st 2 1");
	expect_line(text, "mmat 0 entry 2: position 12288 0 0 scaled 3 0 0"
		    " weight 256 last 1 node 3 normal 0 0 64 strip 0"
		    " vertex 1 st 4 3");
	free(text);
	every_length(&c, 0x100);
}

static void test_model_shadow(void **state)
{
	(void)state;
	struct chunk c;
	make_shadow_model(&c);
	char *text = decode(&c, 0x100);
	expect_line(text, "mmat 0 layout: shadow");
	expect_line(text, "mmat 0 vertices: 3");
	expect_line(text, "mmat 0 indices: 3");
	expect_line(text, "mmat 0 vertex 2: position 16384 0 0 scaled 2 0 0");
	assert_string_equal(last_line(text), "mmat 0 triangle 0: 0 1 2\n");
	free(text);
	every_length(&c, 0x100);
}

static void test_model_lying_counts(void **state)
{
	(void)state;
	struct chunk c;
	make_rigid_model(&c, 1);
	c.b[36] = 0xff;                 /* vertices 0xffffffff */
	c.b[37] = 0xff;
	c.b[38] = 0xff;
	c.b[39] = 0xff;
	char *text = decode(&c, 0x100);
	expect_line(text, "mmat 0 vertices: 4294967295");
	expect_no_line_starting(text, "mmat 0 vertex 0:");
	assert_string_equal(last_line(text),
		"error: mmat 0 positions needs 25769803770 bytes, 56 left\n");
	free(text);

	/* Two mmats claimed, one there. */
	make_rigid_model(&c, 1);
	c.b[18] = 2;
	text = decode(&c, 0x100);
	expect_line(text, "mmat 0 vertex 2: position -32768 32767 100 scaled"
		    " -16 15.9995117 0.048828125"
		    " normal 0 -64 64 strip 0 colour 18 32 64 128 st 32 512");
	assert_string_equal(last_line(text),
			    "error: mmat 1 name needs 4 bytes, 0 left\n");
	free(text);

	/* The ST array cut short: the vertices that fit are shown. */
	make_rigid_model(&c, 1);
	text = decode_with(&c, c.n - 6, 0x100, test_name);
	expect_line(text, "mmat 0 vertex 0: position 4096 -2048 0 scaled 2 -1 0"
		    " normal 0 -64 64 strip 1 colour 16 32 64 128 st 0 0");
	expect_no_line_starting(text, "mmat 0 vertex 1:");
	assert_string_equal(last_line(text),
			    "error: mmat 0 st needs 12 bytes, 6 left\n");
	free(text);

	/* A negative shadow count. */
	make_shadow_model(&c);
	c.b[31] = 0x80;
	text = decode(&c, 0x100);
	assert_string_equal(last_line(text),
			    "error: mmat 0 a negative count\n");
	free(text);
}

static void test_allocation_failure(void **state)
{
	(void)state;
	struct chunk c;
	make_texture(&c, 0x100, 0);
	struct chunk_text_ctx ctx = { 0x100, NULL, NULL };
	struct strbuf sb = STRBUF_INIT;
	sb.failed = true;
	assert_int_equal(chunk_text(c.b, c.n, &ctx, &sb), -ENOMEM);
	sb_free(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_has),
		cmocka_unit_test(test_texture_0x100),
		cmocka_unit_test(test_texture_0x90_has_no_blt_group),
		cmocka_unit_test(test_texture_before_0x90),
		cmocka_unit_test(test_texture_lying_count),
		cmocka_unit_test(test_clut),
		cmocka_unit_test(test_clut_lying_count),
		cmocka_unit_test(test_model_rigid),
		cmocka_unit_test(test_model_every_position_counted),
		cmocka_unit_test(test_model_every_column_counted),
		cmocka_unit_test(test_model_rigid_without_arrays),
		cmocka_unit_test(test_model_old_version_masks_mtype),
		cmocka_unit_test(test_model_bone),
		cmocka_unit_test(test_model_skin),
		cmocka_unit_test(test_model_shadow),
		cmocka_unit_test(test_model_lying_counts),
		cmocka_unit_test(test_allocation_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
