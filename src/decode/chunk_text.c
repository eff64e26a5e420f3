/* SPDX-License-Identifier: MIT */
/* chunk_text.c - the decoders behind <kind>.txt (doc/formats/ccsf.md).
 *
 * Most chunks are a fixed run of fields, so most kinds are one table row:
 * a field list printed one `key: value` a line.  Arrays (levels, colours,
 * nodes, vertices) go through a tail function, one record a line.
 *
 * Every read goes through a cursor over the chunk's real length.  When a
 * field does not fit, the decoder writes one `error:` line and stops: the
 * text is the report, so a lying chunk still decodes to a file.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/bytes.h"
#include "ccsf/ccsf.h"
#include "decode/chunk_text.h"
#include "util/numfmt.h"

enum field_type {
	FT_END,
	FT_U8, FT_U16, FT_S16, FT_U32, FT_S32,
	FT_HEX8, FT_HEX16, FT_HEX32,
	FT_F32, FT_VEC3, FT_RGBA,
	FT_OBJ,         /* u32 object index, printed with its name */
	FT_LIGHT_TYPE,  /* s16 with the kind of light */
	FT_MTYPE,       /* u16, with the part older versions use */
	FT_CHAR4, FT_CHAR32,
	FT_ALIGN4,      /* padding to 4 from the chunk start; not printed */
};

/* Bytes each type takes; FT_ALIGN4 depends on where it falls. */
static const uint8_t type_size[] = {
	[FT_U8] = 1, [FT_U16] = 2, [FT_S16] = 2, [FT_U32] = 4, [FT_S32] = 4,
	[FT_HEX8] = 1, [FT_HEX16] = 2, [FT_HEX32] = 4,
	[FT_F32] = 4, [FT_VEC3] = 12, [FT_RGBA] = 4,
	[FT_OBJ] = 4, [FT_LIGHT_TYPE] = 2, [FT_MTYPE] = 2,
	[FT_CHAR4] = 4, [FT_CHAR32] = 32,
};

/* Values a tail needs from the fixed fields (counts, flags). */
enum saved {
	SV_NONE, SV_COUNT, SV_COUNT2, SV_FLAG, SV_MIPMAP, SV_SCALE, SV_MTYPE,
	SV_VERTICES, SV_OFFSETS, SV_MAX
};

struct field {
	uint8_t type;
	uint8_t save;           /* enum saved: where the raw value goes */
	uint16_t min_version;   /* absent from files older than this */
	const char *name;
};

#define F(t, n)          { .type = (t), .name = (n) }
#define FS(t, n, s)      { .type = (t), .name = (n), .save = (s) }
#define FV(t, n, v)      { .type = (t), .name = (n), .min_version = (v) }
#define FVS(t, n, v, s)  { .type = (t), .name = (n), .min_version = (v), \
			   .save = (s) }
#define PAD              { .type = FT_ALIGN4 }
#define END              { .type = FT_END }

struct dec {
	struct cursor cur;
	uint16_t version;
	chunk_object_name_fn object_name;
	void *name_ctx;
	struct strbuf *out;
	bool stopped;                   /* the error line is written */
	uint32_t saved[SV_MAX];
	char prefix[48];                /* before each key: "mmat 2 " */
};

/* ---- output helpers ---------------------------------------------------- */

static void put_object(struct dec *d, uint32_t index)
{
	sb_printf(d->out, "%" PRIu32, index);
	/* Entry 0 is the blank object that means "none". */
	if (index == 0 || !d->object_name)
		return;
	const char *name = d->object_name(d->name_ctx, index);
	if (name)
		sb_printf(d->out, " (%s)", name);
}

static void put_float(struct dec *d, float f)
{
	sb_put_float(d->out, f);
}

/* Bytes of a fixed-size name up to its NUL: printable ASCII as it is, any
 * other byte (and '%', so the text stays unambiguous) as %XX. */
static void put_raw_name(struct dec *d, const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '%')
			sb_append(d->out, &s[i], 1);
		else
			sb_printf(d->out, "%%%02X", s[i]);
	}
}

/* Ends the dump: what was cut off, how much it needed, how much was left. */
static void stop(struct dec *d, const char *what, uint64_t need, uint64_t left)
{
	if (d->stopped)
		return;
	sb_printf(d->out, "error: %s%s needs %" PRIu64 " bytes, %" PRIu64
		  " left\n", d->prefix, what, need, left);
	d->stopped = true;
}

static void stop_because(struct dec *d, const char *why)
{
	if (d->stopped)
		return;
	sb_printf(d->out, "error: %s%s\n", d->prefix, why);
	d->stopped = true;
}

/* Takes n bytes for `what`, or writes the error line and returns NULL. */
static const uint8_t *take(struct dec *d, size_t n, const char *what)
{
	if (d->stopped)
		return NULL;
	if (n > cur_left(&d->cur)) {
		stop(d, what, n, cur_left(&d->cur));
		return NULL;
	}
	return cur_take(&d->cur, n);
}

