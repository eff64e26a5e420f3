/* SPDX-License-Identifier: MIT */
/* chunk_dec.c - fields and records printed one `key: value` a line, every
 * read through a cursor over the chunk's real length. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "decode/text/chunk_dec.h"
#include "util/bytes.h"
#include "util/floatfmt.h"
#include "util/names.h"
#include "util/numfmt.h"

/* Bytes each type takes; FT_ALIGN4 depends on where it falls. */
static const uint8_t type_size[] = {
	[FT_U8] = 1, [FT_U16] = 2, [FT_S16] = 2, [FT_U32] = 4, [FT_S32] = 4,
	[FT_HEX8] = 1, [FT_HEX16] = 2, [FT_HEX32] = 4,
	[FT_F32] = 4, [FT_VEC3] = 12, [FT_RGBA] = 4,
	[FT_OBJ] = 4, [FT_LIGHT_TYPE] = 2, [FT_MTYPE] = 2,
	[FT_CHAR4] = 4, [FT_CHAR32] = 32,
};

/* ---- output helpers ---------------------------------------------------- */

static void dec_put_object(struct dec *d, uint32_t index)
{
	sb_put_u64(d->out, index);
	/* Entry 0 is the blank object that means "none". */
	if (index == 0 || !d->object_name)
		return;
	const char *name = d->object_name(d->name_ctx, index);
	if (name)
		sb_printf(d->out, " (%s)", name);
}

/* "0x" and `width` lowercase hex digits, as "%#0*x" would not (it drops
 * the 0x of a zero). */
static void put_hex(struct strbuf *sb, uint32_t v, int width)
{
	static const char hex[] = "0123456789abcdef";
	char buf[10] = "0x";
	for (int i = 0; i < width; i++)
		buf[2 + i] = hex[(v >> (4 * (width - 1 - i))) & 0xf];
	sb_append(sb, buf, (size_t)(2 + width));
}

void chunk_dec_put_raw_name(struct dec *d, const uint8_t *s, size_t n)
{
	name_put_raw(d->out, s, n);
}

/* Ends the dump: what was cut off, how much it needed, how much was left. */
void chunk_dec_stop(struct dec *d, const char *what, uint64_t need,
		    uint64_t left)
{
	if (d->stopped)
		return;
	sb_printf(d->out, "error: %s%s needs %" PRIu64 " bytes, %" PRIu64
		  " left\n", d->prefix, what, need, left);
	d->stopped = true;
}

void chunk_dec_stop_because(struct dec *d, const char *why)
{
	if (d->stopped)
		return;
	sb_printf(d->out, "error: %s%s\n", d->prefix, why);
	d->stopped = true;
}

/* Takes n bytes for `what`, or writes the error line and returns NULL. */
const uint8_t *chunk_dec_take(struct dec *d, size_t n, const char *what)
{
	if (d->stopped)
		return NULL;
	if (n > cur_left(&d->cur)) {
		chunk_dec_stop(d, what, n, cur_left(&d->cur));
		return NULL;
	}
	return cur_take(&d->cur, n);
}

/* ---- fields ------------------------------------------------------------ */

static const char *dec_light_type_name(int16_t type)
{
	static const char *const names[] = {
		NULL, "distant", "direct", "spot", "omni",
	};
	return type > 0 && type < 5 ? names[type] : NULL;
}

/* Formats one value of `type` from n bytes already known to be there.
 * Not through printf: the palettes' and tables' records are millions
 * of lines, and printf was a fifteenth of the daemon's CPU over
 * ls -lR. */
