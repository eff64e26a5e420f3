/* SPDX-License-Identifier: MIT */
/* test_chunk_text.c - the <kind>.txt decoders on hand-built chunks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ccsf/ccsf.h"
#include "decode/chunk_text.h"
#include "util/strbuf.h"

/* ---- building chunks --------------------------------------------------- */

struct chunk {
	uint8_t b[2048];
	size_t n;
};

static void put8(struct chunk *c, unsigned v)
{
	assert_true(c->n < sizeof c->b);
	c->b[c->n++] = (uint8_t)v;
}

static void put16(struct chunk *c, unsigned v)
{
	put8(c, v & 0xff);
	put8(c, (v >> 8) & 0xff);
}

static void put32(struct chunk *c, uint32_t v)
{
	put16(c, v & 0xffff);
	put16(c, v >> 16);
}

static void putf(struct chunk *c, float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	put32(c, u);
}

static void put_bytes(struct chunk *c, const void *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put8(c, ((const uint8_t *)s)[i]);
}

static void pad4(struct chunk *c, unsigned fill)
{
	while (c->n & 3)
		put8(c, fill);
}

static void begin(struct chunk *c, uint16_t kind)
{
	c->n = 0;
	put16(c, kind);
	put16(c, 0xcccc);
	put32(c, 0);            /* size, set by end() */
}

/* Sets the size field from the length, as the files do for most kinds. */
static void end(struct chunk *c)
{
	uint32_t words = (uint32_t)((c->n - 8) / 4);
	for (int i = 0; i < 4; i++)
		c->b[4 + i] = (uint8_t)(words >> (8 * i));
}

/* ---- decoding ---------------------------------------------------------- */

static const char *test_name(void *ctx, uint32_t index)
{
	(void)ctx;
	static const char *const names[] = {
		"#0", "CLT_xasc00", "TEX_xasc00", "MDL_kite", "MAT_kite",
		"MDL_kite_0", "OBJ_kite", "FBR_%E6", "HIT_floor",
	};
	return index < sizeof names / sizeof names[0] ? names[index] : NULL;
}

static char *decode_bytes(const uint8_t *p, size_t len, uint16_t version,
			  chunk_object_name_fn names)
{
	struct chunk_text_ctx ctx = { version, names, NULL };
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(chunk_text(p, len, &ctx, &sb), 0);
	uint8_t *data;
	size_t n;
	assert_int_equal(sb_finish(&sb, &data, &n), 0);
	/* A copy exactly n bytes long, so ASan sees any read past the text. */
	char *text = malloc(n + 1);
	assert_non_null(text);
	memcpy(text, data, n);
	text[n] = '\0';
	free(data);
	return text;
}

static char *decode_with(const struct chunk *c, size_t len, uint16_t version,
			 chunk_object_name_fn names)
{
	return decode_bytes(c->b, len, version, names);
}

static char *decode(const struct chunk *c, uint16_t version)
{
	return decode_with(c, c->n, version, test_name);
}

static void expect_text(const struct chunk *c, uint16_t version,
			const char *want)
{
	char *text = decode(c, version);
	assert_string_equal(text, want);
	free(text);
}

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

static void expect_no_line_starting(const char *text, const char *start)
{
	size_t n = strlen(start);
	for (const char *p = text; *p; p = strchr(p, '\n') + 1) {
		if (strncmp(p, start, n) == 0)
			fail_msg("unexpected line \"%s...\" in:\n%s", start,
				 text);
		if (!strchr(p, '\n'))
			break;
	}
}

static const char *last_line(const char *text)
{
	size_t n = strlen(text);
	assert_true(n > 0 && text[n - 1] == '\n');
	const char *p = text + n - 1;
	while (p > text && p[-1] != '\n')
		p--;
	return p;
}

/* Every prefix of the chunk decodes without a fault; every short one ends
 * with the error line and the whole one has none. */
static void every_length(const struct chunk *c, uint16_t version)
{
	for (size_t len = 0; len <= c->n; len++) {
		/* A copy of exactly len bytes: ASan catches a read past it. */
		uint8_t *cut = malloc(len ? len : 1);
		assert_non_null(cut);
		memcpy(cut, c->b, len);
		char *text = decode_bytes(cut, len, version, test_name);
		const char *last = last_line(text);
		if (len < c->n) {
			if (strncmp(last, "error: ", 7) != 0)
				fail_msg("length %zu of %zu: no error line:\n%s",
					 len, c->n, text);
		} else {
			assert_null(strstr(text, "error:"));
			assert_null(strstr(text, "trailing:"));
		}
		free(text);
		/* Without names, too: the decoder must not need them. */
		text = decode_bytes(cut, len, version, NULL);
		free(text);
		free(cut);
	}
}

