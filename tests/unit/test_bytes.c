/* SPDX-License-Identifier: MIT */
/* test_bytes.c - the bounded cursor every parser reads through. */
#include "config.h"

#include "testutil.h"
#include "util/bytes.h"
#include "util/numfmt.h"
#include "util/vec.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

static void writers_round_trip(void **state)
{
	(void)state;
	uint8_t b[10];
	wr_u16le(b, 0xbeef);
	wr_u32le(b + 2, 0x12345678u);
	wr_f32le(b + 6, -1.5f);
	assert_int_equal(b[0], 0xef);
	assert_int_equal(b[1], 0xbe);
	assert_int_equal(b[2], 0x78);
	assert_int_equal(b[5], 0x12);
	assert_int_equal(rd_u16le(b), 0xbeef);
	assert_int_equal(rd_u32le(b + 2), 0x12345678u);
	assert_true(rd_f32le(b + 6) == -1.5f);
}

static void vec_grows_by_doubling(void **state)
{
	(void)state;
	uint64_t *v = NULL;
	size_t cap = 0;
	assert_int_equal(vec_reserve(v, &cap, 1, 4), 0);
	assert_int_equal(cap, 4);
	assert_int_equal(vec_reserve(v, &cap, 4, 4), 0);
	assert_int_equal(cap, 4);
	assert_int_equal(vec_reserve(v, &cap, 9, 4), 0);
	assert_int_equal(cap, 16);
	for (size_t i = 0; i < 16; i++)
		v[i] = i * 3;
	assert_int_equal(v[15], 45);
	free(v);
}

static void vec_refuses_overflow_and_keeps_the_array(void **state)
{
	(void)state;
	uint64_t *v = NULL;
	size_t cap = 0;
	assert_int_equal(vec_reserve(v, &cap, 2, 2), 0);
	v[1] = 7;
	uint64_t *before = v;
	assert_int_equal(vec_reserve(v, &cap, SIZE_MAX / 4, 2), -ENOMEM);
	assert_int_equal(vec_reserve(v, &cap, SIZE_MAX, 2), -ENOMEM);
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 2);
	assert_int_equal(v[1], 7);
	free(v);
}

static void sizes_as_options_take_them(void **state)
{
	(void)state;
	assert_int_equal(numfmt_parse_size("4096"), 4096);
	assert_int_equal(numfmt_parse_size("256M"), 256u << 20);
	assert_int_equal(numfmt_parse_size("64MiB"), 64u << 20);
	assert_int_equal(numfmt_parse_size("1g"), 1u << 30);
	assert_int_equal(numfmt_parse_size("16kB"), 16u << 10);
	assert_int_equal(numfmt_parse_size(""), 0);
	assert_int_equal(numfmt_parse_size("M"), 0);
	assert_int_equal(numfmt_parse_size("-1"), 0);
	assert_int_equal(numfmt_parse_size("12T"), 0);
	assert_int_equal(numfmt_parse_size("99999999999999999999"), 0);
	assert_int_equal(numfmt_parse_size("17179869184G"), 0);
}

/* Integers as printf prints them, at every digit count and at the
 * edges of the 32-bit path; numfmt_digits keeps the last n digits. */
static void integers_as_printf_prints_them(void **state)
{
	(void)state;
	char got[32], want[32];
	uint64_t p = 1;
	for (int k = 0; k <= 20; k++) {
		uint64_t around[] = { p - 1, p, p + 1 };
		for (int j = 0; j < 3; j++) {
			*numfmt_uint(got, around[j]) = '\0';
			snprintf(want, sizeof want, "%llu",
				 (unsigned long long)around[j]);
			assert_string_equal(got, want);
			assert_int_equal(numfmt_uint_len(around[j]),
					 strlen(want));
			int64_t s = -(int64_t)(around[j] >> 1);
			snprintf(want, sizeof want, "%lld", (long long)s);
			assert_int_equal(numfmt_int_len(s), strlen(want));
		}
		if (k < 19)
			p *= 10;
	}
	uint64_t edges[] = { 0, UINT32_MAX, (uint64_t)UINT32_MAX + 1,
			     UINT64_MAX };
	for (int j = 0; j < 4; j++) {
		*numfmt_uint(got, edges[j]) = '\0';
		snprintf(want, sizeof want, "%llu", (unsigned long long)edges[j]);
		assert_string_equal(got, want);
		assert_int_equal(numfmt_uint_len(edges[j]), strlen(want));
	}
	assert_int_equal(numfmt_int_len(INT64_MIN), 20);
	char tail[8] = "xxxxxxx";
	numfmt_digits(tail + 7, 12345678901234567ull, 7);
	assert_memory_equal(tail, "1234567", 7);
	numfmt_digits(tail + 3, 5, 3);
	assert_memory_equal(tail, "005", 3);
}

/* The 32-bit path writes eight digits at once, each from its own lane
 * of one multiply: a million values spread over every length and every
 * digit in every place (the stride is prime to ten), each against
 * printf, with the bytes after the text left alone. */
static void every_lane_of_the_eight_digit_path(void **state)
{
	(void)state;
	char got[32], want[32];
	for (uint64_t v = 0; v <= UINT32_MAX; v += v < 100000 ? 1 : 4093) {
		memset(got, '#', sizeof got);
		char *end = numfmt_uint(got, v);
		int n = snprintf(want, sizeof want, "%llu", (unsigned long long)v);
		if (end - got != n || memcmp(got, want, (size_t)n) != 0)
			fail_msg("%llu written as %.*s", (unsigned long long)v,
				 (int)(end - got), got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_little_endian),
		cmocka_unit_test(read_past_end_is_zero_and_bad),
		cmocka_unit_test(huge_take_does_not_wrap),
		cmocka_unit_test(align4_pads_from_start),
		cmocka_unit_test(float_bits),
		cmocka_unit_test(writers_round_trip),
		cmocka_unit_test(vec_grows_by_doubling),
		cmocka_unit_test(vec_refuses_overflow_and_keeps_the_array),
		cmocka_unit_test(sizes_as_options_take_them),
		cmocka_unit_test(integers_as_printf_prints_them),
		cmocka_unit_test(every_lane_of_the_eight_digit_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
