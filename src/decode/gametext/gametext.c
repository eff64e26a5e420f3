/* SPDX-License-Identifier: MIT */
/* gametext.c - Shift-JIS text to UTF-8 and back through tables made once
 * with iconv.
 *
 * Every pair is converted once, when first needed, and only the pairs
 * whose character converts back to the same two bytes are kept: code
 * page 932 gives some characters two pairs (the NEC and IBM copies of
 * the same kanji), and a pair that would come back as its twin is shown
 * as two raw bytes instead, so the way back is exact.  The tables make
 * a conversion a look-up, with no iconv state to share between threads. */
#include "config.h"

#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "decode/gametext/gametext.h"

#define RAW_END (GAMETEXT_RAW_BASE + 0x100)

/* fwd[(lead - 0x80) << 8 | trail]: the character of a pair, 0 for none;
 * single[b - 0x80]: of a byte alone (the half-width kana). */
static uint16_t fwd[0x80 << 8];
static uint16_t single[0x80];
/* The way back, sorted by character. */
struct back { uint16_t cp, sjis; };
static struct back *back;
static size_t nback;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* One character of code page 932's bytes, or 0. */
static uint16_t convert(iconv_t cd, const uint8_t *in, size_t n)
{
	char src[2], dst[8];
	memcpy(src, in, n);
	char *ip = src, *op = dst;
	size_t il = n, ol = sizeof dst;
	iconv(cd, NULL, NULL, NULL, NULL);
	if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il)
		return 0;
	size_t len = sizeof dst - ol;
	const uint8_t *u = (const uint8_t *)dst;
	uint32_t cp;
	if (len == 2 && (u[0] & 0xe0) == 0xc0)
		cp = (uint32_t)(u[0] & 0x1f) << 6 | (u[1] & 0x3f);
	else if (len == 3 && (u[0] & 0xf0) == 0xe0)
		cp = (uint32_t)(u[0] & 0x0f) << 12 | (uint32_t)(u[1] & 0x3f) << 6 |
		     (u[2] & 0x3f);
	else
		return 0;       /* ASCII, or beyond the BMP: not from a pair */
	if (cp < 0x80 || (cp >= GAMETEXT_RAW_BASE && cp < RAW_END))
		return 0;
	if (n == 2 && cp >= 0xff61 && cp <= 0xff9f)
		return 0;       /* a half-width kana's: it has its byte */
	return (uint16_t)cp;
}

static int cmp_back(const void *a, const void *b)
{
	const struct back *x = a, *y = b;
	if (x->cp != y->cp)
		return x->cp < y->cp ? -1 : 1;
	return (x->sjis > y->sjis) - (x->sjis < y->sjis);
}

/* Characters with two pairs keep neither in the way back but the one
 * iconv itself gives; the other pair becomes raw bytes. */
static void drop_twins(iconv_t back_cd)
{
	size_t out = 0;
	for (size_t i = 0; i < nback;) {
		size_t j = i + 1;
		while (j < nback && back[j].cp == back[i].cp)
			j++;
		uint16_t keep = back[i].sjis;
		if (j - i > 1) {
			char u[4], s[4];
			u[0] = (char)(0xe0 | back[i].cp >> 12);
			u[1] = (char)(0x80 | (back[i].cp >> 6 & 0x3f));
			u[2] = (char)(0x80 | (back[i].cp & 0x3f));
			char *ip = u, *op = s;
			size_t il = 3, ol = sizeof s;
			iconv(back_cd, NULL, NULL, NULL, NULL);
			keep = iconv(back_cd, &ip, &il, &op, &ol) != (size_t)-1 &&
			       ol == 2 ? (uint16_t)((uint8_t)s[0] << 8 |
						     (uint8_t)s[1]) : 0;
		}
		for (size_t k = i; k < j; k++) {
			if (back[k].sjis == keep)
				back[out++] = back[k];
			else
				fwd[((back[k].sjis >> 8) - 0x80) << 8 |
				    (back[k].sjis & 0xff)] = 0;
		}
		i = j;
	}
	nback = out;
}

static bool is_lead(unsigned b)
{
	return (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc);
}

static void make_tables(void)
{
	iconv_t cd = iconv_open("UTF-8", "CP932");
	iconv_t back_cd = iconv_open("CP932", "UTF-8");
	if (cd == (iconv_t)-1 || back_cd == (iconv_t)-1)
		goto out;       /* every byte past ASCII is then raw */
	back = malloc(sizeof *back * 0x80 * 0xc0);
	if (!back)
		goto out;
	for (unsigned b = 0xa1; b <= 0xdf; b++) {
		uint8_t c = (uint8_t)b;
		single[b - 0x80] = convert(cd, &c, 1);
	}
	for (unsigned lead = 0x81; lead <= 0xfc; lead++) {
		if (!is_lead(lead))
			continue;
		for (unsigned trail = 0x40; trail <= 0xfc; trail++) {
			uint8_t p[2] = { (uint8_t)lead, (uint8_t)trail };
			uint16_t cp = trail == 0x7f ? 0 : convert(cd, p, 2);
			fwd[(lead - 0x80) << 8 | trail] = cp;
			if (cp)
				back[nback++] = (struct back){ cp,
					(uint16_t)(lead << 8 | trail) };
		}
	}
	qsort(back, nback, sizeof *back, cmp_back);
	drop_twins(back_cd);
out:
	if (cd != (iconv_t)-1)
		iconv_close(cd);
	if (back_cd != (iconv_t)-1)
		iconv_close(back_cd);
}

