/* SPDX-License-Identifier: MIT */
/* test_elf.c - the ELF reader: symbols by name and address, mapped bytes,
 * stripped and lying files, and every cut of a good one. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "elfw.h"
#include "io/elf.h"

#define VADDR 0x00100000u

static const struct elfw_symbol syms[] = {
	{ "_start", VADDR, 0, false },
	{ "pcCCSTbl", VADDR + 16, 88, true },
	{ "categoryFDTbl", VADDR + 8, 8, true },
};

static uint8_t *build(bool stripped, size_t *len)
{
	uint8_t seg[128];
	for (size_t i = 0; i < sizeof seg; i++)
		seg[i] = (uint8_t)i;
	uint8_t *f = elfw_build(seg, sizeof seg, VADDR, syms, 3, stripped, len);
	assert_non_null(f);
	return f;
}

static void symbols_and_bytes(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, &len);
	struct elf_image e;
	struct reason why = { "" };
	assert_int_equal(elf_open(&e, f, len, &why), 0);
	uint32_t value, size;
	assert_int_equal(elf_symbol(&e, "categoryFDTbl", &value, &size), 0);
	assert_int_equal(value, VADDR + 8);
	assert_int_equal(size, 8);
	assert_int_equal(elf_symbol(&e, "cateCDOfsTbl", &value, &size), -ENOENT);
	assert_string_equal(elf_symbol_at(&e, VADDR + 16), "pcCCSTbl");
	assert_null(elf_symbol_at(&e, VADDR + 4));
	const uint8_t *p = elf_at(&e, VADDR + 10, 4);
	assert_non_null(p);
	assert_int_equal(p[0], 10);
	assert_int_equal(p - f, 0x100 + 10);
	assert_non_null(elf_at(&e, VADDR + 124, 4));
	assert_null(elf_at(&e, VADDR + 125, 4));        /* past the segment */
	assert_null(elf_at(&e, VADDR - 1, 1));
	assert_null(elf_at(&e, 0xfffffffeu, 4));
	free(f);
}

static void stripped_is_enoent(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(true, &len);
	struct elf_image e;
	struct reason why = { "" };
	assert_int_equal(elf_open(&e, f, len, &why), -ENOENT);
	assert_non_null(strstr(why.text, "stripped"));
	free(f);
}

static void garbage_after_magic(void **state)
{
	(void)state;
	uint8_t junk[256];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (uint8_t)(i * 37 + 11);
	memcpy(junk, "\177ELF", 4);
	struct elf_image e;
	struct reason why = { "" };
	assert_int_equal(elf_open(&e, junk, sizeof junk, &why),
			 -EINVAL);
	assert_true(why.text[0] != 0);
	assert_int_equal(elf_open(&e, (const uint8_t *)"MZ", 2, &why), -EINVAL);
}

/* The symbol table said to lie past the file's end. */
static void symtab_outside_the_file(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, &len);
	uint32_t shoff = (uint32_t)f[0x20] | (uint32_t)f[0x21] << 8 |
			 (uint32_t)f[0x22] << 16 | (uint32_t)f[0x23] << 24;
	uint8_t *sym = f + shoff + 40;          /* section 1: .symtab */
	sym[16] = 0xf0;
	sym[17] = 0xff;
	sym[18] = 0xff;
	sym[19] = 0x7f;
	struct elf_image e;
	struct reason why = { "" };
	assert_int_not_equal(elf_open(&e, f, len, &why), 0);
	free(f);
}

/* Cut anywhere, it opens or is refused, and never reads past the cut. */
static void every_cut(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, &len);
	for (size_t n = 0; n < len; n++) {
		uint8_t *cut = malloc(n ? n : 1);
		memcpy(cut, f, n);
		struct elf_image e;
		struct reason why = { "" };
		if (elf_open(&e, cut, n, &why) == 0) {
			uint32_t v, s;
			elf_symbol(&e, "categoryFDTbl", &v, &s);
			elf_symbol_at(&e, VADDR + 16);
			elf_at(&e, VADDR, 128);
		}
		free(cut);
	}
	free(f);
}

/* Debian's readelf reads what the generator writes. */
static void readelf_reads_it(void **state)
{
	(void)state;
	size_t len;
	uint8_t *f = build(false, &len);
	char path[] = "/tmp/ccsfs-test-elf-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, f, len), (ssize_t)len);
	close(fd);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "readelf -W -h -l -s %s 2>&1", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char out[8192] = "";
	size_t got = fread(out, 1, sizeof out - 1, p);
	out[got] = 0;
	int status = pclose(p);
	unlink(path);
	assert_int_equal(status, 0);
	assert_non_null(strstr(out, "MIPS"));
	assert_non_null(strstr(out, "categoryFDTbl"));
	assert_non_null(strstr(out, "LOAD"));
	assert_null(strstr(out, "Warning"));
	assert_null(strstr(out, "Error"));
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(symbols_and_bytes),
		cmocka_unit_test(stripped_is_enoent),
		cmocka_unit_test(garbage_after_magic),
		cmocka_unit_test(symtab_outside_the_file),
		cmocka_unit_test(every_cut),
		cmocka_unit_test(readelf_reads_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
