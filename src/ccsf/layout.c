/* SPDX-License-Identifier: MIT */
/* layout.c - where a model's mmats and a texture's levels lie (layout.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsf/layout.h"
#include "util/bytes.h"

/* ---- model ------------------------------------------------------------- */

uint16_t ccsf_model_mtype(uint16_t mtype, uint16_t version)
{
	/* Files before 0x100 only have the low byte's meaning. */
	return version < 0x100 ? mtype & 0xff : mtype;
}

bool ccsf_model_layout_unknown(uint16_t mtype, uint32_t mmats)
{
	return mmats && (mtype & 2);
}

int ccsf_model_head(const uint8_t *p, size_t len, uint16_t version,
		    struct ccsf_model *m)
{
	struct cursor c = cursor_make(p, len);
	memset(m, 0, sizeof *m);
	(void)cur_take(&c, CCSF_CHUNK_HEADER);
	m->object = cur_u32(&c);
	m->vertex_scale = cur_f32(&c);
	m->mtype = ccsf_model_mtype(cur_u16(&c), version);
	m->mmats = cur_u16(&c);
	m->flag = cur_u16(&c);
	(void)cur_take(&c, 3);                  /* zoffs, unknown */
	cur_align4(&c);
	return c.bad ? -EIO : 0;
}

enum ccsf_mmat_kind ccsf_mmat_kind_of(uint16_t mtype, uint32_t offsets)
{
	/* The order the game's decoder tests the bits in. */
	if (mtype & 4)
		return offsets ? CCSF_MMAT_SKIN : CCSF_MMAT_BONE;
	if (mtype & 8)
		return CCSF_MMAT_SHADOW;
	return CCSF_MMAT_RIGID;
}

const char *ccsf_mmat_kind_name(enum ccsf_mmat_kind kind)
{
	static const char *const names[] = {
		[CCSF_MMAT_RIGID] = "rigid", [CCSF_MMAT_BONE] = "bone",
		[CCSF_MMAT_SKIN] = "skin", [CCSF_MMAT_SHADOW] = "shadow",
	};
	return names[kind];
}

/* Places one array at `at` and returns where the next one starts.  The
 * counts are at most 2^32 and elem at most 12, so 64 bits cannot wrap. */
static uint64_t place(struct ccsf_mmat *mm, enum ccsf_array_kind k,
		      uint64_t at, uint64_t count, unsigned elem)
{
	struct ccsf_array *a = &mm->array[k];
	a->at = at;
	a->count = count;
	a->elem = elem;
	a->bytes = count * elem;
	if (k == CCSF_A_POSITION)       /* s16[3] runs are padded to 4 */
		a->bytes = (a->bytes + 3) & ~(uint64_t)3;
	return at + a->bytes;
}

uint64_t ccsf_array_fit(const struct ccsf_array *a, size_t len)
{
	uint64_t left = a->at < len ? len - a->at : 0;
	uint64_t fit = a->elem ? left / a->elem : a->count;
	return fit < a->count ? fit : a->count;
}

/* Entries with bit 9 set end a vertex; only these own an ST. */
static uint64_t skin_ends(const uint8_t *p, size_t len,
			  const struct ccsf_array *entries)
{
	if (ccsf_array_fit(entries, len) < entries->count)
		return 0;
	uint64_t ends = 0;
	for (uint64_t e = 0; e < entries->count; e++)
		ends += (rd_u16le(p + entries->at + 8 * e + 6) >> 9) & 1;
	return ends;
}

static void place_body(const uint8_t *p, size_t len, uint16_t mtype,
		       struct ccsf_mmat *mm)
{
	uint64_t at = mm->body, n = mm->vertices;
	switch (mm->kind) {
	case CCSF_MMAT_RIGID:
		at = place(mm, CCSF_A_POSITION, at, n, 6);
		if (!(mtype & 0x40))
			at = place(mm, CCSF_A_NORMAL, at, n, 4);
		if (!(mtype & 0x200))
			at = place(mm, CCSF_A_COLOUR, at, n, 4);
		if (!(mtype & 0x400))
			at = place(mm, CCSF_A_ST, at, n, 4);
		break;
	case CCSF_MMAT_BONE:
		at = place(mm, CCSF_A_NODE, at, 1, 4);
		at = place(mm, CCSF_A_POSITION, at, n, 6);
		at = place(mm, CCSF_A_NORMAL, at, n, 4);
		at = place(mm, CCSF_A_ST, at, n, 4);
		break;
	case CCSF_MMAT_SKIN:
		at = place(mm, CCSF_A_ENTRY, at, mm->offsets, 8);
		at = place(mm, CCSF_A_NORMAL, at, mm->offsets, 4);
		mm->ends = skin_ends(p, len, &mm->array[CCSF_A_ENTRY]);
		at = place(mm, CCSF_A_ST, at, mm->ends, 4);
		break;
	case CCSF_MMAT_SHADOW:
		if (mm->vnum == 0)      /* vNum 0: nothing follows */
			break;
		at = place(mm, CCSF_A_POSITION, at, n, 6);
		at = place(mm, CCSF_A_TRIANGLE, at, (uint64_t)mm->inum / 3, 12);
		break;
	}
	mm->end = at;
}