static void put_cp(struct strbuf *sb, uint32_t cp)
{
	char u[3];
	if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		sb_append(sb, u, 2);
		return;
	}
	u[0] = (char)(0xe0 | cp >> 12);
	u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
	u[2] = (char)(0x80 | (cp & 0x3f));
	sb_append(sb, u, 3);
}

/* An ASCII byte, escaped as the style wants; a control byte raw. */
static void put_ascii(struct strbuf *sb, uint8_t c, enum gametext_style style)
{
	if (style == GAMETEXT_PO) {
		const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" :
				  c == '\t' ? "\\t" : NULL;
		if (esc) {
			sb_append(sb, esc, 2);
			return;
		}
	}
	if (c < 0x20 || c == 0x7f)
		put_cp(sb, GAMETEXT_RAW_BASE + c);
	else
		sb_append(sb, &c, 1);
}

/* A byte alone: ASCII, a half-width kana, or raw. */
static void put_single(struct strbuf *sb, uint8_t c, enum gametext_style style)
{
	if (c < 0x80)
		put_ascii(sb, c, style);
	else
		put_cp(sb, single[c - 0x80] ? single[c - 0x80]
					    : GAMETEXT_RAW_BASE + c);
}

void gametext_put(struct strbuf *sb, const uint8_t *raw, size_t n,
		  enum gametext_style style)
{
	pthread_once(&tables_once, make_tables);
	for (size_t i = 0; i < n; i++) {
		uint8_t c = raw[i];
		if ((c == '#' || c == '%') && i + 1 < n) {
			sb_append(sb, &c, 1);
			put_single(sb, raw[++i], style);
			continue;
		}
		uint16_t cp = i + 1 < n && c >= 0x80
			      ? fwd[(c - 0x80) << 8 | raw[i + 1]] : 0;
		if (cp) {
			put_cp(sb, cp);
			i++;
			continue;
		}
		put_single(sb, c, style);
	}
}

/* The next character of UTF-8 at s[*i], or -1. */
static int32_t next_cp(const uint8_t *s, size_t n, size_t *i)
{
	uint8_t c = s[*i];
	int more = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 :
		   (c & 0xf0) == 0xe0 ? 2 : -1;
	if (more < 0 || *i + (size_t)more >= n + (more ? 0 : 1))
		return -1;
	int32_t cp = more == 0 ? c : more == 1 ? c & 0x1f : c & 0x0f;
	for (int k = 1; k <= more; k++) {
		if ((s[*i + k] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[*i + k] & 0x3f);
	}
	if ((more == 1 && cp < 0x80) || (more == 2 && cp < 0x800))
		return -1;
	*i += (size_t)more + 1;
	return cp;
}

/* The bytes of one character past ASCII: raw, half-width, or a pair. */
static int encode_cp(uint32_t cp, struct strbuf *out)
{
	uint8_t b[2];
	if (cp >= GAMETEXT_RAW_BASE && cp < RAW_END) {
		b[0] = (uint8_t)(cp - GAMETEXT_RAW_BASE);
		sb_append(out, b, 1);
		return 0;
	}
	for (unsigned k = 0x21; k < 0x60; k++)
		if (single[k] && single[k] == cp) {
			b[0] = (uint8_t)(k + 0x80);
			sb_append(out, b, 1);
			return 0;
		}
	size_t lo = 0, hi = nback;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (back[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == nback || back[lo].cp != cp)
		return -EILSEQ;
	b[0] = (uint8_t)(back[lo].sjis >> 8);
	b[1] = (uint8_t)back[lo].sjis;
	sb_append(out, b, 2);
	return 0;
}

int gametext_encode(const char *utf8, size_t n, struct strbuf *out,
		    size_t *bad)
{
	pthread_once(&tables_once, make_tables);
	const uint8_t *s = (const uint8_t *)utf8;
	for (size_t i = 0; i < n;) {
		size_t at = i;
		int32_t cp = next_cp(s, n, &i);
		int rc = cp < 0 ? -EILSEQ : 0;
		if (rc == 0 && cp < 0x80) {
			uint8_t c = (uint8_t)cp;
			sb_append(out, &c, 1);
		} else if (rc == 0) {
			rc = encode_cp((uint32_t)cp, out);
		}
		if (rc < 0) {
			if (bad)
				*bad = at;
			return rc;
		}
	}
	return 0;
}
