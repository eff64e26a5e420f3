/* SPDX-License-Identifier: MIT */
/* test_layout.c - ccsf/layout.c: where mmats and levels lie, on hand-made
 * bytes, and that lying counts neither wrap nor read past the buffer. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ccsf/ccsf.h"
#include "ccsf/layout.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

/* A model header of `mmats` mmats under `mtype` in buf. */
static void model_head(uint8_t *buf, uint16_t mtype, uint16_t mmats)
{
	memset(buf, 0, CCSF_MODEL_HEAD);
	put16(buf, CCSF_MODEL);
	put16(buf + 2, 0xcccc);
	put32(buf + 8, 7);                      /* model object */
	put32(buf + 12, 0x3f800000);            /* vertexScale 1.0 */
	put16(buf + 16, mtype);
	put16(buf + 18, mmats);
}

/* Describes in an exact-sized copy, so ASan sees any read past it. */
static int describe_exact(const uint8_t *p, size_t len, uint16_t mtype,
			  struct ccsf_mmat *mm)
{
	uint8_t *copy = malloc(len ? len : 1);
	assert_non_null(copy);
	memcpy(copy, p, len);
	int rc = ccsf_mmat_describe(copy, len, mtype, CCSF_MODEL_HEAD, mm);
	free(copy);
	return rc;
}

static void rigid_arrays(void **state)
{
	(void)state;
	uint8_t buf[128] = { 0 };
	model_head(buf, 0, 1);
	put32(buf + 36, 2);                     /* vertexNum */
	struct ccsf_mmat mm;
	assert_int_equal(describe_exact(buf, 76, 0, &mm), 0);
	assert_int_equal(mm.kind, CCSF_MMAT_RIGID);
	assert_int_equal(mm.body, 40);
	assert_int_equal(mm.array[CCSF_A_POSITION].at, 40);
	assert_int_equal(mm.array[CCSF_A_POSITION].bytes, 12);
	assert_int_equal(mm.array[CCSF_A_NORMAL].at, 52);
	assert_int_equal(mm.array[CCSF_A_COLOUR].at, 60);
	assert_int_equal(mm.array[CCSF_A_ST].at, 68);
	assert_int_equal(mm.end, 76);
	/* no normals, colours or ST: positions only, padded to 4 */
	put32(buf + 36, 3);
	assert_int_equal(describe_exact(buf, 60, 0x640, &mm), 0);
	assert_int_equal(mm.array[CCSF_A_NORMAL].elem, 0);
	assert_int_equal(mm.array[CCSF_A_POSITION].bytes, 20);
	assert_int_equal(mm.end, 60);
	assert_int_equal(describe_exact(buf, 59, 0x640, &mm), -EIO);
	assert_int_equal(mm.fault, CCSF_MMAT_CUT_BODY);
	assert_int_equal(ccsf_array_fit(&mm.array[CCSF_A_POSITION], 59), 3);
}

static void skin_ends(void **state)
{
	(void)state;
	uint8_t buf[128] = { 0 };
	model_head(buf, 5, 1);
	put32(buf + 32, 5);                     /* vertexNum */
	put32(buf + 36, 3);                     /* offsetNum: a skin */
	put16(buf + 40 + 6, 0x100);             /* entry 0 goes on */
	put16(buf + 48 + 6, 0x300);             /* entry 1 ends vertex 0 */
	put16(buf + 56 + 6, 0x200);             /* entry 2 ends vertex 1 */
	struct ccsf_mmat mm;
	size_t whole = 40 + 24 + 12 + 8;
	assert_int_equal(describe_exact(buf, whole, 5, &mm), 0);
	assert_int_equal(mm.kind, CCSF_MMAT_SKIN);
	assert_int_equal(mm.ends, 2);
	assert_int_equal(mm.array[CCSF_A_NORMAL].at, 64);
	assert_int_equal(mm.array[CCSF_A_ST].at, 76);
	assert_int_equal(mm.end, whole);
	/* entries cut: the vertices cannot be counted */
	assert_int_equal(describe_exact(buf, 60, 5, &mm), -EIO);
	assert_int_equal(mm.fault, CCSF_MMAT_CUT_BODY);
	assert_int_equal(mm.ends, 0);
	/* offsetNum 0: a bone mmat with its node slot first */
	put32(buf + 36, 0);
	assert_int_equal(describe_exact(buf, 128, 5, &mm), 0);
	assert_int_equal(mm.kind, CCSF_MMAT_BONE);
	assert_int_equal(mm.array[CCSF_A_POSITION].at, 44);
	assert_int_equal(mm.end, 44 + 32 + 20 + 20);
}

static void shadow_counts(void **state)
{
	(void)state;
	uint8_t buf[64] = { 0 };
	model_head(buf, 8, 1);
	struct ccsf_mmat mm;
	assert_int_equal(describe_exact(buf, 36, 8, &mm), 0);
	assert_int_equal(mm.kind, CCSF_MMAT_SHADOW);
	assert_int_equal(mm.end, 36);           /* vNum 0: nothing follows */
	put32(buf + 32, 0xffffffff);            /* iNum -1 */
	assert_int_equal(describe_exact(buf, 36, 8, &mm), -EIO);
	assert_int_equal(mm.fault, CCSF_MMAT_NEGATIVE);
	assert_int_equal(describe_exact(buf, 34, 8, &mm), -EIO);
	assert_int_equal(mm.fault, CCSF_MMAT_CUT_WORDS);
}