static void dec_put_value(struct dec *d, uint8_t type, const uint8_t *p)
{
	struct cursor c = cursor_make(p, type_size[type]);
	switch (type) {
	case FT_U8:    sb_put_u64(d->out, cur_u8(&c)); break;
	case FT_U16:   sb_put_u64(d->out, cur_u16(&c)); break;
	case FT_S16:   sb_put_i64(d->out, cur_s16(&c)); break;
	case FT_U32:   sb_put_u64(d->out, cur_u32(&c)); break;
	case FT_S32:   sb_put_i64(d->out, cur_s32(&c)); break;
	case FT_HEX8:  put_hex(d->out, cur_u8(&c), 2); break;
	case FT_HEX16: put_hex(d->out, cur_u16(&c), 4); break;
	case FT_HEX32: put_hex(d->out, cur_u32(&c), 8); break;
	case FT_F32:   sb_put_float(d->out, cur_f32(&c)); break;
	case FT_OBJ:   dec_put_object(d, cur_u32(&c)); break;
	case FT_CHAR4:
	case FT_CHAR32:
		chunk_dec_put_raw_name(d, p, type_size[type]);
		break;
	case FT_VEC3:
		for (int i = 0; i < 3; i++) {
			if (i)
				sb_puts(d->out, " ");
			sb_put_float(d->out, cur_f32(&c));
		}
		break;
	case FT_RGBA:
		for (int i = 0; i < 4; i++) {
			if (i)
				sb_append(d->out, " ", 1);
			sb_put_u64(d->out, cur_u8(&c));
		}
		break;
	case FT_LIGHT_TYPE: {
		int16_t t = cur_s16(&c);
		const char *name = dec_light_type_name(t);
		sb_printf(d->out, name ? "%d (%s)" : "%d", t, name);
		break;
	}
	case FT_MTYPE: {
		uint16_t m = cur_u16(&c);
		put_hex(d->out, m, 4);
		if (d->version < 0x100)
			sb_printf(d->out, " (used: 0x%02x)", m & 0xff);
		break;
	}
	}
}

static uint32_t dec_raw_value(uint8_t type, const uint8_t *p)
{
	switch (type_size[type]) {
	case 1: return p[0];
	case 2: return rd_u16le(p);
	case 4: return rd_u32le(p);
	default: return 0;
	}
}

static size_t dec_align4_pad(size_t pos)
{
	return (4 - (pos & 3)) & 3;
}

/* Prints the fields of a table that this file's version has, one a line.
 * Returns false once something did not fit. */
bool chunk_dec_field_lines(struct dec *d, const struct field *f)
{
	for (; f->type != FT_END && !d->stopped; f++) {
		if (d->version < f->min_version)
			continue;
		if (f->type == FT_ALIGN4) {
			(void)chunk_dec_take(d, dec_align4_pad(d->cur.pos),
					     "padding");
			continue;
		}
		const uint8_t *p = chunk_dec_take(d, type_size[f->type],
						  f->name);
		if (!p)
			break;
		if (f->save)
			d->saved[f->save] = dec_raw_value(f->type, p);
		sb_puts(d->out, d->prefix);
		sb_puts(d->out, f->name);
		sb_append(d->out, ": ", 2);
		dec_put_value(d, f->type, p);
		sb_puts(d->out, "\n");
	}
	return !d->stopped;
}

/* Bytes a record of these fields takes when it starts at `pos`. */
static size_t dec_record_size(const struct field *f, size_t pos)
{
	size_t start = pos;
	for (; f->type != FT_END; f++)
		pos += f->type == FT_ALIGN4 ? dec_align4_pad(pos) : type_size[f->type];
	return pos - start;
}

/* One record on one line: `label N: name value name value ...`; a field
 * without a name prints its value alone. */
bool chunk_dec_record_line(struct dec *d, const char *label, uint64_t index,
			   const struct field *f)
{
	size_t base = d->cur.pos, size = dec_record_size(f, base);
	if (d->stopped)
		return false;
	if (size > cur_left(&d->cur)) {         /* the error names it */
		char what[64];
		snprintf(what, sizeof what, "%s %" PRIu64, label, index);
		(void)chunk_dec_take(d, size, what);
		return false;
	}
	struct cursor c = cursor_make(cur_take(&d->cur, size), size);
	sb_puts(d->out, d->prefix);
	sb_puts(d->out, label);
	sb_append(d->out, " ", 1);
	sb_put_u64(d->out, index);
	sb_append(d->out, ":", 1);
	for (; f->type != FT_END; f++) {
		if (f->type == FT_ALIGN4) {
			(void)cur_take(&c, dec_align4_pad(base + c.pos));
			continue;
		}
		const uint8_t *v = cur_take(&c, type_size[f->type]);
		if (!v)
			break;
		if (f->save)
			d->saved[f->save] = dec_raw_value(f->type, v);
		if (f->name) {
			sb_append(d->out, " ", 1);
			sb_puts(d->out, f->name);
		}
		sb_append(d->out, " ", 1);
		dec_put_value(d, f->type, v);
	}
	sb_append(d->out, "\n", 1);
	return true;
}

