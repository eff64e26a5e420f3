/* SPDX-License-Identifier: MIT */
/* names.h - names from the disc made into safe UTF-8 file names.
 *
 * Object and path names are Shift-JIS (code page 932) in the files and
 * UTF-8 in the tree.  A byte that cannot be converted, '/', '%', or a
 * control character becomes %XX, so no name can leave its folder and the
 * escaping is reversible; "." and ".." are escaped the same way.
 */
#ifndef CCSFS_NAMES_H
#define CCSFS_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* Longest name a conversion yields: every input byte as %XX. */
#define NAME_MAX_OUT(n) ((n) * 3 + 1)

struct name_conv;

/* iconv descriptors are not thread-safe: one converter per builder. */
struct name_conv *name_conv_open(void);
void name_conv_close(struct name_conv *nc);

/* Converts raw bytes (up to n, stopping at the first NUL) into out, which
 * holds NAME_MAX_OUT(n) bytes.  Returns the length written (0 for an empty
 * name). */
size_t name_from_sjis(struct name_conv *nc, const uint8_t *raw, size_t n,
		      char *out);

/* The same for bytes that are meant to be ASCII (gzip names). */
size_t name_escape_ascii(const uint8_t *raw, size_t n, char *out);

struct strbuf;
/* A fixed-size raw name (up to n bytes, stopping at its NUL) in a text
 * file, as stored: printable ASCII as it is, any other byte and '%' as
 * %XX, so the text stays unambiguous and greps the same on every disc. */
void name_put_raw(struct strbuf *sb, const uint8_t *raw, size_t n);

#endif