/* ---- fields ------------------------------------------------------------ */

static const char *light_type_name(int16_t type)
{
	static const char *const names[] = {
		NULL, "distant", "direct", "spot", "omni",
	};
	return type > 0 && type < 5 ? names[type] : NULL;
}

/* Formats one value of `type` from n bytes already known to be there. */
static void put_value(struct dec *d, uint8_t type, const uint8_t *p)
{
	struct cursor c = cursor_make(p, type_size[type]);
	switch (type) {
	case FT_U8:    sb_printf(d->out, "%u", cur_u8(&c)); break;
	case FT_U16:   sb_printf(d->out, "%u", cur_u16(&c)); break;
	case FT_S16:   sb_printf(d->out, "%d", cur_s16(&c)); break;
	case FT_U32:   sb_printf(d->out, "%" PRIu32, cur_u32(&c)); break;
	case FT_S32:   sb_printf(d->out, "%" PRId32, cur_s32(&c)); break;
	case FT_HEX8:  sb_printf(d->out, "0x%02x", cur_u8(&c)); break;
	case FT_HEX16: sb_printf(d->out, "0x%04x", cur_u16(&c)); break;
	case FT_HEX32: sb_printf(d->out, "0x%08" PRIx32, cur_u32(&c)); break;
	case FT_F32:   put_float(d, cur_f32(&c)); break;
	case FT_OBJ:   put_object(d, cur_u32(&c)); break;
	case FT_CHAR4:
	case FT_CHAR32:
		put_raw_name(d, p, type_size[type]);
		break;
	case FT_VEC3:
		for (int i = 0; i < 3; i++) {
			if (i)
				sb_puts(d->out, " ");
			put_float(d, cur_f32(&c));
		}
		break;
	case FT_RGBA:
		for (int i = 0; i < 4; i++)
			sb_printf(d->out, i ? " %u" : "%u", cur_u8(&c));
		break;
	case FT_LIGHT_TYPE: {
		int16_t t = cur_s16(&c);
		const char *name = light_type_name(t);
		sb_printf(d->out, name ? "%d (%s)" : "%d", t, name);
		break;
	}
	case FT_MTYPE: {
		uint16_t m = cur_u16(&c);
		sb_printf(d->out, "0x%04x", m);
		if (d->version < 0x100)
			sb_printf(d->out, " (used: 0x%02x)", m & 0xff);
		break;
	}
	}
}

static uint32_t raw_value(uint8_t type, const uint8_t *p)
{
	switch (type_size[type]) {
	case 1: return p[0];
	case 2: return rd_u16le(p);
	case 4: return rd_u32le(p);
	default: return 0;
	}
}

static size_t align4_pad(size_t pos)
{
	return (4 - (pos & 3)) & 3;
}

/* Prints the fields of a table that this file's version has, one a line.
 * Returns false once something did not fit. */
static bool field_lines(struct dec *d, const struct field *f)
{
	for (; f->type != FT_END && !d->stopped; f++) {
		if (d->version < f->min_version)
			continue;
		if (f->type == FT_ALIGN4) {
			(void)take(d, align4_pad(d->cur.pos), "padding");
			continue;
		}
		const uint8_t *p = take(d, type_size[f->type], f->name);
		if (!p)
			break;
		if (f->save)
			d->saved[f->save] = raw_value(f->type, p);
		sb_printf(d->out, "%s%s: ", d->prefix, f->name);
		put_value(d, f->type, p);
		sb_puts(d->out, "\n");
	}
	return !d->stopped;
}

/* Bytes a record of these fields takes when it starts at `pos`. */
static size_t record_size(const struct field *f, size_t pos)
{
	size_t start = pos;
	for (; f->type != FT_END; f++)
		pos += f->type == FT_ALIGN4 ? align4_pad(pos) : type_size[f->type];
	return pos - start;
}

/* One record on one line: `label N: name value name value ...`; a field
 * without a name prints its value alone. */
static bool record_line(struct dec *d, const char *label, uint64_t index,
			const struct field *f)
{
	char what[64];
	snprintf(what, sizeof what, "%s %" PRIu64, label, index);
	size_t base = d->cur.pos, size = record_size(f, base);
	const uint8_t *p = take(d, size, what);
	if (!p)
		return false;
	struct cursor c = cursor_make(p, size);
	sb_printf(d->out, "%s%s:", d->prefix, what);
	for (; f->type != FT_END; f++) {
		if (f->type == FT_ALIGN4) {
			(void)cur_take(&c, align4_pad(base + c.pos));
			continue;
		}
		const uint8_t *v = cur_take(&c, type_size[f->type]);
		if (!v)
			break;
		if (f->save)
			d->saved[f->save] = raw_value(f->type, v);
		if (f->name)
			sb_printf(d->out, " %s", f->name);
		sb_puts(d->out, " ");
		put_value(d, f->type, v);
	}
	sb_puts(d->out, "\n");
	return true;
}

