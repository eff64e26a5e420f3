/* SPDX-License-Identifier: MIT */
/* test_gametext.c - the game's text into UTF-8 and PO entries and back:
 * every message of the generator's tables, read from its executable,
 * made into a template entry, read back as a translation tool would
 * (its quoted lines joined and unescaped) and turned into the game's
 * bytes, gives the bytes it came from; so does every byte and every
 * Shift-JIS pair alone. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "archive/msgtbl.h"
#include "decode/gametext/gametext.h"
#include "decode/gametext/po.h"
#include "elfw.h"
#include "gen_text.h"
#include "io/elf.h"
#include "util/strbuf.h"

#define VADDR 0x00200000u

/* The generator's executable: its text tables alone. */
static uint8_t *build_exe(bool stripped, size_t *len,
			  struct elfw_symbol *syms)
{
	size_t seg_len;
	uint8_t *seg = gen_text_block(VADDR, NULL, 0, false, &seg_len, syms);
	uint8_t *f = elfw_build(seg, seg_len, VADDR, syms, GEN_TEXT_SYMS,
				stripped, len);
	free(seg);
	assert_non_null(f);
	return f;
}

/* Appends the string bodies of the quoted lines after `key ""` up to the
 * next line that is not a string: what a PO reader joins. */
static void read_po_string(const char *po, const char *key, struct strbuf *out)
{
	const char *at = strstr(po, key);
	assert_non_null(at);
	at = strchr(at, '\n') + 1;
	while (*at == '"') {
		const char *end = strchr(at, '\n');
		assert_non_null(end);
		assert_true(end[-1] == '"');
		sb_append(out, at + 1, (size_t)(end - at - 2));
		at = end + 1;
	}
}

/* One message: PO entry out, msgid back, bytes back. */
static void round_trip(const struct msgtbl_msg *m)
{
	struct strbuf po = STRBUF_INIT, esc = STRBUF_INIT, id = STRBUF_INIT,
		      raw = STRBUF_INIT;
	po_message(&po, "ctx", m->text, m->text_len);
	sb_append(&po, "", 1);
	read_po_string(po.data, "msgid \"\"", &esc);
	assert_int_equal(po_unescape(esc.data ? esc.data : "", esc.len, &id), 0);
	size_t bad = 0;
	assert_int_equal(po_text_bytes(id.data ? id.data : "", id.len, &raw,
				       &bad), 0);
	assert_int_equal(raw.len, m->text_len);
	assert_memory_equal(raw.data, m->text, m->text_len);
	sb_free(&po);
	sb_free(&esc);
	sb_free(&id);
	sb_free(&raw);
	if (!m->name)
		return;
	struct strbuf u = STRBUF_INIT, back = STRBUF_INIT;
	size_t n = strlen((const char *)m->name);
	gametext_put(&u, m->name, n, GAMETEXT_PLAIN);
	assert_int_equal(gametext_encode(u.data, u.len, &back, &bad), 0);
	assert_int_equal(back.len, n);
	assert_memory_equal(back.data, m->name, n);
	sb_free(&u);
	sb_free(&back);
}

/* Every message of the four tables, read from the executable, is the
 * generator's, and comes back from its PO entry byte for byte. */
static void test_generator_messages(void **state)
{
	(void)state;
	struct elfw_symbol syms[GEN_TEXT_SYMS];
	size_t len;
	uint8_t *f = build_exe(false, &len, syms);
	struct elf_image e;
	struct reason why = { "" };
	assert_int_equal(elf_open(&e, f, len, &why), 0);
	struct msgtbl t;
	assert_int_equal(msgtbl_read(&e, &t, &why), 0);
	size_t total = 0;
	for (int k = 0; k < MSGTBL_KINDS; k++) {
		const struct gen_msg_table *g = &gen_text_tables[k];
		const struct msgtbl_list *l = &t.list[k];
		assert_true(l->present);
		assert_int_equal(l->bad, 0);
		assert_int_equal(l->count, g->count);
		for (size_t i = 0; i < g->count; i++) {
			const struct msgtbl_msg *m = &l->msg[i];
			assert_int_equal(m->number, g->msg[i].number);
			assert_int_equal(m->index, g->msg[i].index);
			assert_int_equal(m->mode, g->msg[i].mode);
			assert_int_equal(m->text_len, g->msg[i].text_len);
			assert_memory_equal(m->text, g->msg[i].text,
					    m->text_len);
			if (g->msg[i].name)
				assert_string_equal((const char *)m->name,
						    g->msg[i].name);
			else
				assert_null(m->name);
			round_trip(m);
			total++;
		}
	}
	printf("# %zu messages round-tripped\n", total);
	assert_int_equal(total, 21);
	msgtbl_free(&t);
	free(f);
}

