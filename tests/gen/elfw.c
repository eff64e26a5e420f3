/* SPDX-License-Identifier: MIT */
/* elfw.c - writes the small ELF32 of elfw.h. */
#include "elfw.h"

#include <stdlib.h>
#include <string.h>

#define SEG_OFFSET 0x100
#define SHDR_SIZE 40
#define SYM_SIZE 16

static void w16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void w32(uint8_t *p, uint32_t v)
{
	w16(p, (uint16_t)v);
	w16(p + 2, (uint16_t)(v >> 16));
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static void header(uint8_t *f, uint32_t vaddr, size_t seg_len, size_t shoff,
		   unsigned shnum)
{
	memcpy(f, "\177ELF", 4);
	f[4] = 1;               /* 32-bit */
	f[5] = 1;               /* little-endian */
	f[6] = 1;               /* version */
	w16(f + 0x10, 2);       /* ET_EXEC */
	w16(f + 0x12, 8);       /* EM_MIPS */
	w32(f + 0x14, 1);
	w32(f + 0x18, vaddr);   /* entry */
	w32(f + 0x1c, 52);      /* phoff */
	w32(f + 0x20, (uint32_t)shoff);
	w16(f + 0x28, 52);
	w16(f + 0x2a, 32);
	w16(f + 0x2c, 1);
	w16(f + 0x2e, SHDR_SIZE);
	w16(f + 0x30, (uint16_t)shnum);
	w16(f + 0x32, (uint16_t)(shnum - 1));   /* .shstrtab is last */
	uint8_t *ph = f + 52;
	w32(ph, 1);             /* PT_LOAD */
	w32(ph + 4, SEG_OFFSET);
	w32(ph + 8, vaddr);
	w32(ph + 12, vaddr);
	w32(ph + 16, (uint32_t)seg_len);
	w32(ph + 20, (uint32_t)seg_len);
	w32(ph + 24, 5);        /* R+X */
	w32(ph + 28, 16);
}

static void section(uint8_t *sh, uint32_t name, uint32_t type, size_t off,
		    size_t size, uint32_t link, uint32_t entsize)
{
	w32(sh, name);
	w32(sh + 4, type);
	w32(sh + 16, (uint32_t)off);
	w32(sh + 20, (uint32_t)size);
	w32(sh + 24, link);
	w32(sh + 32, 1);
	w32(sh + 36, entsize);
}

/* .strtab: a NUL, then each name. */
static size_t strtab_size(const struct elfw_symbol *syms, size_t n)
{
	size_t size = 1;
	for (size_t i = 0; i < n; i++)
		size += strlen(syms[i].name) + 1;
	return size;
}

static void write_symbols(uint8_t *symtab, uint8_t *strtab,
			  const struct elfw_symbol *syms, size_t n)
{
	size_t at = 1;
	for (size_t i = 0; i < n; i++) {
		uint8_t *s = symtab + (i + 1) * SYM_SIZE;       /* 0 is null */
		size_t l = strlen(syms[i].name) + 1;
		memcpy(strtab + at, syms[i].name, l);
		w32(s, (uint32_t)at);
		w32(s + 4, syms[i].value);
		w32(s + 8, syms[i].size);
		s[12] = (uint8_t)(0x10 | (syms[i].object ? 1 : 0));    /* GLOBAL */
		w16(s + 14, 0xfff1);    /* SHN_ABS: no section of its own */
		at += l;
	}
}

static const char shstr[] = "\0.symtab\0.strtab\0.shstrtab";

uint8_t *elfw_build(const uint8_t *seg, size_t seg_len, uint32_t vaddr,
		    const struct elfw_symbol *syms, size_t nsyms,
		    bool stripped, size_t *len)
{
	size_t symtab = align4(SEG_OFFSET + seg_len);
	size_t symsize = stripped ? 0 : (nsyms + 1) * SYM_SIZE;
	size_t strtab = symtab + symsize;
	size_t strsize = stripped ? 0 : strtab_size(syms, nsyms);
	size_t shstrtab = strtab + strsize;
	size_t shoff = align4(shstrtab + sizeof shstr);
	unsigned shnum = stripped ? 2 : 4;
	*len = shoff + (size_t)shnum * SHDR_SIZE;
	uint8_t *f = calloc(1, *len);
	if (!f)
		return NULL;
	header(f, vaddr, seg_len, shoff, shnum);
	memcpy(f + SEG_OFFSET, seg, seg_len);
	memcpy(f + shstrtab, shstr, sizeof shstr);
	uint8_t *sh = f + shoff + SHDR_SIZE;            /* 0 is null */
	if (!stripped) {
		write_symbols(f + symtab, f + strtab, syms, nsyms);
		section(sh, 1, 2, symtab, symsize, 2, SYM_SIZE);
		w32(sh + 28, 1);        /* the first global symbol */
		section(sh + SHDR_SIZE, 9, 3, strtab, strsize, 0, 0);
		sh += 2 * SHDR_SIZE;
	}
	section(sh, 17, 3, shstrtab, sizeof shstr, 0, 0);
	return f;
}
