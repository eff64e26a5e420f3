/* SPDX-License-Identifier: MIT */
/* test_bytes.c - the bounded cursor every parser reads through. */
#include "config.h"

#include "testutil.h"
#include "util/bytes.h"

static void reads_little_endian(void **state)
{
	(void)state;
	const uint8_t b[] = { 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00,
			      0x80, 0x3f };
	struct cursor c = cursor_make(b, sizeof b);
	assert_int_equal(cur_u16(&c), 0x1234);
	assert_int_equal(cur_u32(&c), 0x12345678);
	assert_int_equal(cur_u16(&c), 0);
	assert_int_equal(cur_u16(&c), 0x3f80);
	assert_false(c.bad);
	assert_int_equal(cur_left(&c), 0);
}

static void read_past_end_is_zero_and_bad(void **state)
{
	(void)state;
	const uint8_t b[] = { 1, 2, 3 };
	struct cursor c = cursor_make(b, sizeof b);
	assert_int_equal(cur_u32(&c), 0);
	assert_true(c.bad);
	/* Once bad, everything after reads as zero, even what would fit. */
	assert_int_equal(cur_u8(&c), 0);
	assert_null(cur_take(&c, 1));
}

static void huge_take_does_not_wrap(void **state)
{
	(void)state;
	const uint8_t b[8] = { 0 };
	struct cursor c = cursor_make(b, sizeof b);
	(void)cur_u32(&c);
	assert_null(cur_take(&c, SIZE_MAX - 2));
	assert_true(c.bad);
}

static void align4_pads_from_start(void **state)
{
	(void)state;
	const uint8_t b[8] = { 9, 0, 0, 0, 7, 0, 0, 0 };
	struct cursor c = cursor_make(b, sizeof b);
	assert_int_equal(cur_u8(&c), 9);
	cur_align4(&c);
	assert_int_equal(c.pos, 4);
	cur_align4(&c);
	assert_int_equal(c.pos, 4);
	assert_int_equal(cur_u32(&c), 7);
}

static void float_bits(void **state)
{
	(void)state;
	const uint8_t b[] = { 0x00, 0x00, 0xc0, 0x3f };        /* 1.5f */
	assert_true(rd_f32le(b) == 1.5f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_little_endian),
		cmocka_unit_test(read_past_end_is_zero_and_bad),
		cmocka_unit_test(huge_take_does_not_wrap),
		cmocka_unit_test(align4_pads_from_start),
		cmocka_unit_test(float_bits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