/* A value's text length where it follows from its bytes alone, as
 * dec_put_value would write it; 0 for the types only that can tell
 * (names, floats, objects), whose bytes it does not read. */
static size_t dec_value_len(uint8_t type, const uint8_t *p)
{
	switch (type) {
	case FT_U8:    return numfmt_uint_len(p[0]);
	case FT_U16:   return numfmt_uint_len(rd_u16le(p));
	case FT_S16:   return numfmt_int_len((int16_t)rd_u16le(p));
	case FT_U32:   return numfmt_uint_len(rd_u32le(p));
	case FT_S32:   return numfmt_int_len((int32_t)rd_u32le(p));
	case FT_HEX8:  return 2 + 2;
	case FT_HEX16: return 2 + 4;
	case FT_HEX32: return 2 + 8;
	case FT_RGBA:
		return 3 + numfmt_uint_len(p[0]) + numfmt_uint_len(p[1]) +
		       numfmt_uint_len(p[2]) + numfmt_uint_len(p[3]);
	default:       return 0;
	}
}

/* When a text is only counted, the lines of the records that are all
 * there, summed at once where a record has one size and each value's
 * length follows from its bytes: a listing measures 256 palette lines
 * in each of thousands of clut.txt, and line by line that was a tenth
 * of its measures.  Returns how many records it counted; the rest, and
 * the error where they stop, go line by line. */
static uint64_t count_record_lines(struct dec *d, const char *label,
				   uint64_t count, const struct field *f)
{
	static const uint8_t zero[4];
	size_t size = 0;
	/* prefix, label, ' ', the number, ':', each value, the newline */
	uint64_t fixed = strlen(d->prefix) + strlen(label) + 3;
	if (d->stopped)
		return 0;
	for (const struct field *g = f; g->type != FT_END; g++) {
		if (g->type == FT_ALIGN4 || g->save ||
		    !dec_value_len(g->type, zero))
			return 0;
		size += type_size[g->type];
		fixed += 1 + (g->name ? 1 + strlen(g->name) : 0);
	}
	uint64_t fit = size ? cur_left(&d->cur) / size : 0;
	if (fit > count)
		fit = count;
	if (!fit)
		return 0;
	const uint8_t *p = cur_take(&d->cur, (size_t)fit * size);
	uint64_t len = fit * fixed + numfmt_digits_below(fit);
	for (uint64_t i = 0; i < fit; i++)
		for (const struct field *g = f; g->type != FT_END; g++) {
			len += dec_value_len(g->type, p);
			p += type_size[g->type];
		}
	sb_count(d->out, len);
	return fit;
}

void chunk_dec_record_lines(struct dec *d, const char *label, uint64_t count,
			    const struct field *f)
{
	uint64_t i = sb_counts_only(d->out) ?
		     count_record_lines(d, label, count, f) : 0;
	for (; i < count; i++)
		if (!chunk_dec_record_line(d, label, i, f))
			return;
}

/* A run of bytes the text does not show, only counts. */
void chunk_dec_byte_run(struct dec *d, const char *what, uint64_t bytes)
{
	if (d->stopped)
		return;
	if (bytes > cur_left(&d->cur)) {
		chunk_dec_stop(d, what, bytes, cur_left(&d->cur));
		return;
	}
	(void)cur_take(&d->cur, (size_t)bytes);
	sb_printf(d->out, "%s%s: %" PRIu64 " bytes\n", d->prefix, what, bytes);
}

