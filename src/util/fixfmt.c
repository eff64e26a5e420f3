/* SPDX-License-Identifier: MIT */
/* fixfmt.c - fixed-point values as exact text (fixfmt.h).
 *
 * The tables are made before main, not with a pthread_once on every
 * number (8 ns a number against 4.5 when it was so), and by printf,
 * which runs there in the C locale; each file's tables are made from
 * its own constructor and fixfmt_make alone, so that none depends on
 * another file's made first (the order of constructors across files
 * is the linker's).  Eight decimals hold every byte over a power of two
 * up to 256 exactly. */
#include "config.h"

#include <stdio.h>

#include "util/fixfmt.h"

/* 0 to 255, and k / 256 as its point and digits ("" for 0). */
static struct fixfmt_text whole_text[256], frac_text[256];

void fixfmt_make(struct fixfmt_text *t, int32_t v, unsigned shift,
		 bool fraction_only)
{
	char text[32];
	int n = snprintf(text, sizeof text, "%.8f", v / (double)(1u << shift));
	while (text[n - 1] == '0')
		n--;
	if (text[n - 1] == '.')
		n--;
	const char *p = text;
	if (fraction_only) {            /* "0.5" -> ".5", "0" -> "" */
		p++;
		n--;
	}
	memcpy(t->text, p, (size_t)n);
	t->len = (uint8_t)n;
}

__attribute__((constructor)) static void make_256ths(void)
{
	for (unsigned b = 0; b < 256; b++) {
		fixfmt_make(&whole_text[b], (int32_t)b, 0, false);
		fixfmt_make(&frac_text[b], (int32_t)b, 8, true);
	}
}

char *fixfmt_put_256ths(char *o, uint16_t v)
{
	o = fixfmt_put(o, &whole_text[v >> 8]);
	return fixfmt_put(o, &frac_text[v & 0xff]);
}

size_t fixfmt_256ths_len(uint16_t v)
{
	return whole_text[v >> 8].len + frac_text[v & 0xff].len;
}
