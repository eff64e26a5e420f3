/* SPDX-License-Identifier: MIT */
/* chunk_model_text.c - model.txt and hit.txt: the mmats and hit meshes
 * laid out by ccsf/layout.c, a record a line. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsf/layout.h"
#include "decode/text/chunk_dec.h"
#include "util/bytes.h"
#include "util/floatfmt.h"
#include "util/lenmemo.h"
#include "util/numfmt.h"

/* ---- hit --------------------------------------------------------------- */

void chunk_hit_tail(struct dec *d)
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
		if (!chunk_dec_record_line(d, "group", g, group))
			return;
		snprintf(d->prefix, sizeof d->prefix, "group %" PRIu32 " ", g);
		chunk_dec_record_lines(d, "vertex", d->saved[SV_VERTICES],
				       position);
		/* Read and dropped by the game, so only counted here. */
		chunk_dec_byte_run(d, "normals",
				   12 * (uint64_t)d->saved[SV_VERTICES]);
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

/* Takes one array where the layout placed it (ccsf/layout.c). */
static void set_array(struct dec *d, struct body_array *a,
		      const struct ccsf_array *l, const char *what)
{
	*a = (struct body_array){ .what = what, .start = l->at,
		.count = l->count, .elem = l->elem };
	a->avail = ccsf_array_fit(l, d->cur.len);
	a->cur = cursor_make(d->cur.p, d->cur.len);
	a->cur.pos = (size_t)(l->at < d->cur.len ? l->at : d->cur.len);
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
			chunk_dec_stop(d, a[i].what, bytes,
				       left_at(d, a[i].start));
			return;
		}
		uint64_t pad = a[i].elem == 6 ? (4 - (bytes & 3)) & 3 : 0;
		if (pad > left_at(d, a[i].start + bytes)) {
			chunk_dec_stop(d, "padding", pad,
				       left_at(d, a[i].start + bytes));
			return;
		}
	}
	d->cur.pos = (size_t)end;
}

/* A vertex or entry line is written into room reserved for the whole
 * line, column by column, and committed once (sb_line_start): millions
 * of such lines make every model.txt, and a reserve and a NUL for each
 * of their thirty-odd fields cost a tenth of the daemon's CPU over
 * ls -lR.  The longest line (a skin entry, the longest prefix, every
 * number at its widest) is under 300 bytes. */
#define LINE_ROOM (sizeof ((struct dec *)0)->prefix + 320)

#define PUT_LIT(o, lit) (memcpy((o), (lit), sizeof (lit) - 1), \
			 (o) + sizeof (lit) - 1)

/* A number of a line, or only its length when the text is counted
 * (sb_counts_only, which changes only where a line's room is taken). */
static char *put_uint(char *o, const struct dec *d, uint64_t v)
{
	return numfmt_uint_or_skip(o, v, sb_counts_only(d->out));
}

static char *put_int(char *o, const struct dec *d, int64_t v)
{
	return numfmt_int_or_skip(o, v, sb_counts_only(d->out));
}

static char *line_start(struct dec *d)
{
	return sb_line_start(d->out, LINE_ROOM);
}

/* "PREFIXwhat N:", the head of a vertex or entry line. */
static char *put_head(char *o, const struct dec *d, const char *what,
		      uint64_t n)
{
	size_t len = strlen(d->prefix);
	memcpy(o, d->prefix, len);
	o += len;
	len = strlen(what);
	memcpy(o, what, len);
	o = put_uint(o + len, d, n);
	*o++ = ':';
	return o;
}

/* One position column's length, its integer's and its scaled float's,
 * as a byte: the integer's in the high four bits (at most 6), the
 * float's in the low four (at most 15, "-1.17549435e-38"). */
static uint8_t column_lens(int16_t v, float scale)
{
	size_t g9 = floatfmt_g9_len((float)v / 4096.0f * scale);
	return (uint8_t)(numfmt_int_len(v) << 4 | g9);
}

/* The length of a position's text; the model's memo, when it has one,
 * learns each value once under its scale. */
static size_t position_len(struct dec *d, const int16_t v[3], float scale)
{
	/* " position", a space before each integer, " scaled", a space
	 * before each float. */
	size_t n = sizeof " position" - 1 + 3 + sizeof " scaled" - 1 + 3;
	for (int i = 0; i < 3; i++) {
		uint16_t k = (uint16_t)v[i];
		uint8_t x = d->memo ? lenmemo_get(d->memo, k) : 0;
		if (!x) {
			x = column_lens(v[i], scale);
			if (d->memo)
				lenmemo_set(d->memo, k, x);
		}
		n += (x >> 4) + (x & 15);
	}
	return n;
}

