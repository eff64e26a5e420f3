/* SPDX-License-Identifier: MIT */
/* elf.h - symbols and mapped bytes of a 32-bit little-endian ELF file:
 * the game's executable, which carries DATA.BIN's index (see
 * doc/formats/archive.md, The game's index).
 *
 * Every offset, size and count comes from the file and is checked before
 * use (libelf checks the headers, this module what it keeps): a stripped
 * file, symbols that point outside it, or garbage after the magic give
 * an error with a reason, never a read past the buffer.
 */
#ifndef CCSFS_ELF_H
#define CCSFS_ELF_H

#include <stddef.h>
#include <stdint.h>
#include "io/symfile.h"
#include "util/reason.h"


#define ELF_MAX_SEGMENTS 16

struct elf_segment {
	uint64_t offset, vaddr, size;   /* file bytes mapped at vaddr */
};

struct elf_image {
	const uint8_t *data;
	size_t len;
	struct elf_segment seg[ELF_MAX_SEGMENTS];       /* PT_LOAD ones */
	size_t nseg;
	size_t symoff, symnum;          /* .symtab entries */
	size_t stroff, strsize;         /* its string table */
	const struct symfile *extra;    /* a list beside it, or NULL */
};

/* Reads the headers of data[0..len).  0; -EINVAL when it is not a 32-bit
 * little-endian ELF or its headers lie outside it; -ENOENT when it has
 * no symbol table (stripped).  why says which. */
int elf_open(struct elf_image *e, const uint8_t *data, size_t len,
	     struct reason *why);

/* Symbols to look up where the file's own table has none (a stripped
 * executable's list, -o symbols=FILE); s outlives e. */
void elf_use_symbols(struct elf_image *e, const struct symfile *s);

/* The value and size of the symbol called name, from the file's table,
 * else from the list given to elf_use_symbols; -ENOENT when none is. */
int elf_symbol(const struct elf_image *e, const char *name, uint32_t *value,
	       uint32_t *size);

/* The name of a symbol whose value is addr (data objects first), or NULL.
 * The name lies inside the file and ends with its NUL. */
const char *elf_symbol_at(const struct elf_image *e, uint32_t addr);

/* The file bytes that a loaded segment maps at addr, n of them, or NULL
 * when they are not all in one segment's bytes in the file. */
const uint8_t *elf_at(const struct elf_image *e, uint32_t addr, size_t n);

/* The file bytes a loaded segment maps from addr to its end, and how
 * many (*avail), or NULL when no segment maps addr. */
const uint8_t *elf_span(const struct elf_image *e, uint32_t addr,
			size_t *avail);

/* The file offset of the byte mapped at addr, or -1. */
int64_t elf_file_offset(const struct elf_image *e, uint32_t addr);

#endif