/* ---- samples ----------------------------------------------------------- */

/* xasc00's texture (doc/formats/texture.md, Worked example) with 4 words
 * of pixels. */
static void make_texture(struct chunk *c, uint16_t version, unsigned mipmap)
{
	begin(c, CCSF_TEXTURE);
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
	end(c);
	c->b[4] = 0x39;
}

static void make_clut(struct chunk *c, uint16_t version)
{
	begin(c, CCSF_CLUT);
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
	end(c);
}

static void make_rigid_model(struct chunk *c, uint16_t mtype)
{
	begin(c, CCSF_MODEL);
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
	end(c);
}

static void model_header(struct chunk *c, uint16_t mtype, uint16_t mmats,
			 float scale)
{
	begin(c, CCSF_MODEL);
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
	end(c);
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
	end(c);
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
	end(c);
}

static void make_header(struct chunk *c)
{
	begin(c, CCSF_HEADER);
	put_bytes(c, "CCSF", 4);
	uint8_t name[32] = "xasc00";
	put_bytes(c, name, sizeof name);
	put16(c, 0x100);
	pad4(c, 0);
	put32(c, 1);                    /* frames */
	put32(c, 1);                    /* count */
	put32(c, 0);
	end(c);
}

static void make_index(struct chunk *c)
{
	begin(c, CCSF_INDEX);
	put32(c, 2);
	put32(c, 3);
	uint8_t path[32] = { 0 };
	put_bytes(c, path, sizeof path);
	static const char source[] = " D:\\art\\x 100%\x82\xa0.max";
	memcpy(path, source, strlen(source));
	put_bytes(c, path, sizeof path);
	uint8_t name[30] = { 0 };
	put_bytes(c, name, sizeof name);
	put16(c, 0);
	memcpy(name, "CLT_xasc00", 10);
	put_bytes(c, name, sizeof name);
	put16(c, 1);
	memcpy(name, "TEX_\x82\xa0\0\0\0\0", 10);
	put_bytes(c, name, sizeof name);
	put16(c, 1);
	end(c);
}

static void make_hit(struct chunk *c)
{
	begin(c, CCSF_HIT);
	put32(c, 8);
	put32(c, 0);
	put16(c, 2);                    /* groups */
	put16(c, 0);
	put32(c, 4);                    /* total vertices */
	for (int g = 0; g < 2; g++) {
		put32(c, 2);
		put32(c, 0x10u + (uint32_t)g);
		for (int v = 0; v < 2; v++) {
			putf(c, (float)g);
			putf(c, (float)v);
			putf(c, 0.25f);
		}
		for (int v = 0; v < 6; v++)
			putf(c, 1.0f);
	}
	end(c);
}

static void make_pcm(struct chunk *c)
{
	begin(c, CCSF_PCM);
	put32(c, 9);
	put8(c, 1);
	put8(c, 16);
	put8(c, 2);
	put8(c, 0);
	put32(c, 2);                    /* blocks */
	put32(c, 4);                    /* words a block (256 on the discs) */
	for (int i = 0; i < 8; i++)
		put32(c, 0x7fff8000);
	end(c);
	c->b[2] = c->b[3] = 0;          /* the streams write tag 0 on Pcm */
}

static void make_f_pcm(struct chunk *c)
{
	begin(c, CCSF_F_PCM);
	put32(c, 9);
	put16(c, 3);
	put16(c, 0);
	put32(c, 1);
	for (int i = 0; i < 3; i++)
		put32(c, 0);
	end(c);
}

static void make_f_morpher(struct chunk *c)
{
	begin(c, CCSF_F_MORPHER);
	put32(c, 6);
	put16(c, 2);
	put16(c, 0);
	put32(c, 3);
	putf(c, 0.5f);
	put32(c, 5);
	putf(c, 0.25f);
	end(c);
}

static void make_f_obj(struct chunk *c)
{
	begin(c, CCSF_F_OBJ);
	put32(c, 6);
	put32(c, 0);
	for (int i = 0; i < 9; i++)
		putf(c, (float)i - 1.5f);
	putf(c, 1.0f);
	put32(c, 1);
	end(c);
}

