/* SPDX-License-Identifier: MIT */
/* anime.c - controller records of the Anime chunk: layout and text. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "decode/motion/anime.h"
#include "decode/motion/xform.h"
#include "util/bytes.h"
#include "util/floatfmt.h"
#include "util/reason.h"

/* One field of a kind: its selector's first bit, its name, its value. */
struct field_layout {
	uint8_t bit;
	uint8_t value;
	const char *name;
};

struct controller_layout {
	uint16_t kind;
	const char *name;
	unsigned count;
	struct field_layout fields[ANIME_MAX_FIELDS];
};

/* doc/formats/anime.md, Controllers: selectors in bit order, which is
 * also the order the present fields are packed in. */
static const struct controller_layout layouts[] = {
	{ 0x0102, "object-ctl", 4, {
		{ 0, ANIME_VEC3, "position" }, { 3, ANIME_VEC3, "rotation" },
		{ 6, ANIME_VEC3, "scale" }, { 9, ANIME_F32, "transparency" } } },
	{ 0x0202, "material-ctl", 2, {
		{ 0, ANIME_F32, "u" }, { 3, ANIME_F32, "v" } } },
	{ 0x0603, "distantlight-ctl", 3, {
		{ 3, ANIME_VEC3, "rotation" }, { 6, ANIME_COLOUR, "colour" },
		{ 9, ANIME_F32, "intensity" } } },
	{ 0x0605, "directlight-ctl", 8, {
		{ 0, ANIME_VEC3, "position" }, { 3, ANIME_VEC3, "rotation" },
		{ 6, ANIME_COLOUR, "colour" }, { 9, ANIME_F32, "intensity" },
		{ 12, ANIME_F32, "beam-start" }, { 15, ANIME_F32, "beam-end" },
		{ 18, ANIME_F32, "radius1" }, { 21, ANIME_F32, "radius2" } } },
	{ 0x0609, "omnilight-ctl", 5, {
		{ 0, ANIME_VEC3, "position" }, { 6, ANIME_COLOUR, "colour" },
		{ 9, ANIME_F32, "intensity" }, { 12, ANIME_F32, "falloff-start" },
		{ 15, ANIME_F32, "falloff-end" } } },
};

static const struct controller_layout *layout_of(uint16_t kind)
{
	for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
		if (layouts[i].kind == kind)
			return &layouts[i];
	return NULL;
}

bool anime_is_controller(uint16_t kind)
{
	return layout_of(kind) != NULL;
}

size_t anime_value_size(uint8_t value)
{
	return value == ANIME_VEC3 ? 12 : 4;
}

/* Takes one field's bytes from the cursor as its selector says. */
static int take_field(struct cursor *cur, unsigned sel, struct anime_field *f,
		      struct reason *why)
{
	size_t vsize = anime_value_size(f->value);
	f->mode = sel == 1 ? ANIME_CONSTANT : ANIME_KEYED;
	if (sel == 1) {
		f->data = cur_take(cur, vsize);
	} else {
		f->keys = cur_u32(cur);
		uint64_t bytes = (uint64_t)f->keys * (4 + vsize);
		f->data = !cur->bad && bytes <= cur_left(cur)
			  ? cur_take(cur, (size_t)bytes) : NULL;
		if (!f->data && !cur->bad) {
			reason_set(why, "%s: %" PRIu32 " keys need %"
				 PRIu64 " bytes, %zu left", f->name, f->keys,
				 bytes, cur_left(cur));
			return -EIO;
		}
	}
	if (!f->data) {
		reason_set(why, "%s: runs past the record", f->name);
		return -EIO;
	}
	return 0;
}

int anime_controller_parse(uint16_t kind, const uint8_t *p, size_t len,
			   struct anime_controller *c, struct reason *why)
{
	const struct controller_layout *l = layout_of(kind);
	memset(c, 0, sizeof *c);
	if (!l) {
		reason_set(why, "kind 0x%04x has no known layout", kind);
		return -EIO;
	}
	c->kind = kind;
	c->kind_name = l->name;
	struct cursor cur = cursor_make(p, len);
	c->target = cur_u32(&cur);
	c->flags = cur_u32(&cur);
	if (cur.bad) {
		reason_set(why, "%zu bytes, too short for its target "
			 "and flags", len);
		return -EIO;
	}
	for (unsigned i = 0; i < l->count; i++) {
		unsigned sel = (c->flags >> l->fields[i].bit) & 7;
		struct anime_field *f = &c->fields[c->field_count];
		f->name = l->fields[i].name;
		f->value = l->fields[i].value;
		if (sel == 0)
			continue;
		if (sel > 2) {
			reason_set(why, "%s: selector %u (only 0, 1 "
				 "and 2 are known)", f->name, sel);
			return -EIO;
		}
		int rc = take_field(&cur, sel, f, why);
		if (rc < 0)
			return rc;
		c->field_count++;
	}
	return 0;
}

struct chunk_check {
	int rc;
	struct reason *why;
};

static void check_record(const struct anime_record *r, void *arg)
{
	struct chunk_check *k = arg;
	struct anime_controller c;
	struct reason inner = { "" };
	if (k->rc < 0 || !anime_is_controller(r->kind) ||
	    anime_controller_parse(r->kind, r->p, r->len, &c, &inner) == 0)
		return;
	reason_set(k->why, "%s at +0x%zx: %s",
		   layout_of(r->kind)->name, r->offset, inner.text);
	k->rc = -EIO;
}