/* Each byte alone and each pair, in a PO string, back to its bytes:
 * what no table holds comes back too. */
static void test_every_pair(void **state)
{
	(void)state;
	size_t pairs = 0, raw_pairs = 0;
	for (unsigned a = 1; a < 256; a++) {
		for (unsigned b = 0; b < 256; b++) {
			uint8_t in[2] = { (uint8_t)a, (uint8_t)b };
			size_t n = b ? 2 : 1;
			struct strbuf u = STRBUF_INIT, id = STRBUF_INIT,
				      back = STRBUF_INIT;
			gametext_put(&u, in, n, GAMETEXT_PO);
			assert_int_equal(po_unescape(u.data, u.len, &id), 0);
			size_t bad;
			assert_int_equal(gametext_encode(id.data, id.len, &back,
							 &bad), 0);
			assert_int_equal(back.len, n);
			assert_memory_equal(back.data, in, n);
			/* Nothing but a line per line: no line feed out. */
			assert_null(memchr(u.data, '\n', u.len));
			pairs++;
			raw_pairs += a >= 0x81 && n == 2 && u.len >= 6 &&
				     (uint8_t)u.data[0] == 0xef;
			sb_free(&u);
			sb_free(&id);
			sb_free(&back);
		}
	}
	printf("# %zu byte sequences, %zu pairs shown as raw bytes\n", pairs,
	       raw_pairs);
}

/* What the text looks like: kana and kanji as characters, escapes as
 * they stand, a bad byte as U+F780 and up, quotes and backslashes
 * escaped, a 0x5c trail byte inside its character. */
static void test_looks(void **state)
{
	(void)state;
	static const struct { const char *in, *out; } cases[] = {
		{ "\x83\x5c\x83\x74\x83\x67", "ソフト" },
		{ "\x95\x5c", "表" },
		{ "#0 %9%A %% %#", "#0 %9%A %% %#" },
		{ "%\x82" "a", "%\xef\x9e\x82" "a" },  /* the byte after % alone */
		{ "\x80", "\xef\x9e\x80" },
		{ "\xb1", "ｱ" },
		{ "say \"hi\" \\", "say \\\"hi\\\" \\\\" },
		{ "a\tb\rc\n", "a\\tb\xef\x9c\x8d" "c\xef\x9c\x8a" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct strbuf u = STRBUF_INIT;
		gametext_put(&u, (const uint8_t *)cases[i].in,
			     strlen(cases[i].in), GAMETEXT_PO);
		sb_append(&u, "", 1);
		assert_string_equal(u.data, cases[i].out);
		sb_free(&u);
	}
}

/* The way back refuses what the game cannot show, and says where. */
static void test_encode_refuses(void **state)
{
	(void)state;
	struct strbuf out = STRBUF_INIT, id = STRBUF_INIT;
	size_t bad = 0;
	/* U+1F600, beyond code page 932; then a bare continuation byte. */
	assert_int_equal(gametext_encode("ok \xf0\x9f\x98\x80", 7, &out, &bad),
			 -EILSEQ);
	assert_int_equal(bad, 3);
	assert_int_equal(gametext_encode("x\x80", 2, &out, &bad), -EILSEQ);
	assert_int_equal(bad, 1);
	/* More than three lines; an unknown escape. */
	assert_int_equal(po_text_bytes("a\nb\nc\nd", 7, &out, &bad), -EINVAL);
	assert_int_equal(po_unescape("a\\q", 3, &id), -EINVAL);
	assert_int_equal(po_unescape("a\\", 2, &id), -EINVAL);
	sb_free(&out);
	sb_free(&id);
	/* Fewer lines are padded: "a" is a\0\0\0. */
	struct strbuf one = STRBUF_INIT;
	assert_int_equal(po_text_bytes("a", 1, &one, &bad), 0);
	assert_int_equal(one.len, 4);
	assert_memory_equal(one.data, "a\0\0", 4);
	sb_free(&one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generator_messages),
		cmocka_unit_test(test_every_pair),
		cmocka_unit_test(test_looks),
		cmocka_unit_test(test_encode_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
