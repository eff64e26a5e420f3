/* SPDX-License-Identifier: MIT */
/* symfile.h - a symbol list kept beside a stripped executable, in nm's
 * shape: one symbol a line, "ADDRESS [TYPE] NAME" or, as nm -S writes,
 * "ADDRESS SIZE TYPE NAME", the numbers in hex.  Blank lines and lines
 * starting with '#' are skipped; a line of another shape is counted and
 * skipped (symfile_skipped), so a list made by any tool that writes
 * nm's columns reads.
 */
#ifndef CCSFS_SYMFILE_H
#define CCSFS_SYMFILE_H

#include <stddef.h>
#include <stdint.h>

#include "util/reason.h"

/* A file of more is not a symbol list. */
#define SYMFILE_MAX_BYTES (64u << 20)

struct symfile;

/* The list in text[0..len).  0; -EINVAL when it names no symbol (why
 * says so); -ENOMEM. */
int symfile_parse(const char *text, size_t len, struct symfile **out,
		  struct reason *why);
/* The list in the file at path.  0, or a negative errno (why says). */
int symfile_read(const char *path, struct symfile **out, struct reason *why);
void symfile_free(struct symfile *s);

size_t symfile_count(const struct symfile *s);
size_t symfile_skipped(const struct symfile *s);

/* The address and size (0 when the list gives none) of name; -ENOENT. */
int symfile_find(const struct symfile *s, const char *name, uint32_t *addr,
		 uint32_t *size);
/* The name of a symbol at addr, or NULL. */
const char *symfile_at(const struct symfile *s, uint32_t addr);

#endif
