/* SPDX-License-Identifier: MIT */
/* fuzz_names.c - names from the disc made into file names (util/names.c):
 * Shift-JIS through iconv, ASCII escaping and raw names in text.  Every
 * name given back fits NAME_MAX_OUT, is NUL-ended, holds no '/' and no
 * control byte, and is never "." or "..", whatever the bytes. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "util/names.h"
#include "util/strbuf.h"

/* Names are fixed-size fields in the files: 32 bytes at most. */
#define FIELD 32

static void check_name(const char *out, size_t n, size_t in_len)
{
	if (n >= NAME_MAX_OUT(in_len) || strlen(out) != n)
		abort();
	for (size_t i = 0; i < n; i++)
		if (out[i] == '/' || (unsigned char)out[i] < 0x20 ||
		    out[i] == 0x7f)
			abort();
	if (!strcmp(out, ".") || !strcmp(out, ".."))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct name_conv *nc;
	if (!nc && !(nc = name_conv_open()))
		abort();
	char out[NAME_MAX_OUT(FIELD)];
	for (size_t at = 0; at < size; at += FIELD) {
		size_t n = size - at < FIELD ? size - at : FIELD;
		uint8_t *raw = fuzz_dup(data + at, n);
		if (!raw)
			return 0;
		memset(out, 0x55, sizeof out);
		check_name(out, name_from_sjis(nc, raw, n, out), n);
		memset(out, 0x55, sizeof out);
		check_name(out, name_escape_ascii(raw, n, out), n);
		struct strbuf sb = STRBUF_INIT;
		name_put_raw(&sb, raw, n);
		for (size_t i = 0; i < sb.len; i++)
			if ((unsigned char)sb.data[i] < 0x20 ||
			    (unsigned char)sb.data[i] > 0x7e)
				abort();
		sb_free(&sb);
		free(raw);
	}
	return 0;
}
