/* SPDX-License-Identifier: MIT */
/* fdtbl.c - the game's index of DATA.BIN, read from its executable. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive/fdtbl.h"
#include "io/elf.h"
#include "util/bytes.h"
#include "util/vec.h"

#define SECTOR 2048

/* Both tables' bytes, by symbol: u32 pointers and u64 offsets. */
static int find_tables(const struct elf_image *e, const uint8_t **ptrs,
		       const uint8_t **offs, struct reason *why)
{
	uint32_t pa, oa, size;
	if (elf_symbol(e, "categoryFDTbl", &pa, &size) < 0 ||
	    elf_symbol(e, "cateCDOfsTbl", &oa, &size) < 0) {
		reason_set(why, "no categoryFDTbl or cateCDOfsTbl symbol");
		return -ENOENT;
	}
	*ptrs = elf_at(e, pa, 4 * FDTBL_CATEGORIES);
	*offs = elf_at(e, oa, 8 * FDTBL_CATEGORIES);
	if (!*ptrs || !*offs) {
		reason_set(why, "categoryFDTbl or cateCDOfsTbl lies "
			 "outside the executable's loaded bytes");
		return -EINVAL;
	}
	return 0;
}

/* "pcCCSTbl" names category "pc"; a table without such a symbol is
 * named by its number. */
static void category_name(const struct elf_image *e, uint32_t addr,
			  unsigned cat, char out[FDTBL_NAME])
{
	const char *s = elf_symbol_at(e, addr);
	size_t n = s ? strlen(s) : 0;
	if (n > 6 && strcmp(s + n - 6, "CCSTbl") == 0 && n - 6 < FDTBL_NAME) {
		memcpy(out, s, n - 6);
		out[n - 6] = 0;
		return;
	}
	snprintf(out, FDTBL_NAME, "category%u", cat);
}

static int is_end(const uint8_t *r)
{
	for (size_t i = 0; i < FDTBL_RECORD; i++)
		if (r[i])
			return 0;
	return 1;
}

static int add_record(struct fdtbl *t, size_t *cap, const uint8_t *r,
		      size_t at, unsigned cat, uint64_t base, struct reason *why)
{
	uint32_t off = rd_u32le(r + FDTBL_NAME);
	if (off % SECTOR) {
		reason_set(why, "%s: record at %" PRIu32 " is not on a "
			 "sector", t->category[cat], off);
		return -EINVAL;
	}
	if (vec_reserve(t->entries, cap, t->count + 1, 1024) < 0)
		return -ENOMEM;
	struct fdtbl_entry *e = &t->entries[t->count++];
	memcpy(e->name, r, FDTBL_NAME);
	e->name[FDTBL_NAME] = 0;
	e->category = (uint8_t)cat;
	e->offset = base + off;
	e->csize = rd_u32le(r + FDTBL_NAME + 4);
	e->usize = rd_u32le(r + FDTBL_NAME + 8);
	e->at = at;
	return 0;
}

/* One category's records, up to its all-zero one. */
static int read_category(const struct elf_image *e, struct fdtbl *t,
			 size_t *cap, unsigned cat, uint32_t addr,
			 uint64_t base, struct reason *why)
{
	for (uint32_t i = 0; i < FDTBL_MAX_RECORDS; i++) {
		uint64_t at = addr + (uint64_t)i * FDTBL_RECORD;
		const uint8_t *r = at <= UINT32_MAX - FDTBL_RECORD
				   ? elf_at(e, (uint32_t)at, FDTBL_RECORD) : NULL;
		if (!r) {
			reason_set(why, "%s: its table has no end inside "
				 "the executable", t->category[cat]);
			return -EINVAL;
		}
		if (is_end(r))
			return 0;
		int rc = add_record(t, cap, r, (size_t)(r - e->data), cat,
				    base, why);
		if (rc < 0)
			return rc;
	}
	reason_set(why, "%s: more than %d records, no end", t->category[cat],
		 FDTBL_MAX_RECORDS);
	return -EINVAL;
}

int fdtbl_read_elf(const struct elf_image *e, struct fdtbl *t,
		   struct reason *why)
{
	memset(t, 0, sizeof *t);
	const uint8_t *ptrs = NULL, *offs = NULL;
	int rc = find_tables(e, &ptrs, &offs, why);
	if (rc == 0)
		t->base_at = (size_t)(offs - e->data);
	size_t cap = 0;
	for (unsigned c = 0; rc == 0 && c < FDTBL_CATEGORIES; c++) {
		uint32_t addr = rd_u32le(ptrs + 4 * c);
		uint64_t base = rd_u32le(offs + 8 * c) |
				(uint64_t)rd_u32le(offs + 8 * c + 4) << 32;
		t->base[c] = base;
		category_name(e, addr, c, t->category[c]);
		if (addr)
			rc = read_category(e, t, &cap, c, addr, base, why);
	}
	if (rc < 0)
		fdtbl_free(t);
	return rc;
}

int fdtbl_read(const uint8_t *exe, size_t len, struct fdtbl *t, struct reason *why)
{
	memset(t, 0, sizeof *t);
	struct elf_image e;
	int rc = elf_open(&e, exe, len, why);
	return rc < 0 ? rc : fdtbl_read_elf(&e, t, why);
}

void fdtbl_free(struct fdtbl *t)
{
	free(t->entries);
	t->entries = NULL;
	t->count = 0;
}

void fdtbl_gzip_name(const struct fdtbl_entry *e, char *out, size_t n)
{
	size_t len = strlen(e->name);
	if (len >= 4 && strcmp(e->name + len - 4, ".CCS") == 0) {
		snprintf(out, n, "%.*s.cmp", (int)(len - 4), e->name);
	} else {
		snprintf(out, n, "%s", e->name);
	}
	for (char *p = out; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

/* Skips spaces and tabs. */
static size_t skip_blank(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

int fdtbl_boot_path(const char *cnf, size_t len, char *out, size_t n)
{
	for (size_t line = 0; line < len; ) {
		size_t eol = line;
		while (eol < len && cnf[eol] != '\n' && cnf[eol] != '\r')
			eol++;
		size_t i = skip_blank(cnf, line, eol);
		if (eol - i > 5 && strncasecmp(cnf + i, "BOOT2", 5) == 0) {
			i = skip_blank(cnf, i + 5, eol);
			if (i < eol && cnf[i] == '=')
				i = skip_blank(cnf, i + 1, eol);
			if (eol - i > 7 && strncasecmp(cnf + i, "cdrom0:", 7) == 0)
				i += 7;
			while (i < eol && cnf[i] == '\\')
				i++;
			size_t end = i;
			while (end < eol && cnf[end] != ';' && cnf[end] != ' ' &&
			       cnf[end] != '\t')
				end++;
			if (end == i || end - i >= n)
				return -EINVAL;
			memcpy(out, cnf + i, end - i);
			out[end - i] = 0;
			return 0;
		}
		line = eol + 1;
	}
	return -ENOENT;
}
