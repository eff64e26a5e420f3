/* SPDX-License-Identifier: MIT */
/* fuzz_anime.c - the input as a controller record: the first two bytes
 * pick the kind, the rest is the record.  Parsing and the text of what
 * parsed must stay inside the record whatever its selectors and counts
 * claim. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode/motion/anime.h"
#include "fuzz_common.h"
#include "util/strbuf.h"

static const uint16_t kinds[] = { 0x0102, 0x0202, 0x0603, 0x0605, 0x0609,
				  0x0607 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint16_t kind = kinds[data[0] % (sizeof kinds / sizeof kinds[0])];
	/* A copy of exactly the record's bytes, so ASan sees an overread. */
	size_t len = size - 1;
	uint8_t *rec = malloc(len ? len : 1);
	if (!rec)
		return 0;
	memcpy(rec, data + 1, len);
	struct anime_controller c;
	struct reason why = { "" };
	int rc = anime_controller_parse(kind, rec, len, &c, &why);
	if (rc < 0 && (!why.text[0] || !memchr(why.text, 0, sizeof why.text)))
		abort();
	if (c.field_count > ANIME_MAX_FIELDS)
		abort();
	struct strbuf sb = STRBUF_INIT;
	anime_controller_text(&c, &sb);
	for (unsigned i = 0; i < c.field_count; i++) {
		const struct anime_field *f = &c.fields[i];
		uint32_t keys = f->mode == ANIME_KEYED ? f->keys : 1;
		for (uint32_t k = 0; k < keys && k < 64; k++) {
			uint32_t frame;
			float v[3];
			(void)anime_field_value(f, k, &frame, v);
		}
	}
	sb_free(&sb);
	free(rec);
	return 0;
}