static float model_scale(const struct dec *d)
{
	float scale;
	uint32_t bits = d->saved[SV_SCALE];
	memcpy(&scale, &bits, sizeof scale);
	return scale;
}

static char *put_position(char *o, struct dec *d, struct cursor *c)
{
	int16_t v[3];
	for (int i = 0; i < 3; i++)
		v[i] = cur_s16(c);
	float scale = model_scale(d);
	if (sb_counts_only(d->out))
		return o + position_len(d, v, scale);
	o = PUT_LIT(o, " position");
	for (int i = 0; i < 3; i++) {
		*o++ = ' ';
		o = numfmt_int(o, v[i]);
	}
	o = PUT_LIT(o, " scaled");
	/* In single precision, as VU1 does: itof12, then the scale. */
	for (int i = 0; i < 3; i++) {
		*o++ = ' ';
		o += floatfmt_g9((float)v[i] / 4096.0f * scale, o);
	}
	return o;
}

/* A column's bytes, taken at once: zeros past the array's end, which
 * fewest_available keeps the lines from reaching. */
static inline void take_column(struct cursor *c, uint8_t *b, size_t n)
{
	const uint8_t *p = cur_take(c, n);
	if (p)
		memcpy(b, p, n);
	else
		memset(b, 0, n);
}

static char *put_normal(char *o, struct dec *d, struct cursor *c)
{
	uint8_t b[4];
	take_column(c, b, sizeof b);
	o = PUT_LIT(o, " normal");
	for (int i = 0; i < 3; i++) {
		*o++ = ' ';
		o = put_int(o, d, (int8_t)b[i]);
	}
	o = PUT_LIT(o, " strip ");
	return put_uint(o, d, b[3]);
}

static char *put_colour(char *o, struct dec *d, struct cursor *c)
{
	uint8_t b[4];
	take_column(c, b, sizeof b);
	o = PUT_LIT(o, " colour");
	for (int i = 0; i < 4; i++) {
		*o++ = ' ';
		o = put_uint(o, d, b[i]);
	}
	return o;
}

static char *put_st(char *o, struct dec *d, struct cursor *c)
{
	uint8_t b[4];
	take_column(c, b, sizeof b);
	unsigned s = rd_u16le(b), t = rd_u16le(b + 2);
	o = PUT_LIT(o, " st ");
	o = put_uint(o, d, s);
	*o++ = ' ';
	return put_uint(o, d, t);
}

typedef char *(*column_fn)(char *, struct dec *, struct cursor *);

/* ---- counting a body whole ----------------------------------------------
 *
 * A listing only counts a model.txt, and its vertex lines are most of it:
 * counted line by line, column by column, they were a quarter of the
 * daemon's CPU over a fresh ls -lR of DATA.BIN.  A body's lines are
 * counted at once instead: each column's lengths summed over its array,
 * the vertex numbers' digits in closed form.  What each sum counts is
 * what the put_ functions above write; the tests measure every text
 * they make. */

/* The lengths of n elements of a column, from p (n * elem bytes). */
typedef uint64_t (*count_fn)(struct dec *, const uint8_t *p, uint64_t n);

/* A byte's digits by two comparisons: a vertex line has eight bytes to
 * count, and numfmt_uint_len's general way (leading zeros, a table of
 * powers of ten) is for numbers of any size. */
static inline unsigned u8_len(unsigned b)
{
	return 1 + (b >= 10) + (b >= 100);
}

/* Without a branch: normals' signs are as good as random, and a
 * mispredicted sign was most of the time a listing counted them. */
static inline unsigned s8_len(int b)
{
	unsigned neg = (unsigned)(b >> 31);     /* all ones when negative */
	return (neg & 1) + u8_len(((unsigned)b ^ neg) - neg);
}

static uint64_t count_positions(struct dec *d, const uint8_t *p, uint64_t n)
{
	float scale = model_scale(d);
	uint64_t len = 0;
	for (uint64_t i = 0; i < n; i++, p += 6) {
		int16_t v[3] = { (int16_t)rd_u16le(p), (int16_t)rd_u16le(p + 2),
				 (int16_t)rd_u16le(p + 4) };
		len += position_len(d, v, scale);
	}
	return len;
}

static uint64_t count_normals(struct dec *d, const uint8_t *p, uint64_t n)
{
	(void)d;
	/* " normal", a space before each, " strip " */
	uint64_t len = n * (sizeof " normal" - 1 + 3 + sizeof " strip " - 1);
	for (uint64_t i = 0; i < n; i++, p += 4)
		len += s8_len((int8_t)p[0]) + s8_len((int8_t)p[1]) +
		       s8_len((int8_t)p[2]) + u8_len(p[3]);
	return len;
}