static void make_clump(struct chunk *c)
{
	begin(c, CCSF_CLUMP);
	put32(c, 6);
	put16(c, 2);
	put16(c, 0xcdcd);
	put32(c, 6);
	put32(c, 99);
	end(c);
}

static void make_layer(struct chunk *c)
{
	begin(c, CCSF_LAYER);
	put16(c, 2);
	put16(c, 0);
	put8(c, 0);
	pad4(c, 0);
	put32(c, 6);
	put8(c, 1);
	pad4(c, 0);
	put32(c, 0);
	end(c);
}

static void make_fbpage(struct chunk *c)
{
	begin(c, CCSF_FBPAGE);
	put32(c, 7);
	put32(c, 1);
	put8(c, 8);
	put8(c, 16);
	put8(c, 1);
	put8(c, 2);
	put8(c, 0x13);
	pad4(c, 0);
	end(c);
}

static void make_obj(struct chunk *c, uint16_t version)
{
	begin(c, CCSF_OBJ);
	put32(c, 6);
	put32(c, 0);
	put32(c, 3);
	if (version >= 0x96)
		put32(c, 0);
	end(c);
}

static void make_light(struct chunk *c)
{
	begin(c, CCSF_LIGHT);
	put32(c, 6);
	put16(c, 4);
	put16(c, 0);
	end(c);
}

