/* SPDX-License-Identifier: MIT */
/* elf.c - the executable's symbols and mapped bytes, through elfutils'
 * libelf (elf_memory: the bytes are an ISO extent read once, not a file
 * of their own). */
#include "config.h"

#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>

#include "io/elf.h"

/* Whether [off, off + n) lies inside the file, without overflow. */
static int inside(const struct elf_image *e, uint64_t off, uint64_t n)
{
	return off <= e->len && n <= e->len - off;
}

static int check_class(Elf *elf, struct reason *why)
{
	if (elf_kind(elf) != ELF_K_ELF) {
		reason_set(why, "%s", "not an ELF file");
		return -EINVAL;
	}
	size_t ident_len;
	const char *ident = elf_getident(elf, &ident_len);
	if (!ident || ident_len < EI_NIDENT || ident[EI_CLASS] != ELFCLASS32 ||
	    ident[EI_DATA] != ELFDATA2LSB) {
		reason_set(why, "%s", "not a 32-bit little-endian ELF");
		return -EINVAL;
	}
	return 0;
}

/* The first symbol table, and the string table its sh_link names, as
 * offsets into the file: libelf checked that they lie inside it. */
static int find_symtab(struct elf_image *e, Elf *elf, struct reason *why)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh, lh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Scn *link = elf_getscn(elf, sh.sh_link);
		if (!link || !gelf_getshdr(link, &lh) ||
		    !inside(e, sh.sh_offset, sh.sh_size) ||
		    !inside(e, lh.sh_offset, lh.sh_size) || !lh.sh_size ||
		    e->data[lh.sh_offset + lh.sh_size - 1] != 0) {
			reason_set(why, "%s", "the symbol table or its names lie "
				"outside the file");
			return -EINVAL;
		}
		e->symoff = sh.sh_offset;
		e->symnum = sh.sh_size / sizeof(Elf32_Sym);
		e->stroff = lh.sh_offset;
		e->strsize = lh.sh_size;
		return 0;
	}
	reason_set(why, "%s", "no symbol table (a stripped executable)");
	return -ENOENT;
}

/* The loaded segments, kept as offsets into the file. */
static int read_segments(struct elf_image *e, Elf *elf, struct reason *why)
{
	size_t n;
	if (elf_getphdrnum(elf, &n) != 0) {
		reason_set(why, "%s", "program headers lie outside the file");
		return -EINVAL;
	}
	for (size_t i = 0; i < n && e->nseg < ELF_MAX_SEGMENTS; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (!inside(e, ph.p_offset, ph.p_filesz))
			continue;       /* nothing in it can be read */
		e->seg[e->nseg].offset = ph.p_offset;
		e->seg[e->nseg].vaddr = ph.p_vaddr;
		e->seg[e->nseg].size = ph.p_filesz;
		e->nseg++;
	}
	return 0;
}

int elf_open(struct elf_image *e, const uint8_t *data, size_t len,
	     struct reason *why)
{
	memset(e, 0, sizeof *e);
	e->data = data;
	e->len = len;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		reason_set(why, "%s", "libelf is too old");
		return -EINVAL;
	}
	/* ELF_C_READ on memory never writes: the cast only meets the
	 * prototype. */
	Elf *elf = elf_memory((char *)data, len);
	if (!elf) {
		reason_set(why, "not an ELF file: %s",
			 elf_errmsg(-1));
		return -EINVAL;
	}
	int rc = check_class(elf, why);
	if (rc == 0)
		rc = read_segments(e, elf, why);
	if (rc == 0)
		rc = find_symtab(e, elf, why);
	elf_end(elf);
	return rc;
}

static const Elf32_Sym *sym(const struct elf_image *e, size_t i,
			    Elf32_Sym *out)
{
	memcpy(out, e->data + e->symoff + i * sizeof *out, sizeof *out);
	return out;
}

static const char *sym_name(const struct elf_image *e, const Elf32_Sym *s)
{
	/* The table ends with a NUL (elf_open checked), so any offset in it
	 * gives a terminated name. */
	return s->st_name < e->strsize
	       ? (const char *)e->data + e->stroff + s->st_name : "";
}

int elf_symbol(const struct elf_image *e, const char *name, uint32_t *value,
	       uint32_t *size)
{
	Elf32_Sym s;
	for (size_t i = 0; i < e->symnum; i++) {
		if (strcmp(sym_name(e, sym(e, i, &s)), name) == 0) {
			*value = s.st_value;
			*size = s.st_size;
			return 0;
		}
	}
	return symfile_find(e->extra, name, value, size);
}

void elf_use_symbols(struct elf_image *e, const struct symfile *s)
{
	e->extra = s;
}

const char *elf_symbol_at(const struct elf_image *e, uint32_t addr)
{
	const char *any = NULL;
	Elf32_Sym s;
	for (size_t i = 0; i < e->symnum; i++) {
		const char *n = sym_name(e, sym(e, i, &s));
		if (s.st_value != addr || !*n)
			continue;
		if (ELF32_ST_TYPE(s.st_info) == STT_OBJECT)
			return n;
		if (!any)
			any = n;
	}
	return any ? any : symfile_at(e->extra, addr);
}

const uint8_t *elf_at(const struct elf_image *e, uint32_t addr, size_t n)
{
	for (size_t i = 0; i < e->nseg; i++) {
		const struct elf_segment *g = &e->seg[i];
		if (addr < g->vaddr || addr - g->vaddr > g->size ||
		    n > g->size - (addr - g->vaddr))
			continue;
		return e->data + g->offset + (addr - g->vaddr);
	}
	return NULL;
}

const uint8_t *elf_span(const struct elf_image *e, uint32_t addr,
			size_t *avail)
{
	for (size_t i = 0; i < e->nseg; i++) {
		const struct elf_segment *g = &e->seg[i];
		if (addr < g->vaddr || addr - g->vaddr >= g->size)
			continue;
		*avail = (size_t)(g->size - (addr - g->vaddr));
		return e->data + g->offset + (addr - g->vaddr);
	}
	*avail = 0;
	return NULL;
}

int64_t elf_file_offset(const struct elf_image *e, uint32_t addr)
{
	size_t avail;
	const uint8_t *p = elf_span(e, addr, &avail);
	return p ? (int64_t)(p - e->data) : -1;
}
