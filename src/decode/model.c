/* SPDX-License-Identifier: MIT */
/* model.c - model and hit chunks as Wavefront OBJ (doc/formats/model.md).
 *
 * Decoding and writing are apart (model.h says why).  The writer formats
 * numbers itself: printf's %f and %g follow LC_NUMERIC, and a file system
 * whose bytes change with the reader's locale would break `ls -l` sizes
 * and caching; formatting by hand is also several times faster.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "ccsf/ccsf.h"
#include "decode/model.h"
#include "util/numfmt.h"

/* ---- numbers ----------------------------------------------------------- */

/* Room one formatted number may take (see put_float7). */
#define NUMBER_ROOM 24

/* k / 256 for every k, as the digits after the point with trailing zeros
 * dropped: every fixed-point value of the format (s8 / 64, colour / 128,
 * S / 256) is an integer plus one of these, so they print exactly, by
 * table. */
static struct {
	char digits[8];
	uint8_t len;
} frac256[256];
static pthread_once_t frac256_once = PTHREAD_ONCE_INIT;

static void make_frac256(void)
{
	for (unsigned k = 0; k < 256; k++) {
		numfmt_digits(frac256[k].digits + 8, k * 390625ull, 8);
		unsigned n = 8;
		while (n && frac256[k].digits[n - 1] == '0')
			n--;
		frac256[k].len = (uint8_t)n;
	}
}

/* v / 2^shift, exactly, shift at most 8, without trailing zeros. */
static char *put_dyadic(char *o, int32_t v, unsigned shift)
{
	pthread_once(&frac256_once, make_frac256);
	uint32_t u = (uint32_t)v;
	if (v < 0) {
		*o++ = '-';
		u = 0 - u;
	}
	o = numfmt_uint(o, u >> shift);
	unsigned k = (u << (8 - shift)) & 0xff;
	if (k) {
		*o++ = '.';
		memcpy(o, frac256[k].digits, 8);
		o += frac256[k].len;
	}
	return o;
}

#define P10(x) 1e##x
#define N10(x) 1e-##x
/* 10^-46 .. 10^52: a float's range and the scaling of its mantissa. */
static const double pow10_neg[] = {
	N10(0), N10(1), N10(2), N10(3), N10(4), N10(5), N10(6), N10(7),
	N10(8), N10(9), N10(10), N10(11), N10(12), N10(13), N10(14), N10(15),
	N10(16), N10(17), N10(18), N10(19), N10(20), N10(21), N10(22),
	N10(23), N10(24), N10(25), N10(26), N10(27), N10(28), N10(29),
	N10(30), N10(31), N10(32), N10(33), N10(34), N10(35), N10(36),
	N10(37), N10(38), N10(39), N10(40), N10(41), N10(42), N10(43),
	N10(44), N10(45), N10(46),
};
static const double pow10_pos[] = {
	P10(0), P10(1), P10(2), P10(3), P10(4), P10(5), P10(6), P10(7),
	P10(8), P10(9), P10(10), P10(11), P10(12), P10(13), P10(14), P10(15),
	P10(16), P10(17), P10(18), P10(19), P10(20), P10(21), P10(22),
	P10(23), P10(24), P10(25), P10(26), P10(27), P10(28), P10(29),
	P10(30), P10(31), P10(32), P10(33), P10(34), P10(35), P10(36),
	P10(37), P10(38), P10(39), P10(40), P10(41), P10(42), P10(43),
	P10(44), P10(45), P10(46), P10(47), P10(48), P10(49), P10(50),
	P10(51), P10(52),
};

static double pow10_of(int e)
{
	return e >= 0 ? pow10_pos[e] : pow10_neg[-e];
}

#define SIG_DIGITS 7

/* A float to 7 significant digits, trailing zeros dropped, plain decimal
 * from 1e-5 to below 1e16 and d.dddddde+XX outside.  Seven digits keep
 * an s16 * scale / 4096 position exact to its source step (six would do;
 * the seventh is margin).  At most 17 bytes. */
static char *put_float7(char *o, float f)
{
	if (isnan(f))
		return memcpy(o, "nan", 3), o + 3;
	if (f == 0) {                   /* -0 too: "-0" would only puzzle */
		*o++ = '0';
		return o;
	}
	if (f < 0) {
		*o++ = '-';
		f = -f;
	}
	if (isinf(f))
		return memcpy(o, "inf", 3), o + 3;
	double a = f;
	/* floor(log10(a)) to within a few from the binary exponent (a
	 * subnormal's field is 0), then exact by the table; no libm */
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	int e2 = (int)((bits >> 23) & 0xff) - 127;
	int e = e2 * 30103 / 100000;
	while (e < 38 && a >= pow10_of(e + 1))
		e++;
	while (e > -46 && a < pow10_of(e))
		e--;
	int k = SIG_DIGITS - 1 - e;
	double m = k >= 0 ? a * pow10_of(k) : a / pow10_of(-k);
	uint64_t mi = (uint64_t)(m + 0.5);
	if (mi >= 10000000) {           /* 9999999.5 rounded up */
		mi = (mi + 5) / 10;
		e++;
	}
	char d[SIG_DIGITS];
	numfmt_digits(d + SIG_DIGITS, mi, SIG_DIGITS);
	int used = SIG_DIGITS;
	while (used > 1 && d[used - 1] == '0')
		used--;
	if (e >= 16 || e < -5) {
		*o++ = d[0];
		if (used > 1) {
			*o++ = '.';
			memcpy(o, d + 1, (size_t)used - 1);
			o += used - 1;
		}
		*o++ = 'e';
		*o++ = e < 0 ? '-' : '+';
		int ae = e < 0 ? -e : e;
		*o++ = (char)('0' + ae / 10);
		*o++ = (char)('0' + ae % 10);
		return o;
	}
	if (e < 0) {
		*o++ = '0';
		*o++ = '.';
		for (int i = -1; i > e; i--)
			*o++ = '0';
		memcpy(o, d, (size_t)used);
		return o + used;
	}
	for (int i = 0; i <= e; i++)
		*o++ = i < SIG_DIGITS ? d[i] : '0';
	if (used > e + 1) {
		*o++ = '.';
		memcpy(o, d + e + 1, (size_t)(used - e - 1));
		o += used - e - 1;
	}
	return o;
}