static void record_lines(struct dec *d, const char *label, uint64_t count,
			 const struct field *f)
{
	for (uint64_t i = 0; i < count; i++)
		if (!record_line(d, label, i, f))
			return;
}

/* A run of bytes the text does not show, only counts. */
static void byte_run(struct dec *d, const char *what, uint64_t bytes)
{
	if (d->stopped)
		return;
	if (bytes > cur_left(&d->cur)) {
		stop(d, what, bytes, cur_left(&d->cur));
		return;
	}
	(void)cur_take(&d->cur, (size_t)bytes);
	sb_printf(d->out, "%s%s: %" PRIu64 " bytes\n", d->prefix, what, bytes);
}

/* ---- header and index -------------------------------------------------- */

static void header_tail(struct dec *d)
{
	static const struct field word[] = { F(FT_HEX32, NULL), END };
	record_lines(d, "word", d->saved[SV_COUNT], word);
}

static void index_tail(struct dec *d)
{
	uint32_t files = d->saved[SV_COUNT], objects = d->saved[SV_COUNT2];
	char what[32];
	for (uint32_t i = 0; i < files; i++) {
		snprintf(what, sizeof what, "file %" PRIu32, i);
		const uint8_t *path = take(d, CCSF_NAME_LEN, what);
		if (!path)
			return;
		sb_printf(d->out, "%s: ", what);
		put_raw_name(d, path, CCSF_NAME_LEN);
		sb_puts(d->out, "\n");
	}
	for (uint32_t i = 0; i < objects; i++) {
		snprintf(what, sizeof what, "object %" PRIu32, i);
		const uint8_t *rec = take(d, CCSF_OBJECT_NAME_LEN + 2, what);
		if (!rec)
			return;
		const char *name = d->object_name ?
			d->object_name(d->name_ctx, i) : NULL;
		sb_printf(d->out, "%s: ", what);
		if (name)
			sb_puts(d->out, name);
		else
			put_raw_name(d, rec, CCSF_OBJECT_NAME_LEN);
		sb_printf(d->out, " file %u\n",
			  rd_u16le(rec + CCSF_OBJECT_NAME_LEN));
	}
}

/* ---- textures and palettes --------------------------------------------- */

static void texture_tail(struct dec *d)
{
	static const struct field level[] = {
		F(FT_U16, "buf_x"), F(FT_U16, "buf_y"),
		FS(FT_U32, "count", SV_COUNT), END
	};
	/* Files before 0x90 have no mipmap byte: one level. */
	uint32_t levels = d->saved[SV_MIPMAP] + 1;
	char what[32];
	for (uint32_t i = 0; i < levels && !d->stopped; i++) {
		if (!record_line(d, "level", i, level))
			return;
		snprintf(what, sizeof what, "level %" PRIu32 " pixels", i);
		byte_run(d, what, 4 * (uint64_t)d->saved[SV_COUNT]);
	}
}

static void clut_tail(struct dec *d)
{
	static const struct field colour[] = { F(FT_RGBA, NULL), END };
	if (d->version >= 0x90)
		record_lines(d, "colour", d->saved[SV_COUNT], colour);
}

/* ---- small arrays ------------------------------------------------------ */

static void clump_tail(struct dec *d)
{
	static const struct field node[] = { F(FT_OBJ, NULL), END };
	record_lines(d, "node", d->saved[SV_COUNT], node);
}

static void layer_tail(struct dec *d)
{
	static const struct field entry[] = {
		F(FT_U8, "kind"), PAD, F(FT_OBJ, "object"), END
	};
	record_lines(d, "layer", d->saved[SV_COUNT], entry);
}

static void fbpage_tail(struct dec *d)
{
	static const struct field info[] = {
		F(FT_U8, "px"), F(FT_U8, "py"), F(FT_U8, "pw"), F(FT_U8, "ph"),
		F(FT_HEX8, "type"), PAD, END
	};
	record_lines(d, "page", d->saved[SV_COUNT], info);
}

static void f_morpher_tail(struct dec *d)
{
	static const struct field target[] = {
		F(FT_OBJ, "model"), F(FT_F32, "weight"), END
	};
	record_lines(d, "target", d->saved[SV_COUNT], target);
}

/* Blocks of words * 4 bytes of PCM; the samples go to audio.wav.  Two
 * u32 counts can claim more than 64 bits hold: such a claim is reported
 * as UINT64_MAX bytes, which no chunk has. */
static void pcm_tail(struct dec *d)
{
	uint64_t block = 4 * (uint64_t)d->saved[SV_COUNT2];
	uint64_t blocks = d->saved[SV_COUNT];
	uint64_t bytes = blocks && block > UINT64_MAX / blocks ?
		UINT64_MAX : block * blocks;
	byte_run(d, "data", bytes);
}

/* ---- frame records with optional fields -------------------------------- */

