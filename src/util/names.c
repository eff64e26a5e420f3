/* SPDX-License-Identifier: MIT */
/* names.c - Shift-JIS to UTF-8 with iconv, and escaping. */
#include "config.h"

#include <errno.h>
#include <iconv.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/names.h"
#include "util/strbuf.h"

struct name_conv {
	iconv_t cd;     /* (iconv_t)-1 when CP932 is missing: then escape */
};

struct name_conv *name_conv_open(void)
{
	struct name_conv *nc = malloc(sizeof *nc);
	if (!nc)
		return NULL;
	nc->cd = iconv_open("UTF-8", "CP932");
	return nc;
}

void name_conv_close(struct name_conv *nc)
{
	if (!nc)
		return;
	if (nc->cd != (iconv_t)-1)
		iconv_close(nc->cd);
	free(nc);
}

static bool must_escape(uint8_t c)
{
	return c < 0x20 || c == 0x7f || c == '/' || c == '%';
}

static size_t put_escape(char *out, uint8_t c)
{
	static const char hex[] = "0123456789ABCDEF";
	out[0] = '%';
	out[1] = hex[c >> 4];
	out[2] = hex[c & 15];
	return 3;
}

/* "." and ".." would name the folder itself or its parent. */
static size_t escape_dots(char *out, size_t len)
{
	if ((len == 1 && out[0] == '.') ||
	    (len == 2 && out[0] == '.' && out[1] == '.')) {
		char tmp[7];
		size_t n = 0;
		for (size_t i = 0; i < len; i++)
			n += put_escape(tmp + n, '.');
		memcpy(out, tmp, n);
		len = n;
	}
	out[len] = '\0';
	return len;
}

static size_t raw_length(const uint8_t *raw, size_t n)
{
	const uint8_t *nul = memchr(raw, 0, n);
	return nul ? (size_t)(nul - raw) : n;
}

size_t name_escape_ascii(const uint8_t *raw, size_t n, char *out)
{
	n = raw_length(raw, n);
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		if (must_escape(raw[i]) || raw[i] >= 0x80)
			len += put_escape(out + len, raw[i]);
		else
			out[len++] = (char)raw[i];
	}
	return escape_dots(out, len);
}

/* Converts one Shift-JIS character (1 or 2 bytes) at raw; returns the
 * bytes consumed, or 0 when it does not convert. */
static size_t convert_char(iconv_t cd, const uint8_t *raw, size_t n,
			   char *out, size_t *len)
{
	size_t width = (raw[0] >= 0x81 && raw[0] <= 0x9f) ||
		       (raw[0] >= 0xe0 && raw[0] <= 0xfc) ? 2 : 1;
	if (width > n || cd == (iconv_t)-1)
		return 0;
	char *in = (char *)raw, *dst = out + *len;
	size_t inleft = width, outleft = 3 * width;
	iconv(cd, NULL, NULL, NULL, NULL);
	if (iconv(cd, &in, &inleft, &dst, &outleft) == (size_t)-1 || inleft)
		return 0;
	size_t produced = 3 * width - outleft;
	/* A converted control character is still a control character. */
	if (produced == 1 && must_escape((uint8_t)out[*len]))
		return 0;
	*len += produced;
	return width;
}

size_t name_from_sjis(struct name_conv *nc, const uint8_t *raw, size_t n,
		      char *out)
{
	n = raw_length(raw, n);
	size_t len = 0;
	for (size_t i = 0; i < n;) {
		if (raw[i] < 0x80 && !must_escape(raw[i])) {
			out[len++] = (char)raw[i++];
			continue;
		}
		size_t used = convert_char(nc->cd, raw + i, n - i, out, &len);
		if (used) {
			i += used;
		} else {
			len += put_escape(out + len, raw[i]);
			i++;
		}
	}
	return escape_dots(out, len);
}

void name_put_raw(struct strbuf *sb, const uint8_t *raw, size_t n)
{
	for (size_t i = 0; i < n && raw[i]; i++) {
		if (raw[i] >= 0x20 && raw[i] < 0x7f && raw[i] != '%')
			sb_append(sb, &raw[i], 1);
		else
			sb_printf(sb, "%%%02X", raw[i]);
	}
}