/* ---- lines ------------------------------------------------------------- */

/* Every vertex and face line fits in this; names go through sb_puts. */
#define LINE_ROOM 192

static char *line_start(struct strbuf *sb)
{
	return sb_reserve(sb, LINE_ROOM);
}

static void line_done(struct strbuf *sb, char *start, char *end)
{
	*end++ = '\n';
	sb->len += (size_t)(end - start);
	*end = '\0';
}

/* A name as an OBJ/MTL token: whitespace and control bytes would split
 * the line, so they become '_'. */
static void put_name(struct strbuf *sb, const char *name)
{
	size_t n = strlen(name);
	char *o = sb_reserve(sb, n);
	if (!o)
		return;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)name[i];
		o[i] = ch <= 0x20 || ch == 0x7f ? '_' : (char)ch;
	}
	sb->len += n;
	o[n] = '\0';
}

static const char *env_object_name(const struct model_env *env, uint32_t i)
{
	return env && env->object_name ? env->object_name(env->ctx, i) : NULL;
}

/* ---- decoding ---------------------------------------------------------- */

struct decoder {
	const uint8_t *p;
	struct cursor c;
	struct model_mesh *m;
	size_t mmat_cap, vertex_cap, face_cap, entry_cap;
};

enum { DECODED = 0, STOPPED = 1 };     /* or -ENOMEM */

static bool grow(void *arrayp, size_t *cap, uint64_t need, size_t elem)
{
	void **array = arrayp;
	/* Allocates even when nothing is needed yet: the callers form
	 * `array + count` for a mmat of 0 vertices, and NULL + 0 is undefined
	 * behaviour in C (found by fuzz/fuzz_model, UBSan). */
	if (need <= *cap && *array)
		return true;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*array, n * elem);
	if (!q)
		return false;
	*array = q;
	*cap = n;
	return true;
}