static void f_camera_tail(struct dec *d)
{
	/* A float per clear bit 1-8; bit 0 set means none at all. */
	static const char *const names[] = {
		"pos_x", "pos_y", "pos_z", "rot_x", "rot_y", "rot_z",
		"unused", "fov",
	};
	uint32_t flag = d->saved[SV_FLAG];
	if (flag & 1)
		return;
	for (unsigned bit = 1; bit <= 8; bit++) {
		if (flag & (1u << bit))
			continue;
		const struct field f[] = { F(FT_F32, names[bit - 1]), END };
		if (!field_lines(d, f))
			return;
	}
}

static void f_material_tail(struct dec *d)
{
	static const struct field uv[] = { F(FT_F32, "u"), F(FT_F32, "v"), END };
	if (!(d->saved[SV_FLAG] & 2))
		(void)field_lines(d, uv);
}

static void f_distantlight_tail(struct dec *d)
{
	static const struct field intensity[] = {
		F(FT_F32, "intensity"), END
	};
	if (d->saved[SV_FLAG] & 0x20)
		(void)field_lines(d, intensity);
}

/* ---- hit --------------------------------------------------------------- */

static void hit_tail(struct dec *d)
{
	static const struct field group[] = {
		FS(FT_U32, "vertices", SV_VERTICES), F(FT_HEX32, "attribute"),
		END
	};
	static const struct field position[] = {
		F(FT_VEC3, "position"), END
	};
	uint32_t groups = d->saved[SV_COUNT];
	for (uint32_t g = 0; g < groups && !d->stopped; g++) {
		if (!record_line(d, "group", g, group))
			return;
		snprintf(d->prefix, sizeof d->prefix, "group %" PRIu32 " ", g);
		record_lines(d, "vertex", d->saved[SV_VERTICES], position);
		/* Read and dropped by the game, so only counted here. */
		byte_run(d, "normals", 12 * (uint64_t)d->saved[SV_VERTICES]);
		d->prefix[0] = '\0';
	}
}

/* ---- model ------------------------------------------------------------- */

/* One array of a mmat body.  The body's arrays lie one after another, and
 * a vertex line takes one element from each, so the text can only show the
 * vertices whose every element is within the chunk. */
struct body_array {
	const char *what;
	uint64_t start;         /* chunk offset */
	uint64_t count;
	unsigned elem;          /* bytes an element */
	uint64_t avail;         /* elements inside the chunk */
	struct cursor cur;      /* reads this array's elements in order */
};

/* Places the arrays after the cursor (an array of s16[3] positions is
 * padded to 4) and returns where the body ends. */
static uint64_t place_arrays(struct dec *d, struct body_array *a, size_t n)
{
	uint64_t pos = d->cur.pos;
	for (size_t i = 0; i < n; i++) {
		a[i].start = pos;
		uint64_t left = pos < d->cur.len ? d->cur.len - pos : 0;
		uint64_t fit = a[i].elem ? left / a[i].elem : a[i].count;
		a[i].avail = fit < a[i].count ? fit : a[i].count;
		a[i].cur = cursor_make(d->cur.p, d->cur.len);
		a[i].cur.pos = (size_t)(pos < d->cur.len ? pos : d->cur.len);
		/* count <= 2^32 and elem <= 12: no overflow in 64 bits */
		pos += a[i].count * a[i].elem;
		if (a[i].elem == 6)
			pos += align4_pad((size_t)(pos & 3));
	}
	return pos;
}

static uint64_t fewest_available(const struct body_array *a, size_t n)
{
	uint64_t m = UINT64_MAX;
	for (size_t i = 0; i < n; i++)
		if (a[i].avail < m)
			m = a[i].avail;
	return n ? m : 0;
}

static uint64_t left_at(const struct dec *d, uint64_t pos)
{
	return pos < d->cur.len ? d->cur.len - pos : 0;
}

/* After the lines that fit: moves past the body, or says which array (or
 * the padding after positions) the chunk cut off. */
static void finish_body(struct dec *d, const struct body_array *a, size_t n,
			uint64_t end)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t bytes = a[i].count * a[i].elem;
		if (a[i].avail < a[i].count) {
			stop(d, a[i].what, bytes, left_at(d, a[i].start));
			return;
		}
		uint64_t pad = a[i].elem == 6 ? (4 - (bytes & 3)) & 3 : 0;
		if (pad > left_at(d, a[i].start + bytes)) {
			stop(d, "padding", pad, left_at(d, a[i].start + bytes));
			return;
		}
	}
	d->cur.pos = (size_t)end;
}

static void put_position(struct dec *d, struct cursor *c)
{
	int16_t v[3];
	for (int i = 0; i < 3; i++)
		v[i] = cur_s16(c);
	float scale;
	uint32_t bits = d->saved[SV_SCALE];
	memcpy(&scale, &bits, sizeof scale);
	sb_printf(d->out, " position %d %d %d scaled", v[0], v[1], v[2]);
	/* In single precision, as VU1 does: itof12, then the scale. */
	for (int i = 0; i < 3; i++) {
		sb_puts(d->out, " ");
		put_float(d, (float)v[i] / 4096.0f * scale);
	}
}