static uint64_t count_colours(struct dec *d, const uint8_t *p, uint64_t n)
{
	(void)d;
	uint64_t len = n * (sizeof " colour" - 1 + 4);
	for (uint64_t i = 0; i < n; i++, p += 4)
		len += u8_len(p[0]) + u8_len(p[1]) + u8_len(p[2]) +
		       u8_len(p[3]);
	return len;
}

static uint64_t count_st(struct dec *d, const uint8_t *p, uint64_t n)
{
	(void)d;
	uint64_t len = n * (sizeof " st " - 1 + 1);
	for (uint64_t i = 0; i < n; i++, p += 4)
		len += numfmt_uint_len(rd_u16le(p)) +
		       numfmt_uint_len(rd_u16le(p + 2));
	return len;
}

/* The length of a body's first `shown` vertex lines (put_head, each
 * column, the newline); false when an array is not all there, which
 * the lines' own reads handle. */
static bool count_vertex_lines(struct dec *d, const struct body_array *a,
			       const count_fn *count, size_t n,
			       uint64_t shown, uint64_t *len)
{
	uint64_t sum = shown * (strlen(d->prefix) + sizeof "vertex " - 1 +
				sizeof ":" - 1 + sizeof "\n" - 1) +
		       numfmt_digits_below(shown);
	for (size_t i = 0; i < n; i++) {
		if (shown > SIZE_MAX / a[i].elem)
			return false;
		struct cursor c = a[i].cur;     /* the lines' own, if false */
		const uint8_t *p = cur_take(&c, (size_t)shown * a[i].elem);
		if (!p && shown)
			return false;
		sum += count[i](d, p, shown);
	}
	*len = sum;
	return true;
}

/* Rigid and bone bodies: parallel arrays, one line a vertex. */
static void vertex_body(struct dec *d, const struct ccsf_mmat *mm)
{
	static const struct {
		enum ccsf_array_kind kind;
		const char *what;
		column_fn put;
		count_fn count;
	} columns[] = {
		{ CCSF_A_POSITION, "positions", put_position, count_positions },
		{ CCSF_A_NORMAL, "normals", put_normal, count_normals },
		{ CCSF_A_COLOUR, "colours", put_colour, count_colours },
		{ CCSF_A_ST, "st", put_st, count_st },
	};
	struct body_array a[4];
	column_fn put[4];
	count_fn count[4];
	size_t n = 0;
	for (size_t k = 0; k < 4; k++) {
		const struct ccsf_array *l = &mm->array[columns[k].kind];
		if (!l->elem)
			continue;
		set_array(d, &a[n], l, columns[k].what);
		count[n] = columns[k].count;
		put[n++] = columns[k].put;
	}
	uint64_t shown = fewest_available(a, n), len;
	if (sb_counts_only(d->out) &&
	    count_vertex_lines(d, a, count, n, shown, &len)) {
		sb_count(d->out, len);
		finish_body(d, a, n, mm->end);
		return;
	}
	for (uint64_t v = 0; v < shown; v++) {
		char *s = line_start(d);
		if (!s)
			break;
		char *o = put_head(s, d, "vertex ", v);
		for (size_t i = 0; i < n; i++)
			o = put[i](o, d, &a[i].cur);
		sb_line_done(d->out, s, o);
	}
	finish_body(d, a, n, mm->end);
}

static void bone_body(struct dec *d, const struct ccsf_mmat *mm)
{
	static const struct field node[] = { F(FT_U32, "node"), END };
	if (chunk_dec_field_lines(d, node))
		vertex_body(d, mm);
}

/* Skin: weighted entries; a vertex ends at an entry with bit 9, and only
 * such entries have an ST. */
static void skin_body(struct dec *d, const struct ccsf_mmat *mm)
{
	struct body_array a[3];
	set_array(d, &a[0], &mm->array[CCSF_A_ENTRY], "entries");
	set_array(d, &a[1], &mm->array[CCSF_A_NORMAL], "normals");
	set_array(d, &a[2], &mm->array[CCSF_A_ST], "st");
	uint64_t shown = fewest_available(a, 2);
	uint64_t vertex = 0;
	for (uint64_t e = 0; e < shown; e++) {
		struct cursor peek = a[0].cur;
		(void)cur_take(&peek, 6);
		uint16_t w = cur_u16(&peek);
		bool last = w & 0x200;
		if (last && vertex >= a[2].avail)
			break;
		char *s = line_start(d);
		if (!s)
			break;
		char *o = put_head(s, d, "entry ", e);
		o = put_position(o, d, &a[0].cur);
		(void)cur_u16(&a[0].cur);
		o = PUT_LIT(o, " weight ");
		o = put_uint(o, d, w & 0x1ff);
		o = PUT_LIT(o, " last ");
		*o++ = last ? '1' : '0';
		o = PUT_LIT(o, " node ");
		o = put_uint(o, d, w >> 10);
		o = put_normal(o, d, &a[1].cur);
		if (last) {
			o = PUT_LIT(o, " vertex ");
			o = put_uint(o, d, vertex++);
			o = put_st(o, d, &a[2].cur);
		}
		sb_line_done(d->out, s, o);
	}
	finish_body(d, a, 3, mm->end);
}

