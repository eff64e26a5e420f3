/* SPDX-License-Identifier: MIT */
/* test_names.c - Shift-JIS to UTF-8, escaping of what a name may not
 * hold. */
#include "config.h"

#include <string.h>

#include "testutil.h"
#include "util/names.h"

static char out[NAME_MAX_OUT(64)];

static const char *conv(const void *raw, size_t n)
{
	struct name_conv *nc = name_conv_open();
	assert_non_null(nc);
	name_from_sjis(nc, raw, n, out);
	name_conv_close(nc);
	return out;
}

static void ascii_passes(void **state)
{
	(void)state;
	assert_string_equal(conv("TEX_xasc00", 10), "TEX_xasc00");
	/* The fixed-size field stops at its NUL. */
	assert_string_equal(conv("MDL_kite\0junk", 13), "MDL_kite");
}

static void shift_jis_converts(void **state)
{
	(void)state;
	/* FBR_描画領域 in code page 932 */
	const uint8_t raw[] = { 'F', 'B', 'R', '_', 0x95, 0x60, 0x89, 0xe6,
				0x97, 0xcc, 0x88, 0xe6 };
	assert_string_equal(conv(raw, sizeof raw), "FBR_描画領域");
	/* Half-width katakana is one byte in, three out. */
	const uint8_t kana[] = { 0xb1, 0xb2 };
	assert_string_equal(conv(kana, sizeof kana), "ｱｲ");
	/* A 30-byte field of two-byte characters fits its output bound. */
	uint8_t full[30];
	for (int i = 0; i < 30; i += 2) {
		full[i] = 0x88;
		full[i + 1] = 0xe6;
	}
	assert_int_equal(strlen(conv(full, sizeof full)), 15 * 3);
}

static void unsafe_bytes_escape(void **state)
{
	(void)state;
	assert_string_equal(conv("a/b", 3), "a%2Fb");
	assert_string_equal(conv("50%", 3), "50%25");
	assert_string_equal(conv("tab\there", 8), "tab%09here");
	assert_string_equal(conv("del\x7f", 4), "del%7F");
	assert_string_equal(conv(".", 1), "%2E");
	assert_string_equal(conv("..", 2), "%2E%2E");
	assert_string_equal(conv("...", 3), "...");
	/* 0x80 and 0xa0 are not characters in code page 932. */
	assert_string_equal(conv("\x80x\xa0", 3), "%80x%A0");
	/* A lead byte with nothing after it. */
	assert_string_equal(conv("ab\x95", 3), "ab%95");
	/* A lead byte with an invalid trail byte. */
	assert_string_equal(conv("\x95\x01z", 3), "%95%01z");
	assert_string_equal(conv("", 0), "");
}

static void ascii_names_escape(void **state)
{
	(void)state;
	char buf[NAME_MAX_OUT(16)];
	assert_int_equal(name_escape_ascii((const uint8_t *)"xasc00", 6, buf), 6);
	assert_string_equal(buf, "xasc00");
	name_escape_ascii((const uint8_t *)"a/..\xff", 5, buf);
	assert_string_equal(buf, "a%2F..%FF");
	name_escape_ascii((const uint8_t *)"..", 2, buf);
	assert_string_equal(buf, "%2E%2E");
}

/* A name must stay one entry of its folder: no '/', no NUL, no control
 * byte a terminal would act on, never "." or "..".  Every name of one and
 * two bytes, and each of those with a third after it, through both
 * converters. */
static void assert_one_component(const char *name, const uint8_t *raw,
				 size_t n)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < len; i++) {
		uint8_t c = (uint8_t)name[i];
		if (c == '/' || c < 0x20 || c == 0x7f)
			fail_msg("%02x %02x %02x (%zu bytes) gave \"%s\"",
				 n > 0 ? raw[0] : 0, n > 1 ? raw[1] : 0,
				 n > 2 ? raw[2] : 0, n, name);
	}
	assert_true(strcmp(name, ".") != 0 && strcmp(name, "..") != 0);
}

static void no_name_leaves_its_folder(void **state)
{
	(void)state;
	struct name_conv *nc = name_conv_open();
	assert_non_null(nc);
	static const uint8_t thirds[] = { 0, '.', '/', 0x5c, 0x81, 0x1b };
	char buf[NAME_MAX_OUT(3)];
	for (unsigned a = 0; a < 256; a++) {
		for (unsigned b = 0; b < 256; b++) {
			for (size_t t = 0; t <= sizeof thirds; t++) {
				uint8_t raw[3] = { (uint8_t)a, (uint8_t)b,
						   t ? thirds[t - 1] : 0 };
				size_t n = t ? 3 : 2;
				name_from_sjis(nc, raw, n, buf);
				assert_one_component(buf, raw, n);
				name_escape_ascii(raw, n, buf);
				assert_one_component(buf, raw, n);
			}
		}
		uint8_t one = (uint8_t)a;
		name_from_sjis(nc, &one, 1, buf);
		assert_one_component(buf, &one, 1);
	}
	name_conv_close(nc);
}

static void hostile_names_escape(void **state)
{
	(void)state;
	/* A path, a parent, a newline and an escape sequence in one. */
	assert_string_equal(conv("../etc", 6), "..%2Fetc");
	assert_string_equal(conv("a\nb\x1b[2J", 8), "a%0Ab%1B[2J");
	assert_string_equal(conv("\x01\x02", 2), "%01%02");
	/* A NUL ends the name: what follows is never seen. */
	assert_string_equal(conv("..\0/x", 4), "%2E%2E");
	assert_string_equal(conv("\0..", 3), "");
	/* A lead byte before '/' is not a character: both are escaped. */
	assert_string_equal(conv("\x95/", 2), "%95%2F");
	char buf[NAME_MAX_OUT(8)];
	name_escape_ascii((const uint8_t *)"a\r\n/.", 5, buf);
	assert_string_equal(buf, "a%0D%0A%2F.");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ascii_passes),
		cmocka_unit_test(shift_jis_converts),
		cmocka_unit_test(unsafe_bytes_escape),
		cmocka_unit_test(ascii_names_escape),
		cmocka_unit_test(hostile_names_escape),
		cmocka_unit_test(no_name_leaves_its_folder),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