int anime_chunk_check(const uint8_t *p, size_t len, struct reason *why)
{
	/* A record past the chunk ends the walk quietly (see anime.h). */
	struct chunk_check k = { 0, why };
	anime_each_record(p, len, check_record, &k, NULL);
	return k.rc;
}

unsigned anime_field_value(const struct anime_field *f, uint32_t k,
			   uint32_t *frame, float out[3])
{
	const uint8_t *v = f->data;
	*frame = 0;
	if (f->mode == ANIME_KEYED) {
		v += (size_t)k * (4 + anime_value_size(f->value));
		*frame = rd_u32le(v);
		v += 4;
	}
	switch (f->value) {
	case ANIME_VEC3:
		for (unsigned i = 0; i < 3; i++)
			out[i] = rd_f32le(v + 4 * i);
		return 3;
	case ANIME_COLOUR:
		for (unsigned i = 0; i < 3; i++)
			out[i] = (float)v[i] / 255.0f;
		return 3;
	default:
		out[0] = rd_f32le(v);
		return 1;
	}
}

/* One value as the file has it: floats as %.9g gives them, a colour as
 * its three bytes. */
static void put_value(struct strbuf *out, const struct anime_field *f,
		      uint32_t k)
{
	const uint8_t *v = f->data;
	if (f->mode == ANIME_KEYED)
		v += (size_t)k * (4 + anime_value_size(f->value)) + 4;
	if (f->value == ANIME_COLOUR) {
		sb_printf(out, "%u %u %u", v[0], v[1], v[2]);
		return;
	}
	unsigned n = f->value == ANIME_VEC3 ? 3 : 1;
	for (unsigned i = 0; i < n; i++) {
		if (i)
			sb_puts(out, " ");
		sb_put_float(out, rd_f32le(v + 4 * i));
	}
}

void anime_controller_text(const struct anime_controller *c,
			   struct strbuf *out)
{
	for (unsigned i = 0; i < c->field_count; i++) {
		const struct anime_field *f = &c->fields[i];
		if (f->mode == ANIME_CONSTANT) {
			sb_printf(out, "  %s: constant ", f->name);
			put_value(out, f, 0);
			sb_puts(out, "\n");
			continue;
		}
		sb_printf(out, "  %s: keyed %" PRIu32 "\n", f->name, f->keys);
		for (uint32_t k = 0; k < f->keys; k++) {
			uint32_t frame = rd_u32le(f->data + (size_t)k *
					(4 + anime_value_size(f->value)));
			sb_printf(out, "    %" PRIu32 ": ", frame);
			put_value(out, f, k);
			sb_puts(out, "\n");
		}
	}
}

int anime_each_record(const uint8_t *p, size_t len, anime_record_fn fn,
		      void *arg, struct reason *why)
{
	if (len < 12) {
		reason_set(why, "%zu bytes, too short for the "
			   "object, frames and words", len);
		return -EIO;
	}
	struct anime_record r = { .frame = -1 };
	for (size_t off = 12; off < len;) {
		if (len - off < 8) {
			reason_set(why, "%zu bytes at +%zu, less than "
				   "a record header", len - off, off);
			return -EIO;
		}
		r.kind = rd_u16le(p + off);
		uint64_t rlen = 4 * (uint64_t)rd_u32le(p + off + 4);
		if (rlen > len - off - 8) {
			reason_set(why, "record of kind 0x%04x at "
				   "+%zu runs past the chunk", r.kind, off);
			return -EIO;
		}
		r.p = p + off + 8;
		r.len = (size_t)rlen;
		r.offset = off;
		if (r.kind == 0xff01 && r.len >= 4)
			r.frame = (int32_t)rd_u32le(r.p);
		fn(&r, arg);
		off += 8 + r.len;
	}
	return 0;
}

static const struct anime_field *field_named(const struct anime_controller *c,
					     const char *name)
{
	for (unsigned i = 0; i < c->field_count; i++)
		if (!strcmp(c->fields[i].name, name))
			return &c->fields[i];
	return NULL;
}

void anime_field_first(const struct anime_controller *c, const char *name,
		       const float def[3], float out[3])
{
	const struct anime_field *f = field_named(c, name);
	memcpy(out, def, 3 * sizeof *out);
	if (!f || (f->mode == ANIME_KEYED && f->keys == 0))
		return;
	uint32_t frame;
	anime_field_value(f, 0, &frame, out);
	if (f->mode == ANIME_KEYED && !strcmp(name, "rotation"))
		for (int i = 0; i < 3; i++)
			out[i] = xform_round_angle(out[i]);
}

void anime_object_pose(const struct anime_controller *c, float t[3],
		       float r_deg[3], float s[3])
{
	static const float zero[3] = { 0, 0, 0 }, one[3] = { 1, 1, 1 };
	anime_field_first(c, "position", zero, t);
	anime_field_first(c, "rotation", zero, r_deg);
	anime_field_first(c, "scale", one, s);
}

bool anime_f_obj(const struct anime_record *r, uint32_t *object, float t[3],
		 float r_deg[3], float s[3])
{
	if (r->kind != 0x0101 || r->len < 44)
		return false;
	*object = rd_u32le(r->p);
	float *out[3] = { t, r_deg, s };
	for (int v = 0; v < 3; v++)
		for (int i = 0; i < 3; i++) {
			float f = rd_f32le(r->p + 8 + 12 * v + 4 * i);
			out[v][i] = isfinite(f) ? f : v == 2;
		}
	return true;
}
