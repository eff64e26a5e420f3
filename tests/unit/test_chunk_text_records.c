/* SPDX-License-Identifier: MIT */
/* test_chunk_text_records.c - the <kind>.txt decoders on hand-built
 * chunks: the header and index, hits, sound, frame records, the small
 * setup chunks, and chunks cut short or with bytes to spare. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ccsf/ccsf.h"
#include "chunk_build.h"
#include "decode/text/chunk_text.h"

/* ---- samples ----------------------------------------------------------- */

/* Bytes as they are, for the magic, names and paths. */
static void put_bytes(struct chunk *c, const void *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put8(c, ((const uint8_t *)s)[i]);
}

/* Word i of its `words` is i * 0x10203. */
static void make_header(struct chunk *c, uint32_t words)
{
	chunk_begin(c, CCSF_HEADER);
	put_bytes(c, "CCSF", 4);
	uint8_t name[32] = "xasc00";
	put_bytes(c, name, sizeof name);
	put16(c, 0x100);
	pad4(c, 0);
	put32(c, 1);                    /* frames */
	put32(c, words);                /* count */
	for (uint32_t i = 0; i < words; i++)
		put32(c, i * 0x10203u);
	chunk_end(c);
}

static void make_index(struct chunk *c)
{
	chunk_begin(c, CCSF_INDEX);
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
	chunk_end(c);
}

static void make_hit(struct chunk *c)
{
	chunk_begin(c, CCSF_HIT);
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
	chunk_end(c);
}

static void make_pcm(struct chunk *c)
{
	chunk_begin(c, CCSF_PCM);
	put32(c, 9);
	put8(c, 1);
	put8(c, 16);
	put8(c, 2);
	put8(c, 0);
	put32(c, 2);                    /* blocks */
	put32(c, 4);                    /* words a block (256 on the discs) */
	for (int i = 0; i < 8; i++)
		put32(c, 0x7fff8000);
	chunk_end(c);
	c->b[2] = c->b[3] = 0;          /* the streams write tag 0 on Pcm */
}

static void make_f_pcm(struct chunk *c)
{
	chunk_begin(c, CCSF_F_PCM);
	put32(c, 9);
	put16(c, 3);
	put16(c, 0);
	put32(c, 1);
	for (int i = 0; i < 3; i++)
		put32(c, 0);
	chunk_end(c);
}

static void make_f_morpher(struct chunk *c)
{
	chunk_begin(c, CCSF_F_MORPHER);
	put32(c, 6);
	put16(c, 2);
	put16(c, 0);
	put32(c, 3);
	putf(c, 0.5f);
	put32(c, 5);
	putf(c, 0.25f);
	chunk_end(c);
}

static void make_f_obj(struct chunk *c)
{
	chunk_begin(c, CCSF_F_OBJ);
	put32(c, 6);
	put32(c, 0);
	for (int i = 0; i < 9; i++)
		putf(c, (float)i - 1.5f);
	putf(c, 1.0f);
	put32(c, 1);
	chunk_end(c);
}

static void make_clump(struct chunk *c)
{
	chunk_begin(c, CCSF_CLUMP);
	put32(c, 6);
	put16(c, 2);
	put16(c, 0xcdcd);
	put32(c, 6);
	put32(c, 99);
	chunk_end(c);
}

static void make_layer(struct chunk *c)
{
	chunk_begin(c, CCSF_LAYER);
	put16(c, 2);
	put16(c, 0);
	put8(c, 0);
	pad4(c, 0);
	put32(c, 6);
	put8(c, 1);
	pad4(c, 0);
	put32(c, 0);
	chunk_end(c);
}

static void make_fbpage(struct chunk *c)
{
	chunk_begin(c, CCSF_FBPAGE);
	put32(c, 7);
	put32(c, 1);
	put8(c, 8);
	put8(c, 16);
	put8(c, 1);
	put8(c, 2);
	put8(c, 0x13);
	pad4(c, 0);
	chunk_end(c);
}

