/* SPDX-License-Identifier: MIT */
/* test_ccsf_rules.c - the texture and model length rules of the CCSF walk
 * (doc/formats/ccsf.md, Chunk lengths) on bytes written by hand, and the
 * generator checked to write the same bytes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ccsf/ccsf.h"
#include "ccsw.h"
#include "ccsf_build.h"

/* ---- the length rules on hand-made bytes ---- */

/* ccsf_chunk_length() on a copy of exactly n bytes, so ASan sees any read
 * past its end. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(texture_rule_by_version),
		cmocka_unit_test(bone_model_rule),
		cmocka_unit_test(rigid_and_shadow_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