static void put_normal(struct dec *d, struct cursor *c)
{
	int8_t n[3];
	for (int i = 0; i < 3; i++)
		n[i] = (int8_t)cur_u8(c);
	sb_printf(d->out, " normal %d %d %d strip %u", n[0], n[1], n[2],
		  cur_u8(c));
}

static void put_colour(struct dec *d, struct cursor *c)
{
	sb_puts(d->out, " colour");
	for (int i = 0; i < 4; i++)
		sb_printf(d->out, " %u", cur_u8(c));
}

static void put_st(struct dec *d, struct cursor *c)
{
	unsigned s = cur_u16(c);
	sb_printf(d->out, " st %u %u", s, cur_u16(c));
}

enum { A_POSITION, A_NORMAL, A_COLOUR, A_ST, A_COUNT };

/* Rigid and bone bodies: parallel arrays, one line a vertex. */
static void vertex_body(struct dec *d, const bool present[A_COUNT])
{
	static const struct { const char *what; unsigned elem; } kinds[] = {
		[A_POSITION] = { "positions", 6 },
		[A_NORMAL] = { "normals", 4 },
		[A_COLOUR] = { "colours", 4 },
		[A_ST] = { "st", 4 },
	};
	struct body_array a[A_COUNT];
	int slot[A_COUNT];
	size_t n = 0;
	for (int k = 0; k < A_COUNT; k++) {
		slot[k] = -1;
		if (!present[k])
			continue;
		slot[k] = (int)n;
		a[n] = (struct body_array){ .what = kinds[k].what,
			.elem = kinds[k].elem, .count = d->saved[SV_VERTICES] };
		n++;
	}
	uint64_t end = place_arrays(d, a, n);
	uint64_t shown = fewest_available(a, n);
	static void (*const put[A_COUNT])(struct dec *, struct cursor *) = {
		put_position, put_normal, put_colour, put_st,
	};
	for (uint64_t v = 0; v < shown; v++) {
		sb_printf(d->out, "%svertex %" PRIu64 ":", d->prefix, v);
		for (int k = 0; k < A_COUNT; k++)
			if (slot[k] >= 0)
				put[k](d, &a[slot[k]].cur);
		sb_puts(d->out, "\n");
	}
	finish_body(d, a, n, end);
}

static void rigid_body(struct dec *d, unsigned mtype)
{
	bool present[A_COUNT] = {
		[A_POSITION] = true,
		[A_NORMAL] = !(mtype & 0x40),
		[A_COLOUR] = !(mtype & 0x200),
		[A_ST] = !(mtype & 0x400),
	};
	vertex_body(d, present);
}

static void bone_body(struct dec *d)
{
	static const struct field node[] = { F(FT_U32, "node"), END };
	static const bool present[A_COUNT] = {
		[A_POSITION] = true, [A_NORMAL] = true, [A_ST] = true,
	};
	if (field_lines(d, node))
		vertex_body(d, present);
}

/* Skin: weighted entries; a vertex ends at an entry with bit 9, and only
 * such entries have an ST. */
static void skin_body(struct dec *d)
{
	struct body_array a[3] = {
		{ .what = "entries", .elem = 8, .count = d->saved[SV_OFFSETS] },
		{ .what = "normals", .elem = 4, .count = d->saved[SV_OFFSETS] },
		{ .what = "st", .elem = 4 },
	};
	(void)place_arrays(d, a, 2);
	if (a[0].avail == a[0].count) {
		struct cursor c = a[0].cur;
		for (uint64_t i = 0; i < a[0].count; i++) {
			(void)cur_take(&c, 6);
			a[2].count += (cur_u16(&c) >> 9) & 1;
		}
	}
	uint64_t end = place_arrays(d, a, 3);
	uint64_t shown = fewest_available(a, 2);
	uint64_t vertex = 0;
	for (uint64_t e = 0; e < shown; e++) {
		struct cursor peek = a[0].cur;
		(void)cur_take(&peek, 6);
		uint16_t w = cur_u16(&peek);
		bool last = w & 0x200;
		if (last && vertex >= a[2].avail)
			break;
		sb_printf(d->out, "%sentry %" PRIu64 ":", d->prefix, e);
		put_position(d, &a[0].cur);
		(void)cur_u16(&a[0].cur);
		sb_printf(d->out, " weight %u last %u node %u", w & 0x1ff,
			  (unsigned)last, w >> 10);
		put_normal(d, &a[1].cur);
		if (last) {
			sb_printf(d->out, " vertex %" PRIu64, vertex++);
			put_st(d, &a[2].cur);
		}
		sb_puts(d->out, "\n");
	}
	finish_body(d, a, 3, end);
}

