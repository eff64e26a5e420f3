/* SPDX-License-Identifier: MIT */
/* fuzz_fdtbl.c - the input as the game's executable: its ELF headers and
 * symbols (io/elf.c, libelf) and DATA.BIN's index in it (archive/fdtbl.c).
 * Every entry handed back must be whole: a NUL-ended name, a category
 * in range, an offset on a sector of its category. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "archive/fdtbl.h"
#include "io/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_image e;
	char why[ELF_WHY];
	if (elf_open(&e, data, size, why, sizeof why) == 0) {
		uint32_t v, s;
		(void)elf_symbol(&e, "categoryFDTbl", &v, &s);
		const char *n = elf_symbol_at(&e, v);
		if (n && !memchr(n, 0, (size_t)(data + size - (const uint8_t *)n)))
			abort();
		const uint8_t *p = elf_at(&e, v, 16);
		if (p && (p < data || p + 16 > data + size))
			abort();
	} else if (!memchr(why, 0, sizeof why) || !why[0]) {
		abort();
	}
	struct fdtbl t;
	char twhy[FDTBL_WHY];
	if (fdtbl_read(data, size, &t, twhy, sizeof twhy) == 0) {
		for (size_t i = 0; i < t.count; i++)
			if (t.entries[i].category >= FDTBL_CATEGORIES ||
			    t.entries[i].name[FDTBL_NAME] != 0)
				abort();
		fdtbl_free(&t);
	} else if (t.entries || t.count) {
		abort();
	}
	return 0;
}
