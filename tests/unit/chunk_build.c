/* SPDX-License-Identifier: MIT */
/* chunk_build.c - chunks built by hand for the <kind>.txt decoders'
 * tests, and the checks of the text the decoders make of them. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "chunk_build.h"
#include "decode/text/chunk_text.h"
#include "util/strbuf.h"

/* ---- building chunks --------------------------------------------------- */

void put8(struct chunk *c, unsigned v)
{
	assert_true(c->n < sizeof c->b);
	c->b[c->n++] = (uint8_t)v;
}

void put16(struct chunk *c, unsigned v)
{
	put8(c, v & 0xff);
	put8(c, (v >> 8) & 0xff);
}

void put32(struct chunk *c, uint32_t v)
{
	put16(c, v & 0xffff);
	put16(c, v >> 16);
}

void putf(struct chunk *c, float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	put32(c, u);
}

void pad4(struct chunk *c, unsigned fill)
{
	while (c->n & 3)
		put8(c, fill);
}

void chunk_begin(struct chunk *c, uint16_t kind)
{
	c->n = 0;
	put16(c, kind);
	put16(c, 0xcccc);
	put32(c, 0);            /* size, set by chunk_end() */
}

/* Sets the size field from the length, as the files do for most kinds. */
void chunk_end(struct chunk *c)
{
	uint32_t words = (uint32_t)((c->n - 8) / 4);
	for (int i = 0; i < 4; i++)
		c->b[4 + i] = (uint8_t)(words >> (8 * i));
}

/* ---- decoding ---------------------------------------------------------- */

const char *test_name(void *ctx, uint32_t index)
{
	(void)ctx;
	static const char *const names[] = {
		"#0", "CLT_xasc00", "TEX_xasc00", "MDL_kite", "MAT_kite",
		"MDL_kite_0", "OBJ_kite", "FBR_%E6", "HIT_floor",
	};
	return index < sizeof names / sizeof names[0] ? names[index] : NULL;
}

char *decode_bytes(const uint8_t *p, size_t len, uint16_t version,
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
	/* A listing measures the text: its lines then count their numbers'
	 * lengths without writing them, and must come to the same size. */
	struct strbuf counted;
	sb_init_measure(&counted);
	assert_int_equal(chunk_text(p, len, &ctx, &counted), 0);
	size_t measured = 0;
	assert_int_equal(sb_finish(&counted, NULL, &measured), 0);
	assert_int_equal(measured, n);
	return text;
}

char *decode_with(const struct chunk *c, size_t len, uint16_t version,
		  chunk_object_name_fn names)
{
	return decode_bytes(c->b, len, version, names);
}

char *decode(const struct chunk *c, uint16_t version)
{
	return decode_with(c, c->n, version, test_name);
}

void expect_text(const struct chunk *c, uint16_t version,
		 const char *want)
{
	char *text = decode(c, version);
	assert_string_equal(text, want);
	free(text);
}

void expect_no_line_starting(const char *text, const char *start)
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

const char *last_line(const char *text)
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
void every_length(const struct chunk *c, uint16_t version)
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