static void shadow_body(struct dec *d)
{
	static const struct field counts[] = {
		FS(FT_S32, "vertices", SV_VERTICES),
		FS(FT_S32, "indices", SV_OFFSETS), END
	};
	if (!field_lines(d, counts))
		return;
	int32_t vnum = (int32_t)d->saved[SV_VERTICES];
	int32_t inum = (int32_t)d->saved[SV_OFFSETS];
	if (vnum < 0 || inum < 0) {
		stop_because(d, "a negative count");
		return;
	}
	if (vnum == 0)
		return;
	struct body_array a[2] = {
		{ .what = "positions", .elem = 6, .count = (uint64_t)vnum },
		{ .what = "triangles", .elem = 12, .count = (uint64_t)inum / 3 },
	};
	uint64_t end = place_arrays(d, a, 2);
	for (uint64_t v = 0; v < a[0].avail; v++) {
		sb_printf(d->out, "%svertex %" PRIu64 ":", d->prefix, v);
		put_position(d, &a[0].cur);
		sb_puts(d->out, "\n");
	}
	for (uint64_t t = 0; t < a[1].avail && a[0].avail == a[0].count; t++) {
		sb_printf(d->out, "%striangle %" PRIu64 ":", d->prefix, t);
		for (int i = 0; i < 3; i++)
			sb_printf(d->out, " %" PRId32, cur_s32(&a[1].cur));
		sb_puts(d->out, "\n");
	}
	finish_body(d, a, 2, end);
}

/* Header words per mmat, by mtype (doc/formats/model.md, Header words),
 * in the order ccsf.c's walk tests the bits. */
static const struct field mmat_words_bone[] = {
	F(FT_OBJ, "material"), FS(FT_U32, "vertices", SV_VERTICES),
	FS(FT_U32, "offsets", SV_OFFSETS), END
};
static const struct field mmat_words_rigid[] = {
	F(FT_OBJ, "name"), F(FT_OBJ, "material"),
	FS(FT_U32, "vertices", SV_VERTICES), END
};
static const struct field mmat_words_none[] = { END };

static void model_mmat(struct dec *d, unsigned mtype, uint32_t i)
{
	snprintf(d->prefix, sizeof d->prefix, "mmat %" PRIu32 " ", i);
	const char *layout;
	const struct field *words;
	if (mtype & 4) {
		words = mmat_words_bone;
		layout = "bone";
	} else if (mtype & 8) {
		words = mmat_words_none;
		layout = "shadow";
	} else {
		words = mmat_words_rigid;
		layout = "rigid";
	}
	if (!field_lines(d, words))
		return;
	if (mtype & 4 && d->saved[SV_OFFSETS])
		layout = "skin";
	sb_printf(d->out, "%slayout: %s\n", d->prefix, layout);
	if (mtype & 4) {
		if (d->saved[SV_OFFSETS])
			skin_body(d);
		else
			bone_body(d);
	} else if (mtype & 8) {
		shadow_body(d);
	} else {
		rigid_body(d, mtype);
	}
}

static void model_tail(struct dec *d)
{
	unsigned mtype = d->saved[SV_MTYPE];
	if (d->version < 0x100)
		mtype &= 0xff;
	uint32_t mmats = d->saved[SV_COUNT];
	if (mmats && (mtype & 2)) {
		/* The game's rigid decoder crashes on it; no file has it. */
		stop_because(d, "mtype bit 0x02: a layout no file uses");
		return;
	}
	for (uint32_t i = 0; i < mmats && !d->stopped; i++)
		model_mmat(d, mtype, i);
	d->prefix[0] = '\0';
}

/* ---- the table --------------------------------------------------------- */

