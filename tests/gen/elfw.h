/* SPDX-License-Identifier: MIT */
/* elfw.h - a small real ELF32 (MIPS, little-endian) for the tests: one
 * loaded segment, .symtab, .strtab and .shstrtab, as the game's
 * executable has them (doc/formats/archive.md, The game's index). */
#ifndef CCSGEN_ELFW_H
#define CCSGEN_ELFW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elfw_symbol {
	const char *name;
	uint32_t value, size;
	bool object;            /* STT_OBJECT, else STT_NOTYPE */
};

/* The segment's bytes sit at file offset 0x100, mapped at vaddr.  With
 * stripped, the file has no .symtab or .strtab.  Returns a malloc'ed
 * file of *len bytes, or NULL. */
uint8_t *elfw_build(const uint8_t *seg, size_t seg_len, uint32_t vaddr,
		    const struct elfw_symbol *syms, size_t nsyms,
		    bool stripped, size_t *len);

#endif