static void make_obj(struct chunk *c, uint16_t version)
{
	chunk_begin(c, CCSF_OBJ);
	put32(c, 6);
	put32(c, 0);
	put32(c, 3);
	if (version >= 0x96)
		put32(c, 0);
	chunk_end(c);
}

static void make_light(struct chunk *c)
{
	chunk_begin(c, CCSF_LIGHT);
	put32(c, 6);
	put16(c, 4);
	put16(c, 0);
	chunk_end(c);
}

static void make_f_camera(struct chunk *c)
{
	chunk_begin(c, CCSF_F_CAMERA);
	put32(c, 6);
	put32(c, 0x1fe & ~(1u << 3 | 1u << 8));  /* pos_z and fov only */
	putf(c, -10.5f);
	putf(c, 45.0f);
	chunk_end(c);
}

/* ---- tests ------------------------------------------------------------- */

static void test_header_and_index(void **state)
{
	(void)state;
	struct chunk c;
	make_header(&c, 1);
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

/* A listing sums the lines of a palette's or a header's records at once
 * (chunk_dec.c's count_record_lines): the lengths decode() compares,
 * text made against text counted, over 256 colours whose every channel
 * takes one, two and three digits and whose numbers reach three, and
 * over a header's words; cut at every length, where the sum must stop
 * at the last whole record. */
static void test_records_counted_at_once(void **state)
{
	(void)state;
	struct chunk c;
	chunk_begin(&c, CCSF_CLUT);
	put32(&c, 1);
	put32(&c, 9);
	put8(&c, 0x05);
	put8(&c, 0);
	put8(&c, 0);
	put8(&c, 112);
	put16(&c, 896);
	put16(&c, 992);
	put32(&c, 256);
	for (unsigned i = 0; i < 256; i++) {
		put8(&c, i);
		put8(&c, 255 - i);
		put8(&c, (i * 7) & 0xff);
		put8(&c, i % 3 ? 128 : 5);
	}
	chunk_end(&c);
	char *text = decode(&c, 0x100);
	expect_line(text, "colour 0: 0 255 0 5");
	expect_line(text, "colour 9: 9 246 63 5");
	expect_line(text, "colour 100: 100 155 188 128");
	assert_string_equal(last_line(text), "colour 255: 255 0 249 5\n");
	free(text);
	every_length(&c, 0x100);

	make_header(&c, 12);
	text = decode(&c, 0x100);
	expect_line(text, "word 11: 0x000b1621");
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

	chunk_begin(&c, CCSF_TOP);
	put32(&c, 0xffffffff);
	chunk_end(&c);
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

	chunk_begin(&c, CCSF_F_NOTE);
	put32(&c, 6);
	put32(&c, 0x8005);
	put32(&c, 1);
	chunk_end(&c);
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

	chunk_begin(&c, CCSF_SETUP);
	chunk_end(&c);
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
		chunk_begin(&c, cases[i].kind);
		for (unsigned w = 0; w < cases[i].words; w++)
			put32(&c, cases[i].w[w]);
		chunk_end(&c);
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
	chunk_begin(&c, CCSF_ANIME);
	put32(&c, 1);
	chunk_end(&c);
	text = decode(&c, 0x100);
	assert_string_equal(text, "kind: 0x0700 (anime)\ntag: 0xcccc\n"
			    "size: 1\nlength: 12\npayload: 4 bytes\n");
	free(text);

	chunk_begin(&c, 0x1234);
	chunk_end(&c);
	text = decode(&c, 0x100);
	assert_string_equal(text, "kind: 0x1234\ntag: 0xcccc\nsize: 0\n"
			    "length: 8\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_and_index),
		cmocka_unit_test(test_records_counted_at_once),
		cmocka_unit_test(test_hit),
		cmocka_unit_test(test_pcm),
		cmocka_unit_test(test_frame_records),
		cmocka_unit_test(test_small_setup_chunks),
		cmocka_unit_test(test_fixed_chunks),
		cmocka_unit_test(test_short_header_and_extra_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