static const struct field header_fields[] = {
	F(FT_CHAR4, "magic"), F(FT_CHAR32, "name"), F(FT_HEX16, "version"),
	PAD, F(FT_U32, "frames"), FS(FT_U32, "count", SV_COUNT), END
};
static const struct field index_fields[] = {
	FS(FT_U32, "file_count", SV_COUNT),
	FS(FT_U32, "object_count", SV_COUNT2), END
};
static const struct field setup_fields[] = { END };
static const struct field frame_fields[] = { F(FT_U32, "frames"), END };
static const struct field obj_fields[] = {
	F(FT_OBJ, "object"), F(FT_OBJ, "parent"), F(FT_OBJ, "model"),
	FV(FT_OBJ, "shadow_model", 0x96), END
};
static const struct field material_fields[] = {
	F(FT_OBJ, "material"), F(FT_OBJ, "texture"),
	F(FT_F32, "transparency"), F(FT_U16, "crop_u"), F(FT_U16, "crop_v"),
	END
};
static const struct field texture_fields[] = {
	F(FT_OBJ, "texture"), F(FT_OBJ, "clut"),
	FV(FT_OBJ, "blt_group", 0x92),
	F(FT_HEX8, "flag"), F(FT_HEX8, "psm"),
	FVS(FT_U8, "mipmap", 0x90, SV_MIPMAP), FV(FT_U8, "aref", 0x90),
	FV(FT_U8, "tw", 0x90), FV(FT_U8, "th", 0x90), PAD, END
};
static const struct field clut_fields[] = {
	F(FT_OBJ, "clut"), FV(FT_OBJ, "blt_group", 0x92),
	FV(FT_HEX8, "flag", 0x90), FV(FT_HEX8, "cpsm", 0x90),
	FV(FT_U8, "unknown_2", 0x90), FV(FT_U8, "unknown_3", 0x90),
	FV(FT_U16, "buf_x", 0x90), FV(FT_U16, "buf_y", 0x90),
	FVS(FT_U32, "count", 0x90, SV_COUNT), END
};
static const struct field camera_fields[] = { F(FT_OBJ, "camera"), END };
static const struct field light_fields[] = {
	F(FT_OBJ, "light"), F(FT_LIGHT_TYPE, "type"), PAD, END
};
static const struct field model_fields[] = {
	F(FT_OBJ, "model"), FS(FT_F32, "vertex_scale", SV_SCALE),
	FS(FT_MTYPE, "mtype", SV_MTYPE), FS(FT_U16, "mmats", SV_COUNT),
	F(FT_HEX16, "flag"), F(FT_S16, "zoffs"), F(FT_HEX8, "unknown"),
	PAD, END
};
static const struct field clump_fields[] = {
	F(FT_OBJ, "clump"), FS(FT_U16, "nodes", SV_COUNT), PAD, END
};
static const struct field extobj_fields[] = {
	F(FT_OBJ, "object"), F(FT_OBJ, "parent"), F(FT_OBJ, "target"), END
};
static const struct field hit_fields[] = {
	F(FT_OBJ, "hit"), F(FT_OBJ, "parent"),
	FS(FT_U16, "groups", SV_COUNT), PAD,
	F(FT_U32, "vertices"), END
};
static const struct field bbox_fields[] = {
	F(FT_OBJ, "box"), F(FT_OBJ, "target"), F(FT_VEC3, "min"),
	F(FT_VEC3, "max"), END
};
static const struct field fbrect_fields[] = {
	F(FT_OBJ, "object"), F(FT_HEX8, "type"), PAD,
	F(FT_U16, "fx"), F(FT_U16, "fy"), F(FT_U16, "w"), F(FT_U16, "h"), END
};
static const struct field fbpage_fields[] = {
	F(FT_OBJ, "object"), FS(FT_U32, "pages", SV_COUNT), END
};
static const struct field dummypos_fields[] = {
	F(FT_OBJ, "object"), F(FT_VEC3, "pos"), END
};
static const struct field dummyposrot_fields[] = {
	F(FT_OBJ, "object"), F(FT_VEC3, "pos"), F(FT_VEC3, "rot"), END
};
static const struct field layer_fields[] = {
	FS(FT_U16, "layers", SV_COUNT), PAD, END
};
static const struct field morpher_fields[] = {
	F(FT_OBJ, "morpher"), F(FT_OBJ, "model"), END
};
static const struct field obj2_fields[] = {
	F(FT_OBJ, "object"), F(FT_HEX32, "flags"), F(FT_OBJ, "modifier"),
	F(FT_OBJ, "layer"), F(FT_OBJ, "slayer"), END
};
static const struct field pcm_fields[] = {
	F(FT_U32, "id"), F(FT_U8, "type"), F(FT_U8, "bits"),
	F(FT_U8, "track"), PAD, FS(FT_U32, "blocks", SV_COUNT),
	FS(FT_U32, "block_words", SV_COUNT2), END
};
static const struct field top_fields[] = { F(FT_S32, "frame"), END };
/* CCSTRM_FSET_OBJ's names, as frames.txt and track.txt use them. */
static const struct field f_obj_fields[] = {
	F(FT_OBJ, "object"), F(FT_HEX32, "flag"), F(FT_VEC3, "pos"),
	F(FT_VEC3, "rot"), F(FT_VEC3, "scale"), F(FT_F32, "tp"),
	F(FT_HEX32, "dispSW"), END
};
static const struct field f_note_fields[] = {
	F(FT_OBJ, "object"), F(FT_HEX32, "event"), F(FT_U32, "param"), END
};
static const struct field f_material_fields[] = {
	F(FT_OBJ, "material"), FS(FT_HEX32, "flag", SV_FLAG), END
};
static const struct field f_camera_fields[] = {
	F(FT_OBJ, "camera"), FS(FT_HEX32, "flag", SV_FLAG), END
};
static const struct field f_ambient_fields[] = { F(FT_RGBA, "colour"), END };
static const struct field f_distantlight_fields[] = {
	F(FT_OBJ, "light"), FS(FT_HEX32, "flag", SV_FLAG), F(FT_VEC3, "rot"),
	F(FT_RGBA, "colour"), END
};
static const struct field f_omnilight_fields[] = {
	F(FT_OBJ, "light"), F(FT_HEX32, "flag"), F(FT_VEC3, "pos"),
	F(FT_RGBA, "colour"), F(FT_F32, "intensity"),
	F(FT_F32, "far_start"), F(FT_F32, "far_end"), END
};
static const struct field f_shadow_fields[] = {
	F(FT_OBJ, "object"), F(FT_VEC3, "rot"), F(FT_F32, "alpha"), END
};
static const struct field f_morpher_fields[] = {
	F(FT_OBJ, "morpher"), FS(FT_U16, "targets", SV_COUNT), PAD, END
};
static const struct field f_pcm_fields[] = {
	F(FT_U32, "id"), FS(FT_U16, "blocks", SV_COUNT), PAD,
	FS(FT_U32, "block_words", SV_COUNT2), END
};

