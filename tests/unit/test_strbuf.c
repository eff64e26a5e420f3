/* SPDX-License-Identifier: MIT */
/* test_strbuf.c - a strbuf that measures counts exactly the bytes the
 * same appends make, however long the text and whatever way they come;
 * a long made text is counted, then written once at its size. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/bufpool.h"
#include "util/strbuf.h"

/* One text, by every kind of append: short ones, printf's both paths
 * (under and over its 256-byte stack buffer), numbers, a line reserved
 * and committed by hand, and one append longer than a measuring strbuf
 * keeps.  seed varies the numbers. */
static void write_text(struct strbuf *sb, unsigned lines, unsigned seed)
{
	static char big[40000];
	memset(big, 'x', sizeof big);
	sb_expect(sb, (size_t)lines * 64);
	for (unsigned i = 0; i < lines; i++) {
		sb_puts(sb, "v ");
		sb_put_u64(sb, (uint64_t)i * seed);
		sb_puts(sb, " ");
		sb_put_i64(sb, -(int64_t)i * 7);
		sb_printf(sb, " %u.%03u\n", i % 97, (i * seed) % 1000);
		if (i % 1000 == 0)
			sb_printf(sb, "# %300s\n", "wide");
		char *o = sb_reserve(sb, 8);
		if (o) {
			memcpy(o, "f 1 2 3\n", 8);
			sb->len += 8;
			o[8] = '\0';
		}
	}
	sb_append(sb, big, sizeof big);
	sb_puts(sb, "end\n");
}

static void measured_size_is_the_made_size(void **state)
{
	(void)state;
	static const unsigned lines[] = { 0, 1, 100, 5000, 200000 };
	for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
		struct strbuf made = STRBUF_INIT, counted;
		sb_init_measure(&counted);
		write_text(&made, lines[k], 2654435761u);
		write_text(&counted, lines[k], 2654435761u);
		uint8_t *data = NULL, *none = (uint8_t *)&made;
		size_t len = 0, measured = 0;
		assert_int_equal(sb_finish(&made, &data, &len), 0);
		assert_int_equal(sb_finish(&counted, &none, &measured), 0);
		assert_null(none);
		assert_true(len > 40000);
		assert_int_equal(measured, len);
		/* The text itself ends as written: the count is of it. */
		assert_memory_equal(data + len - 4, "end\n", 4);
		bufpool_free(data);
	}
}

/* Measuring a text of megabytes holds a few KiB, not the text. */
static void measuring_holds_little(void **state)
{
	(void)state;
	struct strbuf sb;
	sb_init_measure(&sb);
	for (unsigned i = 0; i < 400000; i++)
		sb_puts(&sb, i % 3 ? "a line of some length\n" : "short\n");
	assert_false(sb.failed);
	assert_true(sb.cap <= (64u << 10));
	assert_null(sb.scratch);
	size_t len = 0;
	assert_int_equal(sb_finish(&sb, NULL, &len), 0);
	assert_true(len > 400000 * 6);
	assert_null(sb.data);
}

/* A failed append fails the measure as it fails the make. */
static void failure_is_reported(void **state)
{
	(void)state;
	struct strbuf sb;
	sb_init_measure(&sb);
	sb_puts(&sb, "text");
	assert_null(sb_reserve(&sb, SIZE_MAX - 8));
	assert_true(sb.failed);
	size_t len = 99;
	assert_int_equal(sb_finish(&sb, NULL, &len), -ENOMEM);
}

/* A restartable text past the scratch is counted, not kept, and asks to
 * be made again; made again at that size it is the same text, written
 * into one buffer. */
static void long_text_is_counted_then_made_exactly(void **state)
{
	(void)state;
	struct strbuf made = STRBUF_INIT, first, again;
	write_text(&made, 200000, 7);
	uint8_t *want = NULL;
	size_t want_len = 0;
	assert_int_equal(sb_finish(&made, &want, &want_len), 0);
	assert_true(want_len > (2u << 20));     /* past the scratch */
	sb_init_restartable(&first);
	write_text(&first, 200000, 7);
	uint8_t *none = (uint8_t *)&first;
	size_t counted = 0;
	assert_int_equal(sb_finish(&first, &none, &counted), -EAGAIN);
	assert_null(none);
	assert_int_equal(counted, want_len);
	sb_init_exact(&again, counted);
	assert_int_equal(again.cap, counted + 1 + SB_LINE_ROOM);
	char *buffer = again.data;
	write_text(&again, 200000, 7);          /* sb_expect asks for more */
	assert_ptr_equal(again.data, buffer);
	uint8_t *got = NULL;
	size_t got_len = 0;
	assert_int_equal(sb_finish(&again, &got, &got_len), 0);
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, want_len);
	bufpool_free(got);
	bufpool_free(want);
}

/* Lines written as the OBJ writer writes them, each into the room of a
 * longest line (192 bytes) and committed at its own length, fill a
 * buffer of their exact size to its end without regrowing it. */
static void exact_size_holds_lines_reserved_long(void **state)
{
	(void)state;
	const size_t size = 200000 * 30;
	struct strbuf sb;
	sb_init_exact(&sb, size);
	char *buffer = sb.data;
	for (size_t i = 0; i < size / 30; i++) {
		char *o = sb_reserve(&sb, 192);
		assert_non_null(o);
		memcpy(o, "v 0.125 -0.25 0.5 1 1 1 0 0 0\n", 30);
		sb.len += 30;
		o[30] = '\0';
	}
	assert_ptr_equal(sb.data, buffer);
	uint8_t *got = NULL;
	size_t len = 0;
	assert_int_equal(sb_finish(&sb, &got, &len), 0);
	assert_int_equal(len, size);
	assert_memory_equal(got + size - 30, "v 0.125 -0.25 0.5 1 1 1 0 0 0\n", 30);
	bufpool_free(got);
}

/* A restartable text that fits the scratch is made once, as any other. */
static void short_restartable_text_is_kept(void **state)
{
	(void)state;
	struct strbuf made = STRBUF_INIT, sb;
	write_text(&made, 5000, 3);
	sb_init_restartable(&sb);
	write_text(&sb, 5000, 3);
	uint8_t *want = NULL, *got = NULL;
	size_t want_len = 0, got_len = 0;
	assert_int_equal(sb_finish(&made, &want, &want_len), 0);
	assert_int_equal(sb_finish(&sb, &got, &got_len), 0);
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, want_len);
	bufpool_free(got);
	bufpool_free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(measured_size_is_the_made_size),
		cmocka_unit_test(measuring_holds_little),
		cmocka_unit_test(failure_is_reported),
		cmocka_unit_test(long_text_is_counted_then_made_exactly),
		cmocka_unit_test(short_restartable_text_is_kept),
		cmocka_unit_test(exact_size_holds_lines_reserved_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