/* The header words by mtype (doc/formats/model.md,
 * Header words); bit 0x02's never occur. */
static void read_words(struct cursor *c, uint16_t mtype, struct ccsf_mmat *mm)
{
	switch (ccsf_mmat_kind_of(mtype, 0)) {
	case CCSF_MMAT_BONE:
		mm->material = cur_u32(c);
		mm->vertices = cur_u32(c);
		mm->offsets = cur_u32(c);
		mm->kind = ccsf_mmat_kind_of(mtype, mm->offsets);
		break;
	case CCSF_MMAT_SHADOW:
		mm->vnum = cur_s32(c);
		mm->inum = cur_s32(c);
		mm->vertices = (uint32_t)mm->vnum;
		mm->kind = CCSF_MMAT_SHADOW;
		break;
	default:
		mm->name = cur_u32(c);
		mm->material = cur_u32(c);
		mm->vertices = cur_u32(c);
		mm->kind = CCSF_MMAT_RIGID;
		break;
	}
}

int ccsf_mmat_describe(const uint8_t *p, size_t len, uint16_t mtype,
		       uint64_t at, struct ccsf_mmat *mm)
{
	memset(mm, 0, sizeof *mm);
	mm->at = at;
	struct cursor c = cursor_make(p, len);
	if (at > len)
		c.bad = true;
	else
		c.pos = (size_t)at;
	read_words(&c, mtype, mm);
	mm->body = mm->end = c.pos;
	if (c.bad) {
		mm->fault = CCSF_MMAT_CUT_WORDS;
		return -EIO;
	}
	if (mm->kind == CCSF_MMAT_SHADOW && (mm->vnum < 0 || mm->inum < 0)) {
		mm->fault = CCSF_MMAT_NEGATIVE;
		return -EIO;
	}
	place_body(p, len, mtype, mm);
	if (mm->end > len) {
		mm->fault = CCSF_MMAT_CUT_BODY;
		return -EIO;
	}
	return 0;
}

void ccsf_mmat_begin(struct ccsf_mmat_iter *it, const uint8_t *p,
		     size_t len, const struct ccsf_model *m)
{
	memset(it, 0, sizeof *it);
	it->p = p;
	it->len = len;
	it->mtype = m->mtype;
	it->count = m->mmats;
	it->pos = CCSF_MODEL_HEAD;
}

int ccsf_mmat_next(struct ccsf_mmat_iter *it, struct ccsf_mmat *mm)
{
	if (it->failed)
		return -EIO;
	if (it->next >= it->count)
		return 0;
	if (ccsf_mmat_describe(it->p, it->len, it->mtype, it->pos, mm)) {
		it->failed = true;
		return -EIO;
	}
	it->pos = mm->end;
	it->next++;
	return 1;
}

/* ---- texture ----------------------------------------------------------- */

int ccsf_texture_head(const uint8_t *p, size_t len, uint16_t version,
		      struct ccsf_texture *t)
{
	struct cursor c = cursor_make(p, len);
	memset(t, 0, sizeof *t);
	(void)cur_take(&c, CCSF_CHUNK_HEADER);
	t->object = cur_u32(&c);
	t->clut = cur_u32(&c);
	if (version >= 0x92)
		t->blt_group = cur_u32(&c);
	t->flag = cur_u8(&c);
	t->psm = cur_u8(&c);
	if (version >= 0x90) {
		t->mipmap = cur_u8(&c);
		t->aref = cur_u8(&c);
		t->tw = cur_u8(&c);
		t->th = cur_u8(&c);
	}
	cur_align4(&c);
	t->levels = t->mipmap + 1u;
	t->first_level = c.pos;
	return c.bad ? -EIO : 0;
}

int ccsf_level_describe(const uint8_t *p, size_t len, uint64_t at,
			struct ccsf_level *lv)
{
	memset(lv, 0, sizeof *lv);
	if (at > len || len - at < CCSF_LEVEL_HEAD)
		return -EIO;
	const uint8_t *h = p + at;
	lv->buf_x = rd_u16le(h);
	lv->buf_y = rd_u16le(h + 2);
	lv->count = rd_u32le(h + 4);
	lv->pixels = at + CCSF_LEVEL_HEAD;
	lv->end = lv->pixels + 4 * (uint64_t)lv->count;
	return lv->end > len ? -ERANGE : 0;
}