static void make_f_camera(struct chunk *c)
{
	begin(c, CCSF_F_CAMERA);
	put32(c, 6);
	put32(c, 0x1fe & ~(1u << 3 | 1u << 8));  /* pos_z and fov only */
	putf(c, -10.5f);
	putf(c, 45.0f);
	end(c);
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

static void test_header_and_index(void **state)
{
	(void)state;
	struct chunk c;
	make_header(&c);
	expect_text(&c, 0x100,
		"kind: 0x0001 (header)\n"
		"tag: 0xcccc\n"
		"size: 13\n"
		"length: 60\n"
		"magic: CCSF\n"
		"name: xasc00\n"
		"version: 0x0100\n"
		"frames: 1\n"
		"count: 1\n"
		"word 0: 0x00000000\n");
	every_length(&c, 0x100);

	make_index(&c);
	char *text = decode(&c, 0x100);
	expect_line(text, "file_count: 2");
	expect_line(text, "object_count: 3");
	expect_line(text, "file 0: ");
	expect_line(text, "file 1:  D:\\art\\x 100%25%82%A0.max");
	expect_line(text, "object 0: #0 file 0");
	expect_line(text, "object 1: CLT_xasc00 file 1");
	/* Without names, the raw bytes are escaped. */
	free(text);
	text = decode_with(&c, c.n, 0x100, NULL);
	expect_line(text, "object 2: TEX_%82%A0 file 1");
	free(text);
	every_length(&c, 0x100);
}

static void test_hit(void **state)
{
	(void)state;
	struct chunk c;
	make_hit(&c);
	char *text = decode(&c, 0x100);
	expect_line(text, "hit: 8 (HIT_floor)");
	expect_line(text, "parent: 0");
	expect_line(text, "groups: 2");
	expect_line(text, "vertices: 4");
	expect_line(text, "group 1: vertices 2 attribute 0x00000011");
	expect_line(text, "group 1 vertex 1: position 1 1 0.25");
	assert_string_equal(last_line(text), "group 1 normals: 24 bytes\n");
	free(text);
	every_length(&c, 0x100);
}

static void test_pcm(void **state)
{
	(void)state;
	struct chunk c;
	make_pcm(&c);
	expect_text(&c, 0x100,
		"kind: 0x2200 (pcm)\n"
		"tag: 0x0000\n"
		"size: 12\n"
		"length: 56\n"
		"id: 9\n"
		"type: 1\n"
		"bits: 16\n"
		"track: 2\n"
		"blocks: 2\n"
		"block_words: 4\n"
		"data: 32 bytes\n");
	every_length(&c, 0x100);

	/* Counts whose product does not fit in 64 bits. */
	memset(c.b + 16, 0xff, 8);
	char *text = decode(&c, 0x100);
	assert_string_equal(last_line(text), "error: data needs "
			    "18446744073709551615 bytes, 32 left\n");
	free(text);

	make_f_pcm(&c);
	text = decode(&c, 0x100);
	expect_line(text, "blocks: 3");
	expect_line(text, "block_words: 1");
	expect_line(text, "data: 12 bytes");
	free(text);
	every_length(&c, 0x100);
}

static void test_frame_records(void **state)
{
	(void)state;
	struct chunk c;
	make_f_obj(&c);
	expect_text(&c, 0x100,
		"kind: 0x0101 (f_obj)\n"
		"tag: 0xcccc\n"
		"size: 13\n"
		"length: 60\n"
		"object: 6 (OBJ_kite)\n"
		"flag: 0x00000000\n"
		"pos: -1.5 -0.5 0.5\n"
		"rot: 1.5 2.5 3.5\n"
		"scale: 4.5 5.5 6.5\n"
		"tp: 1\n"
		"dispSW: 0x00000001\n");
	every_length(&c, 0x100);

	make_f_morpher(&c);
	char *text = decode(&c, 0x100);
	expect_line(text, "morpher: 6 (OBJ_kite)");
	expect_line(text, "targets: 2");
	expect_line(text, "target 0: model 3 (MDL_kite) weight 0.5");
	expect_line(text, "target 1: model 5 (MDL_kite_0) weight 0.25");
	free(text);
	every_length(&c, 0x100);

	begin(&c, CCSF_TOP);
	put32(&c, 0xffffffff);
	end(&c);
	text = decode(&c, 0x100);
	assert_string_equal(last_line(text), "frame: -1\n");
	free(text);
	every_length(&c, 0x100);

	make_f_camera(&c);
	text = decode(&c, 0x100);
	expect_line(text, "flag: 0x000000f6");
	expect_line(text, "pos_z: -10.5");
	expect_line(text, "fov: 45");
	expect_no_line_starting(text, "pos_x:");
	free(text);
	every_length(&c, 0x100);

	begin(&c, CCSF_F_NOTE);
	put32(&c, 6);
	put32(&c, 0x8005);
	put32(&c, 1);
	end(&c);
	text = decode(&c, 0x100);
	expect_line(text, "event: 0x00008005");
	expect_line(text, "param: 1");
	free(text);
	every_length(&c, 0x100);
}

static void test_small_setup_chunks(void **state)
{
	(void)state;
	struct chunk c;
	make_obj(&c, 0x96);
	char *text = decode(&c, 0x96);
	expect_line(text, "object: 6 (OBJ_kite)");
	expect_line(text, "model: 3 (MDL_kite)");
	expect_line(text, "shadow_model: 0");
	free(text);
	every_length(&c, 0x96);

	make_obj(&c, 0x95);
	text = decode(&c, 0x95);
	expect_no_line_starting(text, "shadow_model:");
	free(text);
	every_length(&c, 0x95);

	make_clump(&c);
	text = decode(&c, 0x100);
	expect_line(text, "nodes: 2");
	expect_line(text, "node 0: 6 (OBJ_kite)");
	expect_line(text, "node 1: 99");
	free(text);
	every_length(&c, 0x100);

	make_layer(&c);
	text = decode(&c, 0x100);
	expect_line(text, "layers: 2");
	expect_line(text, "layer 0: kind 0 object 6 (OBJ_kite)");
	expect_line(text, "layer 1: kind 1 object 0");
	free(text);
	every_length(&c, 0x100);

	make_fbpage(&c);
	text = decode(&c, 0x100);
	expect_line(text, "object: 7 (FBR_%E6)");
	expect_line(text, "page 0: px 8 py 16 pw 1 ph 2 type 0x13");
	free(text);
	every_length(&c, 0x100);

	make_light(&c);
	text = decode(&c, 0x100);
	expect_line(text, "type: 4 (omni)");
	free(text);
	every_length(&c, 0x100);

	begin(&c, CCSF_SETUP);
	end(&c);
	c.b[2] = c.b[3] = 0;
	expect_text(&c, 0x100,
		"kind: 0x0003 (setup)\ntag: 0x0000\nsize: 0\nlength: 8\n");
	every_length(&c, 0x100);
}

/* Fixed-size chunks: payload words in, one line of the text out. */
static void test_fixed_chunks(void **state)
{
	(void)state;
	static const struct {
		uint16_t kind;
		unsigned words;
		uint32_t w[9];
		const char *line;
	} cases[] = {
		{ CCSF_FRAME, 1, { 1 }, "frames: 1" },
		{ CCSF_MATERIAL, 4, { 4, 2, 0x3f000000, 0x00200010 },
		  "crop_v: 32" },
		{ CCSF_CAMERA, 1, { 6 }, "camera: 6 (OBJ_kite)" },
		{ CCSF_EXTOBJ, 3, { 6, 0, 3 }, "target: 3 (MDL_kite)" },
		{ CCSF_BBOX, 8, { 6, 3, 0, 0, 0, 0x3f800000, 0x40000000,
				  0xbf800000 }, "max: 1 2 -1" },
		{ CCSF_FBRECT, 4, { 7, 0xcdcdcd01, 512, 0x02000200 },
		  "h: 512" },
		{ CCSF_DUMMYPOS, 4, { 6, 0, 0x3f800000, 0 }, "pos: 0 1 0" },
		{ CCSF_DUMMYPOSROT, 7, { 6, 0, 0, 0, 0x42b40000, 0, 0 },
		  "rot: 90 0 0" },
		{ CCSF_MORPHER, 2, { 6, 3 }, "model: 3 (MDL_kite)" },
		{ CCSF_OBJ2, 5, { 6, 3, 0, 0, 0 }, "flags: 0x00000003" },
		{ CCSF_F_AMBIENT, 1, { 0x00402010 }, "colour: 16 32 64 0" },
		{ CCSF_F_SHADOW, 5, { 6, 0, 0, 0x42b40000, 0x3f000000 },
		  "alpha: 0.5" },
		{ CCSF_F_MATERIAL, 2, { 4, 2 }, "flag: 0x00000002" },
		{ CCSF_F_MATERIAL, 4, { 4, 0, 0x3e800000, 0 }, "u: 0.25" },
		{ CCSF_F_DISTANTLIGHT, 6, { 6, 0, 0, 0, 0, 0x80808080 },
		  "colour: 128 128 128 128" },
		{ CCSF_F_DISTANTLIGHT, 7, { 6, 0x20, 0, 0, 0, 0, 0x3f000000 },
		  "intensity: 0.5" },
		{ CCSF_F_OMNILIGHT, 9, { 6, 0, 0, 0, 0, 0, 0x3f800000,
					 0x41200000, 0x41a00000 },
		  "far_end: 20" },
		{ CCSF_F_CAMERA, 2, { 6, 1 }, "flag: 0x00000001" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct chunk c;
		begin(&c, cases[i].kind);
		for (unsigned w = 0; w < cases[i].words; w++)
			put32(&c, cases[i].w[w]);
		end(&c);
		char *text = decode(&c, 0x100);
		expect_line(text, cases[i].line);
		assert_null(strstr(text, "error:"));
		assert_null(strstr(text, "trailing:"));
		free(text);
		every_length(&c, 0x100);
	}
}

static void test_short_header_and_extra_bytes(void **state)
{
	(void)state;
	struct chunk c;
	make_obj(&c, 0x100);
	char *text = decode_with(&c, 3, 0x100, test_name);
	assert_string_equal(text, "kind: 0x0100 (obj)\n"
			    "error: tag needs 2 bytes, 1 left\n");
	free(text);

	/* Bytes after the last field are counted, not dropped silently. */
	put32(&c, 0);
	text = decode(&c, 0x100);
	assert_string_equal(last_line(text), "trailing: 4 bytes\n");
	free(text);

	/* A kind without a decoder: the header lines and the payload size. */
	begin(&c, CCSF_ANIME);
	put32(&c, 1);
	end(&c);
	text = decode(&c, 0x100);
	assert_string_equal(text, "kind: 0x0700 (anime)\ntag: 0xcccc\n"
			    "size: 1\nlength: 12\npayload: 4 bytes\n");
	free(text);

	begin(&c, 0x1234);
	end(&c);
	text = decode(&c, 0x100);
	assert_string_equal(text, "kind: 0x1234\ntag: 0xcccc\nsize: 0\n"
			    "length: 8\n");
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
		cmocka_unit_test(test_model_rigid_without_arrays),
		cmocka_unit_test(test_model_old_version_masks_mtype),
		cmocka_unit_test(test_model_bone),
		cmocka_unit_test(test_model_skin),
		cmocka_unit_test(test_model_shadow),
		cmocka_unit_test(test_model_lying_counts),
		cmocka_unit_test(test_header_and_index),
		cmocka_unit_test(test_hit),
		cmocka_unit_test(test_pcm),
		cmocka_unit_test(test_frame_records),
		cmocka_unit_test(test_small_setup_chunks),
		cmocka_unit_test(test_fixed_chunks),
		cmocka_unit_test(test_short_header_and_extra_bytes),
		cmocka_unit_test(test_allocation_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
