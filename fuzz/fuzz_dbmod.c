/* SPDX-License-Identifier: MIT */
/* fuzz_dbmod.c - the input as a model database, DBnnMOD.BIN
 * (dbmod/dbmod*.c): the table, each model's offsets and faces, its
 * model.bin range, model.txt, model.obj and model.mtl, and models.txt.
 * A model's bytes lie inside the file, a reason is a NUL-ended string,
 * and nothing reads past the input whatever its counts and offsets say.
 * With its magic forced at the front half the time, so the fuzzer spends
 * its effort past the probe. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dbmod/dbmod.h"
#include "fuzz_common.h"
#include "util/bytes.h"
#include "util/strbuf.h"

static void check_why(const struct reason *why)
{
	if (!memchr(why->text, '\0', sizeof why->text))
		abort();
}

static void each_model(const struct dbmod *db)
{
	struct reason why = { "" };
	for (size_t i = 0; i < db->count; i++) {
		struct dbmod_model m;
		memset(&why, 0x55, sizeof why);
		if (dbmod_check(db, i, &m, &why) == -EIO)
			check_why(&why);
		size_t start, len;
		if (dbmod_model_bytes(db, i, &start, &len, &why) == 0
		    && (start > db->len || len > db->len - start))
			abort();
		struct strbuf obj = STRBUF_INIT, mtl = STRBUF_INIT;
		dbmod_model_text(db, i, &obj, &why);
		sb_free(&obj);
		dbmod_model_obj(db, i, &obj, &mtl, &why);
		sb_free(&obj);
		sb_free(&mtl);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	/* Byte 0 odd: the magic goes in front of the rest. */
	size_t n = data[0] & 1 ? size - 1 + 4 : size - 1;
	uint8_t *p = malloc(n ? n : 1);
	if (!p)
		return 0;
	if (data[0] & 1) {
		wr_u32le(p, DBMOD_MAGIC);
		memcpy(p + 4, data + 1, size - 1);
	} else {
		memcpy(p, data + 1, size - 1);
	}
	struct dbmod db;
	struct reason why = { "" };
	memset(&why, 0x55, sizeof why);
	int rc = dbmod_open(&db, p, n, &why);
	if (rc == 0) {
		each_model(&db);
		struct strbuf sb = STRBUF_INIT;
		dbmod_models_text(&db, &sb);
		sb_free(&sb);
		dbmod_close(&db);
	} else if (rc == -EIO) {
		check_why(&why);
	}
	free(p);
	return 0;
}