static void lying_counts(void **state)
{
	(void)state;
	uint8_t buf[64] = { 0 };
	model_head(buf, 0, 1);
	put32(buf + 36, 0xffffffff);
	struct ccsf_mmat mm;
	assert_int_equal(describe_exact(buf, 64, 0, &mm), -EIO);
	assert_int_equal(mm.fault, CCSF_MMAT_CUT_BODY);
	/* 2^32 - 1 vertices of 18 bytes: far past, and not wrapped */
	assert_true(mm.end > 0xffffffffull * 18);
	assert_int_equal(ccsf_array_fit(&mm.array[CCSF_A_POSITION], 64), 4);
	assert_int_equal(ccsf_array_fit(&mm.array[CCSF_A_ST], 64), 0);
	/* an offset past the buffer is a cut, not a read */
	assert_int_equal(ccsf_mmat_describe(buf, 64, 0, 1000, &mm), -EIO);
	assert_int_equal(mm.fault, CCSF_MMAT_CUT_WORDS);
}

static void iterator(void **state)
{
	(void)state;
	uint8_t buf[128] = { 0 };
	model_head(buf, 0x640, 2);
	put32(buf + 36, 2);                     /* mmat 0: 2 vertices */
	put32(buf + 60, 1);                     /* mmat 1 at 52: 1 vertex */
	struct ccsf_model m;
	assert_int_equal(ccsf_model_head(buf, 72, 0x100, &m), 0);
	assert_int_equal(m.mmats, 2);
	struct ccsf_mmat_iter it;
	struct ccsf_mmat mm;
	ccsf_mmat_begin(&it, buf, 72, &m);
	assert_int_equal(ccsf_mmat_next(&it, &mm), 1);
	assert_int_equal(mm.end, 52);
	assert_int_equal(ccsf_mmat_next(&it, &mm), 1);
	assert_int_equal(mm.end, 72);
	assert_int_equal(ccsf_mmat_next(&it, &mm), 0);
	ccsf_mmat_begin(&it, buf, 71, &m);
	assert_int_equal(ccsf_mmat_next(&it, &mm), 1);
	assert_int_equal(ccsf_mmat_next(&it, &mm), -EIO);
	assert_int_equal(ccsf_mmat_next(&it, &mm), -EIO);
}

static void model_header(void **state)
{
	(void)state;
	uint8_t buf[CCSF_MODEL_HEAD];
	model_head(buf, 0x0602, 1);
	struct ccsf_model m;
	assert_int_equal(ccsf_model_head(buf, sizeof buf, 0x96, &m), 0);
	assert_int_equal(m.mtype, 0x02);        /* the low byte below 0x100 */
	assert_true(ccsf_model_layout_unknown(m.mtype, m.mmats));
	assert_false(ccsf_model_layout_unknown(m.mtype, 0));
	assert_int_equal(ccsf_model_head(buf, sizeof buf, 0x100, &m), 0);
	assert_int_equal(m.mtype, 0x0602);
	assert_int_equal(m.object, 7);
	assert_int_equal(ccsf_model_head(buf, sizeof buf - 1, 0x100, &m), -EIO);
	assert_string_equal(ccsf_mmat_kind_name(CCSF_MMAT_SKIN), "skin");
}

static void texture_levels(void **state)
{
	(void)state;
	uint8_t buf[64] = { 0 };
	put16(buf, CCSF_TEXTURE);
	buf[22] = 1;                            /* mipmap at 0x100 */
	struct ccsf_texture t;
	assert_int_equal(ccsf_texture_head(buf, 28, 0x100, &t), 0);
	assert_int_equal(t.first_level, 28);
	assert_int_equal(t.levels, 2);
	assert_int_equal(ccsf_texture_head(buf, 24, 0x90, &t), 0);
	assert_int_equal(t.first_level, 24);    /* no blt_group */
	assert_int_equal(ccsf_texture_head(buf, 20, 0x8f, &t), 0);
	assert_int_equal(t.first_level, 20);    /* no mipmap .. th */
	assert_int_equal(t.levels, 1);
	assert_int_equal(ccsf_texture_head(buf, 27, 0x100, &t), -EIO);
	put32(buf + 32, 2);                     /* level 0: 2 words */
	struct ccsf_level lv;
	assert_int_equal(ccsf_level_describe(buf, 44, 28, &lv), 0);
	assert_int_equal(lv.pixels, 36);
	assert_int_equal(lv.end, 44);
	assert_int_equal(ccsf_level_describe(buf, 43, 28, &lv), -ERANGE);
	assert_int_equal(ccsf_level_describe(buf, 35, 28, &lv), -EIO);
	put32(buf + 32, 0xffffffff);
	assert_int_equal(ccsf_level_describe(buf, 64, 28, &lv), -ERANGE);
	assert_int_equal(lv.end, 36 + 4 * 0xffffffffull);
	assert_int_equal(ccsf_level_describe(buf, 64, 100, &lv), -EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rigid_arrays),
		cmocka_unit_test(skin_ends),
		cmocka_unit_test(shadow_counts),
		cmocka_unit_test(lying_counts),
		cmocka_unit_test(iterator),
		cmocka_unit_test(model_header),
		cmocka_unit_test(texture_levels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
