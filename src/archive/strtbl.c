/* SPDX-License-Identifier: MIT */
/* strtbl.c - streamTbl and streamTblE, read from the game's executable. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive/strtbl.h"
#include "util/bytes.h"
#include "util/vec.h"

#define SECTOR 2048

static const char *const symbols[STRTBL_VOICES] = { "streamTbl",
						    "streamTblE" };

const char *strtbl_symbol(enum strtbl_voice v)
{
	return v < STRTBL_VOICES ? symbols[v] : "";
}

int strtbl_archive(const char *file_name, enum strtbl_voice *v,
		   int16_t *type)
{
	static const struct { const char *name; enum strtbl_voice v;
			      int16_t type; } known[] = {
		{ "STRCMN.BIN", STRTBL_JAPANESE, 0 },
		{ "STR1.BIN", STRTBL_JAPANESE, 1 },
		{ "STRCMNE.BIN", STRTBL_ENGLISH, 0 },
		{ "STR1E.BIN", STRTBL_ENGLISH, 1 },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (!strcasecmp(file_name, known[i].name)) {
			*v = known[i].v;
			*type = known[i].type;
			return 0;
		}
	return -ENOENT;
}

/* A record at addr; false when it lies outside the file. */
static bool read_record(const struct elf_image *e, uint32_t addr,
			struct strtbl_record *r, uint32_t *name_addr)
{
	const uint8_t *p = elf_at(e, addr, STRTBL_RECORD);
	if (!p)
		return false;
	memset(r, 0, sizeof *r);
	*name_addr = rd_u32le(p + STRTBL_NAME_AT);
	r->ofs = (int32_t)rd_u32le(p + STRTBL_OFS_AT);
	r->size = (int32_t)rd_u32le(p + STRTBL_SIZE_AT);
	r->type = (int16_t)rd_u16le(p + STRTBL_TYPE_AT);
	r->flag = (int16_t)rd_u16le(p + STRTBL_FLAG_AT);
	r->gzip = rd_u32le(p + STRTBL_GZIP_AT);
	r->file_offset = (uint64_t)(p - e->data);
	size_t avail;
	const uint8_t *s = *name_addr ? elf_span(e, *name_addr, &avail) : NULL;
	if (s) {
		const uint8_t *nul = memchr(s, 0, avail < STRTBL_NAME_MAX + 1
					    ? avail : STRTBL_NAME_MAX + 1);
		size_t n = nul ? (size_t)(nul - s) : 0;
		memcpy(r->name, s, n);
		if (!nul)
			*name_addr = 0;         /* no end: said by the caller */
	} else {
		*name_addr = 0;
	}
	return true;
}

static void bad(struct strtbl_voice_table *v, uint32_t stream, const char *why)
{
	if (!v->bad++)
		reason_set(&v->why, "%s stream %u: %s", "the list of", stream,
			   why);
}

static uint64_t up(int32_t v)
{
	return ((uint64_t)(uint32_t)v + SECTOR - 1) / SECTOR * SECTOR;
}

/* Stream s's list at addr: its header, then its files to the record
 * without a name. */
static int read_list(const struct elf_image *e, struct strtbl_voice_table *v,
		     size_t *scap, size_t *fcap, uint32_t s, uint32_t addr)
{
	struct strtbl_stream st = { s, { "", 0, 0, 0, 0, 0, 0 }, v->nfiles, 0 };
	uint32_t name;
	if (!read_record(e, addr, &st.header, &name) || !name) {
		bad(v, s, "its header lies outside the executable or has "
		    "no name");
		return 0;
	}
	size_t first = v->nfiles;
	for (uint32_t i = 1;; i++) {
		struct strtbl_file f = { s, i, st.header.type, 0, { "", 0, 0, 0, 0,
								 0, 0 } };
		uint64_t at = addr + (uint64_t)i * STRTBL_RECORD;
		if (i > STRTBL_MAX_RECORDS || at > UINT32_MAX ||
		    !read_record(e, (uint32_t)at, &f.r, &name)) {
			bad(v, s, "it has no end inside the executable");
			v->nfiles = first;
			return 0;
		}
		uint32_t raw_name = rd_u32le(elf_at(e, (uint32_t)at, 4));
		if (!raw_name)
			break;
		if (!name || st.header.ofs < 0 || f.r.ofs < 0) {
			bad(v, s, !name ? "a file's name has no end" :
				  "a negative offset");
			continue;
		}
		f.offset = up(st.header.ofs) + up(f.r.ofs);
		if (vec_reserve(v->files, fcap, v->nfiles + 1, 64) < 0)
			return -ENOMEM;
		v->files[v->nfiles++] = f;
	}
	st.count = v->nfiles - first;
	if (vec_reserve(v->streams, scap, v->nstreams + 1, 64) < 0)
		return -ENOMEM;
	v->streams[v->nstreams++] = st;
	return 0;
}

static int read_voice(const struct elf_image *e, enum strtbl_voice k,
		      struct strtbl_voice_table *v)
{
	uint32_t addr, size;
	if (elf_symbol(e, symbols[k], &addr, &size) < 0)
		return -ENOENT;
	const uint8_t *ptrs = elf_at(e, addr, 4 * STRTBL_STREAMS);
	v->present = true;
	if (!ptrs) {
		v->bad++;
		reason_set(&v->why, "%s lies outside the executable's loaded "
			   "bytes", symbols[k]);
		return 0;
	}
	size_t scap = 0, fcap = 0;
	for (uint32_t s = 0; s < STRTBL_STREAMS; s++) {
		uint32_t list = rd_u32le(ptrs + 4 * s);
		int rc = list ? read_list(e, v, &scap, &fcap, s, list) : 0;
		if (rc < 0)
			return rc;
	}
	return 0;
}

int strtbl_read(const struct elf_image *e, struct strtbl *t,
		struct reason *why)
{
	memset(t, 0, sizeof *t);
	int found = 0;
	for (int k = 0; k < STRTBL_VOICES; k++) {
		int rc = read_voice(e, (enum strtbl_voice)k, &t->voice[k]);
		if (rc == -ENOMEM) {
			strtbl_free(t);
			reason_set(why, "%s", "out of memory");
			return rc;
		}
		found += rc == 0;
	}
	if (!found) {
		reason_set(why, "%s", "no streamTbl or streamTblE symbol");
		return -ENOENT;
	}
	return 0;
}

void strtbl_free(struct strtbl *t)
{
	for (int k = 0; k < STRTBL_VOICES; k++) {
		free(t->voice[k].streams);
		free(t->voice[k].files);
		t->voice[k].streams = NULL;
		t->voice[k].files = NULL;
		t->voice[k].nstreams = t->voice[k].nfiles = 0;
	}
}