static void note(struct model_mesh *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One `# left out:` line in mesh->notes (integers only: locale-free). */
static void note(struct model_mesh *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_puts(&m->notes, "# left out: ");
	sb_vprintf(&m->notes, fmt, ap);
	sb_puts(&m->notes, "\n");
	va_end(ap);
}

/* Ends decoding: the mmats from here on are left out. */
static int stop_at(struct decoder *d, uint32_t mmat, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int stop_at(struct decoder *d, uint32_t mmat, const char *fmt, ...)
{
	struct model_mesh *m = d->m;
	int n = snprintf(m->stop, sizeof m->stop, "mmats %" PRIu32 " to %"
			 PRIu32 ": ", mmat, m->mmats_declared - 1);
	va_list ap;
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof m->stop)
		vsnprintf(m->stop + n, sizeof m->stop - (size_t)n, fmt, ap);
	va_end(ap);
	return STOPPED;
}

/* Bytes of s16[3] positions padded to 4. */
static uint64_t positions_bytes(uint64_t n)
{
	return (n * 6 + 3) & ~(uint64_t)3;
}

/* True when `need` more bytes are in the chunk; else stops decoding. */
static bool body_fits(struct decoder *d, uint32_t mmat, uint64_t need,
		      const char *what)
{
	if (need <= cur_left(&d->c))
		return true;
	stop_at(d, mmat, "%s need %" PRIu64 " bytes, the chunk has %zu left",
		what, need, cur_left(&d->c));
	return false;
}

static void scale_position(const struct model_mesh *m, const uint8_t *s16,
			   float out[3])
{
	/* In single precision, as VU1 does it (itof12, then the scale), and
	 * as model.txt shows it. */
	for (int i = 0; i < 3; i++)
		out[i] = (float)(int16_t)rd_u16le(s16 + 2 * i) / 4096.0f *
			 m->vertex_scale;
}

static void set_normal(struct model_vertex *v, const uint8_t *n)
{
	for (int i = 0; i < 3; i++)
		v->normal[i] = (int8_t)n[i];
	v->strip = n[3];
}

static void set_st(struct model_vertex *v, const uint8_t *st)
{
	v->st[0] = rd_u16le(st);
	v->st[1] = rd_u16le(st + 2);
}

/* Makes room for a mmat and n more vertices and faces (a strip makes at
 * most one face a vertex). */
static int new_mmat(struct decoder *d, uint64_t n, struct model_mmat **out)
{
	struct model_mesh *m = d->m;
	if (!grow(&m->mmats, &d->mmat_cap, m->mmat_count + 1ull,
		  sizeof *m->mmats) ||
	    !grow(&m->vertices, &d->vertex_cap, m->vertex_count + n,
		  sizeof *m->vertices) ||
	    !grow(&m->faces, &d->face_cap, m->face_count + n,
		  sizeof *m->faces))
		return -ENOMEM;
	struct model_mmat *mm = &m->mmats[m->mmat_count];
	memset(mm, 0, sizeof *mm);
	mm->first_vertex = m->vertex_count;
	mm->first_face = m->face_count;
	mm->note_start = m->notes.len;
	*out = mm;
	return 0;
}

/* Closes the mmat opened by new_mmat(). */
static void end_mmat(struct model_mesh *m, struct model_mmat *mm)
{
	mm->note_len = m->notes.len - mm->note_start;
	m->mmat_count++;
}

static void add_face(struct model_mesh *m, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t *f = m->faces[m->face_count++];
	f[0] = a;
	f[1] = b;
	f[2] = c;
}

/* Triangles from the strip flags: a flagged vertex starts a strip and
 * makes none; an unflagged one makes one with the two before it (the
 * flags, like the GS's ADC bit they become, do not reset what "the two
 * before" are; they only skip a triangle).  Every other triangle of a
 * strip is turned round so a strip's faces agree; a strip's first is
 * (i-1, i-2, i), which for most models faces the stored normals
 * (doc/formats/model.md, Strips; nothing culls, so the game does not
 * care). */
static void strip_faces(struct model_mesh *m, struct model_mmat *mm,
			uint32_t index)
{
	if (!mm->has_normal) {
		if (mm->vertex_count)
			note(m, "faces of mmat %" PRIu32 ": mtype 0x40 stores "
			     "no normals, so no strip flags", index);
		return;
	}
	uint32_t base = mm->first_vertex, bad = 0, first_bad = 0;
	int64_t last_flag = -1;
	for (uint32_t i = 0; i < mm->vertex_count; i++) {
		if (m->vertices[base + i].strip) {
			last_flag = i;
			continue;
		}
		if (i < 2) {
			if (!bad++)
				first_bad = i;
			continue;
		}
		uint32_t a = base + i - 2, b = base + i - 1, c = base + i;
		if ((i - last_flag - 1) % 2 == 0)
			add_face(m, b, a, c);
		else
			add_face(m, a, b, c);
	}
	mm->face_count = m->face_count - mm->first_face;
	if (bad)
		note(m, "%" PRIu32 " triangle(s) of mmat %" PRIu32 ": vertex %"
		     PRIu32 " is unflagged with fewer than two vertices before "
		     "it", bad, index, first_bad);
}

static int rigid_mmat(struct decoder *d, uint32_t index)
{
	struct model_mesh *m = d->m;
	uint32_t name = cur_u32(&d->c), material = cur_u32(&d->c);
	uint32_t n = cur_u32(&d->c);
	if (d->c.bad)
		return stop_at(d, index, "the header words run past the end "
			       "of the chunk");
	bool normal = !(m->mtype & 0x40), colour = !(m->mtype & 0x200);
	bool st = !(m->mtype & 0x400);
	uint64_t pos_bytes = positions_bytes(n);
	uint64_t need = pos_bytes + 4ull * n * (normal + colour + st);
	if (!body_fits(d, index, need, "its vertices"))
		return STOPPED;
	struct model_mmat *mm;
	if (new_mmat(d, n, &mm))
		return -ENOMEM;
	mm->layout = MODEL_RIGID;
	mm->name = name;
	mm->material = material;
	mm->has_normal = normal;
	/* mtype & 1 (lit): the decoder reads the colours and drops them */
	mm->has_colour = colour && !(m->mtype & 1);
	mm->has_st = st;
	mm->vertex_count = n;
	const uint8_t *pos = cur_take(&d->c, (size_t)pos_bytes);
	const uint8_t *nrm = normal ? cur_take(&d->c, 4 * (size_t)n) : NULL;
	const uint8_t *col = colour ? cur_take(&d->c, 4 * (size_t)n) : NULL;
	const uint8_t *stp = st ? cur_take(&d->c, 4 * (size_t)n) : NULL;
	struct model_vertex *v = m->vertices + m->vertex_count;
	if (n)
		memset(v, 0, n * sizeof *v);
	for (uint32_t i = 0; i < n; i++, v++) {
		scale_position(m, pos + 6 * (size_t)i, v->pos);
		if (nrm)
			set_normal(v, nrm + 4 * (size_t)i);
		if (col)
			memcpy(v->colour, col + 4 * (size_t)i, 4);
		if (stp)
			set_st(v, stp + 4 * (size_t)i);
	}
	m->vertex_count += n;
	strip_faces(m, mm, index);
	end_mmat(m, mm);
	return DECODED;
}

static int bone_body(struct decoder *d, uint32_t index, uint32_t material,
		     uint32_t n)
{
	struct model_mesh *m = d->m;
	uint64_t pos_bytes = positions_bytes(n);
	if (!body_fits(d, index, 4 + pos_bytes + 8ull * n, "its vertices"))
		return STOPPED;
	struct model_mmat *mm;
	if (new_mmat(d, n, &mm))
		return -ENOMEM;
	mm->layout = MODEL_BONE;
	mm->material = material;
	mm->node = cur_u32(&d->c);
	mm->has_normal = mm->has_st = true;
	mm->vertex_count = n;
	const uint8_t *pos = cur_take(&d->c, (size_t)pos_bytes);
	const uint8_t *nrm = cur_take(&d->c, 4 * (size_t)n);
	const uint8_t *stp = cur_take(&d->c, 4 * (size_t)n);
	struct model_vertex *v = m->vertices + m->vertex_count;
	if (n)
		memset(v, 0, n * sizeof *v);
	for (uint32_t i = 0; i < n; i++, v++) {
		scale_position(m, pos + 6 * (size_t)i, v->pos);
		set_normal(v, nrm + 4 * (size_t)i);
		set_st(v, stp + 4 * (size_t)i);
		v->node = mm->node;
	}
	m->vertex_count += n;
	strip_faces(m, mm, index);
	end_mmat(m, mm);
	return DECODED;
}

/* Entries with bit 9 set end a vertex and own one ST each. */
static uint64_t skin_vertex_count(const uint8_t *entries, uint32_t n)
{
	uint64_t ends = 0;
	for (uint32_t e = 0; e < n; e++)
		ends += (rd_u16le(entries + 8 * (size_t)e + 6) >> 9) & 1;
	return ends;
}

static void add_skin_entries(struct model_mesh *m, const uint8_t *entries,
			     uint32_t n)
{
	struct model_skin_entry *s = m->entries + m->entry_count;
	for (uint32_t e = 0; e < n; e++, s++) {
		const uint8_t *p = entries + 8 * (size_t)e;
		uint16_t w = rd_u16le(p + 6);
		scale_position(m, p, s->pos);
		s->weight = w & 0x1ff;
		s->last = w & 0x200;
		s->node = (uint8_t)(w >> 10);
	}
}

/* A skin vertex is drawn unposed at its first entry with a weight (its
 * first entry if none has one), with that entry's normal and node.  Its
 * strip flag is that of its last entry, the one that completes it. */
static void skin_vertices(struct model_mesh *m, struct model_mmat *mm,
			  const uint8_t *nrm, const uint8_t *stp,
			  uint32_t first_entry, uint32_t n, uint32_t index)
{
	struct model_vertex *v = m->vertices + m->vertex_count;
	uint32_t start = 0, pick = UINT32_MAX;
	for (uint32_t e = 0; e < n; e++) {
		const struct model_skin_entry *s = &m->entries[first_entry + e];
		if (pick == UINT32_MAX && s->weight)
			pick = e;
		if (!s->last)
			continue;
		if (pick == UINT32_MAX)
			pick = start;
		memset(v, 0, sizeof *v);
		memcpy(v->pos, m->entries[first_entry + pick].pos,
		       sizeof v->pos);
		set_normal(v, nrm + 4 * (size_t)pick);
		v->strip = nrm[4 * (size_t)e + 3];
		set_st(v, stp + 4 * (size_t)mm->vertex_count);
		v->node = m->entries[first_entry + pick].node;
		v->first_entry = first_entry + start;
		v->entry_count = e + 1 - start;
		v++;
		mm->vertex_count++;
		start = e + 1;
		pick = UINT32_MAX;
	}
	if (start < n)
		note(m, "entries %" PRIu32 " to %" PRIu32 " of mmat %" PRIu32
		     ": no entry with bit 9 ends their vertex", start, n - 1,
		     index);
	m->vertex_count += mm->vertex_count;
}

static int skin_body(struct decoder *d, uint32_t index, uint32_t material,
		     uint32_t offsets)
{
	struct model_mesh *m = d->m;
	if (!body_fits(d, index, 12ull * offsets, "its entries and normals"))
		return STOPPED;
	const uint8_t *entries = d->p + d->c.pos;
	uint64_t vertices = skin_vertex_count(entries, offsets);
	if (!body_fits(d, index, 12ull * offsets + 4 * vertices,
		       "its entries, normals and st"))
		return STOPPED;
	struct model_mmat *mm;
	if (new_mmat(d, vertices, &mm) ||
	    !grow(&m->entries, &d->entry_cap,
		  m->entry_count + (uint64_t)offsets,
		  sizeof *m->entries))
		return -ENOMEM;
	mm->layout = MODEL_SKIN;
	mm->material = material;
	mm->has_normal = mm->has_st = true;
	(void)cur_take(&d->c, 8 * (size_t)offsets);
	const uint8_t *nrm = cur_take(&d->c, 4 * (size_t)offsets);
	const uint8_t *stp = cur_take(&d->c, 4 * (size_t)vertices);
	uint32_t first_entry = m->entry_count;
	add_skin_entries(m, entries, offsets);
	m->entry_count += offsets;
	skin_vertices(m, mm, nrm, stp, first_entry, offsets, index);
	strip_faces(m, mm, index);
	end_mmat(m, mm);
	return DECODED;
}

static int bone_or_skin_mmat(struct decoder *d, uint32_t index)
{
	uint32_t material = cur_u32(&d->c), n = cur_u32(&d->c);
	uint32_t offsets = cur_u32(&d->c);
	if (d->c.bad)
		return stop_at(d, index, "the header words run past the end "
			       "of the chunk");
	return offsets ? skin_body(d, index, material, offsets)
		       : bone_body(d, index, material, n);
}

/* Shadow triangles index the mmat's vertices; one outside them is left
 * out (and counted), not clamped. */
static void shadow_faces(struct model_mesh *m, struct model_mmat *mm,
			 const uint8_t *tri, uint32_t count, uint32_t index)
{
	uint32_t bad = 0, first_bad = 0;
	int32_t bad_value = 0;
	for (uint32_t t = 0; t < count; t++) {
		int32_t i[3];
		bool ok = true;
		for (int k = 0; k < 3; k++) {
			i[k] = (int32_t)rd_u32le(tri + 12 * (size_t)t + 4 * k);
			if (i[k] < 0 || (uint32_t)i[k] >= mm->vertex_count) {
				if (ok && !bad)
					bad_value = i[k];
				ok = false;
			}
		}
		if (!ok) {
			if (!bad++)
				first_bad = t;
			continue;
		}
		uint32_t b = mm->first_vertex;
		add_face(m, b + (uint32_t)i[0], b + (uint32_t)i[1],
			 b + (uint32_t)i[2]);
	}
	mm->face_count = m->face_count - mm->first_face;
	if (bad)
		note(m, "%" PRIu32 " triangle(s) of mmat %" PRIu32
		     " index past vNum %" PRIu32 " (first: triangle %"
		     PRIu32 ", index %" PRId32 ")", bad, index,
		     mm->vertex_count, first_bad, bad_value);
}

static int shadow_mmat(struct decoder *d, uint32_t index)
{
	struct model_mesh *m = d->m;
	int32_t vnum = cur_s32(&d->c), inum = cur_s32(&d->c);
	if (d->c.bad)
		return stop_at(d, index, "vNum and iNum run past the end of "
			       "the chunk");
	if (vnum < 0 || inum < 0)
		return stop_at(d, index, "a negative count (vNum %" PRId32
			       ", iNum %" PRId32 ")", vnum, inum);
	uint32_t n = (uint32_t)vnum, tris = vnum ? (uint32_t)inum / 3 : 0;
	uint64_t pos_bytes = n ? positions_bytes(n) : 0;
	if (!body_fits(d, index, pos_bytes + 12ull * tris,
		       "its vertices and triangles"))
		return STOPPED;
	struct model_mmat *mm;
	if (new_mmat(d, (uint64_t)n + tris, &mm))
		return -ENOMEM;
	mm->layout = MODEL_SHADOW;
	mm->vertex_count = n;
	const uint8_t *pos = cur_take(&d->c, (size_t)pos_bytes);
	const uint8_t *tri = cur_take(&d->c, 12 * (size_t)tris);
	struct model_vertex *v = m->vertices + m->vertex_count;
	for (uint32_t i = 0; i < n; i++, v++) {
		memset(v, 0, sizeof *v);
		scale_position(m, pos + 6 * (size_t)i, v->pos);
	}
	m->vertex_count += n;
	shadow_faces(m, mm, tri, tris, index);
	end_mmat(m, mm);
	return DECODED;
}

static void set_why(char *why, size_t why_len, const char *text)
{
	if (why && why_len)
		snprintf(why, why_len, "%s", text);
}

/* The model header: 28 bytes with the chunk header and the padding. */
static int model_header(struct decoder *d, uint16_t version, char *why,
			size_t why_len)
{
	struct model_mesh *m = d->m;
	uint16_t kind = cur_u16(&d->c);
	(void)cur_take(&d->c, 6);                   /* tag, size */
	m->object = cur_u32(&d->c);
	m->vertex_scale = cur_f32(&d->c);
	m->mtype = cur_u16(&d->c);
	m->mmats_declared = cur_u16(&d->c);
	m->flag = cur_u16(&d->c);
	(void)cur_take(&d->c, 3);                   /* zoffs, unknown */
	cur_align4(&d->c);
	if (d->c.bad) {
		set_why(why, why_len, "the model header is cut short");
		return -EIO;
	}
	if (kind != CCSF_MODEL) {
		set_why(why, why_len, "not a model chunk");
		return -EIO;
	}
	if (version < 0x100)
		m->mtype &= 0xff;
	if (m->mmats_declared && (m->mtype & 2)) {
		/* The game's rigid decoder crashes on it; no file has it. */
		set_why(why, why_len, "mtype bit 0x02: a layout no file uses");
		return -EIO;
	}
	return 0;
}

int model_decode(const uint8_t *p, size_t len, uint16_t version,
		 struct model_mesh *m, char *why, size_t why_len)
{
	memset(m, 0, sizeof *m);
	struct decoder d = { .p = p, .c = cursor_make(p, len), .m = m };
	set_why(why, why_len, "");
	int rc = model_header(&d, version, why, why_len);
	for (uint32_t i = 0; rc == 0 && i < m->mmats_declared; i++) {
		if (m->mtype & 4)
			rc = bone_or_skin_mmat(&d, i);
		else if (m->mtype & 8)
			rc = shadow_mmat(&d, i);
		else
			rc = rigid_mmat(&d, i);
	}
	if (rc == STOPPED)
		rc = 0;
	if (rc == 0 && m->notes.failed)
		rc = -ENOMEM;
	return rc;
}

void model_mesh_free(struct model_mesh *m)
{
	free(m->mmats);
	free(m->vertices);
	free(m->faces);
	free(m->entries);
	sb_free(&m->notes);
	memset(m, 0, sizeof *m);
}

/* ---- materials --------------------------------------------------------- */

/* A material used by the model, resolved once through the env. */
struct material_use {
	uint32_t material;
	uint32_t texture;
	float transparency;
	const char *name;       /* NULL: not usable (see why) */
	const char *why;
};

/* The materials of a model in order of first use, with an open-addressed
 * index so a model of many mmats is not quadratic. */
struct material_set {
	struct material_use *uses;
	uint32_t count;
	uint32_t *slots;        /* 1 + index into uses; 0 empty */
	uint32_t mask;
};

static int material_set_init(struct material_set *s, uint32_t mmats)
{
	uint32_t size = 16;
	while (size < 2 * (uint64_t)mmats)
		size *= 2;
	s->uses = calloc(mmats ? mmats : 1, sizeof *s->uses);
	s->slots = calloc(size, sizeof *s->slots);
	s->count = 0;
	s->mask = size - 1;
	return s->uses && s->slots ? 0 : -ENOMEM;
}

static void material_set_free(struct material_set *s)
{
	free(s->uses);
	free(s->slots);
}

static void resolve_material(const struct model_env *env,
			     struct material_use *u)
{
	u->name = env_object_name(env, u->material);
	u->transparency = 1.0f;
	if (!u->name) {
		u->why = "is no object of the scene";
		return;
	}
	if (!env->material ||
	    env->material(env->ctx, u->material, &u->texture,
			  &u->transparency) != 0) {
		u->name = NULL;
		u->why = "has no Material chunk";
	}
}

static const struct material_use *material_use(struct material_set *s,
					       const struct model_env *env,
					       uint32_t material)
{
	uint32_t h = (material * 2654435761u) & s->mask;
	while (s->slots[h]) {
		struct material_use *u = &s->uses[s->slots[h] - 1];
		if (u->material == material)
			return u;
		h = (h + 1) & s->mask;
	}
	struct material_use *u = &s->uses[s->count];
	memset(u, 0, sizeof *u);
	u->material = material;
	resolve_material(env, u);
	s->slots[h] = ++s->count;
	return u;
}

static void put_mtl(struct strbuf *mtl, const struct model_env *env,
		    const struct material_set *s)
{
	sb_puts(mtl, "# materials of model.obj\n");
	for (uint32_t i = 0; i < s->count; i++) {
		const struct material_use *u = &s->uses[i];
		if (!u->name)
			continue;
		sb_puts(mtl, "newmtl ");
		put_name(mtl, u->name);
		float d = u->transparency;
		if (!(d >= 0.0f))       /* negative or NaN */
			d = d < 0.0f ? 0.0f : 1.0f;
		if (d > 1.0f)
			d = 1.0f;
		char num[NUMBER_ROOM];
		char *e = put_float7(num + 1, d);
		sb_puts(mtl, "\nKd 1 1 1\nd ");
		sb_append(mtl, num + 1, (size_t)(e - num - 1));
		sb_puts(mtl, "\n");
		const char *path = u->texture && env && env->texture_path ?
			env->texture_path(env->ctx, u->texture) : NULL;
		if (path) {
			sb_puts(mtl, "map_Kd ");
			put_name(mtl, path);
			sb_puts(mtl, "\n");
		} else if (u->texture) {
			sb_printf(mtl, "# left out: map_Kd: texture %" PRIu32
				  " has no image\n", u->texture);
		}
	}
}

/* ---- writing ----------------------------------------------------------- */

struct writer {
	const struct model_mesh *m;
	const struct model_env *env;
	struct strbuf *obj;
	struct material_set mats;
	uint32_t vt_count, vn_count;    /* written so far (v = vertices) */
};

static void put_v(struct strbuf *sb, const struct model_vertex *v,
		  bool colour)
{
	char *s = line_start(sb);
	if (!s)
		return;
	char *o = s;
	*o++ = 'v';
	for (int i = 0; i < 3; i++) {
		*o++ = ' ';
		o = put_float7(o, v->pos[i]);
	}
	for (int i = 0; colour && i < 3; i++) {
		*o++ = ' ';
		o = put_dyadic(o, v->colour[i], 7);     /* c / 128 */
	}
	line_done(sb, s, o);
}

static void put_vt(struct strbuf *sb, const struct model_vertex *v)
{
	char *s = line_start(sb);
	if (!s)
		return;
	char *o = s;
	*o++ = 'v';
	*o++ = 't';
	for (int i = 0; i < 2; i++) {
		*o++ = ' ';
		o = put_dyadic(o, v->st[i], 8);         /* / 256 */
	}
	line_done(sb, s, o);
}

static void put_vn(struct strbuf *sb, const struct model_vertex *v)
{
	char *s = line_start(sb);
	if (!s)
		return;
	char *o = s;
	*o++ = 'v';
	*o++ = 'n';
	for (int i = 0; i < 3; i++) {
		*o++ = ' ';
		o = put_dyadic(o, v->normal[i], 6);     /* / 64 */
	}
	line_done(sb, s, o);
}

/* `f a/b/c ...` in the form the mmat's arrays allow. */
static void put_f(struct writer *w, const struct model_mmat *mm,
		  const uint32_t f[3], uint32_t vt_base, uint32_t vn_base)
{
	char *s = line_start(w->obj);
	if (!s)
		return;
	char *o = s;
	*o++ = 'f';
	for (int k = 0; k < 3; k++) {
		*o++ = ' ';
		o = numfmt_uint(o, (uint64_t)f[k] + 1);
		uint32_t local = f[k] - mm->first_vertex;
		if (mm->has_st || mm->has_normal)
			*o++ = '/';
		if (mm->has_st)
			o = numfmt_uint(o, (uint64_t)vt_base + local + 1);
		if (mm->has_normal) {
			*o++ = '/';
			o = numfmt_uint(o, (uint64_t)vn_base + local + 1);
		}
	}
	line_done(w->obj, s, o);
}

/* The node slot a bone or skin face is grouped under: that of the vertex
 * that completes it. */
static uint32_t face_node(const struct model_mesh *m, const uint32_t f[3])
{
	return m->vertices[f[2]].node;
}

static void put_group(struct writer *w, const char *name, uint32_t node)
{
	sb_puts(w->obj, "g ");
	put_name(w->obj, name);
	sb_printf(w->obj, "_node%" PRIu32 "\n", node);
}

/* Bone and skin faces, one group per clump node slot (skin slots are 6
 * bits, a bone's node word may be anything, so each slot is found by
 * scanning: a mmat has few). */
static void put_node_faces(struct writer *w, const struct model_mmat *mm,
			   const char *name, uint32_t vt_base,
			   uint32_t vn_base)
{
	const struct model_mesh *m = w->m;
	const uint32_t (*faces)[3] = (const uint32_t (*)[3])m->faces +
				     mm->first_face;
	uint64_t done = 0;      /* skin: slots written, bit per slot */
	for (uint32_t i = 0; i < mm->face_count; i++) {
		uint32_t node = face_node(m, faces[i]);
		if (mm->layout == MODEL_BONE ? i > 0 : (done >> node) & 1)
			continue;
		done |= mm->layout == MODEL_SKIN ? 1ull << node : 0;
		put_group(w, name, node);
		for (uint32_t j = i; j < mm->face_count; j++)
			if (face_node(m, faces[j]) == node)
				put_f(w, mm, faces[j], vt_base, vn_base);
	}
}

/* `o` and `usemtl` for a mmat; returns its name. */
static const char *put_mmat_head(struct writer *w,
				 const struct model_mmat *mm, uint32_t index,
				 char *fallback, size_t fallback_len)
{
	const char *name = mm->layout == MODEL_RIGID && mm->name ?
		env_object_name(w->env, mm->name) : NULL;
	snprintf(fallback, fallback_len, "mmat%" PRIu32, index);
	if (!name || !*name) {
		if (mm->layout == MODEL_RIGID && mm->name)
			sb_printf(w->obj, "# left out: the name of mmat %"
				  PRIu32 ": object %" PRIu32 " is unknown\n",
				  index, mm->name);
		name = fallback;
	}
	sb_puts(w->obj, "o ");
	put_name(w->obj, name);
	sb_puts(w->obj, "\n");
	if (mm->layout == MODEL_SHADOW || !mm->material)
		return name;
	const struct material_use *u = material_use(&w->mats, w->env,
						    mm->material);
	if (u->name) {
		sb_puts(w->obj, "usemtl ");
		put_name(w->obj, u->name);
		sb_puts(w->obj, "\n");
	} else {
		sb_printf(w->obj, "# left out: usemtl: material %" PRIu32
			  " of mmat %" PRIu32 " %s\n", mm->material, index,
			  u->why);
	}
	return name;
}

static void put_mmat(struct writer *w, const struct model_mmat *mm,
		     uint32_t index)
{
	const struct model_mesh *m = w->m;
	char fallback[24];
	const char *name = put_mmat_head(w, mm, index, fallback,
					 sizeof fallback);
	const struct model_vertex *v = m->vertices + mm->first_vertex;
	for (uint32_t i = 0; i < mm->vertex_count; i++)
		put_v(w->obj, &v[i], mm->has_colour);
	for (uint32_t i = 0; mm->has_st && i < mm->vertex_count; i++)
		put_vt(w->obj, &v[i]);
	for (uint32_t i = 0; mm->has_normal && i < mm->vertex_count; i++)
		put_vn(w->obj, &v[i]);
	uint32_t vt_base = w->vt_count, vn_base = w->vn_count;
	w->vt_count += mm->has_st ? mm->vertex_count : 0;
	w->vn_count += mm->has_normal ? mm->vertex_count : 0;
	if (mm->layout == MODEL_BONE || mm->layout == MODEL_SKIN) {
		put_node_faces(w, mm, name, vt_base, vn_base);
	} else {
		for (uint32_t i = 0; i < mm->face_count; i++)
			put_f(w, mm, m->faces[mm->first_face + i], vt_base,
			      vn_base);
	}
	if (mm->note_len)       /* notes.data is NULL until a note */
		sb_append(w->obj, m->notes.data + mm->note_start,
			  mm->note_len);
}

static void put_obj_head(struct writer *w)
{
	const struct model_mesh *m = w->m;
	const char *name = env_object_name(w->env, m->object);
	char scale[NUMBER_ROOM];
	char *e = put_float7(scale + 1, m->vertex_scale);
	*e = '\0';
	sb_puts(w->obj, "# model ");
	put_name(w->obj, name ? name : "?");
	sb_printf(w->obj, " (object %" PRIu32 "), mtype 0x%x, %" PRIu32
		  " mmats, vertexScale %s\nmtllib model.mtl\n", m->object,
		  m->mtype, m->mmats_declared, scale + 1);
	if (m->mtype & 4)
		sb_puts(w->obj, "# bone and skin vertices are unposed, in the "
			"space of their clump node: group <mmat>_nodeN holds "
			"the faces of node slot N\n");
}

int model_mesh_obj(const struct model_mesh *m, const struct model_env *env,
		   struct strbuf *obj, struct strbuf *mtl)
{
	static const struct model_env no_env;
	struct writer w = { .m = m, .env = env ? env : &no_env, .obj = obj };
	if (material_set_init(&w.mats, m->mmat_count)) {
		material_set_free(&w.mats);
		return -ENOMEM;
	}
	put_obj_head(&w);
	for (uint32_t i = 0; i < m->mmat_count; i++)
		put_mmat(&w, &m->mmats[i], i);
	if (m->stop[0])
		sb_printf(obj, "# left out: %s\n", m->stop);
	if (mtl)
		put_mtl(mtl, w.env, &w.mats);
	material_set_free(&w.mats);
	return obj->failed || (mtl && mtl->failed) ? -ENOMEM : 0;
}

int model_obj(const uint8_t *p, size_t len, uint16_t version,
	      const struct model_env *env, struct strbuf *obj,
	      struct strbuf *mtl, char *why, size_t why_len)
{
	struct model_mesh m;
	int rc = model_decode(p, len, version, &m, why, why_len);
	if (rc == 0)
		rc = model_mesh_obj(&m, env, obj, mtl);
	model_mesh_free(&m);
	return rc;
}

/* ---- hit --------------------------------------------------------------- */

static void put_hit_v(struct strbuf *sb, const uint8_t *pos)
{
	char *s = line_start(sb);
	if (!s)
		return;
	char *o = s;
	*o++ = 'v';
	for (int i = 0; i < 3; i++) {
		*o++ = ' ';
		o = put_float7(o, rd_f32le(pos + 4 * i));
	}
	line_done(sb, s, o);
}

static void put_hit_f(struct strbuf *sb, uint64_t first)
{
	char *s = line_start(sb);
	if (!s)
		return;
	char *o = s;
	*o++ = 'f';
	for (int i = 1; i <= 3; i++) {
		*o++ = ' ';
		o = numfmt_uint(o, first + (uint64_t)i);
	}
	line_done(sb, s, o);
}

/* One group: returns false when it runs past the chunk (the rest is then
 * left out: where the next group starts is unknown). */
static bool hit_group(struct cursor *c, uint32_t g, uint16_t groups,
		      struct strbuf *out, uint64_t *v_count)
{
	uint32_t n = cur_u32(c), attribute = cur_u32(c);
	if (c->bad || 24ull * n > cur_left(c)) {
		sb_printf(out, "# left out: groups %" PRIu32 " to %u: %s\n", g,
			  groups - 1u, c->bad ? "the group header runs past "
			  "the end of the chunk" : "its vertices run past the "
			  "end of the chunk");
		return false;
	}
	const uint8_t *pos = cur_take(c, 12 * (size_t)n);
	(void)cur_take(c, 12 * (size_t)n);      /* normals: the game drops */
	uint32_t whole = n - n % 3;
	sb_printf(out, "g group%" PRIu32 "_attr0x%" PRIx32 "\n", g, attribute);
	for (uint32_t i = 0; i < whole; i++)
		put_hit_v(out, pos + 12 * (size_t)i);
	for (uint32_t t = 0; t < whole / 3; t++)
		put_hit_f(out, *v_count + 3ull * t);
	*v_count += whole;
	if (n % 3)
		sb_printf(out, "# left out: the last %" PRIu32 " vertices of "
			  "group %" PRIu32 ": not a whole triangle\n", n % 3,
			  g);
	return true;
}

int hit_obj(const uint8_t *p, size_t len, const struct model_env *env,
	    struct strbuf *out, char *why, size_t why_len)
{
	struct cursor c = cursor_make(p, len);
	uint16_t kind = cur_u16(&c);
	(void)cur_take(&c, 6);                       /* tag, size */
	uint32_t object = cur_u32(&c), parent = cur_u32(&c);
	uint16_t groups = cur_u16(&c);
	(void)cur_u16(&c);                           /* pad */
	uint32_t total = cur_u32(&c);
	set_why(why, why_len, "");
	if (c.bad) {
		set_why(why, why_len, "the hit header is cut short");
		return -EIO;
	}
	if (kind != CCSF_HIT) {
		set_why(why, why_len, "not a hit chunk");
		return -EIO;
	}
	const char *name = env_object_name(env, object);
	sb_puts(out, "# hit ");
	put_name(out, name ? name : "?");
	sb_printf(out, " (object %" PRIu32 "), parent %" PRIu32 ", %u groups,"
		  " %" PRIu32 " vertices\n", object, parent, groups, total);
	uint64_t v_count = 0;
	for (uint32_t g = 0; g < groups; g++)
		if (!hit_group(&c, g, groups, out, &v_count))
			break;
	return out->failed ? -ENOMEM : 0;
}