/* Shadow: its counts are its header words, shown before the layout is
 * asked (which refuses negative ones). */
static void shadow_body(struct dec *d, unsigned mtype, uint64_t at)
{
	static const struct field counts[] = {
		FS(FT_S32, "vertices", SV_VERTICES),
		FS(FT_S32, "indices", SV_OFFSETS), END
	};
	if (!chunk_dec_field_lines(d, counts))
		return;
	struct ccsf_mmat mm;
	(void)ccsf_mmat_describe(d->cur.p, d->cur.len, (uint16_t)mtype, at,
				 &mm);
	if (mm.fault == CCSF_MMAT_NEGATIVE) {
		chunk_dec_stop_because(d, "a negative count");
		return;
	}
	if (mm.vnum == 0)
		return;
	struct body_array a[2];
	set_array(d, &a[0], &mm.array[CCSF_A_POSITION], "positions");
	set_array(d, &a[1], &mm.array[CCSF_A_TRIANGLE], "triangles");
	for (uint64_t v = 0; v < a[0].avail; v++) {
		char *s = line_start(d);
		if (!s)
			break;
		char *o = put_head(s, d, "vertex ", v);
		sb_line_done(d->out, s, put_position(o, d, &a[0].cur));
	}
	for (uint64_t t = 0; t < a[1].avail && a[0].avail == a[0].count; t++) {
		sb_printf(d->out, "%striangle %" PRIu64 ":", d->prefix, t);
		for (int i = 0; i < 3; i++)
			sb_printf(d->out, " %" PRId32, cur_s32(&a[1].cur));
		sb_puts(d->out, "\n");
	}
	finish_body(d, a, 2, mm.end);
}

/* Header words per mmat kind (doc/formats/model.md,
 * Header words); a shadow's are its counts. */
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
	uint64_t at = d->cur.pos;
	enum ccsf_mmat_kind kind = ccsf_mmat_kind_of((uint16_t)mtype, 0);
	const struct field *words = kind == CCSF_MMAT_BONE ? mmat_words_bone :
		kind == CCSF_MMAT_SHADOW ? mmat_words_none : mmat_words_rigid;
	if (!chunk_dec_field_lines(d, words))
		return;
	if (kind == CCSF_MMAT_BONE)
		kind = ccsf_mmat_kind_of((uint16_t)mtype, d->saved[SV_OFFSETS]);
	sb_printf(d->out, "%slayout: %s\n", d->prefix,
		  ccsf_mmat_kind_name(kind));
	if (kind == CCSF_MMAT_SHADOW) {
		shadow_body(d, mtype, at);
		return;
	}
	struct ccsf_mmat mm;
	(void)ccsf_mmat_describe(d->cur.p, d->cur.len, (uint16_t)mtype, at,
				 &mm);
	if (kind == CCSF_MMAT_SKIN)
		skin_body(d, &mm);
	else if (kind == CCSF_MMAT_BONE)
		bone_body(d, &mm);
	else
		vertex_body(d, &mm);
}

void chunk_model_tail(struct dec *d)
{
	unsigned mtype = ccsf_model_mtype((uint16_t)d->saved[SV_MTYPE],
					  d->version);
	uint32_t mmats = d->saved[SV_COUNT];
	if (ccsf_model_layout_unknown((uint16_t)mtype, mmats)) {
		/* The game's rigid decoder crashes on it; no file has it. */
		chunk_dec_stop_because(d,
				       "mtype bit 0x02: a layout no file uses");
		return;
	}
	/* A text that starts counting later (one that outgrew the scratch)
	 * counts this model without. */
	if (sb_counts_only(d->out))
		d->memo = lenmemo_take(d->saved[SV_SCALE]);
	for (uint32_t i = 0; i < mmats && !d->stopped; i++)
		model_mmat(d, mtype, i);
	lenmemo_give_back(d->memo);
	d->memo = NULL;
	d->prefix[0] = '\0';
}

