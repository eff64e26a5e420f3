/* SPDX-License-Identifier: MIT */
/* fuzz_fdtbl.c - the input as the game's executable: its ELF headers and
 * symbols (io/elf.c, libelf) and DATA.BIN's index in it (archive/fdtbl.c).
 * Every entry handed back must be whole: a NUL-ended name, a category
 * in range, an offset on a sector of its category.  A table read is
 * then checked against the input as DATA.BIN (archive/index.c): the
 * members it gives tile the archive in order.  The input is also read as
 * SYSTEM.CNF. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include <unistd.h>

#include "archive/fdtbl.h"
#include "archive/index.h"
#include "io/elf.h"

/* The members from the table, with the input as the archive. */
static void index_over_input(const struct fdtbl *t, const uint8_t *data,
			     size_t size)
{
	int fd = fuzz_memfd(NULL, 0, data, size);
	if (fd < 0)
		return;
	struct blob b = { fd, 0, size };
	struct archive_index x;
	struct reason why = { "" };
	if (archive_index_build(&b, t, &x, &why) == 0) {
		for (size_t i = 0; i < x.count; i++) {
			const struct archive_entry *e = &x.entries[i];
			uint64_t end = i + 1 < x.count ? x.entries[i + 1].offset
						       : size;
			if (e->offset + e->extent != end || e->offset >= size ||
			    (e->record >= 0 && (size_t)e->record >= t->count))
				abort();
			char st[INDEX_STATUS];
			archive_index_status(t, e, st, sizeof st);
		}
		archive_index_free(&x);
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char boot[64];
	if (fdtbl_boot_path((const char *)data, size, boot, sizeof boot) == 0 &&
	    !memchr(boot, 0, sizeof boot))
		abort();
	struct elf_image e;
	struct reason why = { "" };
	if (elf_open(&e, data, size, &why) == 0) {
		uint32_t v, s;
		(void)elf_symbol(&e, "categoryFDTbl", &v, &s);
		const char *n = elf_symbol_at(&e, v);
		if (n && !memchr(n, 0, (size_t)(data + size - (const uint8_t *)n)))
			abort();
		const uint8_t *p = elf_at(&e, v, 16);
		if (p && (p < data || p + 16 > data + size))
			abort();
	} else if (!memchr(why.text, 0, sizeof why.text) || !why.text[0]) {
		abort();
	}
	struct fdtbl t;
	struct reason twhy;
	if (fdtbl_read(data, size, &t, &twhy) == 0) {
		for (size_t i = 0; i < t.count; i++)
			if (t.entries[i].category >= FDTBL_CATEGORIES ||
			    t.entries[i].name[FDTBL_NAME] != 0)
				abort();
		index_over_input(&t, data, size);
		fdtbl_free(&t);
	} else if (t.entries || t.count) {
		abort();
	}
	return 0;
}
