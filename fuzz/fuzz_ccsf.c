/* SPDX-License-Identifier: MIT */
/* fuzz_ccsf.c - the CCSF walk over the input as an inflated file, then
 * the names it found through the Shift-JIS converter, as the tree does. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "fuzz_common.h"
#include "util/names.h"

static struct name_conv *nc;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	nc = name_conv_open();
	return 0;
}

static void check_name(const uint8_t *raw, size_t n)
{
	char out[NAME_MAX_OUT(CCSF_NAME_LEN + 1)];
	size_t len = name_from_sjis(nc, raw, n, out);
	if (len >= sizeof out || strlen(out) != len || memchr(out, '/', len) ||
	    !strcmp(out, ".") || !strcmp(out, ".."))
		abort();
	len = name_escape_ascii(raw, n, out);
	if (len >= sizeof out || strlen(out) != len || memchr(out, '/', len))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ccsf_scene s;
	int rc = ccsf_walk(data, size, &s);
	if (rc == 0 && s.error.text[0])
		abort();
	for (uint32_t i = 0; i < s.chunk_count; i++) {
		const struct ccsf_chunk *c = &s.chunks[i];
		if ((uint64_t)c->offset + c->length > size)
			abort();
		(void)ccsf_kind_name(c->kind);
		(void)ccsf_kind_has_object(c->kind);
	}
	if (nc) {
		check_name(s.name, CCSF_NAME_LEN);
		for (uint32_t i = 0; i < s.file_count && i < 64; i++)
			check_name(s.files[i], CCSF_NAME_LEN);
		for (uint32_t i = 0; i < s.object_count && i < 64; i++)
			check_name(s.objects[i].name, CCSF_OBJECT_NAME_LEN);
	}
	ccsf_scene_free(&s);
	return 0;
}
