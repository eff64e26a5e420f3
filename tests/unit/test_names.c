/* test_names.c - Shift-JIS to UTF-8, escaping of what a name may not
 * hold. */
#include "config.h"

#include <string.h>

#include "testutil.h"
#include "names.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ascii_passes),
		cmocka_unit_test(shift_jis_converts),
		cmocka_unit_test(unsafe_bytes_escape),
		cmocka_unit_test(ascii_names_escape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