struct decoder {
	uint16_t kind;
	const struct field *fields;
	void (*tail)(struct dec *d);
};

static const struct decoder decoders[] = {
	{ CCSF_HEADER, header_fields, header_tail },
	{ CCSF_INDEX, index_fields, index_tail },
	{ CCSF_SETUP, setup_fields, NULL },
	{ CCSF_FRAME, frame_fields, NULL },
	{ CCSF_OBJ, obj_fields, NULL },
	{ CCSF_MATERIAL, material_fields, NULL },
	{ CCSF_TEXTURE, texture_fields, texture_tail },
	{ CCSF_CLUT, clut_fields, clut_tail },
	{ CCSF_CAMERA, camera_fields, NULL },
	{ CCSF_LIGHT, light_fields, NULL },
	{ CCSF_MODEL, model_fields, model_tail },
	{ CCSF_CLUMP, clump_fields, clump_tail },
	{ CCSF_EXTOBJ, extobj_fields, NULL },
	{ CCSF_HIT, hit_fields, hit_tail },
	{ CCSF_BBOX, bbox_fields, NULL },
	{ CCSF_FBRECT, fbrect_fields, NULL },
	{ CCSF_FBPAGE, fbpage_fields, fbpage_tail },
	{ CCSF_DUMMYPOS, dummypos_fields, NULL },
	{ CCSF_DUMMYPOSROT, dummyposrot_fields, NULL },
	{ CCSF_LAYER, layer_fields, layer_tail },
	{ CCSF_MORPHER, morpher_fields, NULL },
	{ CCSF_OBJ2, obj2_fields, NULL },
	{ CCSF_PCM, pcm_fields, pcm_tail },
	{ CCSF_TOP, top_fields, NULL },
	{ CCSF_F_OBJ, f_obj_fields, NULL },
	{ CCSF_F_NOTE, f_note_fields, NULL },
	{ CCSF_F_MATERIAL, f_material_fields, f_material_tail },
	{ CCSF_F_CAMERA, f_camera_fields, f_camera_tail },
	{ CCSF_F_AMBIENT, f_ambient_fields, NULL },
	{ CCSF_F_DISTANTLIGHT, f_distantlight_fields, f_distantlight_tail },
	{ CCSF_F_OMNILIGHT, f_omnilight_fields, NULL },
	{ CCSF_F_SHADOW, f_shadow_fields, NULL },
	{ CCSF_F_MORPHER, f_morpher_fields, f_morpher_tail },
	{ CCSF_F_PCM, f_pcm_fields, pcm_tail },
};

static const struct decoder *find_decoder(uint16_t kind)
{
	for (size_t i = 0; i < sizeof decoders / sizeof decoders[0]; i++)
		if (decoders[i].kind == kind)
			return &decoders[i];
	return NULL;
}

bool chunk_text_has(uint16_t kind)
{
	return find_decoder(kind) != NULL;
}

/* The four lines every dump starts with. */
static bool chunk_header(struct dec *d, size_t len, uint16_t *kind)
{
	const uint8_t *p = take(d, 2, "kind");
	if (!p)
		return false;
	*kind = rd_u16le(p);
	const char *name = ccsf_kind_name(*kind);
	sb_printf(d->out, name ? "kind: 0x%04x (%s)\n" : "kind: 0x%04x\n",
		  *kind, name);
	if ((p = take(d, 2, "tag")))
		sb_printf(d->out, "tag: 0x%04x\n", rd_u16le(p));
	if ((p = take(d, 4, "size")))
		sb_printf(d->out, "size: %" PRIu32 "\n", rd_u32le(p));
	if (!d->stopped)
		sb_printf(d->out, "length: %zu\n", len);
	return !d->stopped;
}

int chunk_text(const uint8_t *p, size_t len, const struct chunk_text_ctx *ctx,
	       struct strbuf *out)
{
	struct dec d = {
		.cur = cursor_make(p, p ? len : 0),
		.version = ctx ? ctx->version : 0x100,
		.object_name = ctx ? ctx->object_name : NULL,
		.name_ctx = ctx ? ctx->name_ctx : NULL,
		.out = out,
	};
	uint16_t kind;
	if (chunk_header(&d, len, &kind)) {
		const struct decoder *dc = find_decoder(kind);
		if (dc && field_lines(&d, dc->fields) && dc->tail)
			dc->tail(&d);
		if (!d.stopped && cur_left(&d.cur))
			sb_printf(out, dc ? "trailing: %zu bytes\n" :
				  "payload: %zu bytes\n", cur_left(&d.cur));
	}
	return out->failed ? -ENOMEM : 0;
}
